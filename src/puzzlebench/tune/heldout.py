"""The tuned configuration and the defaults on the held-out instances, compared with the
report's own statistics: the claim "tuned beats default" gets one verdict from the same
stratified test, effect and interval as a study's ``[[claims]]`` (``report.claim_tests``),
and the training-test gap says how much of the training gain survived (overtuning)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlebench.harness.campaign.runner import run_specs
from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.harness.campaign.storage.store import load_records
from puzzlebench.records.claims import Claim
from puzzlebench.records.record import RunRecord
from puzzlebench.report.statistics.claim_tests import claim_verdicts
from puzzlebench.solvers.spec import SolverSpec
from puzzlebench.tune.scoring import instance_score, mean_score
from puzzlebench.tune.settings import OBJECTIVES, TuneSettings, by_instance, grid


@dataclass(frozen=True, slots=True)
class HeldOut:
    """Tuned and default scores on the training and the test instances, the verdict (one of
    the claims verdicts, or ``same`` when the tuner kept the defaults) and its sentence."""

    tuned_test: float
    default_test: float
    tuned_train: float
    default_train: float
    verdict: str
    sentence: str
    gap: str
    runs: int


def held_out(s: TuneSettings, spec: SolverSpec, tuned: Mapping[str, Any],
             defaults: Mapping[str, Any], train: tuple[float, float], db: Path, *,
             workers: int | None = None, scheduler: str | None = None,
             progress: Callable[[str], None] | None = None) -> HeldOut:
    """Run both configurations on the test sizes (stored runs are reused) and compare them."""
    same = spec.check_params(tuned) == spec.check_params(defaults)
    study = grid(s, "test", *([defaults] if same else [defaults, tuned]))
    specs = study.runs()
    if progress is not None:
        progress(f"tune: the tuned and default configurations on the test sizes "
                 f"({len(specs)} runs)")
    run_specs(s.study_name, specs, db, workers=workers, scheduler=scheduler, quiet=True)
    records = load_records(db, keys=[x.key for x in specs])
    key = json.dumps(spec.check_params(tuned), sort_keys=True)
    mine = [r for r in records if json.dumps(dict(r.key.params), sort_keys=True) == key]
    theirs = [r for r in records if r not in mine] if not same else mine
    score = {"tuned": _score(mine, specs, s), "default": _score(theirs, specs, s)}
    if same:
        return HeldOut(score["tuned"], score["default"], *train, "same",
                       "the tuner kept the defaults: nothing to compare", _gap(s, train, score),
                       len(specs))
    frame = records_to_frame(records)
    frame["solver"] = ["tuned" if k == key else "default" for k in frame["params_key"]]
    claim = Claim("tuned beats default on the held-out sizes", "tuned", "default",
                  on=OBJECTIVES[s.objective], problem=s.problem)
    verdict = claim_verdicts(frame, [claim])[0]
    return HeldOut(score["tuned"], score["default"], *train, verdict.verdict,
                   verdict.sentence(), _gap(s, train, score), len(specs))


def _score(records: list[RunRecord], specs: list[Any], s: TuneSettings) -> float:
    """The mean over the test instances of each instance's mean objective."""
    return mean_score(instance_score([r for r in records if r.key.instance_id == iid], s)
                      for iid, _ in by_instance(specs))


def _gap(s: TuneSettings, train: tuple[float, float], test: Mapping[str, float]) -> str:
    """The training gain beside the test gain: a ratio of scores (PAR-2, evaluations) or a
    difference of failure rates (success)."""
    if s.objective == "success":
        return (f"failure rate tuned − default: training {train[0] - train[1]:+.2f}, "
                f"test {test['tuned'] - test['default']:+.2f}")
    ratio_train = train[0] / train[1] if train[1] > 0 else math.nan
    ratio_test = test["tuned"] / test["default"] if test["default"] > 0 else math.nan
    return f"{s.objective} tuned / default: training {ratio_train:.3g}, test {ratio_test:.3g}"
