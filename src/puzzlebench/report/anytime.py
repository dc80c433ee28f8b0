"""Anytime analysis of stored traces: fixed-target (ERT), fixed-budget and run-length ECDFs.

Definitions (COCO / IOHprofiler conventions, minimisation of the conflict count):

* A run *hits* target t at the first trace point whose best is ≤ t (evaluations and seconds
  read from that point). A run that never hits t spent its whole effort: its final evaluation
  count (the ``evaluations`` counter, or its last trace point) and its run time.
* ERT(t) = (effort of all runs until they hit t or ended) / (number of runs that hit t) —
  Hansen et al.'s expected running time; ∞ when no run hit t.
* Fixed budget: the best-so-far value of each run at an evaluation budget, or at a time
  (median and IQR over runs; a run not yet evaluated at that budget has no value).
* Axes: ERT and the anytime score are computed against evaluations — the common unit
  (``contract.EFFORT_UNIT``: candidate states whose conflict count was computed, counted alike
  by every solver) — and against seconds (the run's own time), and each ranking sentence says
  which axis it ranks on. One figure per problem (the fixed-budget convergence against
  evaluations, a panel per size with enough runs to rank) stands for them all; the tables hold
  the rest. Runs under different budgets (a study's block with equal
  evaluations and one with equal time) are shown and ranked apart, per budget.
* ECDF: the fraction of (run, target) pairs hit within a budget (COCO's aggregated run-length
  distribution), over targets from the best start value of the group down to 0. Its area on
  a log₁₀ budget axis, normalised to [0, 1] over the plotted budget range, is the anytime
  score: 1 = every target hit at the smallest budget.

Groups are (problem, size, budget); within a group one curve per solver and parameter set. The
numbers are computed in ``report.anytime_statistics``; this module draws and tells them.
"""

from __future__ import annotations

import math
import statistics
import warnings
from typing import Any

import numpy as np
import pandas as pd

from puzzlebench.records.record import NOISE_FLOOR_S
from puzzlebench.report.chart import Chart, Panel, Series
from puzzlebench.report.series_styles import label_order
from puzzlebench.report.statistics.anytime_statistics import (
    AXES,
    RunTrace,
    anytime_scores,
    budgets_of,
    ert_table,
    group_runs,
    targets_of,
)
from puzzlebench.report.statistics.findings import MIN_SAMPLE


def _series(label: str, x: np.ndarray, y: np.ndarray, empty: str, *, step: bool = False,
            band: tuple[np.ndarray, np.ndarray] | None = None) -> Series:
    keep = np.isfinite(y)
    return Series(label, x[keep], y[keep], step=step, note=empty,
                  band=None if band is None else (band[0][keep], band[1][keep]))


def convergence_panel(runs: list[RunTrace], title: str) -> Panel:
    """One panel of a problem's convergence figure: per configuration the median best
    conflict count within each evaluation budget, the interquartile range shaded."""
    budgets = budgets_of(runs)
    series = []
    for config in sorted({r.config for r in runs}, key=label_order):
        mine = [r for r in runs if r.config == config]
        vals = np.array([[r.value_at(b) for b in budgets] for r in mine])
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns before a run starts
            med = np.nanmedian(vals, axis=0)
            lo, hi = np.nanpercentile(vals, 25, axis=0), np.nanpercentile(vals, 75, axis=0)
        series.append(_series(config, budgets, med, "no value recorded", band=(lo, hi)))
    return Panel(title, tuple(series))


def convergence_chart(problem: str, panels: list[Panel]) -> Chart:
    """A problem's anytime figure: one panel per size (and budget), sharing both axes."""
    return Chart(f"anytime_{problem.replace('-', '_')}",
                 f"{problem} — convergence: median best conflict count against "
                 f"{AXES['evaluations']}, the interquartile range shaded, one panel per size; "
                 "the ERT per target and the seconds axis are in the tables beside it.",
                 "evaluations", "best conflicts so far", tuple(panels),
                 xscale="log", yscale="symlog", value_name="median best")


def ert_display(table: pd.DataFrame, targets: list[int]) -> pd.DataFrame:
    """The ERT table as the report shows it: one row per solver, one column per shown target."""
    shown = sorted({targets[0], *[t for t in targets if t in (0, 1, 2, 5, 10, 20, 50, 100)]},
                   reverse=True)
    out = table[table["target"].isin(shown)].copy()
    out["ERT evaluations"] = out.apply(
        lambda r: "inf" if not math.isfinite(r["ERT evaluations"]) else
        f"{r['ERT evaluations']:,.0f} ({r['ERT s']:.3g} s, {r['hits']}/{r['runs']})", axis=1)
    wide = out.pivot(index="solver", columns="target", values="ERT evaluations")
    wide = wide[sorted(wide.columns, reverse=True)]
    wide.columns = [f"≤ {c}" for c in wide.columns]
    return wide.reset_index()


