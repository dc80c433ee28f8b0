"""Table cells as a reader sees them: counts as integers, even when a gap in their column made
pandas hold them as floats (the 24-puzzle table printed 68,828,400 nodes as ``6.88284e+07``)."""

from __future__ import annotations

import pandas as pd

from puzzlebench.report.render import table_rows


def test_a_column_of_counts_with_a_gap_prints_its_counts_whole() -> None:
    frame = pd.DataFrame([{"nodes": 68_828_400, "s": 18.4}, {"nodes": None, "s": 59.0}])
    assert frame["nodes"].dtype == float  # what pandas makes of it: the case at hand
    rows = table_rows(frame)["rows"]
    assert rows == [["68828400", "18.4"], ["", "59"]]


def test_fractions_keep_six_significant_digits() -> None:
    rows = table_rows(pd.DataFrame([{"x": 1 / 3}, {"x": 1.5e20}, {"x": 2.0 ** 60}]))["rows"]
    assert rows == [["0.333333"], ["1.5e+20"], ["1.15292e+18"]]
