"""``certify``: every conformance check that applies to a solver, and its place beside the
built-in solvers, as one report card (text, JSON, Markdown and HTML).

The card's conclusion is the framework's, not the solver's: a check passes only on what the
harness judged of isolated runs. ``certify`` exits 0 only when no check fails.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from puzzlebench.conformance.checks import Case, CheckResult, Status, cases_for, run_case
from puzzlebench.conformance.ranking import Standing, rank
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.solvers.spec import SolverSpec


@dataclass(frozen=True, slots=True)
class Card:
    """A solver's report card: each check's result, the standings, and how long it took."""

    solver: str
    reference: str
    problems: tuple[str, ...]
    results: tuple[CheckResult, ...]
    standings: tuple[Standing, ...] = ()
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def failed(self) -> list[CheckResult]:
        return [r for r in self.results if r.status is Status.FAIL]

    @property
    def passed(self) -> bool:
        """No check failed (skips do not fail a card)."""
        return not self.failed

    def counts(self) -> dict[str, int]:
        return {str(s): sum(r.status is s for r in self.results) for s in Status}

    def conclusion(self) -> str:
        """The card's last line."""
        c = self.counts()
        head = "CERTIFIED" if self.passed else "NOT CERTIFIED"
        total = sum(self.seconds.values())
        return (f"{head}: {self.solver} — {c['PASS']} passed, {c['FAIL']} failed, "
                f"{c['SKIP']} skipped ({total:.1f} s)")

    def to_json(self) -> dict[str, Any]:
        return {"solver": self.solver, "reference": self.reference,
                "problems": list(self.problems), "passed": self.passed,
                "counts": self.counts(), "checks": [r.to_json() for r in self.results],
                "standings": [s.to_json() for s in self.standings],
                "seconds": {k: round(v, 2) for k, v in self.seconds.items()},
                "verdict": self.conclusion()}  # the JSON key stays: users read it


def certify(solver: str | SolverSpec, *, problems: list[str] | None = None,
            ranking: bool = True, db: str | Path | None = None, workers: int | None = None,
            on_result: Callable[[CheckResult], None] | None = None) -> Card:
    """Run every conformance case of ``solver`` (a name or any reference ``--solver`` takes)
    and, with ``ranking``, place it on each problem's grid beside the built-in solvers."""
    spec = resolve_solver(solver) if isinstance(solver, str) else solver
    cases = cases_for(spec, problems)
    results: list[CheckResult] = []
    seconds: dict[str, float] = {}
    for case in cases:
        result = run_case(case)
        results.append(result)
        seconds[case.problem] = seconds.get(case.problem, 0.0) + result.seconds
        if on_result is not None:
            on_result(result)
    standings: list[Standing] = []
    chosen = sorted({c.problem for c in cases})
    if ranking and not spec.unavailable:
        for problem in chosen:
            start = time.perf_counter()
            standings += rank(spec, problem, db=db, workers=workers)
            seconds[problem] = seconds.get(problem, 0.0) + time.perf_counter() - start
    return Card(spec.name, spec.reference or spec.name, tuple(chosen), tuple(results),
                tuple(standings), seconds)


def cases_of(solver: str | SolverSpec, problems: list[str] | None = None) -> list[Case]:
    """The conformance cases of a solver given by any reference."""
    spec = resolve_solver(solver) if isinstance(solver, str) else solver
    return cases_for(spec, problems)


# -- rendering ---------------------------------------------------------------------------------

def result_line(result: CheckResult) -> str:
    """One line of the card: result, check, problem, instance, and why."""
    where = f"{result.problem}" + (f" {result.instance_id}" if result.instance_id else "")
    why = f" — {result.reason}" if result.reason else ""
    return f"{result.status!s:4}  {result.check:<22} {where}{why}"


def standing_lines(standings: tuple[Standing, ...] | list[Standing]) -> list[str]:
    """The standings as text, one problem after another, the candidate marked with ``▶``."""
    out: list[str] = []
    problem = ""
    for s in standings:
        if s.problem != problem:
            problem = s.problem
            out.append(f"{problem}: rank  solver                       verified   PAR-2 s")
        mark = "▶" if s.candidate else " "
        out.append(f"  {mark} {s.rank:>4}  {s.solver:<28} {s.verified:>3}/{s.runs:<4} "
                   f"{s.par2_s:9.4f}")
    return out


def card_text(card: Card) -> str:
    """The whole card as plain text."""
    lines = [f"puzzlebench certify {card.reference}", ""]
    lines += [result_line(r) for r in card.results]
    if card.standings:
        lines += ["", "Beside the built-in solvers (verified successes, then PAR-2; "
                  "1 s per run on each problem's conformance cases):", *standing_lines(card.standings)]
    per = ", ".join(f"{p} {s:.1f} s" for p, s in card.seconds.items())
    lines += ["", f"time per problem: {per}" if per else "", card.conclusion()]
    return "\n".join(lines)


def write_card(card: Card, out_dir: str | Path) -> list[Path]:
    """``card.md``, ``card.html`` and ``card.json`` in ``out_dir`` (created)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    env = Environment(loader=PackageLoader("puzzlebench.conformance", "templates"),
                      autoescape=select_autoescape(["html.j2"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["md"] = lambda text: str(text).replace("|", "\\|").replace("\n", " ")
    context = {"card": card, "data": card.to_json()}
    files = {"card.md": env.get_template("card.md.j2").render(context),
             "card.html": env.get_template("card.html.j2").render(context),
             "card.json": json.dumps(card.to_json(), indent=2) + "\n"}
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return [out / name for name in files]
