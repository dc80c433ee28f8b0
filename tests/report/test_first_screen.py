"""The HTML report's first screen (1280×900): the answer, the claims table and the key figure
side by side, before anything else. Checked on the page's structure (no browser): what the
answer box opens with, in which order, the grid that puts the figure beside the text, and a
key figure short enough for the screen."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd

from puzzlebench.report import write_report
from puzzlebench.report.key_figure import TOP_FIGURE_HEIGHT
from puzzlebench.report.statistics.claim_tests import CLAIM_COLUMNS
from tests.report.test_answer import claim, clear_best, frame_of


class Outline(HTMLParser):
    """The page's landmarks in document order: (tag, id or class, depth)."""

    WATCHED = frozenset({"h1", "h2", "h3", "ul", "table", "figure", "section", "div", "p"})

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.items = 0, []
        self.key_div_style = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag in self.WATCHED:
            self.items.append((tag, a.get("id") or a.get("class") or "", self.depth))
        if tag == "div" and "plotly-graph-div" in (a.get("class") or "") \
                and str(a.get("id", "")).endswith("-key"):
            self.key_div_style = a.get("style") or ""
        if tag not in ("meta", "input", "br", "img", "link"):
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("meta", "input", "br", "img", "link"):
            self.depth -= 1


def outline(html: str) -> Outline:
    body = html.split("<body>", 1)[1]
    parser = Outline()
    parser.feed(body)
    return parser


def test_the_first_screen_holds_the_answer_the_claims_and_the_key_figure(tmp_path: Path) -> None:
    frame = frame_of(tmp_path, clear_best(np.random.default_rng(7), repeats=5))
    out = tmp_path / "rep"
    write_report(frame, out, title="golden", description="fast, mid and slow",
                 claims=[claim(), claim(better="slow", than="fast")])
    html = (out / "report.html").read_text(encoding="utf-8")
    page = outline(html)
    tags = [(tag, name) for tag, name, _ in page.items]
    # before the answer box: the title and the description only
    assert tags[:3] == [("h1", ""), ("p", "description"), ("section", "answer")]
    top = tags.index(("div", "answer-top with-figure"))
    assert top == 3, tags[:6]
    # the box opens with the text column (the answer, its sentences, the claims table) and
    # the key figure beside it, before the ranking, the findings or any other table
    head = tags[top:top + 8]
    assert head[:5] == [("div", "answer-top with-figure"), ("div", "answer-text"), ("h2", ""),
                        ("ul", ""), ("h3", "")], head
    assert ("table", "sortable claims") in head
    key_at = tags.index(("figure", "key-figure"))
    assert tags.index(("table", "sortable claims")) < key_at < tags.index(("table", "sortable ranking"))
    # the first table and the first figure of the page are the claims and the key figure
    assert next(t for t in tags if t[0] == "table") == ("table", "sortable claims")
    assert next(t for t in tags if t[0] == "figure") == ("figure", "key-figure")
    # the key figure is one panel, short enough for the screen, with an id of its own
    assert f"height:{TOP_FIGURE_HEIGHT}px" in page.key_div_style
    ids = re.findall(r'<div id="(chart-[^"]+)"', html)
    assert len(ids) == len(set(ids))
    # the grid that puts the figure beside the text (one column below 1000 px)
    assert re.search(r"\.answer-top\.with-figure \{ display: grid; grid-template-columns: "
                     r"minmax\(0, \d+fr\) minmax\(0, \d+fr\)", html)
    assert "@media (max-width: 1000px)" in html
    # the claims' sentences are in the answer, and the figure's PNG is in report.md as before
    text = html[html.index('class="answer-text"'):html.index('id="key-figure"')]
    assert "fast beats slow on time: confirmed" in text
    assert "slow beats fast on time: contradicted" in text
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "figures/cd_nqueens.png" in md
    # tables/claims.csv: one row per claim; report.md carries the claims with no HTML entity
    table = pd.read_csv(out / "tables" / "claims.csv")
    assert list(table.columns) == CLAIM_COLUMNS and len(table) == 2
    assert list(table["verdict"]) == ["confirmed", "contradicted"]
    assert table.loc[0, "ci_low"] <= table.loc[0, "effect"] <= table.loc[0, "ci_high"]
    answer_box = md.split("## Details")[0]
    assert "### Claims" in answer_box and "fast beats slow on time: confirmed" in answer_box
    assert "&lt;" not in md and "&gt;" not in md


def test_without_a_figure_the_answer_takes_the_whole_width(tmp_path: Path) -> None:
    """One solver: no ranking chart, no key figure, no grid of two columns."""
    frame = frame_of(tmp_path, [r for r in clear_best(np.random.default_rng(3))
                                if r.key.solver == "fast"])
    write_report(frame, tmp_path / "rep", title="alone")
    tags = [(t, n) for t, n, _ in outline((tmp_path / "rep" / "report.html").read_text()).items]
    assert ("div", "answer-top") in tags and ("figure", "key-figure") not in tags
