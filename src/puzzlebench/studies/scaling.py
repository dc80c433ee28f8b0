"""How cost grows with size, measured: the seeds' and the literature's scaling questions on
this machine (issue 54), answered by the report's scaling fits (``report.scaling``) and the
study's own scaling claims.

* min-conflicts (Minton et al. 1992) from Minton's greedy start on n-queens, n = 64..2^20
  (every power of four, 20 runs each: the median of five runs of a count this spread moved
  the held-out checks more than n did): repairs and evaluations, to test their "about the same
  repairs at every n";
* row-by-row backtracking's nodes to the first solution (seed 003), with Knuth's estimate of
  the whole tree beside the exact count (n ≤ 14) at every size the runs measured, the
  estimate fitted as a scaling series of its own beside the runs' measured nodes;
* the counting solvers (bitboard, constellations) counting every solution, n = 8..17;
* A* with H1, H2 and H3 over seed 000's sizes, n = 8..16.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from puzzlebench.studies import BuiltinStudy
from puzzlebench.studies.measurement import SHORT_RUNS_MIN_TIME

if TYPE_CHECKING:
    from puzzlebench.report.statistics.scaling_models import ScalingFit  # types only

#: The board every part of the study is on (its grid names it; the tables filter by it).
QUEENS = "nqueens"
#: min-conflicts from Minton's greedy start, never restarting within these runs: its repairs
#: are its own, not a restart's.
MINTON = {"start": "greedy", "restart_after": 10**9, "max_repairs": 10**9}
#: Knuth's probes per size, and the independent estimates they are split into (the scaling
#: fit's "runs": its median and bootstrap are over these).
KNUTH_PROBES, KNUTH_GROUPS = 1000, 5
#: The largest n whose whole tree is counted exactly (n = 16 takes about 40 s).
EXACT_MAX = 14
#: The exponent below which repairs count as "about the same at every n" (the claim's bound).
NEAR_CONSTANT = 0.2
#: What the fitted Knuth series is called in tables and sentences.
KNUTH_LABEL = "Knuth's estimate (whole tree)"


def powers(low: int, high: int, base: int) -> str:
    """``low, base·low, base²·low, ... high`` as a study's size list."""
    out = [low]
    while out[-1] * base <= high:
        out.append(out[-1] * base)
    return ",".join(map(str, out))


def _grid(mc: str, mc_max: int, mc_repeats: int, bt_max: int, count_max: int, astar_max: int,
          repeats: int) -> dict[str, Any]:
    return {
        "study": {"name": "scaling", "master_seed": 54, "repeats": repeats, "time_limit": 20.0,
                  "min_time": SHORT_RUNS_MIN_TIME,
                  "description": "How cost grows with size (issue 54)"},
        "problems": [{"problem": "nqueens", "sizes": f"8..{bt_max}"},
                     {"problem": "nqueens", "sizes": mc},
                     {"problem": "nqueens", "sizes": f"8..{count_max}", "task": "count"}],
        "solvers": [
            {"name": "min-conflicts", "params": MINTON, "min_size": 64, "max_size": mc_max,
             "repeats": mc_repeats},
            # 10 s, twice what n = 22 takes (1.74 M nodes, 4.6-5.0 s of pure Python): at 5 s
            # its five runs finished on one idle evening and hit the limit on the next morning
            {"name": "backtracking", "max_size": bt_max, "time_limit": 10.0},
            {"name": "bitboard", "max_size": count_max},
            {"name": "constellations", "max_size": count_max},
            {"name": "astar-h1", "max_size": astar_max, "time_limit": 2.0},
            {"name": "astar-h2", "max_size": astar_max, "time_limit": 2.0},
            {"name": "astar-h3", "max_size": astar_max, "time_limit": 10.0}],
        "claims": [
            {"on": "scaling", "solver": "min-conflicts", "measure": "repairs",
             "model": "polynomial", "at_most": NEAR_CONSTANT, "problem": "nqueens",
             "says": f"min-conflicts' repairs from Minton's greedy start grow at most as "
                     f"n^{NEAR_CONSTANT:g} (about the same at every n)"},
            {"on": "scaling", "solver": "min-conflicts", "measure": "evaluations",
             "model": "polynomial", "problem": "nqueens",
             "says": "min-conflicts' evaluations grow polynomially"},
            # nodes, not time: A* with H3 solves n = 8..11 below the 1 ms noise floor, where
            # every time is scored at the floor and a fitted curve would read the floor
            {"on": "scaling", "solver": "astar-h3", "measure": "nodes_generated",
             "model": "exponential", "problem": "nqueens",
             "says": "A* with H3's nodes generated grow exponentially"}],
    }


@cache
def knuth_probes(n: int) -> np.ndarray:
    """Knuth's probes of the classic backtracking tree for n queens, seeded by n (the
    estimate is their mean)."""
    # imported on use: the estimator's kernels load numba, which listing the studies never needs
    from puzzlebench.search.queens.knuth_estimate import probe
    rng = np.random.default_rng(n)
    return np.array([probe(n, rng) for _ in range(KNUTH_PROBES)])


