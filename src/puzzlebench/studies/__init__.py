"""Built-in studies: the seeds' experiments, each one command (``puzzlebench study NAME``).

Each module of this package defines ``STUDY``, a :class:`BuiltinStudy`: the study grid (full
and ``--quick``), and functions that turn the stored runs into sentences, tested findings and extra tables.
Every sentence is computed from the data; where the source study published figures, they are set
beside ours and differences are said.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.report.statistics.findings import Finding

Analysis = Callable[[pd.DataFrame], tuple[list[str], list[Finding]]]


def split_analysis(analysis: Analysis) -> tuple[Callable[[pd.DataFrame], list[str]],
                                                Callable[[pd.DataFrame], list[Finding]]]:
    """A study's ``narrative`` and ``findings`` from one function that computes both (the
    sentences that describe the runs, and the claims tested on them)."""
    def narrative(frame: pd.DataFrame) -> list[str]:
        return analysis(frame)[0]

    def findings(frame: pd.DataFrame) -> list[Finding]:
        return analysis(frame)[1]

    return narrative, findings


def wrong_or_crashed(frame: pd.DataFrame) -> str:
    """The sentence that closes a narrative: how many runs were judged wrong or crashed."""
    wrong = int(frame["outcome"].isin(["wrong", "crash"]).sum())
    return f"{wrong} runs were judged wrong or crashed."


@dataclass(frozen=True)
class BuiltinStudy:
    """A named study with its narrative and extra tables."""

    name: str
    #: The source study (one of the five documents the project comes from, 000–004) whose
    #: experiment this reproduces; "all" or a range for studies that draw on several; "" for
    #: a study of the project's own (nqueens-completion).
    source: str
    description: str
    #: The grids (study-file dictionaries), or functions that make them on use: a grid that
    #: asks the registry for every solver imports every solver module (numba, OR-Tools), which
    #: listing the studies (``puzzlebench studies``) must not pay for.
    full: dict[str, Any] | Callable[[], dict[str, Any]]
    quick: dict[str, Any] | Callable[[], dict[str, Any]]
    narrative: Callable[[pd.DataFrame], list[str]]
    extras: Callable[[pd.DataFrame], list[tuple[str, pd.DataFrame]]] = field(
        default=lambda frame: [])
    #: The claims the study tests on its runs (a source study's findings, or its own), one
    #: ``Finding`` per claim and size: the report's findings table.
    findings: Callable[[pd.DataFrame], list[Finding]] = field(default=lambda frame: [])

    @property
    def origin(self) -> str:
        """What the study reproduces, as titles and listings say it: "source study 000", "all
        source studies", or "" for a study of the project's own."""
        if self.source == "all":
            return "all source studies"
        return f"source study {self.source}" if self.source else ""

    def definition(self, quick: bool) -> dict[str, Any]:
        """The study file's dictionary of the quick or the full grid."""
        grid = self.quick if quick else self.full
        return grid() if callable(grid) else grid


def catalog() -> dict[str, BuiltinStudy]:
    """Every built-in study by name."""
    out = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        study = getattr(module, "STUDY", None)
        if isinstance(study, BuiltinStudy):
            out[study.name] = study
    return out


def get_study(name: str) -> BuiltinStudy:
    studies = catalog()
    if name not in studies:
        raise PuzzlebenchError(f"unknown study {name!r}; known: {', '.join(studies)}")
    return studies[name]
