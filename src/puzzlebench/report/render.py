"""Rendering: Jinja2 templates (HTML autoescaped) around tables and figures."""

from __future__ import annotations

from typing import Any

import pandas as pd
from jinja2 import Environment, PackageLoader, select_autoescape

ENV = Environment(
    loader=PackageLoader("puzzlebench.report", "templates"),
    autoescape=select_autoescape(enabled_extensions=("html", "html.j2"), default=False),
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


def md_escape(text: Any) -> str:
    """Text safe in a Markdown table cell (no HTML, no column breaks)."""
    s = str(text)
    for a, b in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("|", "\\|"), ("\n", " ")):
        s = s.replace(a, b)
    return s


def table_rows(frame: pd.DataFrame) -> dict[str, Any]:
    """Columns and rows of a table as strings (the templates do the escaping)."""
    cols = [str(c) for c in frame.columns]
    rows = [[_cell(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    return {"columns": cols, "rows": rows}


#: Largest integer a float holds exactly (2^53): whole floats up to it print as integers.
_EXACT_INT = 2 ** 53


def _cell(v: Any) -> str:
    """A table cell as text: empty for a missing value; a whole float as the integer it is (a
    column of counts with a gap in it reaches here as floats: 68828400.0 must not read
    6.88284e+07); other floats to six significant digits."""
    if v is None or (isinstance(v, float) and v != v):
        return ""
    if isinstance(v, float):
        if v.is_integer() and abs(v) <= _EXACT_INT:
            return str(int(v))
        return f"{v:.6g}"
    return str(v)


ENV.filters["md"] = md_escape


def render(template: str, context: dict[str, Any]) -> str:
    return ENV.get_template(template).render(**context)
