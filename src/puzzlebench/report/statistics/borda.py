"""The MiniZinc Challenge's pairwise Borda score, beside PAR-2: a pure function of the records.

The rules (MiniZinc Challenge 2024, "Assessment", https://www.minizinc.org/challenge/2024/rules/):
each instance is a voter that ranks the solvers; a solver *s* scores against every other solver
*s'* on the instance 1 point if its answer is better, 0 if worse, and when the answers are
indistinguishable ``t(s') / (t(s) + t(s'))`` (0.5 when both took 0 s); a solver that neither
found a solution nor proved unsatisfiability scores 0, even against one that failed too.
*Better* is: solved against unsolved; then, in the **complete** score only, a proof against no
proof (the optimum proved, for optimisation); then the better objective. The **incomplete** score
is the same without the proof step.

How this suite applies them (the decisions where its problems differ from the challenge's):

* **Solved** means a verified success (the frame's ``success``: a valid answer, or a verified
  ``infeasible`` claim). An unverified success counts as unsolved, never as solved.
* **Wrong** answers score 0 and hand every opponent on that instance a full point, whatever the
  opponent did (two wrong runs score 0 each). The challenge disqualifies wrong answers; a point to
  each opponent is this suite's way of putting a wrong answer below no answer at all.
* **Proof.** The queens problems are satisfaction problems: a proof is a verified ``infeasible``
  claim, which beats a mere solution in the complete score. On one instance a correct solution and
  a correct infeasibility cannot both exist, so on these problems the two variants agree and
  differ only if the verification itself were wrong. ``sliding`` is the one optimisation problem
  (the objective: fewer moves, its family's ``objective``): a proof is a verified ``infeasible`` claim or an
  answer the judge checked as optimal — the record holds the known optimum (set only for exact
  solvers and answers flagged optimal) and the answer has that length. An exact solver's answer
  where no optimum is known is not counted as proved: nothing checked it.
* **Time** is the run's wall time, not quantised to whole seconds as the challenge does (most runs
  here take far less than a second, so quantising would make every tie 0.5).
* **Repeats.** The challenge runs each solver once per instance. Here a configuration may run an
  instance several times (seeds of a stochastic solver); its score against another configuration
  on that instance is then the mean over all pairs of their runs there — the expected score of one
  run against one run — so repeats neither add points nor weigh more. Above
  :data:`MAX_OPPONENT_RUNS` runs of one instance, each opponent configuration is represented by
  evenly spaced order statistics of its runs there (same share of each outcome), to keep the cost
  linear in the runs.
* Only the configurations that ran an instance are compared on it; one that ran alone there
  scores 0 on it. Runs of different tasks (solve, count) are not compared with each other.

The per-run points (:func:`run_points`) feed both the table (:func:`borda_table`: per problem and
configuration, ranked by the complete score, as the challenge awards its prizes) and the
score-based quantile plot (``figures.quantile_figure``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from puzzlebench.problems import InvalidInstanceError, get_problem
from puzzlebench.report.series_styles import label_order
from puzzlebench.report.summary import with_labels

#: Above this many runs of one instance, opponents are represented by order statistics.
MAX_OPPONENT_RUNS = 2_000
#: Pairs of runs scored at once (bounds the memory of one block).
BLOCK_PAIRS = 2_000_000
VARIANTS = ("complete", "incomplete")
TABLE_COLUMNS = ["problem", "configuration", "Borda (complete)", "Borda (incomplete)",
                 "instances", "rank"]


def objectives(problem_ids: Iterable[object]) -> dict[str, str]:
    """Problem id → the record column its family minimises, for the optimisation problems
    among ``problem_ids`` (``Problem.objective``; every other problem is a satisfaction
    problem, and so is a family not loaded here)."""
    out: dict[str, str] = {}
    for pid in problem_ids:
        try:
            column = get_problem(str(pid)).objective
        except InvalidInstanceError:
            continue
        if column:
            out[str(pid)] = column
    return out


def standing(frame: pd.DataFrame) -> pd.DataFrame:
    """Per run what the pairwise comparison needs: ``wrong``, ``solved`` (verified success),
    ``proof`` (verified infeasibility or a checked optimum), ``quality`` (higher is better;
    the negated objective on an optimisation problem, 0 on a satisfaction problem), ``time``,
    and per variant a ``level``: -1 wrong, 0 unsolved, from 1 up solved runs ordered by (proof,
    quality) in the complete variant and by quality in the incomplete one — so a run beats
    another exactly when its level is higher, and two solved runs tie when their levels are
    equal (levels compare only runs of one instance)."""
    idx = frame.index
    outcome = frame["outcome"].astype(str) if "outcome" in frame else pd.Series("", index=idx)
    solved = frame["success"].fillna(False).astype(bool)
    proof = solved & (outcome == "infeasible")
    quality = pd.Series(0.0, index=idx)
    for problem, column in objectives(frame["problem"].unique() if "problem" in frame else ()).items():
        if column not in frame:
            continue
        mine = solved & (frame["problem"] == problem)
        value = pd.to_numeric(frame[column], errors="coerce")
        quality = quality.where(~(mine & value.notna()), 0.0 - value)  # never -0.0
        if "optimum" in frame:
            optimum = pd.to_numeric(frame["optimum"], errors="coerce")
            proof |= mine & optimum.notna() & (value == optimum)
    wrong = outcome == "wrong"
    out = pd.DataFrame({"wrong": wrong, "solved": solved, "proof": proof,
                        "quality": quality.astype(float),
                        "time": pd.to_numeric(frame["time_s"], errors="coerce").fillna(0.0)},
                       index=idx)
    for variant, keys in (("complete", ["proof", "quality"]), ("incomplete", ["quality"])):
        rank = out.groupby(keys, sort=True).ngroup() + 1  # dense, ascending in (proof, quality)
        out[variant] = np.where(wrong, -1, np.where(solved, rank, 0)).astype(float)
    return out


def pair_scores(level_a: np.ndarray, level_b: np.ndarray, time_a: np.ndarray,
                time_b: np.ndarray) -> np.ndarray:
    """The points of each run a against each run b (len(a) × len(b)) from their ``standing``
    levels and times: 1 if a's level is higher, t_b / (t_a + t_b) when both are solved on the
    same level (0.5 when both took 0 s), else 0."""
    la, lb = level_a[:, None], level_b[None, :]
    ta, tb = time_a[:, None], time_b[None, :]
    total = ta + tb
    split = np.divide(tb, total, out=np.full(total.shape, 0.5), where=total > 0)
    tie = (la == lb) & (la >= 1)
    return np.where(la > lb, 1.0, np.where(tie, split, 0.0))


def _representatives(runs: pd.DataFrame) -> pd.DataFrame:
    """The opponent runs of one instance: all of them, or above MAX_OPPONENT_RUNS evenly
    spaced order statistics of each configuration's runs (sorted by standing, then time)."""
    if len(runs) <= MAX_OPPONENT_RUNS:
        return runs
    parts = []
    for _, mine in runs.groupby("label", sort=True):
        quota = max(1, round(MAX_OPPONENT_RUNS * len(mine) / len(runs)))
        ordered = mine.sort_values(["complete", "incomplete", "time"], kind="stable")
        keep = np.unique(np.linspace(0, len(ordered) - 1, quota).round().astype(int))
        parts.append(ordered.iloc[keep])
    return pd.concat(parts)


