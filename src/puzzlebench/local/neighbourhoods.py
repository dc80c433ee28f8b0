"""Seed 003's neighbourhoods, selectable by name in hill climbing and min-conflicts.

- ``swap``: exchange two pieces (two queens' columns; on a mixed board a queen and a knight
  exchange squares).
- ``row``: move one piece to another square of its own row (seed 003's "move a queen to a
  random row", with our rows and columns transposed).
- ``step``: move one piece one square (a queen ±1 column; on a mixed board any of the 8
  neighbouring squares).
- ``any``: seed 004's move — one piece to any free square (mixed boards only).
"""

from __future__ import annotations

NEIGHBOURHOODS: dict[str, int] = {"any": 0, "swap": 1, "row": 2, "step": 3}


def code(name: str) -> int:
    """The kernel code of a neighbourhood name (ValueError on an unknown name)."""
    try:
        return NEIGHBOURHOODS[name]
    except KeyError:
        raise ValueError(
            f"unknown neighbourhood {name!r}; known: {', '.join(NEIGHBOURHOODS)}"
        ) from None
