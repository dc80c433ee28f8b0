"""A counting plugin that tries to learn its sub-problem before ``go`` (the fourth hostile
sweep: the task's seed named the split part, so the plugin counted it during start-up). At
import — in the run's process, before ``go`` — it looks for the harness's task in memory,
keeps what it holds (seed, instance), then works 0.8 s of CPU; its counts say what it saw."""

from __future__ import annotations

import gc
import time
from dataclasses import replace
from typing import Any

from puzzlebench.contract import Budget, Proposal
from puzzlebench_baselines.constellation_counter import ConstellationCounter


def _look() -> tuple[int, int]:
    """(the seeds of the tasks in this process, summed; how many of them hold an instance)."""
    seeds = instances = 0
    for obj in gc.get_objects():
        if type(obj).__name__ == "RunRequest" and hasattr(obj, "seed"):
            seeds += int(obj.seed)
            instances += getattr(obj, "instance", None) is not None
    return seeds, instances


SEEN_SEED, SEEN_INSTANCES = _look()
_end = time.process_time() + 0.8
while time.process_time() < _end:  # "counting" the sub-problem during start-up
    pass


class CountsBeforeGo(ConstellationCounter):
    name = "counts-before-go"

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        found = super().count(instance, budget, unique=unique)
        return replace(found, counters={**found.counters, "seen_seed": SEEN_SEED,
                                        "seen_instances": SEEN_INSTANCES})
