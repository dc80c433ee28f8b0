"""The judge's published counts (OEIS A000170 and A002562), read from a data file only the
judge's process reads.

A run that could read these could "count" by looking the answer up: a plugin that read them
out of the installed package was judged ``solved``, verified, in 8 ms, and ``agree`` agreed.
So they are not Python constants any solver can import: they live in ``data/judge/``, are
read on first use (by the judge, never at import, so the fork server and the runs it forks
never hold them), and a sealed run sees an empty directory there (``harness.run.sealed.sandbox`` mounts
one over it). An unsealed run (sandbox off or unavailable: its record says so) can still read
the file; a run forked from the harness itself (a solver class that exists only in the
harness's memory) inherits what the harness has read.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from pathlib import Path

#: The directory of the judge's own data, hidden from sealed runs.
JUDGE_DATA = Path(str(files("puzzlebench.problems").joinpath("data/judge")))


class JudgeDataUnavailableError(LookupError):
    """The judge's data cannot be read here (in a sealed run it is hidden on purpose)."""


@cache
def oeis(sequence: str) -> tuple[int, ...]:
    """An OEIS sequence's published terms, index n for board size n (index 0 unused)."""
    try:
        data = json.loads((JUDGE_DATA / "oeis.json").read_text(encoding="utf-8"))
        return tuple(int(v) for v in data[sequence]["values"])
    except (OSError, KeyError, ValueError) as exc:
        raise JudgeDataUnavailableError(f"the judge's table {sequence} cannot be read: {exc}") from None
