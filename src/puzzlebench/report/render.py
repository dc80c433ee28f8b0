"""Rendering: Jinja2 templates around tables and figures. The HTML template is autoescaped;
the Markdown template passes every value it prints through one escaper (:func:`md_escape`,
the ``md``/``md_cell``/``md_path`` filters), so no string from a run, a plugin or a study file
becomes a link, an image, raw HTML or a table column there."""

from __future__ import annotations

import re
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

#: Characters escaped with a backslash wherever they stand outside a code span: link and image
#: brackets, emphasis, strike-through, the backslash itself, a table's column bar; ``<`` where
#: it could open a tag, a comment or an autolink; ``&`` where it would spell an entity; ``_``
#: unless it stands between two letters or digits (where it cannot emphasise).
_INLINE = re.compile(r"[\\\[\]*~|]|<(?=[A-Za-z/!?])|&(?=#?\w+;)|(?<![^\W_])_|_(?![^\W_])")
#: The same in a table cell, where a bracket is escaped only where it could close a link, an
#: image or a reference (``](``, ``][``, ``]:``): no reference is ever defined in the report
#: (text outside cells has every bracket escaped), so ``[0.1, 0.2]`` stays as written.
_INLINE_CELL = re.compile(r"[\\*~|]|\](?=[(\[:])|<(?=[A-Za-z/!?])|&(?=#?\w+;)"
                          r"|(?<![^\W_])_|_(?![^\W_])")
#: What makes a block of a line's start: a heading, a quote, a list item, a thematic break.
_BLOCK_START = re.compile(r"^(?:(#{1,6})(?=\s|$)|(>)|([-+])(?=\s|$)|-(?=[-\s]*$)"
                          r"|(\d{1,9})([.)])(?=\s|$))")
_BACKTICKS = re.compile(r"`+")
_BREAKS = re.compile(r"[\r\n\t\v\f\u2028\u2029]+")


def md_escape(text: Any, *, cell: bool = False) -> str:
    """``text`` as literal Markdown (CommonMark and GitHub's tables): links, images, raw HTML,
    autolinks, emphasis and block starts stay plain text, line breaks become spaces; a code
    span the text opens and closes stays one (its contents are literal already). ``cell``: a
    table cell, where a ``|`` ends the column even inside a code span. Backslashes, never HTML
    entities: ``p < 0.001`` stays as written."""
    s = _BREAKS.sub(" ", str(text)).strip()
    out: list[str] = []
    pos = 0
    runs = list(_BACKTICKS.finditer(s))
    i = 0
    while i < len(runs):
        opening = runs[i]
        close = next((j for j in range(i + 1, len(runs))
                      if len(runs[j].group()) == len(opening.group())), None)
        out.append(_escape_plain(s[pos:opening.start()], cell))
        if close is None:  # a lone run of backticks: literal
            out.append("\\`" * len(opening.group()))
            pos = opening.end()
            i += 1
            continue
        code = s[opening.start():runs[close].end()]
        out.append(code.replace("|", "\\|") if cell else code)
        pos = runs[close].end()
        i = close + 1
    out.append(_escape_plain(s[pos:], cell))
    escaped = "".join(out)
    return _BLOCK_START.sub(_escape_block_start, escaped, count=1)


def _escape_plain(s: str, cell: bool) -> str:
    return (_INLINE_CELL if cell else _INLINE).sub(lambda m: "\\" + m.group(), s)


def _escape_block_start(m: re.Match[str]) -> str:
    if m.group(4):  # "1." or "1)": the mark after the number
        return f"{m.group(4)}\\{m.group(5)}"
    return "\\" + m.group()


def md_cell(text: Any) -> str:
    """A table cell's text for the Markdown report (:func:`md_escape` with ``cell``)."""
    return md_escape(text, cell=True)


#: A path the report links to: a file it wrote, relative, of plain characters.
_REPORT_PATH = re.compile(r"[A-Za-z0-9_-]+(?:/[A-Za-z0-9_.-]+)*")


def md_path(path: Any) -> str:
    """A relative path the report wrote, as a link target; anything else is refused (a path is
    made of validated ids, never of free text)."""
    s = str(path)
    if not _REPORT_PATH.fullmatch(s) or ".." in s.split("/"):
        raise ValueError(f"not a report path: {s[:80]!r}")
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


ENV.filters.update(md=md_escape, md_cell=md_cell, md_path=md_path)


def render(template: str, context: dict[str, Any]) -> str:
    return ENV.get_template(template).render(**context)
