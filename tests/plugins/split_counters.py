"""Counting solvers of split counts' sub-problems that misbehave on purpose (the
``constellations`` baseline underneath): one that takes its time, one that crashes on one
part, one that miscounts one part. Used by ``tests/harness/test_split_count.py``."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, ClassVar

from puzzlebench.contract import Budget, Claim, Proposal, Solver
from puzzlebench_baselines.constellation_counter import ConstellationCounter


class NappingConstellations(ConstellationCounter):
    """Naps ``nap`` seconds before each count: a split count still running when killed."""

    name = "napping-constellations"
    params: ClassVar[dict[str, Any]] = {**ConstellationCounter.params, "nap": 0.3}

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        time.sleep(float(self.config["nap"]))
        return super().count(instance, budget, unique=unique)


class CrashingConstellations(ConstellationCounter):
    """Raises on the part ``crash_part`` of every split, whatever the attempt."""

    name = "crashing-constellations"
    params: ClassVar[dict[str, Any]] = {**ConstellationCounter.params, "crash_part": 2}

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        if getattr(instance, "part", 0) == int(self.config["crash_part"]):
            raise RuntimeError("this part always crashes")
        return super().count(instance, budget, unique=unique)


class MiscountingConstellations(ConstellationCounter):
    """Counts one solution too many on part 1."""

    name = "miscounting-constellations"

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        found = super().count(instance, budget, unique=unique)
        if getattr(instance, "part", 0) == 1 and found.count is not None:
            return replace(found, count=found.count + 1)
        return found


#: The total the fabricator makes up for every board (not n = 28's real count).
FABRICATED = 4_000_000_000_000_000


class FabricatingCounter(Solver):
    """Counts nothing (the fourth hostile sweep): every split's parts sum to ``FABRICATED``,
    so two splits of one board by this solver always agree with each other."""

    name = "fabricating-counter"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens-split", "nqueens-completion"})
    complete = True
    counts = True

    def solve(self, instance: Any, budget: Budget, rng: Any) -> Proposal:
        return Proposal(claim=Claim.UNKNOWN)

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        if hasattr(instance, "part"):  # constellations:K, each part weight 1
            first, rest = instance.part == 1, instance.parts - 1
            found = FABRICATED - rest if first else 1
        else:  # rows:1, (n + 1) // 2 prefixes of weight 2 (n even)
            first = not any(c for _, c in instance.placed)
            found = FABRICATED // 2 - (instance.n // 2 - 1) if first else 1
        return Proposal(claim=Claim.SOLVED, count=found)
