"""The counting solver ``count`` uses when none is named: the fastest for the board, measured.

``bitboard`` (all eight symmetries, every core) wins on small boards, where a count takes
milliseconds; from
``CONSTELLATIONS_FROM`` on, ``constellations`` (edge-queen constellations, every core) takes
less time, and beyond it ever less. The crossover is a measured figure (2026-11-27 19:31
UTC, this project's 2-core machine, load average 15, best of 7, every core): constellations /
bitboard 1.97 at n = 12, 0.91 at n = 13, 0.81 at n = 14, from
``python benchmarks/constellations.py --sizes 12,13,14 --threads 2 --repeats 7``
(docs/development.md has the table). Other problems count with ``bitboard``.
"""

from __future__ import annotations

from puzzlebench.solvers.registry import REGISTRY

#: The smallest n-queens board ``count`` hands to ``constellations`` by default.
CONSTELLATIONS_FROM = 13
#: The largest board ``constellations`` counts (its ``count_max_n``).
CONSTELLATIONS_MAX_N = 32


def default_counter(problem: str, n: int) -> str:
    """The registered counting solver for ``problem`` at size ``n`` when the caller names
    none: ``constellations`` for nqueens from ``CONSTELLATIONS_FROM`` to 32, else
    ``bitboard``."""
    if CONSTELLATIONS_FROM <= n <= CONSTELLATIONS_MAX_N and _constellations_count(problem):
        return "constellations"
    return "bitboard"


def _constellations_count(problem: str) -> bool:
    """Whether ``constellations`` declares ``problem`` (what the solver says, not the id)."""
    spec = REGISTRY.find("constellations")  # None: the reference solvers are not installed
    return spec is not None and problem in spec.problems


def why(problem: str, n: int) -> str:
    """A short note saying why ``default_counter`` chose what it chose, for output."""
    if default_counter(problem, n) == "constellations":
        return f"the default counter from n = {CONSTELLATIONS_FROM}"
    if n < CONSTELLATIONS_FROM and _constellations_count(problem):
        return f"the default counter below n = {CONSTELLATIONS_FROM}"
    return "the default counter"
