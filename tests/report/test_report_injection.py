"""Issue 53 items 11 and 12: no string a run, a plugin or a study file supplies becomes a link,
an image, raw HTML or a table column in ``report.md``, nor a spreadsheet formula in
``tables/*.csv``; ordinary text carries no HTML entities there."""

from __future__ import annotations

import csv
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from puzzlebench.contract import Budget
from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
from puzzlebench.harness.execute import run_solve
from puzzlebench.records.claims import Claim
from puzzlebench.records.record import Outcome
from puzzlebench.report import write_report
from puzzlebench.report.render import md_cell, md_escape
from tests.conformance.cases import make

LINK = "[click](javascript:alert(1))"
IMAGE = "![pixel](http://evil.example/p.png)"
HTML = "<img src=x onerror=alert(1)>"
FORMULA = '=HYPERLINK("http://evil.example","x")'
HOSTILE = f"{LINK} {IMAGE} {HTML} a|b"


def hostile_records() -> list:
    """Honest runs, then one of each kind carrying the attack in every string it stores."""
    records = [run_solve(s, make("nqueens", n), seed=rep, budget=Budget(time_limit=5),
                         repeat=rep, study="t")
               for s in ("mod12", "backtracking") for n in (4, 5, 6) for rep in range(3)]
    base = records[0]
    records.append(base.with_(solver=f"{FORMULA} {LINK}", counters={HOSTILE: 3, "+cmd|x": 1},
                              params={HOSTILE: IMAGE, "p": FORMULA}))
    records.append(base.with_(solver=IMAGE, outcome=Outcome.CRASH, valid=False,
                              error=f"{HOSTILE}\n# heading", reason=f"-2+3 {HTML}"))
    records.append(base.with_(solver=HTML, outcome=Outcome.WRONG, valid=False,
                              reason=f"@SUM(1) {LINK}", instance_id=f"{FORMULA} {IMAGE}"))
    return records


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hostile") / "report"
    claim = Claim(says=f"{HOSTILE} p < 0.001 & more", better="mod12", than="backtracking",
                  on="time")
    write_report(records_to_frame(hostile_records()), out, title=f"# {IMAGE}",
                 description=f"{HOSTILE}\n[x]: http://evil.example\n<script>alert(1)</script>",
                 claims=[claim])
    return out


def test_markdown_keeps_every_user_string_inert(hostile_report: Path) -> None:
    from markdown_it import MarkdownIt

    text = (hostile_report / "report.md").read_text(encoding="utf-8")
    assert "p < 0.001 & more" in text and "&lt;" not in text and "&amp;" not in text
    parser = _Tags()
    parser.feed(MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(text))
    links = [a.get("href") or "" for t, a in parser.tags if t == "a"]
    images = [a.get("src") or "" for t, a in parser.tags if t == "img"]
    assert links and all(re.fullmatch(r"tables/[\w.-]+\.csv", h) for h in links), links
    assert images and all(re.fullmatch(r"figures/[\w.-]+\.png", s) for s in images), images
    assert not {t for t, _ in parser.tags} & {"script", "b", "i", "iframe"}
    for block in re.split(r"\n\s*\n", text):  # every table row has its header's columns
        rows = [r for r in block.splitlines() if r.startswith("|")]
        widths = {len(re.findall(r"(?<!\\)\|", r)) for r in rows}
        assert len(widths) <= 1, rows
    assert "javascript:alert(1)" in text  # shown as text, not dropped


@pytest.mark.parametrize("text,shown", [
    ("p < 0.001", "p < 0.001"), ("Korf & Hanan", "Korf & Hanan"), ("time_s", "time_s"),
    ("see `a | b`", "see `a | b`"), ("-0.5", "-0.5"), (LINK, r"\[click\](javascript:alert(1))"),
    ("<b>", r"\<b>"), ("&lt;", r"\&lt;"), ("# x", r"\# x"), ("1. x", r"1\. x"),
])
def test_md_escape_uses_backslashes_not_entities(text: str, shown: str) -> None:
    assert md_escape(text) == shown


def test_a_cell_keeps_intervals_and_breaks_links() -> None:
    assert md_cell("0.1 [0.05, 0.2]") == "0.1 [0.05, 0.2]"
    assert md_cell(IMAGE) == r"![pixel\](http://evil.example/p.png)"
    assert md_cell("[x]: http://e") == r"[x\]: http://e" and md_cell("`a|b`") == r"`a\|b`"


def test_the_markdown_template_prints_nothing_unescaped() -> None:
    """The one choke point: every value report.md prints goes through an md filter (or is a
    macro made of them)."""
    template = Path(__file__).resolve().parents[2] / "src/puzzlebench/report/templates/report.md.j2"
    printed = re.findall(r"\{\{(.*?)\}\}", template.read_text(encoding="utf-8"))
    assert printed
    bare = [p for p in printed if not re.search(r"\|\s*md(_cell|_path)?\s*$", p)
            and not re.fullmatch(r"\s*(table|link)\(.*\)\s*", p)]
    assert not bare, bare


def test_csv_tables_hold_no_formula_and_keep_numbers(hostile_report: Path) -> None:
    """Item 12: every text cell of tables/*.csv a spreadsheet would run is neutralised with a
    leading quote (OWASP); negative numbers stay numbers."""
    starts = ("=", "+", "-", "@", "\t", "\r")
    seen_neutralised = False
    for path in sorted((hostile_report / "tables").glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as f:
            for row in csv.reader(f):
                for cell in row:
                    seen_neutralised |= cell.startswith("'=") or cell.startswith("'@")
                    if cell.lstrip(" ").startswith(starts) and cell != "-":
                        float(cell)  # only a number may start so
    assert seen_neutralised  # the hostile names reached the tables, as text


def test_store_export_neutralises_formulas(tmp_path: Path) -> None:
    import pandas as pd

    from puzzlebench.harness.campaign.storage.exports import export, write_csv
    from puzzlebench.harness.campaign.storage.store import Store
    from puzzlebench.records.record import inert_cell

    db = tmp_path / "s.sqlite"
    with Store(db) as store:
        for i, record in enumerate(hostile_records()):
            store.add(f"k{i}", record)
    text = export(db, "csv", None)
    assert text is not None
    cells = [c for row in csv.reader(text.splitlines()) for c in row]
    assert f"'{FORMULA} {LINK}" in cells and not any(c.startswith("=") for c in cells)
    frame = pd.DataFrame({"x": [-1.5, 2.0], "t": ["-0.5", "@cmd"], "=h": ["a", "+1+1"]})
    back = pd.read_csv(pd.io.common.StringIO(write_csv(frame)))
    assert list(back["x"]) == [-1.5, 2.0] and list(back["t"]) == ["-0.5", "'@cmd"]
    assert list(back.columns) == ["x", "t", "'=h"] and list(back["'=h"]) == ["a", "'+1+1"]
    assert [inert_cell(v) for v in ("\t=1", " =1", "-", 3, "x=1")] == ["'\t=1", "' =1", "-", 3,
                                                                        "x=1"]
