"""The first run on a fresh install says why it is slow: the compiled (numba) kernels are built
on first use and cached beside the package's modules, once per install and code version.

Measured on this project's 2-core machine (docs/development.md, "The first command"): README's
first command took :data:`FIRST_RUN_S` on a cold cache and :data:`WARM_RUN_S` once cached."""

from __future__ import annotations

import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]

#: README's first command (``compare nqueens --sizes 4..10``), cold cache and cached, seconds,
#: rounded up (idle 2-core machine, /usr/bin/time: a fresh clone installed with ``pip install .``
#: in a fresh virtual environment, 27.0 s cold at 2026-11-28 01:02 UTC; cached 8.9-9.7 s in
#: five invocations at 00:59 UTC; docs/development.md).
FIRST_RUN_S, WARM_RUN_S = 27, 10


def kernels_cold(package: Path = PACKAGE) -> bool:
    """Whether no compiled kernel of the package is cached yet (numba writes an index file,
    ``*.nbi``, into the ``__pycache__`` beside each module with cached kernels)."""
    return next(package.glob("**/__pycache__/*.nbi"), None) is None


def say_if_first_run(package: Path = PACKAGE) -> None:
    """One line on stderr (stdout stays clean for --json) when the kernels are not built yet."""
    if kernels_cold(package):
        print(f"puzzlebench: first run on this install — building the compiled kernels once "
              f"(about {FIRST_RUN_S} s for README's first command on 2 cores; about "
              f"{WARM_RUN_S} s once they are cached)", file=sys.stderr, flush=True)
