"""``puzzlebench certify``: a solver's conformance card — every check that applies to what it
declares, and its place beside the built-in solvers.

Exit status: 0 when no check fails, 1 when one does, 2 on bad input (an unknown solver, a
problem it does not declare).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import CliInputError, check_out_dir
from puzzlebench.cli.output import emit_json
from puzzlebench.cli.run import check_workers
from puzzlebench.harness.resolve import resolve_solver


@app.command("certify")
def certify_command(
    solver: Annotated[str, typer.Argument(
        help="A registered name, file.py:Class, module:attr, a TOML manifest or a .mzn model.")],
    problems: Annotated[str | None, typer.Option(
        help="Comma-separated problems to check (default: every problem it declares).")] = None,
    rank: Annotated[bool, typer.Option(
        help="Rank it beside the built-in solvers on each problem's conformance cases.")] = True,
    db: Annotated[str | None, typer.Option(
        help="Store for the ranking runs (default: the cache; the baselines run once).")] = None,
    workers: Annotated[int | None, typer.Option(help="Worker processes for the ranking.")] = None,
    out: Annotated[str | None, typer.Option(
        help="Write card.md, card.html and card.json to this folder.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the card as JSON.")] = False,
) -> int:
    """Certify a solver: PASS, FAIL or SKIP per check, its rank, exit 1 if any check fails."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.conformance.card import card_text, certify, result_line, write_card
    from puzzlebench.conformance.checks import CheckResult

    check_workers(workers)
    spec = resolve_solver(solver)
    chosen: list[str] | None = None
    if problems is not None:
        chosen = [p.strip() for p in problems.split(",") if p.strip()]
        foreign = sorted(set(chosen) - spec.problems)
        if not chosen or foreign:
            raise CliInputError(f"solver {spec.name!r} does not declare {', '.join(foreign) or '…'}"
                                f" (it declares {', '.join(sorted(spec.problems))})")
    if out:
        check_out_dir(out)

    live = not as_json and sys.stderr.isatty()  # the card itself follows on stdout

    def show(result: CheckResult) -> None:
        if live:
            typer.echo(result_line(result), err=True)

    if live:
        typer.echo(f"certifying {spec.name} …", err=True)
    card = certify(spec, problems=chosen, ranking=rank, db=db, workers=workers, on_result=show)
    if as_json:
        emit_json(card.to_json())
    else:
        typer.echo(card_text(card))
    if out:
        for path in write_card(card, out):
            typer.echo(f"wrote {path}", err=True)
    return 0 if card.passed else 1
