"""Charts as interactive plotly figures for the HTML report.

Why plotly (rather than Vega-Lite through altair): its legend hides a series on click (and
isolates one on double click) with no extra specification, hover, zoom and pan are built in,
and its JavaScript ships inside the Python wheel, so the report embeds it once and works
offline with no CDN and no download at install time. The price is size: the library is about
4.8 MB. A self-contained page therefore carries it gzip-compressed and base64-encoded (about
2 MB), and each figure's JSON likewise: a small loader (``LOADER``) unpacks them in the browser
with the standard ``DecompressionStream`` (Chrome 80, Firefox 113, Safari 16.4 and later) and
draws the figures; a 300-run report's page went from 8.4 MB to under 3 MB. Packed, a figure's
hover text cannot close its script element either. Plotly has no symmetric-log axis: a chart
drawn symlog in the PNG (best-so-far conflict counts, which reach 0) is linear in the HTML,
where zoom stands in for it.
Panels share both axes (``matches``), as in the PNG.

Hover on any point shows the configuration's label, solver and parameters, and the point's own
fields (size, instance, seed, value). A configuration's line, its per-run points and its band
share a legend group, so one click hides them all."""

from __future__ import annotations

import base64
import gzip
import html
import json
from functools import cache
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
from plotly.offline import get_plotlyjs
from plotly.subplots import make_subplots

from puzzlebench.report.chart import Chart, Series
from puzzlebench.report.out_folder import write_file
from puzzlebench.report.series_styles import SeriesStyles

PLOTLY_DASH = {"solid": "solid", "dashed": "dash", "dotted": "dot", "dashdot": "dashdot"}
PLOTLY_MARKER = {"o": "circle", "s": "square", "D": "diamond", "^": "triangle-up",
                 "v": "triangle-down", "P": "cross", "X": "x", "*": "star",
                 "<": "triangle-left", ">": "triangle-right", "": "circle"}
CONFIG = {"displaylogo": False, "responsive": True, "scrollZoom": False,
          "toImageButtonOptions": {"format": "svg"}}


@cache
def plotly_js() -> str:
    """The plotly.js bundle shipped with the plotly package."""
    return get_plotlyjs()


def packed(text: str) -> str:
    """``text`` gzip-compressed (no time stamp: the same text gives the same bytes) and
    base64-encoded, for a page to unpack with ``DecompressionStream``."""
    return base64.b64encode(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
                            ).decode("ascii")


@cache
def plotly_js_packed() -> str:
    """The plotly.js bundle, packed (``packed``) for a self-contained page."""
    return packed(plotly_js())


#: Unpacks the library (when the page embeds it) and then every figure, and draws them; a
#: browser without DecompressionStream gets a line in each figure's place naming the PNGs.
LOADER = """(function () {
  "use strict";
  var figures = document.querySelectorAll("script.plotly-figure");
  if (!window.DecompressionStream) {
    figures.forEach(function (el) {
      document.getElementById(el.dataset.target).textContent = "This browser cannot unpack the " +
        "interactive figure (it needs DecompressionStream); the PNG is under figures/.";
    });
    return;
  }
  function unpack(el) {
    var bytes = Uint8Array.from(atob(el.textContent.trim()), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }
  var lib = document.getElementById("plotly-js-packed");
  var ready = lib ? unpack(lib).then(function (code) {
    var script = document.createElement("script");
    script.textContent = code;
    document.head.appendChild(script);
  }) : Promise.resolve();
  ready.then(function () {
    figures.forEach(function (el) {
      unpack(el).then(function (text) {
        var spec = JSON.parse(text);
        Plotly.newPlot(el.dataset.target, spec.data, spec.layout, spec.config);
      });
    });
  });
})();"""


def plotly_bundle_name() -> str:
    """The shared bundle's file name, versioned by the plotly.js inside it
    (``plotly-<plotly.js version>.min.js``; the Python package's version is another one)."""
    from plotly.offline import get_plotlyjs_version  # only when a report is drawn: start-up

    return f"plotly-{get_plotlyjs_version()}.min.js"


def write_shared_bundle(assets: Path) -> Path:
    """Write the plotly.js bundle once into ``assets`` (kept when it is already there: one
    file per plotly version, whatever number of reports refer to it)."""
    path = assets / plotly_bundle_name()
    if not path.is_file() or path.stat().st_size == 0:
        assets.mkdir(parents=True, exist_ok=True)
        write_file(assets, path.name, plotly_js().encode())  # never through a symlink
    return path


def _hover_texts(s: Series, styles: SeriesStyles, fields: tuple[dict[str, str], ...],
                 n: int, chart: Chart, x: np.ndarray, y: np.ndarray) -> list[str]:
    st = styles.of(s.label)
    head = f"<b>{html.escape(s.label)}</b>"
    if not s.reference:
        head += (f"<br>solver: {html.escape(st.solver)}<br>parameters: "
                 f"{html.escape(st.parameters)}")
    out = []
    for i in range(n):
        extra = fields[i] if i < len(fields) else {f"{chart.xlabel}": f"{x[i]:.6g}",
                                                     chart.value_name: f"{y[i]:.6g}"}
        out.append(head + "".join(f"<br>{html.escape(k)}: {html.escape(v)}"
                                  for k, v in extra.items()))
    return out


