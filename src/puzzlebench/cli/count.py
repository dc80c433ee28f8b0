"""``puzzlebench count``: exhaustive solution counts, checked against OEIS where known."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from puzzlebench.cli.app import CommandInterruptedError, app
from puzzlebench.cli.first_run import say_if_first_run
from puzzlebench.cli.options import (
    DEFAULT_TIME_LIMIT,
    TIME_LIMIT_HELP,
    CliInputError,
    make_budget,
    parse_int,
    parse_params,
    warn_ignored_caps,
)
from puzzlebench.cli.output import emit_json
from puzzlebench.cli.problem_options import ProblemArg, build_instance, problem_options
from puzzlebench.harness.default_counter import default_counter, why
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.records.record import Outcome


@app.command("count")
@problem_options
def count_command(
    problem: ProblemArg,
    size: Annotated[str, typer.Argument(help="Board size n.")],
    unique: Annotated[bool, typer.Option(help="Also count solutions distinct up to symmetry.")] = False,
    solver: Annotated[str | None, typer.Option(
        "--solver", "-s", help="A counting solver (default: the fastest measured for the "
                               "board: constellations for nqueens from n = 13, else bitboard; "
                               "constellations for a constellations split).")] = None,
    time_limit: Annotated[float | None, typer.Option(
        help=TIME_LIMIT_HELP + " With --split: per sub-problem, default 3600.")] = None,
    param: Annotated[list[str] | None, typer.Option(help="Solver parameter KEY=VALUE.")] = None,
    split: Annotated[str | None, typer.Option(
        help="Split the count into stored, resumable sub-problem runs: constellations:K "
             "(K parts of the constellation classes) or rows:D (D = 1, 2 rows pre-placed).")] = None,
    db: Annotated[str | None, typer.Option(
        help="With --split: the SQLite store (default count-nqueens-N.sqlite).")] = None,
    workers: Annotated[int | None, typer.Option(
        help="With --split: local worker processes (default: cores).")] = None,
    scheduler: Annotated[str | None, typer.Option(
        help="With --split: a Dask scheduler, tcp://HOST:PORT.")] = None,
    quiet: Annotated[bool, typer.Option(help="With --split: no progress output.")] = False,
    check_with: Annotated[str | None, typer.Option(
        help="With --split: another solver whose split count of the board (the same split, "
             "or rows:2) is run too; beyond OEIS only its agreement verifies the total.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the count as JSON.")] = False,
    problem_opts: dict[str, str] | None = None,
) -> int:
    """Count all solutions; exit 1 if the count contradicts the known value (or, split,
    is incomplete)."""
    say_if_first_run()
    instance = build_instance(problem, parse_int(size, "size"), problem_opts or {})
    if split is not None:
        return _split_count(instance, split, unique=unique, solver=solver, time_limit=time_limit,
                            param=param, db=db, workers=workers, scheduler=scheduler,
                            quiet=quiet, as_json=as_json, check_with=check_with)
    for flag, given in (("--db", db), ("--workers", workers), ("--scheduler", scheduler),
                        ("--check-with", check_with)):
        if given is not None:
            raise CliInputError(f"{flag} goes with --split (a direct count is one run)")
    # imported on use: `puzzlebench --help` loads every command, and this pulls in numba
    from puzzlebench.harness.execute import run_count

    n = getattr(instance, "n", instance.size)
    spec = resolve_solver(solver or default_counter(instance.problem, n))
    if not spec.counts:
        raise CliInputError(f"solver {spec.name!r} does not count solutions")
    if unique and not spec.counts_unique:
        raise CliInputError(f"solver {spec.name!r} does not count unique solutions")
    if spec.count_max_n is not None and n > spec.count_max_n:
        raise CliInputError(f"solver {spec.name!r} counts boards up to n = {spec.count_max_n}, "
                            f"not {n}")
    budget = make_budget(DEFAULT_TIME_LIMIT if time_limit is None else time_limit)
    warn_ignored_caps(spec, budget)
    record = run_count(spec, instance, unique=unique, params=parse_params(param), budget=budget)
    verdict = record.verdict
    if as_json:
        v = record.verdict
        out = {"problem": record.key.problem, "size": record.key.size, "solver": record.key.solver,
               "count": v.count, "time_s": record.figures.time_s, "outcome": v.outcome.value,
               "verified": v.verified, "reason": v.reason, "error": v.error,
               "solver_default": solver is None}
        if unique:
            out["unique"] = verdict.unique
        emit_json(out)
    else:
        if record.verdict.count is not None:
            typer.echo(f"{record.verdict.count} solutions")
        if unique and record.verdict.unique is not None:
            typer.echo(f"{record.verdict.unique} unique up to rotation and reflection")
        said = record.verdict
        unverified = " unverified" if said.outcome.success and said.verified is False else ""
        chosen = ", " if solver else f", {why(instance.problem, n)}; "
        typer.echo(f"({record.key.solver}{chosen}{record.figures.time_s:.3f} s, "
                   f"{record.verdict.outcome.value}{unverified})")
        for label, text in (("reason", record.verdict.reason), ("error", record.verdict.error)):
            if text and (label != "error" or text != record.verdict.reason):
                typer.echo(f"  {label}: {text}")
    return 0 if verdict.outcome is Outcome.SOLVED else 1


def _split_count(instance: Any, how: str, *, unique: bool, solver: str | None,
                 time_limit: float | None, param: list[str] | None, db: str | None,
                 workers: int | None, scheduler: str | None, quiet: bool, as_json: bool,
                 check_with: str | None = None) -> int:
    """``count --split``: the sub-problems as stored runs (``harness.campaign.split_count``)."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.cli.run import check_scheduler, check_workers
    from puzzlebench.harness.campaign.split_count import PART_TIME_LIMIT, count_split
    from puzzlebench.problems.count_splits import board_of, parse_split

    n = board_of(instance)
    kind, _ = parse_split(how)
    check_workers(workers)
    if scheduler is not None:
        check_scheduler(scheduler)
    name = solver or ("constellations" if kind == "constellations" else "bitboard")
    budget = make_budget(PART_TIME_LIMIT if time_limit is None else time_limit)
    target = db or f"count-nqueens-{n}.sqlite"
    try:
        result = count_split(name, n, how, target, unique=unique,
                             params=parse_params(param), time_limit=budget.time_limit,
                             workers=workers, scheduler=scheduler, quiet=quiet or as_json,
                             check_with=check_with)
    except KeyboardInterrupt:  # every finished sub-problem is stored: the same command resumes
        raise CommandInterruptedError(f"puzzlebench: interrupted — the finished sub-problems are "
                                 f"stored in {target}; run the same command to resume") from None
    if as_json:
        out = result.to_dict()
        emit_json({"problem": "nqueens", "size": out.pop("n"), "solver": out.pop("solver"),
                   "count": out.pop("total"), "time_s": out["solver_time_s"], **out})
    else:
        if result.total is not None:
            typer.echo(f"{result.total} solutions")
        if unique and result.unique is not None:
            typer.echo(f"{result.unique} unique up to rotation and reflection")
        # imported on use: the fitting module (lines wrap at a word within the width)
        from puzzlebench.cli.tables import say

        say(f"({result.solver}, split {result.split}: {result.parts} sub-problems, "
            f"{result.stored} found stored, {result.ran} runs made; "
            f"{result.solver_time_s:.3f} s of counting, {result.wall_s:.1f} s wall; "
            f"{result.status})")
        say(f"  checked by: {result.checked_by}")
        say(f"  stored in: {result.db}")
        if result.missing:
            say(f"  missing: {', '.join(result.missing[:5])}"
                + (" …" if len(result.missing) > 5 else "")
                + " — run the same command to try them again")
    return 0 if result.status in ("verified", "unverified") else 1
