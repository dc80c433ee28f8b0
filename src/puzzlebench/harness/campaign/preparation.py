"""Preparation is never a verdict: what a study's solvers need built is built before its runs.

Before a study's first run, each project solver that can say so (:data:`PREPARERS`) is asked
what it needs built for the runs still to make: a function ``unprepared(params, instance)``
returning ``(what, the one command that builds it, about how many seconds)`` or None — cheap
(a file's existence), never building anything (``idastar-pdb``: its pattern databases not in
the cache, ``search.pdb_preparation``). It lives beside the solver, not in its module, so the
solver's code digest (its runs' keys) does not move for a question no run asks. What builds in
about a minute or less is built once, here, before any run starts, by the command that builds
it, with its time said; anything longer refuses the study with that one command
(:class:`PreparationError`, one line and exit status 2 at the command line). Either way no run
pays for it in its timed phase, nor is stored as a timeout because of it.
"""

from __future__ import annotations

import importlib
import shlex
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass

from puzzlebench.harness.campaign.design.study import RunSpec
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems.base import PuzzlebenchError

#: Project solvers that may need something built first: solver name → ``module:function``.
PREPARERS = {"idastar-pdb": "puzzlebench.search.pattern_databases.pdb_preparation:unprepared"}
#: Preparations estimated at most this long (seconds) are built before the first run; longer
#: ones refuse the study with their command.
AUTO_BUILD_S = 60.0


@dataclass(frozen=True, slots=True)
class Preparation:
    """Something a solver needs built before its runs: what, the one command that builds it,
    and about how long that takes (seconds, on this project's machine)."""

    what: str
    command: str
    estimate_s: float


class PreparationError(PuzzlebenchError, RuntimeError):
    """A study whose solvers need something built first that takes too long to build here
    unasked (or whose build failed): the message names the one command that builds it."""


def needed(specs: Iterable[RunSpec]) -> list[Preparation]:
    """What the runs ``specs`` need built and is not, each once (in the runs' order)."""
    found: dict[str, Preparation] = {}
    asked: set[tuple[str, str, str]] = set()
    for spec in specs:
        ask = (spec.solver, repr(sorted(spec.params.items())), spec.instance_id)
        if ask in asked:
            continue
        asked.add(ask)
        solver = resolve_solver(spec.solver)
        where = PREPARERS.get(solver.name)
        if where is None or solver.origin not in ("handwritten", "baseline"):
            continue  # a plugin's code runs only in its own runs
        module, _, function = where.partition(":")
        said = getattr(importlib.import_module(module), function)(spec.params, spec.instance())
        if said is not None:
            what, command, estimate = said
            found.setdefault(str(command), Preparation(str(what), str(command), float(estimate)))
    return list(found.values())


def prepare(specs: Iterable[RunSpec], *, quiet: bool = False) -> list[Preparation]:
    """Build what the runs ``specs`` need before the first of them (see the module doc); the
    preparations made. Raises PreparationError, naming the command, for one too long to make
    here, or one whose build failed."""
    todo = needed(specs)
    long = [p for p in todo if p.estimate_s > AUTO_BUILD_S]
    if long:
        p = long[0]
        raise PreparationError(
            f"{p.what} are not built (about {p.estimate_s / 60:.0f} min); build them once with "
            f"`{p.command}`, then run the study again — its runs never build them")
    for p in todo:
        if not quiet:
            print(f"preparing {p.what} before the first run (about {p.estimate_s:.0f} s, "
                  f"once): {p.command}", file=sys.stderr)
        started = time.perf_counter()
        argv = shlex.split(p.command)
        done = subprocess.run([sys.executable, "-m", *argv], capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise PreparationError(f"preparing {p.what} failed ({tail[0]}); run `{p.command}`")
        if not quiet:
            print(f"prepared {p.what} in {time.perf_counter() - started:.1f} s",
                  file=sys.stderr)
    return todo
