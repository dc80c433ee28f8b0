"""A one-shot command's fork server, started while the command line is still loading.

A `solve` or `count` of a small instance is over in milliseconds, but its run's process comes
from a fork server (``harness.run.forkserver``) that must first start Python and, for a compiled
solver, numba's compiler (0.8 s on the project's 2-core machine). Started only when the
command asks for its run, that start-up was the whole wait. The console script
(``puzzlebench.console``) therefore calls :func:`start_for` with the command line before it
loads the command-line code, so the server starts in parallel with the rest of the command.

It is a guess, and only a head start: the command line is read for the command and a
registered solver name (the registry's on-disk index says which module, and the module's
source says whether it uses numba; nothing is imported). The run itself asks for its server
as always (``fork_server``) and gets this one when the guess was right; a wrong guess costs
an idle server process that exits with the command. Nothing about the run changes: the same
server, the same request, the same sealing.

A ``compare`` starts the servers of the solvers it compares the same way (README's first
command: its two servers' start-up, a second of numba's among it, overlaps the command line's
loading and the registry's discovery of every solver).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

from puzzlebench.harness.run.forking.forkserver import fork_server
from puzzlebench.solvers.fingerprint import imports_numba
from puzzlebench.solvers.index import (
    ENTRY_POINT_GROUP,
    SOLVER_PACKAGES,
    indexed_module,
    indexed_names,
)

#: The commands that make exactly one run, and the solver each uses when none is named.
ONE_RUN_COMMANDS: dict[str, str | None] = {"solve": None, "count": "bitboard"}
SOLVER_OPTIONS = ("--solver", "-s")


def solver_named(argv: Sequence[str]) -> str | None:
    """The registered solver a one-run command line names (None: another command, help, or a
    solver given by file or reference)."""
    args = list(argv)
    if not args or args[0] not in ONE_RUN_COMMANDS or "--help" in args:
        return None
    name = ONE_RUN_COMMANDS[args[0]]
    for i, arg in enumerate(args):
        if arg in SOLVER_OPTIONS and i + 1 < len(args):
            name = args[i + 1]
        elif arg.startswith("--solver="):
            name = arg.partition("=")[2]
    return name if name and registered(name) else None


def registered(name: str) -> bool:
    """Whether ``name`` reads as a registered solver's name (not a file or a reference)."""
    return bool(name) and not any(c in name for c in ":/\\.")


def start_for_solvers(names: Iterable[str]) -> int:
    """Start the fork servers the runs of these registered solvers will ask for — a study's,
    before its store is read and its runs' tasks are made, so that the servers' start-up (a
    second for numba's) overlaps that work; how many servers they have (started now or
    before). The same guess as ``start_for``: names that are files or references are left to
    the runs. Never raises."""
    flags: set[bool] = set()
    for name in set(names):
        with contextlib.suppress(Exception):
            module = indexed_module(name, SOLVER_PACKAGES, ENTRY_POINT_GROUP) if registered(
                name) else None
            if module is not None:
                flags.add(imports_numba(module))
    started = 0
    for jit in sorted(flags):
        with contextlib.suppress(Exception):
            started += fork_server(jit=jit) is not None
    return started


def compared_solvers(argv: Sequence[str]) -> list[str] | None:
    """The registered solvers a ``compare`` command line will run: those its ``--solvers``
    names, or every solver the registry's index holds when it names none (README's first
    command: each of its two kinds of server is then needed). None: another command, help,
    or no usable index."""
    args = list(argv)
    if not args or args[0] != "compare" or "--help" in args:
        return None
    for i, arg in enumerate(args):
        value = (args[i + 1] if arg == "--solvers" and i + 1 < len(args)
                 else arg.partition("=")[2] if arg.startswith("--solvers=") else None)
        if value is not None:
            return [n.strip() for n in value.split(",") if n.strip()]
    names = indexed_names(SOLVER_PACKAGES, ENTRY_POINT_GROUP)
    return sorted(names) if names else None


def start_for(argv: Sequence[str]) -> bool:
    """Start the fork server the command line's run will ask for (a ``compare``: each server
    its solvers will ask for); whether one was started. Never raises: the command reports its
    own errors."""
    with contextlib.suppress(Exception):
        compared = compared_solvers(argv)
        if compared is not None:
            return start_for_solvers(compared) > 0
        name = solver_named(argv)
        if name is None:
            return False
        module = indexed_module(name, SOLVER_PACKAGES, ENTRY_POINT_GROUP)
        if module is None:
            return False
        return fork_server(jit=imports_numba(module)) is not None
    return False
