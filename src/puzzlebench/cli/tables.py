"""Tables that fit the terminal: the one place every command's table is shaped.

A table is described as columns and rows of text; :func:`show` fits it to the console's width
(80 columns when the output is piped and ``COLUMNS`` is unset, as ``gh`` and ``git`` do):

* a column empty in every row is dropped (``--wide`` keeps it);
* a *key* column (a solver's name) is never cut: it keeps its widest cell and never wraps,
  so the other cells give way first (they fold onto a second line);
* columns marked *repeatable* (one per instance, as in ``agree``) are split into several
  tables of the width, each repeating the key columns, rather than squeezed unreadable;
* a legend line under the table explains every term a newcomer cannot know
  (``cli.legend``), in the words of ``docs/concepts/outcomes.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Console
from rich.table import Table

from puzzlebench.host.terminal import output_width

#: Columns between two cells: a column's padding either side and the divider between.
GAP = 3
#: Width ``--wide`` prints at: every column at its natural width.
WIDE_WIDTH = 10_000


@dataclass(frozen=True)
class Column:
    """One column: its header; ``key`` never cut; ``repeatable`` may go to a second table."""

    header: str
    key: bool = False
    right: bool = False
    repeatable: bool = False


def width(wide: bool = False) -> int:
    """The width output is fitted to: ``COLUMNS`` when set, else the terminal's, else 80."""
    return WIDE_WIDTH if wide else output_width()


def console(wide: bool = False, stderr: bool = False) -> Console:
    """A console of the fitted width (never rich's default of 80 ignoring ``COLUMNS``)."""
    return Console(highlight=False, emoji=False, width=width(wide), stderr=stderr,
                   soft_wrap=False)


def _widths(columns: Sequence[Column], rows: Sequence[Sequence[str]],
            limit: int) -> Sequence[int | None]:
    """Each column's width when the table must shrink (None: its natural width). Key columns
    keep their widest cell; the others keep at least their longest word (up to 24) and share
    what is left: the smallest wishes whole first, then the rest in proportion (the 24 is
    lowered as far as 8 when the columns would not fit)."""
    natural = [max([len(c.header), *(len(r[i]) for r in rows)]) for i, c in enumerate(columns)]
    if sum(natural) + GAP * (len(columns) - 1) <= limit:
        return [None] * len(columns)
    longest = [max([len(w) for r in rows for w in r[i].split()]
                   + [len(w) for w in c.header.split()] or [1]) for i, c in enumerate(columns)]
    room = limit - GAP * (len(columns) - 1)
    for cap in (24, 20, 16, 12, 10, 8):  # words above the cap fold, as few as may be
        floor = [n if c.key else min(w, n, cap)
                 for c, n, w in zip(columns, natural, longest, strict=True)]
        if sum(floor) <= room:
            break
    spare = room - sum(floor)
    want = [0 if c.key else n - f for c, n, f in zip(columns, natural, floor, strict=True)]
    out = list(floor)
    # the smallest wishes first, granted whole while they fit: a short cell never folds to
    # make room for a long one that folds anyway; what is left is shared in proportion
    pending = sorted((w, i) for i, w in enumerate(want) if w > 0)
    while pending and pending[0][0] <= spare // len(pending):
        w, i = pending.pop(0)
        out[i] += w
        spare -= w
    total = sum(w for w, _ in pending)
    for w, i in pending:
        out[i] += w * spare // total
    return out


def _table(columns: Sequence[Column], rows: Sequence[Sequence[str]], title: str | None,
           limit: int) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                  title_justify="left")
    for col, size in zip(columns, _widths(columns, rows, limit), strict=True):
        table.add_column(col.header, no_wrap=col.key, overflow="fold", width=size,
                         justify="right" if col.right else "left")
    for row in rows:
        table.add_row(*row)
    return table


def _natural(columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> int:
    """The width a table needs with nothing folded (its cells, a gap between columns)."""
    return sum(max([len(c.header), *(len(r[i]) for r in rows)]) + GAP
               for i, c in enumerate(columns)) - GAP


def fit(columns: Sequence[Column], rows: Sequence[Sequence[str]], *, title: str | None = None,
        wide: bool = False, limit: int | None = None) -> list[Table]:
    """The tables that show ``rows`` within ``limit`` columns (default :func:`width`)."""
    limit = limit or width(wide)
    keep = [i for i, c in enumerate(columns)
            if wide or c.key or any(str(r[i]).strip() for r in rows)]
    cols = [columns[i] for i in keep]
    body = [[str(r[i]) for i in keep] for r in rows]
    fixed = [i for i, c in enumerate(cols) if not c.repeatable]
    spread = [i for i, c in enumerate(cols) if c.repeatable]
    if wide or not spread or _natural(cols, body) <= limit:
        return [_table(cols, body, title, limit)]
    groups: list[list[int]] = [[]]
    base = _natural([cols[i] for i in fixed], [[r[i] for i in fixed] for r in body])
    used = base
    for i in spread:
        need = _natural([cols[i]], [[r[i]] for r in body]) + GAP
        if groups[-1] and used + need > limit:
            groups.append([])
            used = base
        groups[-1].append(i)
        used += need
    out = []
    for n, group in enumerate(groups):
        chosen = fixed + group
        sub = [cols[i] for i in chosen]
        part = f"{title} ({n + 1} of {len(groups)})" if title else None
        out.append(_table(sub, [[r[i] for i in chosen] for r in body], part, limit))
    return out


def show(columns: Sequence[Column], rows: Sequence[Sequence[str]], *, title: str | None = None,
         wide: bool = False, legend: Sequence[str] = ()) -> None:
    """Print the fitted table(s), then the legend lines (wrapped to the width)."""
    out = console(wide)
    for n, table in enumerate(fit(columns, rows, title=title, wide=wide)):
        if n:
            out.print()  # a blank line between the parts of a split table
        out.print(table)
    for line in legend:
        out.print(line, markup=False, overflow="fold")


def say(text: str, *, wide: bool = False, stderr: bool = False) -> None:
    """One line (a verdict, a note) wrapped at word boundaries to the width."""
    console(wide, stderr=stderr).print(text, markup=False, overflow="fold")
