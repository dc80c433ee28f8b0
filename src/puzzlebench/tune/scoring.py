"""A configuration's score on instances: the objective of each judged run (lower is better),
averaged over an instance's repeats, then over the instances.

The scores are the report's own measures (``report.claim_tests.measure``): success means
accepted *and* verified by the problem's validator, so a solver that claims an answer it does
not have scores as a failure, never as a fast success. ``par2`` is the run's time when solved
and twice the time limit otherwise; ``success`` is 1 for a run that failed, 0 for a success;
``evaluations`` is the evaluations spent when solved and twice the ``max_evaluations`` cap
otherwise (a finite penalty, so the tuner can average it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.records.claims import Claim
from puzzlebench.records.record import RunRecord
from puzzlebench.report.statistics.claim_tests import measure
from puzzlebench.tune.settings import OBJECTIVES, TuneSettings


def run_values(records: Sequence[RunRecord], s: TuneSettings) -> np.ndarray:
    """Each run's objective value, finite (unsolved runs carry the penalty)."""
    if not records:
        return np.zeros(0)
    frame = records_to_frame(records)
    values = measure(frame, Claim("", "a", "b", on=OBJECTIVES[s.objective])).to_numpy(float)
    if s.objective == "evaluations":
        values = np.where(np.isfinite(values), values, 2.0 * float(s.max_evaluations or 0))
    return values


def instance_score(records: Sequence[RunRecord], s: TuneSettings) -> float:
    """The mean objective over one instance's runs."""
    values = run_values(records, s)
    return float(values.mean()) if len(values) else math.inf


def mean_score(scores: Iterable[float]) -> float:
    values = list(scores)
    return float(np.mean(values)) if values else math.inf
