"""The answer any study gets: sentences generated from its runs — who is wrong, how the solvers
rank and which of them no test can separate, the best per problem, the virtual best solver and
what each solver adds to it — with a critical-difference chart per problem.

The decision procedure is Demšar's (JMLR 7, 2006), as most algorithm comparisons use it:

* **Blocks are instances.** A configuration's score on an instance is its PAR-2 (the run's
  time when verified solved, 2 × the time limit otherwise), averaged over its repeats there:
  repeats of a stochastic solver are draws of one score, not extra instances, and averaging
  keeps every instance one vote. Only the instances every configuration of the problem ran are
  ranked (a configuration is never charged for an instance it did not attempt); the sentence
  says how many were left out. Verified success comes first by construction: a solved run's
  time is below the limit, an unsolved run's score is twice it.
* **Noise floor.** A single-shot solved time below :data:`~puzzlebench.records.record.NOISE_FLOOR_S`
  (a single run timed below it says little on a shared machine) is scored *at* the floor, so
  two such runs tie: no ranking rests on differences nothing can measure, and the sentence
  says so. A time that is the median of repeats to a minimum time (``--min-time``) is kept.
* **Tests.** Every pair of configurations by the report's one inference
  (``report.stratified``: van Elteren's rank test stratified by instance on the runs' PAR-2
  scores, the repeats as replicates within the instance, Vargha–Delaney's A as the effect),
  Holm-adjusted over the pairs of the scope: an exploratory family apart from the study's
  claims. The pairwise table shows the same comparisons, so the sentences, the ranking's
  letters and the table cannot disagree (Benavoli, Corani & Mangili, JMLR 2016: mean-rank
  post-hoc tests such as Nemenyi's depend on the other configurations in the pool).
  Configurations no test separates share a letter in the ranking table (a compact letter
  display) and a bar in the chart; the answer never calls them tied. It says which of two
  things held: *the runs do not separate* them (the design could have: its smallest reachable
  p, times the scope's number of pairs, is below 0.05), or *this design cannot separate* them
  (too few instances and repeats for any outcome to pass the correction), with that p.
* **Portfolio.** The virtual best solver (VBS) takes each instance's best score; a
  configuration's marginal contribution is what the VBS loses without it (SAT competition):
  instances no longer solved and PAR-2 seconds added.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from puzzlebench.records.record import NOISE_FLOOR_S
from puzzlebench.report.chart import Chart, Panel, Series
from puzzlebench.report.series_styles import label_order
from puzzlebench.report.statistics.findings import ALPHA, p_text
from puzzlebench.report.statistics.scores import holm, pairwise_comparisons, run_scores, time_limit_of
from puzzlebench.report.statistics.stratified import Comparison
from puzzlebench.report.summary import below_floor, with_labels

RANK_COLUMNS = ["problem", "rank", "configuration", "mean rank", "group", "solved runs",
                "PAR-2 s", "instances", "VBS loses without it"]


@dataclass(frozen=True)
class Ranking:
    """The ranking of one problem (or of all problems together): its sentences, its table
    (``RANK_COLUMNS``) and its critical-difference chart (None when fewer than two ranked)."""

    scope: str
    sentences: list[str]
    table: pd.DataFrame
    chart: Chart | None = None
    tied: list[list[str]] = field(default_factory=list)
    #: The one sentence of the answer box: the best, whom it beats by how much, whom this
    #: design does not separate it from (the rest are ``sentences``, the details).
    headline: str = ""


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _scores(frame: pd.DataFrame) -> tuple[pd.DataFrame, float, int, int]:
    """Instance × configuration PAR-2 (repeats averaged, solved times floored), on the
    instances every configuration ran; the time limit, instances left out, floored runs."""
    limit = time_limit_of(frame)
    score = run_scores(frame)
    floored = int((frame["success"].astype(bool) & below_floor(frame)).sum())
    table = frame.assign(score=score).groupby(["instance_id", "label"])["score"].mean()
    wide = table.unstack("label")
    wide = wide.reindex(columns=sorted(wide.columns, key=label_order))
    common = wide.dropna(axis=0, how="any")
    return common, limit, len(wide) - len(common), floored


def _letters(order: list[str], separated: set[frozenset[str]]) -> tuple[dict[str, str],
                                                                         list[list[str]]]:
    """Compact letter display over configurations in rank order: each maximal run of
    consecutive configurations with no separated pair inside gets a letter."""
    groups: list[list[str]] = []
    for i in range(len(order)):
        j = i
        while j + 1 < len(order) and all(frozenset((order[k], order[j + 1])) not in separated
                                          for k in range(i, j + 1)):
            j += 1
        members = order[i:j + 1]
        if not any(set(members) <= set(g) for g in groups):
            groups.append(members)
    letters = {name: "" for name in order}
    for n, members in enumerate(groups):
        for name in members:
            letters[name] += chr(ord("a") + n % 26)
    return letters, groups


def rank(frame: pd.DataFrame, scope: str) -> Ranking:
    """Rank the configurations of ``frame`` (one problem, or several pooled) on PAR-2 per
    instance, test the differences, and say what the runs show."""
    frame = with_labels(frame)
    scores, limit, dropped, floored = _scores(frame)
    configs = list(scores.columns)
    n, k = len(scores), len(configs)
    where = f"On {scope}"
    if k < 2:
        only = configs[0] if configs else (sorted(frame["label"].unique()) or ["nothing"])[0]
        return Ranking(scope, [f"{where}, only {only} ran: nothing to rank it against."],
                       pd.DataFrame(columns=RANK_COLUMNS))
    if n == 0:
        return Ranking(scope, [f"{where}, no instance was run by every configuration: "
                               "nothing to rank."], pd.DataFrame(columns=RANK_COLUMNS))
    ranks = scores.rank(axis=1, method="average")
    mean_rank = ranks.mean(axis=0)
    order = sorted(configs, key=lambda c: (mean_rank[c], label_order(c)))
    par2 = scores.mean(axis=0)
    repeats = frame.groupby(["instance_id", "label"]).size()
    how = (f"{n} instance{'s' if n != 1 else ''}"
           + (f" ({dropped} not run by every configuration left out)" if dropped else "")
           + f", PAR-2 with unsolved runs at 2 × {limit:g} s"
           + (f", the {int(repeats.max())} repeats per instance averaged" if repeats.max() > 1
              else ""))
    separated: set[frozenset[str]] = set()
    pvalues: dict[frozenset[str], float] = {}
    comparisons: dict[frozenset[str], Comparison] = {}
    test_text, tested = "", False
    identical = bool((scores.nunique(axis=1) <= 1).all())
    common = frame[frame["instance_id"].isin(scores.index)]
    if identical:
        test_text = "every configuration scored the same on every instance: no test to make"
    else:
        pairs = pairwise_comparisons(common, order)
        adjusted = holm(np.array([np.nan if c.p is None else c.p for c in pairs.values()]))
        for ((a, b), c), p_adj in zip(pairs.items(), adjusted, strict=True):
            comparisons[frozenset((a, b))] = c
            if np.isfinite(p_adj):
                tested = True
                pvalues[frozenset((a, b))] = float(p_adj)
                if p_adj < ALPHA:
                    separated.add(frozenset((a, b)))
        test_text = ("each pair by van Elteren's rank test stratified by instance on the runs' "
                     f"PAR-2, Holm-adjusted over the {len(pairs)} pair"
                     f"{'s' if len(pairs) != 1 else ''} of {scope}")
    letters, groups = _letters(order, separated)
    listing = ", ".join(f"{i + 1}. {c} ({mean_rank[c]:.2f})" for i, c in enumerate(order))
    sentences = [f"{where} ({how}; {test_text}), by mean rank: {listing}."]
    sentences += _group_sentences(order, groups, separated, pvalues, tested=tested)
    if floored:
        sentences.append(f"On {scope}, {floored} solved run{'s' if floored != 1 else ''} took "
                         f"less than the noise floor of {NOISE_FLOOR_S * 1e3:g} ms and "
                         "{} scored at it: no time-based claim is made between them.".format(
                             "were" if floored != 1 else "was"))
    contribution, vbs_sentences = _portfolio(scores, limit, order, scope)
    best = order[0]
    runs = frame[frame["instance_id"].isin(scores.index)].groupby("label")["success"]
    headline = _headline(scope, best, order, comparisons, pvalues, separated,
                         f"solved {int(runs.sum()[best])} of {int(runs.size()[best])} runs on "
                         f"{n} instance{'s' if n != 1 else ''}, PAR-2 {par2[best]:.4g} s")
    quality = _quality(common, order)
    if quality:
        headline = headline[:-1] + f"; ranked on time alone: its answers {quality[best]}."
        sentences.append(f"On {scope} the ranking is on time alone; answer quality (solved runs "
                         "with a known optimum): "
                         + "; ".join(f"{c} {quality[c]}" for c in order) + ".")
    lowest = min(order, key=lambda c: (par2[c], label_order(c)))
    if lowest != best:
        won = {c: int((ranks[c] < ranks.drop(columns=c).min(axis=1)).sum()) for c in (best, lowest)}
        sentences.append(f"On {scope}, {lowest} has the lowest mean PAR-2 ({par2[lowest]:.4g} s "
                         f"against {par2[best]:.4g} s for {best}) but a worse mean rank: it is "
                         f"alone best on {won[lowest]} instance{'s' if won[lowest] != 1 else ''}"
                         f", {best} on {won[best]}.")
    sentences += vbs_sentences
    table = pd.DataFrame([{
        "problem": scope, "rank": i + 1, "configuration": c,
        "mean rank": round(float(mean_rank[c]), 3), "group": letters[c],
        "solved runs": f"{int(runs.sum()[c])}/{int(runs.size()[c])}",
        "PAR-2 s": round(float(par2[c]), 6),
        "instances": n, "VBS loses without it": contribution[c]}
        for i, c in enumerate(order)], columns=RANK_COLUMNS)
    return Ranking(scope, sentences, table, cd_chart(scope, order, mean_rank, groups, k, n),
                   [g for g in groups if len(g) > 1], headline)


def _group_sentences(order: list[str], groups: list[list[str]],
                     separated: set[frozenset[str]], pvalues: dict[frozenset[str], float], *,
                     tested: bool) -> list[str]:
    """Who the pairwise tests do not separate, and who beats whom (the better one first, with the
    largest adjusted p of its wins). Never "tied": not separated is not shown equal."""
    if not tested:
        return []
    if not separated:
        return [f"The pairwise tests separate none of {_names(order)} (no pair's adjusted p is below "
                f"{ALPHA:g}); that is not evidence that they perform alike."]
    out = [f"Not separated by the pairwise tests: {_names(g)}." for g in groups if len(g) > 1]
    wins = []
    for i, c in enumerate(order):
        beaten = [d for d in order[i + 1:] if frozenset((c, d)) in separated]
        if beaten:
            worst = max(pvalues[frozenset((c, d))] for d in beaten)
            bound = "p < 0.001" if worst < 0.001 else f"p ≤ {worst:.3f}"
            wins.append(f"{c} beats {_names(beaten)} (adjusted {bound})")
    out.append("Separated by the test: " + "; ".join(wins) + ".")
    return out


def _versus(c: Comparison, first: bool) -> str:
    """A comparison seen from one side: its PAR-2 ratio and A measure with their intervals."""
    a12 = c.a12 if first else 1 - c.a12
    lo, hi = (c.a12_ci if first else (1 - c.a12_ci[1], 1 - c.a12_ci[0]))
    text = f"A = {a12:.2f} [{lo:.2f}, {hi:.2f}]"
    if np.isfinite(c.effect):
        ratio = c.effect if first else 1 / c.effect
        text = f"PAR-2 ratio {ratio:.3g}, " + text
    return text


def _headline(scope: str, best: str, order: list[str],
              comparisons: dict[frozenset[str], Comparison], pvalues: dict[frozenset[str], float],
              separated: set[frozenset[str]], how: str) -> str:
    """The answer box's sentence for one scope: the best by mean rank; the nearest one it beats
    with the PAR-2 ratio and A (the chance one of its runs beats the other's on the same
    instance) with intervals, the others it beats by name with the largest adjusted p; whom
    this design does not separate it from, and the smallest p the design could reach."""
    beaten: list[str] = []
    unseparated: list[str] = []
    for other in order[1:]:
        pair = frozenset((best, other))
        if pair in comparisons:
            (beaten if pair in separated else unseparated).append(other)
    text = f"Best on {scope} by mean rank: {best} ({how})"
    if beaten:
        near = beaten[0]
        text += (f"; it beats {near} ({_versus(comparisons[frozenset((best, near))], True)}, "
                 f"adjusted {p_text(pvalues[frozenset((best, near))])})")
        if len(beaten) > 1:
            worst = max(pvalues[frozenset((best, o))] for o in beaten[1:])
            bound = "p < 0.001" if worst < 0.001 else f"p ≤ {worst:.3f}"
            text += f" and {_names(beaten[1:])} (adjusted {bound})"
    if unseparated:
        reach = min((comparisons[frozenset((best, o))].p_min or 1.0) for o in unseparated)
        closest = comparisons[frozenset((best, unseparated[0]))]
        versus = (f"{unseparated[0]}: {_versus(closest, True)}; " if len(unseparated) == 1
                  else "")
        # could the design have separated them? Holm's first step over this scope's pairs
        if reach * max(1, len(comparisons)) < ALPHA:
            text += (f"; the runs do not separate it from {_names(unseparated)} ({versus}the "
                     f"design could have: a p as small as {reach:.2g} was within reach)")
        else:
            text += (f"; this design cannot separate it from {_names(unseparated)} ({versus}"
                     f"the smallest p it could reach is {reach:.2g}, over "
                     f"{len(comparisons)} comparisons)")
    return text + "."


def _quality(frame: pd.DataFrame, order: list[str]) -> dict[str, str]:
    """Where the problem has an objective (answer length) and the optimum is known: per
    configuration, how many of its solved runs were optimal and the mean excess; {} where no
    run has a known optimum."""
    if "optimum" not in frame or "answer_length" not in frame:
        return {}
    known = frame[frame["success"].astype(bool) & frame["optimum"].notna()
                  & frame["answer_length"].notna()]
    if known.empty:
        return {}
    out = {}
    for c in order:
        mine = known[known["label"] == c]
        if mine.empty:
            out[c] = "no solved run with a known optimum"
            continue
        excess = mine["answer_length"].astype(float) - mine["optimum"].astype(float)
        out[c] = (f"optimal in {int((excess == 0).sum())} of {len(mine)} solved runs"
                  + (f", {float(excess.mean()):.3g} moves over on average" if excess.any() else ""))
    return out


def _portfolio(scores: pd.DataFrame, limit: float, order: list[str],
               scope: str) -> tuple[dict[str, str], list[str]]:
    """The VBS over the ranked instances and each configuration's marginal contribution."""
    vbs = scores.min(axis=1)
    unsolved = 2 * limit
    vbs_par2, vbs_solved = float(vbs.mean()), int((vbs < unsolved).sum())
    contribution: dict[str, str] = {}
    adds = []
    for c in order:
        rest = scores.drop(columns=c).min(axis=1)
        lost = vbs_solved - int((rest < unsolved).sum())
        seconds = float(rest.mean()) - vbs_par2
        measurable = seconds >= NOISE_FLOOR_S
        contribution[c] = (f"{lost} solved, {seconds:.4g} s" if lost or measurable
                           else "nothing measurable")
        if lost or measurable:
            adds.append((lost, seconds, c))
    n = len(scores)
    out = [f"Virtual best solver on {scope}: solves {vbs_solved} of {n}, PAR-2 {vbs_par2:.4g} s."]
    if not adds:
        out.append(f"No configuration on {scope} adds anything measurable to the others: "
                   "without any one of them the virtual best solver loses no instance and "
                   f"less than {NOISE_FLOOR_S * 1e3:g} ms of PAR-2.")
    else:
        adds.sort(key=lambda t: (-t[0], -t[1]))
        parts = [f"{c} ({lost} instance{'s' if lost != 1 else ''} and {sec:.4g} s of PAR-2)"
                 if lost else f"{c} ({sec:.4g} s of PAR-2)" for lost, sec, c in adds]
        rest = [c for c in order if c not in {t[2] for t in adds}]
        out.append(f"Marginal contribution on {scope} (what the virtual best solver loses "
                   f"without it): {'; '.join(parts)}"
                   + (f"; {_names(rest)} add{'s' if len(rest) == 1 else ''} nothing measurable"
                      if rest else "") + ".")
    return contribution, out


