"""Problem options on the command line, built from the problems' own declarations.

``@problem_options`` gives a command one ``--NAME`` flag for every option any loaded problem
declares (``Problem.options``), plus ``--option KEY=VALUE`` for families that are named by
``module:attr`` (their options are not known when the CLI is built). The command receives the
flags given as ``problem_opts: dict[str, str]``; ``build_instance`` (one instance) and
``grid_entry`` (a study entry for ``compare``/``agree``) read them with the problem's parsers,
and refuse a flag the chosen problem does not take, naming the problems that do.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

import typer

from puzzlebench.problems import PROBLEMS, get_problem
from puzzlebench.problems.base import Instance, InvalidInstanceError
from puzzlebench.problems.options import ProblemOption

F = TypeVar("F", bound=Callable[..., Any])
PREFIX = "problem_opt_"

#: Every command's PROBLEM argument.
ProblemArg = Annotated[str, typer.Argument(
    help="A problem id ('puzzlebench problems' lists them) or package.module:attr.")]


def declared() -> dict[str, list[tuple[str, ProblemOption]]]:
    """Option name → [(problem id, option)] over every loaded problem."""
    out: dict[str, list[tuple[str, ProblemOption]]] = {}
    for pid, prob in PROBLEMS.items():
        for opt in prob.options:
            out.setdefault(opt.name, []).append((pid, opt))
    return out


def problem_options(func: F) -> F:
    """Add the problems' option flags to a Typer command (see the module docstring)."""
    sig = inspect.signature(func, eval_str=True)
    params = [p for p in sig.parameters.values() if p.name != "problem_opts"]
    extra = []
    for name, owners in sorted(declared().items()):
        helps = "; ".join(dict.fromkeys(opt.help for _, opt in owners))
        extra.append(inspect.Parameter(
            PREFIX + name, inspect.Parameter.KEYWORD_ONLY, default=None,
            annotation=Annotated[str | None, typer.Option(f"--{name.replace('_', '-')}",
                                                          help=helps)]))
    extra.append(inspect.Parameter(
        PREFIX + "generic", inspect.Parameter.KEYWORD_ONLY, default=None,
        annotation=Annotated[list[str] | None, typer.Option(
            "--option", help="Any problem option KEY=VALUE (e.g. for a module:attr problem).")]))
    keyword = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) if p.kind is
               inspect.Parameter.POSITIONAL_OR_KEYWORD and p.default is not p.empty else p
               for p in params]
    positional = [p for p in keyword if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    rest = [p for p in keyword if p.kind is inspect.Parameter.KEYWORD_ONLY]

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given: dict[str, str] = {}
        for key in [k for k in kwargs if k.startswith(PREFIX)]:
            value = kwargs.pop(key)
            if key == PREFIX + "generic":
                for pair in value or []:
                    k, sep, v = pair.partition("=")
                    if not sep or not k.strip():
                        raise InvalidInstanceError(f"--option takes KEY=VALUE, got {pair!r}")
                    given[k.strip()] = v.strip()
            elif value is not None:
                given[key.removeprefix(PREFIX)] = value
        return func(*args, problem_opts=given, **kwargs)

    new_sig = sig.replace(parameters=[*positional, *rest, *extra])
    wrapper.__signature__ = new_sig  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in new_sig.parameters.values()}
    wrapper.__annotations__["return"] = sig.return_annotation
    del wrapper.__wrapped__  # Typer must read the new signature, not the wrapped one
    return wrapper  # type: ignore[return-value]


def _misplaced(problem_id: str, given: Mapping[str, str]) -> None:
    """Refuse a flag the problem does not declare, naming who does."""
    prob = get_problem(problem_id)
    own = {o.name for o in prob.options} | {o.key for o in prob.options}
    for name in given:
        if name not in own:
            owners = [pid for pid, _ in declared().get(name, [])]
            where = f"it applies to {', '.join(owners)}" if owners else \
                f"{prob.id} takes {', '.join(sorted(o.name for o in prob.options)) or 'none'}"
            raise InvalidInstanceError(f"{prob.id} has no option --{name.replace('_', '-')} "
                                       f"({where})")


def build_instance(problem: str, size: int, given: Mapping[str, str]) -> Instance:
    """One instance from a problem id, a size and the option flags given (each read by its
    option's parser; ``make`` says what is missing)."""
    _misplaced(problem, given)
    prob = get_problem(problem)
    by_flag = {**{o.key: o for o in prob.options}, **{o.name: o for o in prob.options}}
    return prob.make(size, **{by_flag[k].name: by_flag[k].parse(v) for k, v in given.items()})


def grid_entry(problem: str, given: Mapping[str, str], *, generate: int | None = None,
               purpose: str = "compare") -> dict[str, Any]:
    """A study entry (problem, options; sizes added by the caller) from option flags: grid
    options read as lists written with their separator."""
    _misplaced(problem, given)
    prob = get_problem(problem)
    by_name = {o.name: o.key for o in prob.options}
    raw: dict[str, Any] = {by_name.get(k, k): v for k, v in given.items()}
    if generate is not None and not prob.generates:
        raise InvalidInstanceError(f"{prob.id} has no instance generator (--generate)")
    entry = prob.study_entry(raw, "options", require=purpose != "agree" and generate is None)
    if generate is not None:
        entry["generate"] = generate
    return {"problem": prob.id, **entry}
