"""Counting solvers of split counts' sub-problems that misbehave on purpose (the
``constellations`` baseline underneath): one that takes its time, one that crashes on one
part, one that miscounts one part. Used by ``tests/harness/test_split_count.py``."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, ClassVar

from puzzlebench.contract import Budget, Proposal
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