def cd_chart(scope: str, order: list[str], mean_rank: pd.Series, groups: list[list[str]],
             k: int, n: int) -> Chart:
    """A critical-difference chart: each configuration at its mean rank (1 = best), the
    configurations no test separates joined by a bar beneath."""
    series = [Series(c, np.array([float(mean_rank[c])]), np.array([float(i + 1)]),
                     hover=({"mean rank": f"{mean_rank[c]:.3f}", "place": str(i + 1)},))
              for i, c in enumerate(order)]
    bars = []
    for j, g in enumerate(x for x in groups if len(x) > 1):
        lo, hi = float(mean_rank[g[0]]), float(mean_rank[g[-1]])
        y = -0.4 * j  # beneath place 1
        bars.append(Series(f"not separated: {_names(g)}", np.array([lo, hi]), np.array([y, y]),
                           hover=({"not separated": _names(g)},) * 2, reference=True))
    slug = "cd_" + scope.replace(" ", "_").replace("-", "_")
    return Chart(slug, f"{scope}: mean rank over {n} instances (1 = best; PAR-2 per instance); "
                       "configurations joined by a bar are not separated by the test",
                 "mean rank (lower is better)", "place", (Panel("", (*series, *bars)),),
                 value_name="place")


def answer(frame: pd.DataFrame) -> list[Ranking]:
    """The generated answer of a report: one ranking per problem, then — where several
    problems were run — one over the configurations that ran every problem."""
    frame = with_labels(frame)
    out = []
    for problem in sorted(frame["problem"].unique()):
        sub = frame[frame["problem"] == problem]
        ranked = rank(sub, problem)
        out.append(Ranking(problem, ranked.sentences, ranked.table, ranked.chart, ranked.tied,
                           " ".join([*faults(sub, problem), ranked.headline]).strip()))
    problems = sorted(frame["problem"].unique())
    if len(problems) > 1:
        ran = frame.groupby("label")["problem"].nunique()
        everywhere = sorted(ran[ran == len(problems)].index, key=label_order)
        if len(everywhere) >= 2:
            pooled = frame[frame["label"].isin(everywhere)]
            overall = rank(pooled, "all problems")
            out.append(Ranking(
                "all problems",
                [f"Over all {len(problems)} problems, the {len(everywhere)} configurations "
                 "that ran every one of them, each problem's instances pooled:",
                 *overall.sentences], overall.table, overall.chart, overall.tied,
                overall.headline))
        else:
            out.append(Ranking("all problems", [
                f"No overall ranking: fewer than two configurations ran all {len(problems)} "
                "problems."], pd.DataFrame(columns=RANK_COLUMNS)))
    return out


