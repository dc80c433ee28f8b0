"""How the built-in studies measure their runs.

Studies whose runs are mostly a few milliseconds (the eight-puzzle, heuristics,
queens-and-knights, backtracking, completion and baselines studies) repeat each run in its
process to ``SHORT_RUNS_MIN_TIME`` seconds of timed work and record the median solve
(``min_time``, docs/concepts/measurement.md): a single solve of 0.1 ms says little
on a shared machine. A run that takes longer than this is made once, so the price is at most
this much per short run. The studies of traces and of long runs (anytime, ga-parameters,
fifteen-puzzle) make each run once.
"""

from __future__ import annotations

#: Seconds of timed work each short run of a built-in study is repeated to.
SHORT_RUNS_MIN_TIME = 0.05
