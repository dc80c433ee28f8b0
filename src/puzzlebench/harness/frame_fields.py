"""Type checks for the fields of the frames a run sends: a field the run got wrong makes that
run a crash, never the harness's traceback."""

from __future__ import annotations


def number(value: object) -> float | None:
    """A finite, non-negative number from a frame field, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 <= value < float("inf") else None
