"""The run record as four small records (issue 39 §3, issue 56): each flat field lives in
exactly one part and is read there (mypy checks the name), and the flat form round-trips —
through JSON and pickle."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

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


def test_fields_read_on_their_part_and_not_on_the_record() -> None:
    rec = _record()
    assert isinstance(rec.key, RunKey) and isinstance(rec.verdict, RunVerdict)
    assert isinstance(rec.figures, RunFigures)
    assert rec.figures.time_s == 0.25 and rec.key.seed == 3 and rec.key.solver == "mod12"
    assert rec.verdict.outcome is Outcome.SOLVED and rec.provenance.notes == "a note"
    with pytest.raises(AttributeError):
        _ = rec.time_s  # type: ignore[attr-defined]  # the flat view is gone
    with pytest.raises(AttributeError):
        _ = rec.outcome  # type: ignore[attr-defined]
    # the flat form is read by name where code walks it (tables, comparisons)
    assert rec.flat_field("time_s") == 0.25 and rec.flat_field("outcome") is Outcome.SOLVED
    with pytest.raises(KeyError, match="no field 'tme_s'"):
        rec.flat_field("tme_s")


SNIPPET = """\
from puzzlebench.records.record import RunRecord


def good(record: RunRecord) -> float:
    return record.figures.time_s + len(record.key.solver) + len(record.provenance.notes)


def misspelled(record: RunRecord) -> float:
    return record.figures.tme_s


def flat(record: RunRecord) -> float:
    return record.time_s
"""


def test_mypy_catches_a_misspelled_field(tmp_path: Path) -> None:
    """Read through its parts, a record's field names are checked: a misspelling and a flat
    read are both type errors, and the correct reads are not."""
    from mypy import api

    src = Path(__file__).resolve().parents[2] / "src"
    (tmp_path / "snippet.py").write_text(SNIPPET)
    (tmp_path / "mypy.ini").write_text(f"[mypy]\nmypy_path = {src}\nignore_missing_imports = True\n"
                                       "follow_imports = silent\n")
    out, err, status = api.run([str(tmp_path / "snippet.py"), "--config-file",
                                str(tmp_path / "mypy.ini"), "--cache-dir", str(tmp_path / "cache"),
                                "--no-error-summary"])
    errors = [line.split(": error: ", 1)[1] for line in out.splitlines() if ": error: " in line]
    assert status == 1, (out, err)
    assert len(errors) == 2, out
    assert errors[0].startswith('"RunFigures" has no attribute "tme_s"'), out
    assert errors[1].startswith('"RunRecord" has no attribute "time_s"'), out
    assert "snippet.py:9:" in out and "snippet.py:13:" in out


def test_with_changes_the_right_part_and_refuses_unknown_names() -> None:
    rec = _record()
    later = rec.with_(time_s=1.5, outcome=Outcome.TIMEOUT)
    assert later.figures.time_s == 1.5 and later.verdict.outcome is Outcome.TIMEOUT
    assert later.key is rec.key and later.provenance is rec.provenance  # untouched parts shared
    assert rec.figures.time_s == 0.25  # records never change
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
