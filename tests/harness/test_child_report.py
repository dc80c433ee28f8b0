"""One definition of the measured figures (issue 56): the harness's report of a run holds the
record's own ``RunFigures``, and the record's figures are those, with the solver's counters and
trace added when the run is judged."""

from __future__ import annotations

from dataclasses import fields, replace

from puzzlebench.contract import Budget
from puzzlebench.harness.execute import make_request, run_here
from puzzlebench.harness.judging.run_record import make_record
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.child_report import ChildReport
from puzzlebench.harness.run.measure import clock_resolution_s
from puzzlebench.problems import get_problem
from puzzlebench.records.record import PART_OF, Outcome, RunFigures

MEASURED = RunFigures(time_s=0.0101, cpu_s=0.0123, warmup_s=0.05, startup_s=0.2,
                      peak_rss_mb=41.5, rss_base_mb=40.0, span_s=0.0201, time_min_s=0.009,
                      repeats=3, repeats_agree=True, timed_by="run", measured_by="cgroup-v2",
                      core=1)


def test_the_report_repeats_no_field_of_the_figures() -> None:
    names = {f.name for f in fields(ChildReport)}
    assert not names & {n for n, part in PART_OF.items() if part == "figures"}
    assert "wall_s" not in names and "figures" in names
    assert ChildReport("died").figures == RunFigures(timed_by="harness", measured_by="rusage")


def test_the_records_figures_are_the_reports_with_the_solvers_counters() -> None:
    spec = resolve_solver("mod12")
    task = make_request(spec, get_problem("nqueens").make(4), "solve", budget=Budget(time_limit=5))
    report = ChildReport("done", data={"claim": "solved", "answer": [1, 3, 0, 2],
                                       "counters": {"nodes": 7}}, figures=MEASURED)
    record = make_record(spec, task, report)
    assert record.verdict.outcome is Outcome.SOLVED
    assert record.figures == replace(MEASURED, counters={"nodes": 7}, trace=None, traced=False,
                                     clock_resolution_s=clock_resolution_s())
    flat = record.to_dict()  # the stored form: every figure under its one name
    assert (flat["time_s"], flat["cpu_s"], flat["repeats"], flat["timed_by"]) == \
        (0.0101, 0.0123, 3, "run")
    killed = make_record(spec, task, replace(report, status="timeout", data=None))
    assert killed.verdict.outcome is Outcome.TIMEOUT and killed.figures.time_s == 0.0101


def test_an_in_process_run_reports_its_figures_in_the_records_type() -> None:
    spec = resolve_solver("mod12")
    report = run_here(make_request(spec, get_problem("nqueens").make(8), "solve"))
    assert report.status == "done" and isinstance(report.figures, RunFigures)
    assert report.figures.measured_by == "process" and report.figures.repeats == 1
    assert report.figures.counters == {}  # the solver's counters are the judge's to add
