"""A study file's mistakes, collected as it is read and raised once, one line each (as
``cargo`` reports every error of a build, each with its "did you mean")."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from puzzlebench.harness.campaign.design.study import StudyError

__all__ = ["Mistakes", "StudyMistakesError", "check_keys", "did_you_mean"]


class StudyMistakesError(StudyError):
    """Every mistake found in a study, one line each (``lines``), raised once at the end."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


class Mistakes:
    """Collects the mistakes of a study as it is read: each ``check()`` block that raises
    adds its lines and reading goes on; ``raise_any`` raises them all as one error."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    @contextmanager
    def check(self) -> Iterator[None]:
        try:
            yield
        except StudyError as exc:
            self.lines.extend(getattr(exc, "lines", None) or [str(exc)])

    def raise_any(self) -> None:
        if self.lines:
            raise StudyMistakesError(self.lines) if len(self.lines) > 1 else StudyError(self.lines[0])


def did_you_mean(word: Any, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(word), sorted(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_keys(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    """Every unknown key of ``table`` at once, each with its "did you mean"."""
    lines = [f"{where}: unknown key {key!r}{did_you_mean(key, allowed)}"
             for key in table if key not in allowed]
    if lines:
        raise StudyMistakesError(lines)
