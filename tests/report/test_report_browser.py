"""The HTML report in a real browser: headless Chromium through Playwright (pytest-playwright),
launched on Debian's ``chromium`` binary (no browser download; ``.ci/run`` installs it).

Checked on the 20-configuration synthetic store: the page loads offline (every network request
is blocked and none is attempted) with zero console errors; every chart has rendered marks;
hovering a data point shows its tooltip with the solver and parameters; hiding a series through
the legend removes its marks; a table sorts when its header is clicked, and filters. Screenshots
land in ``test-artifacts/``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from puzzlebench.report import write_report
from tests.report.synthetic import synthetic_store

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="Debian's chromium is not installed (.ci/run installs it)")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments, pointed at Debian's chromium."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True,
            "args": ["--no-sandbox", "--disable-gpu"]}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("browser-report")
    frame = synthetic_store(out / "synthetic.sqlite")
    return write_report(frame, out / "report", title="synthetic: 20 configurations")["html"]


@pytest.fixture
def loaded(page: Any, report: Path) -> tuple[Any, list[str], list[str]]:
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def route(r: Any) -> None:
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            requests.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(report.as_uri())
    page.wait_for_function("document.querySelectorAll('.js-plotly-plot .main-svg').length >= 6")
    return page, errors, requests


def test_page_loads_offline_and_every_chart_has_marks(loaded: tuple[Any, list[str], list[str]]
                                                      ) -> None:
    page, errors, requests = loaded
    charts = page.locator(".js-plotly-plot")
    assert charts.count() >= 6
    for i in range(charts.count()):
        marks = charts.nth(i).locator(".scatterlayer .trace path.js-line, "
                                      ".scatterlayer .trace path.point")
        assert marks.count() > 0, f"chart {i} drew nothing"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-top.png"))
    page.locator(".js-plotly-plot").first.screenshot(path=str(ARTIFACTS / "report-time-chart.png"))
    assert errors == [], errors
    assert requests == [], requests


def test_hover_shows_the_point_details(loaded: tuple[Any, list[str], list[str]]) -> None:
    page, errors, _ = loaded
    chart = page.locator("section.problem .js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    point = chart.locator(".scatterlayer .trace path.point").nth(5)
    box = point.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tip = chart.locator(".hoverlayer .hovertext")
    tip.first.wait_for(state="visible", timeout=5000)
    text = tip.first.text_content()
    assert "solver:" in text and "parameters:" in text, text
    assert re.search(r"size: \d+|instance: ", text), text
    chart.screenshot(path=str(ARTIFACTS / "report-hover.png"))
    assert errors == [], errors


def test_clicking_a_legend_entry_hides_that_series(loaded: tuple[Any, list[str], list[str]]
                                                   ) -> None:
    page, errors, _ = loaded
    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    count = "(el) => el.querySelectorAll('.scatterlayer .trace path.point').length"
    before = chart.evaluate(count)
    entry = chart.locator(".legend .traces").first
    name = entry.text_content()
    entry.click()
    page.wait_for_function(f"document.querySelector('.js-plotly-plot')"
                           f".querySelectorAll('.scatterlayer .trace path.point').length < {before}")
    hidden = chart.evaluate("(el) => el.data.filter(t => t.visible === 'legendonly')"
                            ".map(t => t.name)")
    assert name.strip() in hidden, (name, hidden)
    chart.screenshot(path=str(ARTIFACTS / "report-legend-hidden.png"))
    assert errors == [], errors


def _column(page: Any, table: str, header: str) -> list[str]:
    return page.evaluate(
        """([sel, head]) => { const t = document.querySelector(sel);
             const i = Array.from(t.tHead.rows[0].cells).findIndex(c => c.textContent === head);
             return Array.from(t.tBodies[0].rows).filter(r => !r.classList.contains('hidden'))
                    .map(r => r.cells[i].textContent); }""", [table, header])


def test_tables_sort_on_header_click_and_filter(loaded: tuple[Any, list[str], list[str]]) -> None:
    page, errors, _ = loaded
    head = page.locator("table.par2 th", has_text="PAR-2 s")
    values = [float(v) for v in _column(page, "table.par2", "PAR-2 s")]
    assert values != sorted(values)  # the table is sorted by solver, not by score
    head.click()
    assert [float(v) for v in _column(page, "table.par2", "PAR-2 s")] == sorted(values)
    head.click()
    assert [float(v) for v in _column(page, "table.par2", "PAR-2 s")] == sorted(values,
                                                                                  reverse=True)
    page.locator("table.par2").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "report-sorted-table.png"))
    box = page.locator('.table-tools input[aria-label="filter the legend table"]')
    box.fill("astar")
    shown = _column(page, "table.legend", "label")
    assert shown and all("astar" in s for s in shown) and len(shown) < 20
    assert errors == [], errors


@pytest.mark.slow  # slow tier: see docs/development.md
def test_a_report_with_the_shared_bundle_loads_offline(page: Any, tmp_path: Path) -> None:
    """The committed reports refer to one shared plotly.js (``assets/``, relative): it loads
    from the file beside them, with no network request, and the library is not embedded."""
    frame = synthetic_store(tmp_path / "synthetic.sqlite")
    html = write_report(frame, tmp_path / "reports" / "one", title="shared",
                        shared_assets=tmp_path / "reports" / "assets")["html"]
    text = html.read_text(encoding="utf-8")
    assert 'src="../assets/plotly-' in text and len(text) < 2_000_000
    bundles = list((tmp_path / "reports" / "assets").glob("plotly-*.min.js"))
    assert len(bundles) == 1 and bundles[0].stat().st_size > 1_000_000
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def route(r: Any) -> None:
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            requests.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.goto(html.as_uri())
    page.wait_for_function("document.querySelectorAll('.js-plotly-plot .main-svg').length >= 6")
    assert errors == [] and requests == []
