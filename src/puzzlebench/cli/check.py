"""``puzzlebench check``: validate an answer made anywhere with the independent validator.

Exit status: 0 valid, 1 invalid (with the reason), 2 malformed input.
"""

from __future__ import annotations

from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import parse_int
from puzzlebench.cli.output import emit_json
from puzzlebench.cli.problem_options import ProblemArg, build_instance, problem_options
from puzzlebench.problems import problem_of
from puzzlebench.problems.base import PuzzlebenchError


@app.command("check")
@problem_options
def check_command(
    problem: ProblemArg,
    size: Annotated[str, typer.Argument(help="n, or 8/15 for sliding")],
    answer: Annotated[str, typer.Option(help="0,4,7,5,2,6,1,3 · Q:0:1,N:2:3 · UDLR moves")],
    show: Annotated[bool, typer.Option(help="Draw the answer.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    problem_opts: dict[str, str] | None = None,
) -> int:
    """Check one answer; say why it is invalid."""
    instance = build_instance(problem, parse_int(size, "size"), problem_opts or {})
    prob = problem_of(instance)
    parsed = prob.parse_answer(instance, answer)
    verdict = prob.validate(instance, parsed)
    if as_json:
        try:
            conflicts: int | None = prob.conflicts(instance, parsed)
        except PuzzlebenchError:  # e.g. a move off the board has no resulting state
            conflicts = None
        emit_json({"problem": instance.problem, "size": instance.size, "valid": verdict.valid,
                   "reason": verdict.reason, "conflicts": conflicts})
    else:
        typer.echo("valid" if verdict.valid else f"invalid: {verdict.reason}")
        if show:
            typer.echo(prob.render(instance, parsed))
    return 0 if verdict.valid else 1
