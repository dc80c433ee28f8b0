"""The run record as four small records (issue 39 §3): each flat field lives in exactly one
part, reads on the record as before, and the flat form round-trips — through JSON and pickle."""

from __future__ import annotations

import json
import pickle

import pytest

from puzzlebench.records.record import (
    FLAT_FIELDS,
    PART_OF,
    PARTS,
    Outcome,
    RunFigures,
    RunKey,
    RunRecord,
    RunVerdict,
)


def _record() -> RunRecord:
    return RunRecord.of(problem="nqueens", size=4, instance_id="nqueens-4", solver="mod12",
                        params={}, seed=3, outcome=Outcome.SOLVED, claim="solved", valid=True,
                        answer=[1, 3, 0, 2], time_s=0.25, counters={"nodes": 7},
                        notes="a note", study="s")


def test_every_flat_field_is_in_exactly_one_part() -> None:
    seen = [name for kind in PARTS.values() for name in kind.__dataclass_fields__]
    assert sorted(seen) == sorted(FLAT_FIELDS) and len(seen) == len(set(seen))


def test_fields_read_on_the_record_and_on_their_part() -> None:
    rec = _record()
    assert isinstance(rec.key, RunKey) and isinstance(rec.verdict, RunVerdict)
    assert isinstance(rec.figures, RunFigures)
    assert rec.time_s == rec.figures.time_s == 0.25 and rec.seed == rec.key.seed == 3
    assert rec.outcome is rec.verdict.outcome is Outcome.SOLVED
    assert rec.notes == rec.provenance.notes == "a note"
    with pytest.raises(AttributeError):
        _ = rec.no_such_field


def test_with_changes_the_right_part_and_refuses_unknown_names() -> None:
    rec = _record()
    later = rec.with_(time_s=1.5, outcome=Outcome.TIMEOUT)
    assert later.figures.time_s == 1.5 and later.verdict.outcome is Outcome.TIMEOUT
    assert later.key is rec.key and later.provenance is rec.provenance  # untouched parts shared
    assert rec.time_s == 0.25  # records never change
    with pytest.raises(TypeError, match="no field 'tme_s'"):
        rec.with_(tme_s=1.0)
    with pytest.raises(TypeError, match="no field"):
        RunRecord.of(problem="nqueens", bogus=1)


def test_the_flat_form_round_trips_through_json_and_pickle() -> None:
    rec = _record()
    flat = rec.to_dict()
    assert list(flat) == [name for name in FLAT_FIELDS if name != "trace"]
    assert RunRecord.from_dict(json.loads(rec.to_json())) == rec
    assert pickle.loads(pickle.dumps(rec)) == rec  # Dask sends records between processes
    assert {PART_OF[name] for name in flat} == set(PARTS)
