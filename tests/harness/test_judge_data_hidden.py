"""The judge's known answers are out of a sealed run's reach: a solver that "counts" by
reading the published counts installed with the package gets nothing to read, and is not
solved; the judge, in its own process, still reads them."""

from __future__ import annotations

from pathlib import Path

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import make_request, run_judged
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.measure import Measurement
from puzzlebench.problems import get_problem
from puzzlebench.problems.known_counts import JUDGE_DATA, oeis
from puzzlebench.records.record import Outcome, RunRecord

PLUGIN = Path(__file__).parents[1] / "plugins" / "reads_the_judge.py"


def _count(sandbox: str) -> RunRecord:
    spec = resolve_solver(f"{PLUGIN}:ReadsTheJudge")
    task = make_request(spec, get_problem("nqueens").make(12), "count", budget=Budget(time_limit=20))
    return run_judged(spec, task, measurement=Measurement(sandbox=sandbox))


def test_the_judge_reads_its_tables_from_its_own_data() -> None:
    assert (JUDGE_DATA / "oeis.json").is_file()
    assert oeis("A000170")[12] == 14200
    assert get_problem("nqueens").known_count(get_problem("nqueens").make(12)) == 14200


def test_a_sealed_run_cannot_read_the_judges_answers() -> None:
    record = _count("required")  # this machine seals runs (tests/plugins/test_sealed_runs.py)
    assert record.provenance.sandbox == "namespaces"
    v = record.verdict
    assert v.outcome is Outcome.CRASH, (v.outcome, v.count, v.reason)
    assert "cannot be read" in record.verdict.error


def test_unsealed_the_lookup_works_and_the_record_says_unsealed() -> None:
    """Without the sandbox the file is readable: what sealing buys, shown by its absence."""
    record = _count("off")
    assert record.provenance.sandbox == "none"
    assert record.verdict.outcome is Outcome.SOLVED and record.verdict.count == 14200
