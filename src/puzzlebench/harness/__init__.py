"""The harness: runs solvers, judges their proposals, keeps and reports the records."""
