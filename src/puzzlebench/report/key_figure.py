"""The HTML report's key figure on its first screen, beside the answer and the claims: one
panel, short enough that a 1280×900 window holds the three."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from puzzlebench.report.chart import Chart

#: The key figure's height on the HTML page's first screen (1280×900 holds the answer, the
#: claims table and this figure side by side).
TOP_FIGURE_HEIGHT = 470


def top_figure(convergence: Chart | None, ranks: Chart | None,
               html_of: Callable[[Chart], str]) -> dict[str, str] | None:
    """The HTML page's key figure, beside the answer: the last panel (the largest size) of
    the first convergence view where traces rank anytime performance, else the first
    critical-difference chart; None when the report has neither. Its own slug, so the full
    figure below keeps its id."""
    if convergence is not None:
        panel = convergence.panels[-1]
        chart = replace(convergence, slug=f"{convergence.slug}-key", panels=(panel,),
                        caption=f"{convergence.caption} ({panel.title}; every panel below, "
                                "under Anytime performance)")
    elif ranks is not None:
        chart = replace(ranks, slug=f"{ranks.slug}-key")
    else:
        return None
    return {"caption": chart.caption, "html": html_of(chart)}
