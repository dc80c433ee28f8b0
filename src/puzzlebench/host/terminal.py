"""The width terminal output is fitted to, for the CLI's tables and the harness's progress
lines alike: ``COLUMNS`` when set (piped output honours it too), else the terminal's width,
else 80 — the width a log, a pipe or a pasted capture is read at."""

from __future__ import annotations

import os
import shutil
import sys

#: Width of piped output when ``COLUMNS`` is unset.
PIPED_WIDTH = 80


def output_width(stream: object = None) -> int:
    """Columns to fit to (``stream``: the one written to, default stdout)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    stream = sys.stdout if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    if callable(isatty) and isatty():
        return shutil.get_terminal_size((PIPED_WIDTH, 24)).columns
    return PIPED_WIDTH


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` columns with an ellipsis (for a reason, never a name)."""
    return text if len(text) <= limit else text[:max(limit - 1, 0)] + "…"
