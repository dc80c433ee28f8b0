"""``puzzlebench certify``: a solver's conformance card — every check that applies to what it
declares, and its place beside the built-in solvers.

Exit status: 0 when no check fails, 1 when one does, 2 on bad input (an unknown solver, a
problem it does not declare).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.legend import TERMS, legend
from puzzlebench.cli.options import CliInputError, check_out_dir
from puzzlebench.cli.output import emit_json
from puzzlebench.cli.run import check_workers
from puzzlebench.cli.tables import say
from puzzlebench.harness.resolve import resolve_solver

if TYPE_CHECKING:
    # imported on use (type checking only): the card module loads the conformance cases
    from puzzlebench.conformance.card import Card

#: The card's own words, explained under it.
CARD_TERMS = {"PAR-2": TERMS["PAR-2"],
              "SKIP": "a check that does not apply to what the solver declares",
              "▶": "the solver being certified"}


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
        for line in card_text(card).splitlines():
            say(line)  # a long line wraps at a word, never cuts a name
        shown = ["PAR-2 ▶" if card.standings else "", "SKIP" if card.counts()["SKIP"] else ""]
        for line in legend(shown, CARD_TERMS):
            say(line)
        say(standing_verdict(card))
    if out:
        for path in write_card(card, out):
            typer.echo(f"wrote {path}", err=True)
    return 0 if card.passed else 1


def standing_verdict(card: Card) -> str:
    """The closing line: the checks, then the solver's place on each problem beside the
    built-in solvers, with the leader's figures (by how much it trails)."""
    c = card.counts()
    head = (f"Verdict: {card.solver} {'is' if card.passed else 'is not'} certified "
            f"({c['PASS']} passed, {c['FAIL']} failed")
    if c["FAIL"]:
        first = next(r for r in card.results if str(r.status) == "FAIL")
        head += f"; first failure: {first.check} on {first.problem}: {first.reason}"
    head += ")"
    places = []
    for problem in dict.fromkeys(s.problem for s in card.standings):
        rows = [s for s in card.standings if s.problem == problem]
        mine = next((s for s in rows if s.candidate), None)
        if mine is None:
            continue
        best = rows[0]
        mine_text = f"{mine.verified}/{mine.runs} verified, PAR-2 {mine.par2_s:.3g} s"
        places.append(f"first on {problem} ({mine_text})" if best is mine else
                      f"{mine.rank} of {len(rows)} on {problem} ({mine_text}; best: "
                      f"{best.solver}, {best.verified}/{best.runs}, {best.par2_s:.3g} s)")
    return head + ("; it ranks " + "; ".join(places) if places else "") + "."
