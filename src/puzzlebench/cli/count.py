"""``puzzlebench count``: exhaustive solution counts, checked against OEIS where known."""

from __future__ import annotations

from typing import Annotated

import typer

from puzzlebench.cli.app import app
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
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.record import Outcome


@app.command("count")
@problem_options
def count_command(
    problem: ProblemArg,
    size: Annotated[str, typer.Argument(help="Board size n.")],
    unique: Annotated[bool, typer.Option(help="Also count solutions distinct up to symmetry.")] = False,
    solver: Annotated[str, typer.Option("--solver", "-s", help="A counting solver.")] = "bitboard",
    time_limit: Annotated[float, typer.Option(
        help=TIME_LIMIT_HELP)] = DEFAULT_TIME_LIMIT,
    param: Annotated[list[str] | None, typer.Option(help="Solver parameter KEY=VALUE.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the count as JSON.")] = False,
    problem_opts: dict[str, str] | None = None,
) -> int:
    """Count all solutions; exit 1 if the count contradicts the known value."""
    say_if_first_run()
    instance = build_instance(problem, parse_int(size, "size"), problem_opts or {})
    # imported on use: `puzzlebench --help` loads every command, and this pulls in numba
    from puzzlebench.harness.execute import run_count

    spec = resolve_solver(solver)
    if not spec.counts:
        raise CliInputError(f"solver {spec.name!r} does not count solutions")
    if unique and not spec.counts_unique:
        raise CliInputError(f"solver {spec.name!r} does not count unique solutions")
    n = getattr(instance, "n", instance.size)
    if spec.count_max_n is not None and n > spec.count_max_n:
        raise CliInputError(f"solver {spec.name!r} counts boards up to n = {spec.count_max_n}, "
                            f"not {n}")
    budget = make_budget(time_limit)
    warn_ignored_caps(spec, budget)
    record = run_count(spec, instance, unique=unique, params=parse_params(param), budget=budget)
    if as_json:
        out = {"problem": record.problem, "size": record.size, "solver": record.solver,
               "count": record.count, "time_s": record.time_s, "outcome": record.outcome.value,
               "verified": record.verified, "reason": record.reason, "error": record.error}
        if unique:
            out["unique"] = record.unique
        emit_json(out)
    else:
        if record.count is not None:
            typer.echo(f"{record.count} solutions")
        if unique and record.unique is not None:
            typer.echo(f"{record.unique} unique up to rotation and reflection")
        unverified = " unverified" if record.outcome.success and record.verified is False else ""
        typer.echo(f"({record.solver}, {record.time_s:.3f} s, {record.outcome.value}{unverified})")
        for label, text in (("reason", record.reason), ("error", record.error)):
            if text and (label != "error" or text != record.reason):
                typer.echo(f"  {label}: {text}")
    return 0 if record.outcome is Outcome.SOLVED else 1