def _traces(s: Series, styles: SeriesStyles, chart: Chart, show_legend: bool) -> list[go.Scatter]:
    st = styles.of(s.label)
    colour, dash = st.colour, PLOTLY_DASH[st.dash]
    group = s.label
    traces: list[go.Scatter] = []
    if s.points is not None and len(s.points[0]):
        px, py, fields = s.points
        traces.append(go.Scatter(
            x=px, y=py, mode="markers", legendgroup=group, showlegend=False,
            name=html.escape(s.label),
            marker={"color": colour, "size": 5, "opacity": 0.35,
                    "symbol": PLOTLY_MARKER[st.marker]},
            text=_hover_texts(s, styles, fields, len(px), chart, px, py),
            hovertemplate="%{text}<extra></extra>"))
    x, y = np.asarray(s.x, float), np.asarray(s.y, float)
    if s.empty:
        traces.append(go.Scatter(x=[None], y=[None], mode="lines",
                                 name=html.escape(f"{s.label} ({s.note})"),
                                 legendgroup=group, showlegend=show_legend,
                                 line={"color": colour, "dash": dash}))
        return traces
    if s.band is not None:
        traces.append(go.Scatter(x=x, y=s.band[0], mode="lines", line={"width": 0},
                                 legendgroup=group, showlegend=False, hoverinfo="skip"))
        traces.append(go.Scatter(x=x, y=s.band[1], mode="lines", line={"width": 0},
                                 fill="tonexty", fillcolor=_rgba(colour, 0.15),
                                 legendgroup=group, showlegend=False, hoverinfo="skip"))
    traces.append(go.Scatter(
        x=x, y=y, mode="markers" if s.markers_only else "lines+markers" if len(x) <= 60
        else "lines", name=html.escape(s.label),
        legendgroup=group, showlegend=show_legend,
        line={"color": colour, "dash": dash, "shape": "hv" if s.step else "linear", "width": 2},
        marker={"symbol": PLOTLY_MARKER[st.marker], "size": 10 if s.markers_only else 7,
                "color": colour},
        text=_hover_texts(s, styles, s.hover, len(x), chart, x, y),
        hovertemplate="%{text}<extra></extra>"))
    return traces


def _rgba(hex_colour: str, alpha: float) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def _height(rows: int) -> int:
    """A figure's height in pixels: 380 per panel and the legend's room."""
    return 140 + 380 * rows


def figure(chart: Chart, styles: SeriesStyles) -> go.Figure:
    """The plotly figure of ``chart``: one row per panel, shared axes, one legend."""
    rows = len(chart.panels)
    # about 90 px between panels (plotly takes a fraction of the height, at most 1/(rows − 1):
    # a fixed 0.08 refused charts of more than 13 panels)
    fig = make_subplots(rows=rows, cols=1, shared_xaxes=chart.share_axes,
                        vertical_spacing=min(0.08, 90 / _height(rows)) if rows > 1 else 0.0,
                        subplot_titles=[html.escape(p.title) for p in chart.panels]
                        if rows > 1 else None)
    seen: set[str] = set()
    for row, panel in enumerate(chart.panels, start=1):
        for s in panel.series:
            for trace in _traces(s, styles, chart, s.label not in seen):
                fig.add_trace(trace, row=row, col=1)
            seen.add(s.label)
    axis_type = {"log": "log", "linear": "linear", "symlog": "linear"}
    fig.update_xaxes(type=axis_type[chart.xscale],
                     autorange="reversed" if chart.invert_x else True)
    fig.update_xaxes(title_text=chart.xlabel, row=rows, col=1)
    if chart.share_y and chart.share_axes:
        fig.update_yaxes(type=axis_type[chart.yscale], title_text=chart.ylabel, matches="y")
    else:
        for row, panel in enumerate(chart.panels, start=1):
            fig.update_yaxes(type=axis_type[chart.yscale], title_text=panel.ylabel or chart.ylabel,
                             row=row, col=1)
    if chart.ylim is not None:
        fig.update_yaxes(range=list(chart.ylim))
    fig.update_layout(height=_height(rows), template="plotly_white",
                      margin={"l": 70, "r": 20, "t": 40, "b": 60},
                      legend={"title": {"text": "click: hide · double-click: isolate"},
                              "itemsizing": "constant"},
                      hoverlabel={"align": "left"}, font={"size": 13})
    return fig


def chart_html(chart: Chart, styles: SeriesStyles, height: int | None = None) -> str:
    """A ``<div>`` for the chart and its figure packed (``packed``) in a data block that
    ``LOADER`` draws; the div id is the chart's slug, so the same data gives the same bytes.
    ``height`` (pixels) replaces the figure's own (the key figure on the first screen)."""
    fig = figure(chart, styles)
    if height is not None:  # a narrow slot: the legend in rows above the plot, not beside it
        fig.update_layout(height=height, margin={"t": 60},
                          legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0,
                                  "title": {"text": ""}, "font": {"size": 11}})
    spec = json.loads(fig.to_json())
    spec["config"] = CONFIG
    target = f"chart-{chart.slug}"
    return (f'<div id="{target}" class="plotly-graph-div" '
            f'style="height:{int(fig.layout.height)}px; width:100%;"></div>\n'
            f'<script type="application/octet-stream" class="plotly-figure" '
            f'data-target="{target}">{packed(json.dumps(spec, separators=(",", ":")))}</script>')
