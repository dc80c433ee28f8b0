"""The sliding puzzle's searches: state, heuristics, symmetry, A*/greedy and IDA* kernels.

**Why each IDA* kernel writes its loop out** (``idastar``, ``idastar_pdb``,
``blank_aware_kernel``, ``pattern_databases.compact_kernel`` and ``compact_batch_kernel``). The
loops look alike, but what a move updates and how it is undone differ in each (Manhattan terms
and saved line conflicts; sparse table indices; blank-aware ranks; compact ranks and their
reflection; a node's children ranked and read together), and so do the clock's cadence (every
2^18 nodes after a descent in ``idastar``, every 2^16 generated nodes elsewhere) and the counts
(nodes expanded, dual cut-offs). One loop would take the move as a compiled callback with a
state of its own per kernel, in the hottest code of the sliding solvers, and would change the
code digests of ``idastar-linear-conflict`` and ``idastar-pdb``: every stored run of both would
be made again. Their set-up (positions and sums of the start) is written out for the same
reason.
"""