def _backtracking_sizes(frame: pd.DataFrame) -> list[int]:
    """The sizes backtracking's runs were made at (n = 8..14 when it made none)."""
    bt = frame[(frame["solver"] == "backtracking") & (frame["problem"] == QUEENS)]
    return sorted(int(n) for n in bt["size"].unique()) or list(range(8, EXACT_MAX + 1))


def knuth_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Knuth's estimate of the backtracking tree (1,000 random probes) at each size
    backtracking ran, beside its exact size (n ≤ 14) and the nodes the runs counted to their
    first solution."""
    # imported on use: listing the studies loads no report or numba code
    from puzzlebench.search.queens.knuth_estimate import tree_nodes

    bt = frame[(frame["solver"] == "backtracking") & frame["success"].astype(bool)]
    first = bt.groupby("size")["counter.nodes"].median() if "counter.nodes" in bt else {}
    rows = []
    for n in _backtracking_sizes(frame):
        values = knuth_probes(n)
        mean, half = values.mean(), 1.96 * values.std(ddof=1) / np.sqrt(values.size)
        exact = tree_nodes(n) if n <= EXACT_MAX else None
        rows.append({"n": n, "whole tree (exact)": exact, "Knuth estimate": round(mean),
                     "95% CI low": round(mean - half), "95% CI high": round(mean + half),
                     "exact inside CI": None if exact is None else
                     bool(mean - half <= exact <= mean + half),
                     "nodes to the first solution (runs)": first.get(n, None)})
    return pd.DataFrame(rows)


def knuth_fits(frame: pd.DataFrame) -> list[ScalingFit]:
    """Knuth's estimate as a scaling series (its probes split into five independent
    estimates per size, as a solver's five runs), then the runs' measured nodes to the first
    solution beside it: both fitted and challenged as the report fits every measure."""
    # imported on use: listing the studies loads no report or numba code
    from puzzlebench.report.statistics.scaling import scaling_fits
    from puzzlebench.report.statistics.scaling_models import fit_scaling
    series = {n: knuth_probes(n).reshape(KNUTH_GROUPS, -1).mean(axis=1)
              for n in _backtracking_sizes(frame)}
    knuth = fit_scaling(series, problem=QUEENS, label=KNUTH_LABEL, solver="backtracking",
                        measure="nodes")
    bt = frame[(frame["solver"] == "backtracking") & (frame["problem"] == QUEENS)]
    measured = [f for f in scaling_fits(bt) if f.measure == "nodes"] if len(bt) else []
    return [knuth, *measured]


def knuth_tables(frame: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The study's extra tables: Knuth's estimate per size, and its scaling fit beside the
    runs' measured nodes."""
    # imported on use: listing the studies loads no report or numba code
    from puzzlebench.report.statistics.scaling import scaling_shown
    return [("Backtracking: Knuth's estimate of the whole tree beside the exact size and the "
             "nodes to the first solution", knuth_table(frame)),
            ("Backtracking: Knuth's estimate of the whole tree fitted as a scaling series "
             "(1,000 probes per n as five estimates), beside the runs' measured nodes to the "
             "first solution", scaling_shown(knuth_fits(frame)))]


def _said(fit: ScalingFit) -> str:
    """A fit in a few words: ``≈`` the best consistent model with b's interval, or why none."""
    # imported on use: listing the studies loads no report or numba code
    from puzzlebench.report.statistics.scaling import formula
    best = fit.best
    if best is not None:
        also = [m.model for m in fit.consistent[1:]]
        return (f"≈ {formula(best)} ({best.model}"
                + (f"; {' and '.join(also)} also consistent" if also else "") + ")")
    why = fit.note or "no model consistent at the held-out sizes"
    if fit.models and all(m.verdict == "inconclusive" for m in fit.models):
        why = "no interval (the runs do not vary)"
    return f": {why}"


def _short(fits: list[ScalingFit], solver: str, measure: str, problem: str = "nqueens") -> str:
    """One fit of ``fits`` in a few words, named by solver and measure."""
    fit = next((f for f in fits if (f.solver, f.measure, f.problem) == (solver, measure,
                                                                        problem)), None)
    if fit is None:
        return f"{solver} {measure}: not run"
    said = _said(fit)
    return f"{solver} {measure}{'' if said.startswith(':') else ' '}{said}"


