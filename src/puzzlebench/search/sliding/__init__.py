"""The sliding puzzle's searches: state, heuristics, symmetry, A*/greedy and IDA* kernels."""
