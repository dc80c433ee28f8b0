"""Pattern databases for the sliding puzzle: building, files, lookups and the compact
24-puzzle tables with their batch IDA* kernels."""
