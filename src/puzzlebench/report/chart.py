"""A figure as data: what to draw, independent of how (PNG through matplotlib, interactive HTML
through plotly). Every figure of a report is built once as a :class:`Chart` and rendered by
both back ends, so the PNG beside the Markdown and the interactive HTML show the same series,
axes and facets.

Layout rules every chart follows:

* an axis is logarithmic when its positive data span more than two decades (``axis_scale``);
* more than :data:`MAX_SERIES` series are split into small multiples: one panel per solver
  family (``astar-h1`` and ``astar-h2`` share a panel), families packed together up to the
  limit; panels share their axes so they can be compared;
* a series with nothing to draw keeps its legend entry, with the reason (``note``) — no
  series disappears silently.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: The most series in one panel before a chart is split into small multiples.
MAX_SERIES = 8


@dataclass(frozen=True)
class Series:
    """One line (or step curve) of a chart, named by its configuration label.

    ``hover`` holds one dict per point (instance, seed, runs, …) shown on hover in the HTML;
    ``points`` optional per-run scatter (x, y, hover dicts) drawn faintly under the line;
    ``band`` an optional (low, high) range shaded around the line."""

    label: str
    x: np.ndarray
    y: np.ndarray
    hover: tuple[dict[str, str], ...] = ()
    step: bool = False
    band: tuple[np.ndarray, np.ndarray] | None = None
    points: tuple[np.ndarray, np.ndarray, tuple[dict[str, str], ...]] | None = None
    note: str = ""
    reference: bool = False
    #: Points only, no line between them (held-out observations, for example).
    markers_only: bool = False

    @property
    def empty(self) -> bool:
        return not bool(np.isfinite(np.asarray(self.y, float)).any())


@dataclass(frozen=True)
class Panel:
    """One panel; ``ylabel`` replaces the chart's where the panels do not share a y axis."""

    title: str
    series: tuple[Series, ...]
    ylabel: str = ""


@dataclass(frozen=True)
class Chart:
    """A figure: its file stem, caption, axes and panels (one panel unless faceted). The
    panels share their x axis, and their y axis unless ``share_y`` is False (panels of
    different quantities, each with its ``ylabel``)."""

    slug: str
    caption: str
    xlabel: str
    ylabel: str
    panels: tuple[Panel, ...]
    xscale: str = "linear"
    yscale: str = "linear"
    ylim: tuple[float, float] | None = None
    invert_x: bool = False
    value_name: str = "value"
    share_y: bool = True
    #: Panels share their axes (False when each panel plots its own measure and range).
    share_axes: bool = True


def axis_scale(values: np.ndarray | list[float], *, symlog_zero: bool = False) -> str:
    """``log`` when the positive finite values span more than two decades, else ``linear``;
    with ``symlog_zero`` a log-spanning axis that also holds zeros is ``symlog``."""
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    pos = v[v > 0]
    if pos.size < 2 or pos.max() / pos.min() <= 100:
        return "linear"
    if (v <= 0).any():
        return "symlog" if symlog_zero else "linear"
    return "log"


def facet(series: list[Series], family: Callable[[str], str],
          references: tuple[Series, ...] = ()) -> tuple[Panel, ...]:
    """One panel when there are at most MAX_SERIES series; otherwise panels by family, whole
    families packed into a panel up to MAX_SERIES (a larger family gets panels of its own).
    Reference series (e.g. the virtual best solver) appear in every panel."""
    if len(series) <= MAX_SERIES:
        return (Panel("", tuple(series) + references),)
    families: dict[str, list[Series]] = {}
    for s in series:
        families.setdefault(family(s.label), []).append(s)
    chunks: list[list[Series]] = []
    for members in families.values():
        for i in range(0, len(members), MAX_SERIES):
            part = members[i:i + MAX_SERIES]
            if chunks and len(chunks[-1]) + len(part) <= MAX_SERIES:
                chunks[-1].extend(part)
            else:
                chunks.append(list(part))
    panels = []
    for chunk in chunks:
        names = list(dict.fromkeys(family(s.label) for s in chunk))
        panels.append(Panel(", ".join(names), tuple(chunk) + references))
    return tuple(panels)
