"""Shared command-line option parsing: size ranges, instances, budgets, solver parameters."""

from __future__ import annotations

from typing import Any

from puzzlebench.contract import Budget
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import Instance, InvalidInstanceError, PuzzlebenchError


class CliInputError(PuzzlebenchError, ValueError):
    """A malformed command-line value."""


def parse_int(text: str, what: str) -> int:
    """An integer from the command line (``1000000``, ``1_000_000`` or ``10**6``/``1e6``)."""
    t = text.strip().replace("_", "")
    try:
        if "**" in t:
            base, exp = t.split("**")
            return int(base) ** int(exp)
        if "e" in t.lower():
            value = float(t)
            if value != int(value):
                raise ValueError
            return int(value)
        return int(t)
    except ValueError:
        raise CliInputError(f"{what} must be an integer, got {text!r}") from None


def parse_sizes(text: str) -> list[int]:
    """``4..12``, ``4,6,8`` or ``8`` as a sorted list of distinct sizes (each ≥ 1)."""
    sizes: set[int] = set()
    for part in [p for p in text.split(",") if p.strip()]:
        if ".." in part:
            lo_t, hi_t = part.split("..", 1)
            lo, hi = parse_int(lo_t, "size"), parse_int(hi_t, "size")
            if lo > hi:
                raise CliInputError(f"size range {part!r} is empty (start after end)")
            sizes.update(range(lo, hi + 1))
        else:
            sizes.add(parse_int(part, "size"))
    if not sizes:
        raise CliInputError(f"no sizes in {text!r}")
    bad = [s for s in sizes if s < 1]
    if bad:
        raise CliInputError(f"sizes must be at least 1, got {min(bad)}")
    return sorted(sizes)


def build_instance(
    problem: str,
    size: int,
    *,
    queens: int | None = None,
    start: str | None = None,
    goal: str | None = None,
    shape: str | None = None,
) -> Instance:
    """The instance named by a problem id, a size and the problem's options."""
    prob = get_problem(problem)
    options: dict[str, Any] = {}
    if problem == "queens-knights":
        options["queens"] = queens
    elif queens is not None:
        raise InvalidInstanceError(f"--queens applies to queens-knights, not {problem}")
    if problem == "sliding":
        options.update(start=start, goal=goal, shape=shape)
    elif start is not None or goal is not None or shape is not None:
        raise InvalidInstanceError(f"--start/--goal/--shape apply to sliding, not {problem}")
    return prob.make(size, **options)


def make_budget(
    time_limit: float | None,
    max_nodes: int | None = None,
    max_iterations: int | None = None,
    max_evaluations: int | None = None,
) -> Budget:
    """A Budget from CLI flags (negative values are refused with a clear error)."""
    return Budget(time_limit, max_nodes, max_evaluations, max_iterations)


def parse_params(pairs: list[str] | None) -> dict[str, Any]:
    """``--param key=value`` pairs (values stay strings; solvers coerce to their types)."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliInputError(f"--param takes KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out