def faults(frame: pd.DataFrame, problem: str) -> list[str]:
    """Wrong answers, crashes and unverified successes, by configuration, with the first
    reason: they come first in the answer."""
    out = []
    for outcome, what in (("crash", "Crashes"), ("memout", "Out of memory")):
        hit = frame[frame["outcome"] == outcome]
        if len(hit):
            counts = hit.groupby("label").size()
            parts = ", ".join(f"{c} {int(counts[c])}" for c in sorted(counts.index, key=label_order))
            first = next((str(r) for col in ("reason", "error") if col in hit
                          for r in hit[col] if isinstance(r, str) and r.strip()), "")
            out.append(f"{what} on {problem} (counted as unsolved): {parts} run(s)"
                       + (f"; first reason: {first.strip().splitlines()[0][:120]}" if first else "")
                       + ".")
    wrong = frame[frame["outcome"] == "wrong"].groupby("label").size()
    if len(wrong):
        parts = ", ".join(f"{c} {int(wrong[c])}" for c in sorted(wrong.index, key=label_order))
        out.append(f"Wrong answers on {problem} (never counted as solved): {parts} run(s).")
    unverified = frame[frame["unverified"].astype(bool)].groupby("label").size()
    if len(unverified):
        parts = ", ".join(f"{c} {int(unverified[c])}"
                          for c in sorted(unverified.index, key=label_order))
        out.append(f"Unverified successes on {problem} (nothing could check them; counted as "
                   f"unsolved): {parts} run(s).")
    return out
