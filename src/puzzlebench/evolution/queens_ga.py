"""What the project's two n-queens GAs share (``ga-permutation``, ``ga-seed002``): the problems
they take, the capabilities they declare, a population between generations and the counters
every generation adds to. Each GA keeps its own encoding, operators and fitness."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from puzzlebench.solvers.iterative import IterativeSolver


class Population:
    """A population of n-queens boards between generations (one row of ``pop`` a board)."""

    def __init__(self, instance: Any, rng: np.random.Generator, pop: np.ndarray) -> None:
        self.n: int = instance.n
        self.torus: bool = instance.wraps
        self.rng = rng
        self.pop = pop
        self.generations = 0
        self.evaluations = len(pop)  # the first generation's boards, each evaluated once


class QueensGA(IterativeSolver):
    """A genetic algorithm on nqueens and torus-queens: one step of the framework
    (``puzzlebench.solvers.iterative``) is one generation, each evaluation one board's cost."""

    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens"})
    honours: ClassVar[frozenset[str]] = frozenset({"time_limit", "max_iterations", "max_evaluations"})
    stochastic: ClassVar[bool] = True
    traces: ClassVar[bool] = True
    iteration_counter: ClassVar[str] = "generations"

    def counters(self, state: Any) -> dict[str, int]:
        """Generations and evaluations so far (each GA adds its best board's score)."""
        return {"generations": state.generations, "evaluations": state.evaluations}
