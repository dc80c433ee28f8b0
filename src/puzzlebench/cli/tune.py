"""``puzzlebench tune SOLVER --problem P --train SIZES --test SIZES --budget N``: tune the
parameters a solver declares on training sizes, every evaluation a judged stored run, then
compare the tuned and default configurations on held-out sizes (docs/how-to/tune.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import CliInputError
from puzzlebench.cli.problem_options import grid_entry, problem_options
from puzzlebench.cli.run import check_scheduler, check_workers
from puzzlebench.problems.size_lists import SizeListError, parse_size_list


def _sizes(value: str, flag: str) -> list[int]:
    if not value.strip():
        raise CliInputError(f"{flag}: no sizes given (4..12, 4,6,8 or 8)")
    try:
        return parse_size_list(value)
    except SizeListError as exc:
        raise CliInputError(f"{flag}: {exc}") from None


@app.command("tune")
@problem_options
def tune_command(
    solver: Annotated[str, typer.Argument(help="The solver to tune (it declares param_space).")],
    problem: Annotated[str, typer.Option(help="The problem id.")],
    train: Annotated[str, typer.Option(help="Training sizes: 4..12, 4,6,8 or 8.")],
    test: Annotated[str, typer.Option(help="Held-out sizes the result is tested on.")],
    budget: Annotated[float, typer.Option(help="Tuning budget, in --budget-unit.")],
    budget_unit: Annotated[str, typer.Option(help="runs or cpu-seconds.")] = "runs",
    objective: Annotated[str, typer.Option(
        help="par2 (default), success (failure rate) or evaluations (PAR-2 over "
             "evaluations; needs --max-evaluations).")] = "par2",
    repeats: Annotated[int, typer.Option(help="Runs per configuration and instance.")] = 1,
    seed: Annotated[int, typer.Option(help="Seeds the sampler and every run.")] = 0,
    time_limit: Annotated[float, typer.Option(help="Seconds per run.")] = 10.0,
    max_evaluations: Annotated[int | None, typer.Option(help="Evaluations cap per run.")] = None,
    db: Annotated[str | None, typer.Option(
        help="SQLite store (default tune-SOLVER-PROBLEM.sqlite); Optuna's trials go beside "
             "it in NAME.optuna.sqlite.")] = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes.")] = None,
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler, tcp://HOST:PORT.")] = None,
    out: Annotated[str | None, typer.Option(
        help="Write the tuned configuration as a study fragment here.")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress lines.")] = False,
    problem_opts: dict[str, str] | None = None,
) -> int:
    """Tune a solver's declared parameters (Optuna TPE with racing) on the training sizes;
    run the tuned and default configurations on the test sizes and give the verdict. The
    same command resumes an interrupted tuning."""
    check_workers(workers)
    if scheduler is not None:
        check_scheduler(scheduler)
    train_sizes, test_sizes = _sizes(train, "--train"), _sizes(test, "--test")
    entry = grid_entry(problem, problem_opts or {}, purpose="tune")
    options = {k: v for k, v in entry.items() if k != "problem"}
    # imported on use: Optuna, the harness and the statistics load only for this command
    from puzzlebench.tune import tune

    def say(line: str) -> None:
        if not quiet:
            typer.echo(line, err=True)

    result = tune(solver, entry["problem"], train=train_sizes, test=test_sizes, budget=budget,
                  budget_unit=budget_unit, objective=objective, repeats=repeats, seed=seed,
                  time_limit=time_limit, max_evaluations=max_evaluations, options=options,
                  db=db, workers=workers, scheduler=scheduler, out=out, progress=say)
    h = result.heldout
    assert h is not None  # a full tuning always tests on the held-out sizes
    shown = ", ".join(f"{k}={v}" for k, v in sorted(result.params.items()))
    typer.echo(f"tuned {solver} on {entry['problem']} sizes {train}: {{{shown}}}, training "
               f"{objective} {result.score:.4g} (defaults {result.default_score:.4g}); "
               f"{len(result.trials)} configurations ({result.raced_out} raced out), "
               f"{result.runs} runs, {result.cpu_s:.1f} CPU s, {result.seconds:.0f} s")
    typer.echo(f"held out (sizes {test}): tuned {h.tuned_test:.4g} vs default "
               f"{h.default_test:.4g} {objective}; verdict: {h.sentence}")
    typer.echo(f"training-test gap: {h.gap}")
    typer.echo(f"store: {result.db}" + (f"; wrote {out}" if out else ""))
    return 0
