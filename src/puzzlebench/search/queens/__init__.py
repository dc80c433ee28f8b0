"""The queens' searches of the source studies: greedy and A* with seed 000's heuristics,
the loop of seed 001 and Knuth's estimate of the backtracking tree."""
