"""What the two studies of Korf's boards share (``fifteen-puzzle``, ``twentyfour-puzzle``): the
study grid of a list of published instances, and a run's outcome as their tables show it."""

from __future__ import annotations

from typing import Any

import pandas as pd

from puzzlebench.records.record import Outcome


def korf_grid(name: str, starts: list[tuple[int, ...]], goal: tuple[int, ...], size: int,
              limit: float, solvers: list[dict[str, Any]]) -> dict[str, Any]:
    """The study file's dictionary: ``solvers`` on the sliding boards ``starts`` (published
    instances of ``size`` tiles, all towards ``goal``) under ``limit`` seconds each."""
    return {"study": {"name": name, "master_seed": 0, "time_limit": limit, "memory_limit_mb": 4096},
            "problems": [{"problem": "sliding", "sizes": [size],
                          "starts": [",".join(map(str, s)) for s in starts],
                          "goal": ",".join(map(str, goal))}],
            "solvers": solvers}


def outcome_shown(run: pd.Series) -> str:
    """A run's outcome, with "(not verified)" where it claimed an answer the judge did not
    verify (the published length is the check)."""
    solved = run["outcome"] == Outcome.SOLVED
    return str(run["outcome"]) + (" (not verified)" if solved and not run["success"] else "")