def run_points(frame: pd.DataFrame) -> pd.DataFrame:
    """Per run (indexed as ``frame``): ``label``, its Borda points in both variants against
    the other configurations that ran its instance (each opponent's runs there averaged), and
    ``weight`` = 1 / its configuration's runs on the instance, so that points × weight summed
    over a configuration's runs is its score."""
    frame = with_labels(frame)
    original = frame.index
    keys = [k for k in ("problem", "instance_id", "label", "seed", "repeat", "time_s")
            if k in frame]
    # a fixed order of the runs, so the sums (and the report) do not depend on row order
    frame = frame.reset_index(drop=True).sort_values(keys, kind="stable")
    runs = standing(frame).assign(label=frame["label"].astype(str))
    points = {variant: np.zeros(len(frame)) for variant in VARIANTS}
    weight = np.zeros(len(frame))
    group = ["problem", "instance_id"] + (["task"] if "task" in frame else [])
    for _, rows in frame.groupby(group, sort=True, dropna=False):
        mine = runs.loc[rows.index]
        codes, labels = pd.factorize(mine["label"], sort=True)
        weight[mine.index] = 1.0 / np.bincount(codes)[codes]
        if len(labels) < 2:
            continue
        reps = _representatives(mine)
        rep_codes = labels.get_indexer(reps["label"])
        # opponent run j counts 1 / (runs of its configuration here) towards that configuration
        per_config = np.zeros((len(reps), len(labels)))
        per_config[np.arange(len(reps)), rep_codes] = 1.0 / np.bincount(rep_codes)[rep_codes]
        block = max(1, BLOCK_PAIRS // len(reps))
        for start in range(0, len(mine), block):
            part = mine.iloc[start:start + block]
            own = codes[start:start + block]
            for variant in VARIANTS:
                scores = pair_scores(part[variant].to_numpy(), reps[variant].to_numpy(),
                                     part["time"].to_numpy(float), reps["time"].to_numpy(float))
                means = scores @ per_config  # run × opponent configuration: mean points
                means[np.arange(len(part)), own] = 0.0  # a configuration never plays itself
                points[variant][part.index] = means.sum(axis=1)
    out = pd.DataFrame({"label": runs["label"].sort_index().to_numpy(),
                        **{v: points[v] for v in VARIANTS}, "weight": weight})
    out.index = original
    return out


def borda_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Per problem and configuration: Borda score (complete), Borda score (incomplete),
    instances it ran, and its rank by the complete score (ties share the better rank)."""
    frame = with_labels(frame)
    if frame.empty:
        return pd.DataFrame(columns=TABLE_COLUMNS)
    points = run_points(frame)
    scored = frame.assign(c=(points["complete"] * points["weight"]).to_numpy(),
                          i=(points["incomplete"] * points["weight"]).to_numpy())
    rows = []
    for (problem, lab), g in scored.groupby(["problem", "label"], sort=True):
        rows.append({"problem": problem, "configuration": lab,
                     "Borda (complete)": round(float(g["c"].sum()), 4),
                     "Borda (incomplete)": round(float(g["i"].sum()), 4),
                     "instances": int(g["instance_id"].nunique())})
    return _ranked(pd.DataFrame(rows))


def borda_overall(table: pd.DataFrame) -> pd.DataFrame:
    """The per-problem ``borda_table`` summed over problems per configuration (problem
    "all"), ranked again; configurations are compared only within a problem. Only problems
    with at least two configurations count (a lone one scores nothing there), and only the
    configurations that ran every such problem are summed: a sum over problems some did not
    run would rank them by what they attempted. Empty when fewer than two problems or two
    configurations remain (a single problem's own table says it all)."""
    if table.empty:
        return pd.DataFrame(columns=TABLE_COLUMNS)
    contested = table.groupby("problem")["configuration"].transform("nunique") >= 2
    table = table[contested]
    problems = table["problem"].nunique()
    ran = table.groupby("configuration")["problem"].nunique()
    table = table[table["configuration"].isin(ran[ran == problems].index)]
    if table["configuration"].nunique() < 2 or problems < 2:
        return pd.DataFrame(columns=TABLE_COLUMNS)
    total = table.groupby("configuration", sort=True).agg(
        {"Borda (complete)": "sum", "Borda (incomplete)": "sum", "instances": "sum"})
    total = total.round(4).reset_index().assign(problem="all")
    return _ranked(total)


def _ranked(table: pd.DataFrame) -> pd.DataFrame:
    """Rank within each problem; a problem with one configuration gives no rank ("-")."""
    table = table.copy()
    ranks = (table.groupby("problem")["Borda (complete)"]
             .rank(method="min", ascending=False).astype(int))
    alone = table.groupby("problem")["configuration"].transform("nunique") < 2
    table["rank"] = ranks.astype(object).where(~alone, "-")
    order = sorted(range(len(table)), key=lambda i: (
        table["problem"].iat[i], ranks.iat[i], label_order(table["configuration"].iat[i])))
    return table.iloc[order][TABLE_COLUMNS].reset_index(drop=True)


def borda_by_configuration(frame: pd.DataFrame) -> dict[str, float]:
    """Configuration label → complete Borda score (the ``Borda`` column of ``compare``'s
    summary): the problem's own score for one problem, else the sum of ``borda_overall``."""
    table = borda_table(frame)
    if table["problem"].nunique() > 1:
        table = borda_overall(table)
    return dict(zip(table["configuration"], table["Borda (complete)"], strict=True))