#: The headline's ranking columns: which axis each ranks on, in words.
FEWEST = "fewest evaluations to 0 conflicts (ERT in the common unit)"
FASTEST = "shortest time to 0 conflicts (ERT in seconds)"


def headline(runs: list[RunTrace], problem: str, size: int, block: str = "") -> dict[str, Any]:
    """One row of the anytime table: who reaches 0 conflicts with the fewest evaluations (the
    common unit) and who in the shortest time (orderings of ERTs, not significance tests), who
    comes next on each axis, and who stalls."""
    table = ert_table(runs, [0])

    def ranked(column: str, unit: str, fmt: str, floor: float = 0.0) -> tuple[str, str]:
        # seconds below the noise floor are scored at it, as in every time comparison: two
        # ERTs under it are not ordered, and the cell says so
        value = table[column].clip(lower=floor)
        finite = table.assign(_v=value)[np.isfinite(value)].sort_values("_v", kind="stable")
        said = [f"{r['solver']} (ERT {r[column]:{fmt}} {unit}, {r['hits']}/{r['runs']} runs)"
                for _, r in finite.head(2).iterrows()]
        if floor and len(finite) > 1 and finite["_v"].iloc[1] <= floor:
            said[0] += f"; not ordered: both below the {floor * 1e3:g} ms noise floor"
        return (said[0] if said else "-"), (said[1] if len(said) > 1 else "-")

    stalled = []
    for _, r in table[table["hits"] == 0].iterrows():
        mine = [x for x in runs if x.config == r["solver"]]
        final = sorted(int(x.best[-1]) for x in mine if x.best.size)
        seen = (f"final best median {statistics.median(final):g}, range {final[0]}–{final[-1]}"
                if final else "no intermediate values recorded")
        stalled.append(f"{r['solver']} ({seen})")
    first_e, next_e = ranked("ERT evaluations", "evaluations", ",.0f")
    first_s, next_s = ranked("ERT s", "s", ".3g", NOISE_FLOOR_S)
    row: dict[str, Any] = {"problem": problem, "n": size}
    if block:
        row["budget"] = block
    row.update({FEWEST: first_e, "next (evaluations)": next_e, FASTEST: first_s,
                "next (seconds)": next_s, "stalled (no run reached 0)": "; ".join(stalled) or "-"})
    return row


def anytime_sections(traces: pd.DataFrame, frame: pd.DataFrame
                     ) -> tuple[list[dict], list[tuple[str, pd.DataFrame]], pd.DataFrame,
                                list[str], list[Chart]]:
    """Per (problem, size, budget) with traced runs of ``frame``: (section data for the
    templates, tables to write as CSV, the headline table — one row per group —, notes, and
    one convergence figure per problem). Budgets split a group only when the runs were given
    more than one. Groups where some configuration has fewer than MIN_SAMPLE runs get no
    headline row and no panel, only one note per problem saying so (a figure that could only
    say "not enough data to rank" is not drawn)."""
    sections: list[dict] = []
    tables: list[tuple[str, pd.DataFrame]] = []
    rows: list[dict[str, Any]] = []
    notes: list[str] = []
    thin: dict[str, list[int]] = {}
    panels: dict[str, list[Panel]] = {}
    grouped = group_runs(traces, frame)
    blocks = sorted({r.block for runs in grouped.values() for r in runs})
    split = len(blocks) > 1
    for (problem, size), all_runs in sorted(grouped.items()):
        for b, block in enumerate(blocks if split else [""]):
            runs = [r for r in all_runs if r.block == block] if split else all_runs
            if not runs:
                continue
            targets = targets_of(runs)
            ert = ert_table(runs, targets)
            scores = anytime_scores(runs, targets)
            name = f"{problem.replace('-', '_')}_{size}" + (f"_b{b + 1}" if split else "")
            tables += [(f"anytime_{name}_ert", ert), (f"anytime_{name}_scores", scores)]
            title = f"{problem}, n = {size}" + (f", budget {block}" if split else "")
            sections.append({
                "title": title,
                "targets": f"{len(targets)} targets from {targets[0]} down to 0 conflicts",
                "ert": ert_display(ert, targets), "scores": scores})
            fewest = min(sum(r.config == c for r in runs) for c in {r.config for r in runs})
            if fewest < MIN_SAMPLE:
                thin.setdefault(problem, []).append(size)
            else:
                rows.append(headline(runs, problem, size, block if split else ""))
                panels.setdefault(problem, []).append(
                    convergence_panel(runs, title.removeprefix(f"{problem}, ")))
    for problem, sizes in thin.items():
        notes.append(f"{problem} n = {', '.join(map(str, sorted(set(sizes))))}: fewer than "
                     f"{MIN_SAMPLE} traced runs per configuration — not enough data to rank "
                     "anytime performance; the ERT tables list the runs as they are, and the "
                     "convergence figure leaves them out.")
    charts = [convergence_chart(problem, group) for problem, group in sorted(panels.items())]
    return sections, tables, pd.DataFrame(rows), notes, charts