def _minton(fits: list[ScalingFit], frame: pd.DataFrame) -> str:
    """Minton et al.'s finding put to the runs: the median repairs at the smallest and the
    largest n, the polynomial fit's exponent with its interval, and what it says."""
    # imported on use: listing the studies loads no report or numba code
    from puzzlebench.report.statistics.scaling import formula, sizes_text
    mc = frame[(frame["solver"] == "min-conflicts") & frame["success"].astype(bool)]
    fit = next((f for f in fits if (f.solver, f.measure, f.problem) ==
                ("min-conflicts", "repairs", QUEENS)), None)
    if fit is None or "counter.repairs" not in mc or mc.empty:
        return "min-conflicts repairs: not run."
    med = mc.groupby("size")["counter.repairs"].median()
    lo_n, hi_n = int(med.index.min()), int(med.index.max())
    head = (f"min-conflicts from Minton's greedy start: median {med[lo_n]:g} repairs at "
            f"n = {lo_n:,} and {med[hi_n]:g} at n = {hi_n:,}")
    if "counter.start_attacked" in mc:
        left = mc[mc["size"] == hi_n]["counter.start_attacked"].median()
        head += f" (the start leaves a median {left:g} queens attacked there)"
    m = fit.model("polynomial")
    if m is None:
        return f"{head}; {fit.note}."
    lo, hi = m.b_ci
    said = (f"repairs ≈ {formula(m)}, polynomial {m.verdict}"
            + (f" at held-out n = {sizes_text(fit.held_out)}" if m.verdict == "consistent" else
               f" ({m.why})"))
    bound = f"{NEAR_CONSTANT:g}"
    if m.verdict == "consistent" and lo <= 0 <= hi < NEAR_CONSTANT:
        finding = (f"b's interval holds 0 and lies below {bound}: about the same repairs at "
                   "every n, as Minton et al. (1992) found")
    elif m.verdict == "consistent" and lo > 0 and hi < NEAR_CONSTANT:
        finding = (f"b's interval lies above 0 and below {bound}: slow growth, near Minton et "
                   "al.'s (1992) same repairs at every n but not quite it")
    elif m.verdict == "consistent" and lo <= 0 <= hi:
        finding = (f"b's interval holds both 0 and {bound}: these sizes do not tell Minton et "
                   "al.'s (1992) same repairs at every n from growth")
    else:
        finding = "not Minton et al.'s (1992) same repairs at every n"
    return f"{head}; {said}: {finding}."


def _knuth(knuth: ScalingFit, measured: list[ScalingFit]) -> str:
    """Knuth's estimate fitted as a series, beside the runs' measured nodes, in a sentence."""
    runs = _said(measured[0]).removeprefix(": ") if measured else "not run"
    return (f"Backtracking, Knuth's estimate of the whole tree (n = {knuth.sizes[0].size}.."
            f"{knuth.sizes[-1].size}){'' if _said(knuth).startswith(':') else ' '}"
            f"{_said(knuth)}; the runs' measured nodes to the first solution: {runs}.")


def narrative(frame: pd.DataFrame) -> list[str]:
    """Short sentences of the fits in words (the first three open the report), then each fit
    behind them in full."""
    # imported on use: listing the studies loads no report code (``studies`` answers at once)
    from puzzlebench.report.statistics.count_runs import separate_counts
    from puzzlebench.report.statistics.scaling import scaling_fits, sentence
    fits = scaling_fits(separate_counts(frame))
    knuth, *measured = knuth_fits(frame)
    lines = [_minton(fits, frame), _knuth(knuth, measured),
             f"Counting all solutions: {_short(fits, 'bitboard', 'time', 'nqueens-count')}; "
             f"{_short(fits, 'constellations', 'time', 'nqueens-count')}.",
             f"{_short(fits, 'astar-h3', 'nodes_generated')}; {_short(fits, 'astar-h1', 'time')}"
             "."]
    picked = [("min-conflicts", "repairs"), ("min-conflicts", "evaluations"),
              ("backtracking", "nodes"), ("bitboard", "time"), ("constellations", "time"),
              ("astar-h1", "time"), ("astar-h2", "time"), ("astar-h3", "nodes_generated"),
              ("astar-h3", "time")]
    lines += [sentence(f) for key in picked for f in fits if (f.solver, f.measure) == key]
    lines.append(sentence(knuth))
    return lines


STUDY = BuiltinStudy(
    name="scaling", source="all",
    description="How cost grows with size (issue 54): polynomial, exponential and "
                "root-exponential models fitted to the smaller sizes and checked at the "
                "largest (see Scaling), for min-conflicts from Minton's greedy start "
                "(n = 64..2^20, every power of four, 20 runs each), backtracking's nodes to "
                "the first solution (n = 8..22) with Knuth's estimate of the whole tree fitted "
                "beside them, the counting solvers (n = 8..17) and A* with H1/H2/H3 (seed "
                "000's n = 8..16), with three scaling claims stated before the runs.",
    full=_grid(powers(64, 1 << 20, 4), 1 << 20, 20, 22, 17, 16, 5),
    quick=_grid(powers(64, 1024, 2), 1024, 3, 14, 12, 12, 3),
    narrative=narrative,
    extras=knuth_tables,
)
