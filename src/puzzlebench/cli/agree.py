"""``puzzlebench agree PROBLEM --sizes 1..12 [--solver NAME ...]``: the agreement matrix.

Cells mark how an ``infeasible`` claim was verified: no mark by a rule, ``(certified)`` by a
checked proof (the certificate lines under the table give the checker and its time),
``(agreed)`` by agreement of complete solvers, ``?`` unverified.

Exit status 0 when every solver agrees with the facts and with every other solver, 1 when
any disagreement is found (each one is named: a wrong answer, solved beside infeasible,
different counts or answers under one seed) or a run gave no answer (timeout, memout, crash:
named apart, as ``NO ANSWER``, never as a disagreement), 2 for bad input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import numpy as np
import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.first_run import say_if_first_run
from puzzlebench.cli.legend import agree_legend
from puzzlebench.cli.options import (
    TIME_LIMIT_HELP,
    CliInputError,
    MinTimeOpt,
    SandboxOpt,
    StartupLimitOpt,
    check_limit,
    measurement_of,
    parse_sizes,
)
from puzzlebench.cli.output import emit_json
from puzzlebench.cli.problem_options import ProblemArg, grid_entry, problem_options
from puzzlebench.cli.tables import Column, say, show
from puzzlebench.problems import get_problem

if TYPE_CHECKING:
    # imported on use (type checking only): at run time it would load numba for --help
    from puzzlebench.harness.campaign.agreement import AgreementReport

#: Most generated instances per size ``agree --generate`` takes.
MAX_GENERATED = 1000


@app.command("agree")
@problem_options
def agree_command(
    problem: ProblemArg,
    sizes: Annotated[str | None, typer.Option(
        help="Sizes: 1..12, 4,6,8 or 8 (default: the problem's, e.g. 1..10; sliding 8).")] = None,
    solver: Annotated[list[str] | None, typer.Option(
        help="Solver(s) to check beside every baseline (repeatable; module:attr allowed).")] = None,
    time_limit: Annotated[float, typer.Option(
        help=TIME_LIMIT_HELP)] = 10.0,
    count_time_limit: Annotated[float | None, typer.Option(
        help="Budget of each count (s; default: --time-limit); counting is exhaustive.")] = None,
    workers: Annotated[int | None, typer.Option(help="Runs at once (default: cores).")] = None,
    min_time: MinTimeOpt = None,
    sandbox: SandboxOpt = None,
    startup_limit: StartupLimitOpt = None,
    count_up_to: Annotated[int, typer.Option(help="Counts are compared up to this n.")] = 10,
    enumerate_up_to: Annotated[int, typer.Option(help="Answers checked against the enumerated "
                                                       "set up to this n.")] = 8,
    generate: Annotated[int | None, typer.Option(
        help="Check K generated instances per size (seeded by the size: the same everywhere) "
             "instead of the problem's own.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    wide: Annotated[bool, typer.Option(
        help="One table at full width, whatever the terminal.")] = False,
    problem_opts: dict[str, str] | None = None,
) -> int:
    """Cross-check every applicable solver; name every disagreement. Without options each
    problem checks its own instances (queens-knights: every A; sliding: three scrambles;
    nqueens-completion: three generated placements)."""
    say_if_first_run()
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.cli.run import check_workers
    from puzzlebench.harness.campaign.progress import StudyProgress

    prob = get_problem(problem)
    check_limit(time_limit)
    check_limit(count_time_limit, "--count-time-limit")  # None passes
    check_workers(workers)
    check_limit(min_time, "--min-time")
    measurement = measurement_of(None, None, sandbox, startup_limit)
    if generate is not None and not 1 <= generate <= MAX_GENERATED:
        raise CliInputError(f"--generate must be in 1..{MAX_GENERATED}, got {generate}")
    entry = grid_entry(problem, problem_opts or {}, purpose="agree", generate=generate)
    problem = prob.id
    size_list = parse_sizes(sizes or prob.default_sizes(entry, "agree"))
    insts = []
    for n in size_list:
        insts.extend(prob.agreement_instances(n, entry) if generate is None
                     else prob.generate(n, generate, np.random.default_rng(n)))
    progress = StudyProgress(0, 0, quiet=as_json, unknown_total=True)
    try:
        # imported on use: `puzzlebench --help` loads every command, and this pulls in numba
        from puzzlebench.harness.campaign.agreement import check_agreement

        report = check_agreement(problem, size_list, solver or None, time_limit=time_limit,
                                 count_time_limit=count_time_limit,
                                 count_up_to=count_up_to, enumerate_up_to=enumerate_up_to,
                                 instances=insts, workers=workers, progress=progress.update,
                                 min_time=min_time, measurement=measurement)
    finally:
        progress.close()
    if as_json:
        emit_json({"problem": problem, "agreed": report.agreed,
                   "matrix": report.cells, "skipped": report.skipped,
                   "verified_by": verification(report), "certificates": report.certificates,
                   "disagreements": [vars_of(d) for d in report.disagreements],
                   "unanswered": [vars_of(d) for d in report.unanswered]})
    else:
        print_agreement(report, problem, wide=wide)
    return 0 if report.agreed and not report.unanswered else 1


def print_agreement(report: AgreementReport, problem: str, *, wide: bool = False) -> None:
    """The matrix fitted to the terminal (instance columns split over several tables rather
    than cut), its legend, the certificates, and the verdict line with the first reason."""
    short = {iid: iid.replace(f"{problem}-", "") for iid in report.instances}
    columns = [Column("solver", key=True),
               *(Column(short[i], repeatable=True) for i in report.instances)]
    rows = [[name, *(report.cells[name].get(i, "-") for i in report.instances)]
            for name in sorted(report.cells)]
    show(columns, rows, title=f"agreement: {problem}", wide=wide,
         legend=agree_legend(c for row in rows for c in row[1:]))
    for iid, text in report.certificates.items():
        say(f"certificate {short.get(iid, iid)}: {text}", wide=wide)
    for name, why in report.skipped.items():
        say(f"skipped {name}: {why}", wide=wide)
    for d in report.disagreements:
        say(f"DISAGREEMENT: {d}", wide=wide)
    for d in report.unanswered:
        say(f"NO ANSWER: {d}", wide=wide)
    say(agreement_verdict(report), wide=wide)


def agreement_verdict(report: AgreementReport) -> str:
    """The closing line: how many solvers and instances agree, or how many disagreements and
    runs without an answer, each with its first reason."""
    solvers, instances = len(report.cells), len(report.instances)
    where = (f"{solvers} solver{'s' if solvers != 1 else ''} on {instances} "
             f"instance{'s' if instances != 1 else ''}")
    parts = []
    if report.disagreements:
        n = len(report.disagreements)
        parts.append(f"{n} disagreement{'s' if n != 1 else ''} (first: "
                     f"{report.disagreements[0]})")
    if report.unanswered:
        n = len(report.unanswered)
        parts.append(f"{n} run{'s' if n != 1 else ''} without an answer (first: "
                     f"{report.unanswered[0]})")
    if not parts:
        return f"Verdict: all {where} agree with the facts and with each other."
    if not report.disagreements:
        return (f"Verdict: {where}: every solver that answered agrees with the facts and "
                f"with each other; {parts[0]}.")
    return f"Verdict: {where}: " + "; ".join(parts) + "."


def verification(report: AgreementReport) -> dict[str, dict[str, str]]:
    """instance → solver → the rung that verified its solve run ("" unverified or failed)."""
    out: dict[str, dict[str, str]] = {}
    for r in report.records:
        if r.key.task == "solve":
            out.setdefault(r.key.instance_id, {})[r.key.solver] = r.verdict.verified_by
    return out


def vars_of(d: object) -> dict[str, str]:
    return {k: getattr(d, k) for k in ("solver", "instance_id", "claimed", "truth")}
