"""Instance options as a problem declares them, once, for every front end.

A problem lists its options (``Problem.options``); the CLI commands add one ``--NAME`` flag per
declared option, the study schema accepts the option's key in ``[[problems]]`` tables,
``compare`` and ``agree`` build their grids from it — so a new family adds its options here
and nowhere else.

``many`` options vary over a grid: a study or ``compare`` gives a list of values (a bare value
is a list of one) and makes one instance per value; ``solve``/``check``/``count`` take one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from puzzlebench.problems.errors import InvalidInstanceError


@dataclass(frozen=True, slots=True)
class ProblemOption:
    """One instance option: its ``make`` keyword (and CLI flag ``--NAME``), its help, how a
    value is read, and how studies and ``compare`` grid over it."""

    name: str
    help: str
    #: Reads one value from command-line text or study data (raises InvalidInstanceError);
    #: returns the JSON value stored in run keys and passed to ``Problem.make``.
    parse: Callable[[Any], Any]
    #: Its key in a study's ``[[problems]]`` table (default: ``name``).
    study_key: str = ""
    #: A grid axis: a list of values in studies and compare, one instance per value.
    many: bool = False
    #: How several values are written on one command-line flag (``compare``, ``agree``).
    separator: str = ","
    #: Needed by every instance (the CLI and the study schema say so when it is missing).
    required: bool = False
    #: Integer grids: ``A..B`` in flag text stands for every value from A to B.
    ranges: bool = False

    @property
    def key(self) -> str:
        return self.study_key or self.name

    def values(self, data: Any, where: str) -> list[Any]:
        """A grid option's values from study data (list or bare value) or flag text."""
        if isinstance(data, str):
            items: list[Any] = []
            for tok in (t.strip() for t in data.split(self.separator) if t.strip()):
                low, dots, high = tok.partition("..")
                if self.ranges and dots and low.strip().isdigit() and high.strip().isdigit():
                    if int(high) - int(low) > 100_000:
                        raise InvalidInstanceError(f"{where}: range {tok!r} is too long")
                    items.extend(range(int(low), int(high) + 1))
                else:
                    items.append(tok)
        elif isinstance(data, list):
            items = data
        else:
            items = [data]
        if not items:
            raise InvalidInstanceError(f"{where}: at least one value is required")
        try:
            return [self.parse(v) for v in items]
        except InvalidInstanceError as exc:
            raise InvalidInstanceError(f"{where}: {exc}") from None


def text(value: Any) -> str:
    """A string option (the problem's ``make`` checks its content)."""
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise InvalidInstanceError(f"expected text, got {value!r}")
    return str(value).strip()


def count(value: Any) -> int:
    """A non-negative integer given as an int or as digits."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise InvalidInstanceError(f"expected an integer ≥ 0, got {value!r}")
