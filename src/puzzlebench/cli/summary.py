"""What a comparison prints at its end: the summary table (outcomes folded into one cell), its
legend, and one verdict line — who did best and by how much, from the report's own ranking
(``report.answer.rank``: PAR-2 per instance, mean rank, the test's groups) — then what went
wrong or crashed, with the first reason.

hyperfine's closing sentence is the model: one line a reader can quote.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from puzzlebench.cli.legend import legend
from puzzlebench.cli.tables import Column, say, show
from puzzlebench.harness.campaign.progress import first_reason
from puzzlebench.host.terminal import clip
from puzzlebench.records.record import NOISE_FLOOR_S, Outcome, RunRecord

#: Outcomes that name a failure in the verdict's second part, in this order.
FAULTS = (Outcome.WRONG, Outcome.CRASH, Outcome.TIMEOUT, Outcome.MEMOUT)


def outcomes_text(records: Sequence[RunRecord]) -> str:
    """A solver's runs in one cell: ``7/7 solved``, or ``5 solved · 2 timeout``."""
    counts = Counter(r.verdict.outcome for r in records)
    unverified = sum(1 for r in records if r.verdict.outcome.success and r.verdict.verified is False)
    if len(counts) == 1 and not unverified:
        only = next(iter(counts))
        return f"{len(records)}/{len(records)} {only.value}"
    parts = [f"{counts[o]} {o.value}" for o in Outcome if counts.get(o)]
    if unverified:
        parts.append(f"{unverified} unverified")
    return " · ".join(parts)


def print_summary(records: list[RunRecord], borda: Mapping[str, float] | None = None, *,
                  wide: bool = False) -> None:
    """The summary table fitted to the terminal (``--wide``: one column per outcome)."""
    if wide:
        # imported on use: the wide table is the study runner's own
        from puzzlebench.cli.tables import console
        from puzzlebench.harness.campaign.progress import summary_table

        console(wide=True).print(summary_table(records, borda))
        return
    by_solver: dict[str, list[RunRecord]] = {}
    for r in records:
        by_solver.setdefault(r.key.solver, []).append(r)
    columns = [Column("solver", key=True), Column("runs"),
               Column("median time (s)", right=True), Column("Borda", right=True)]
    rows = []
    for solver in sorted(by_solver):
        recs = by_solver[solver]
        times = sorted(r.figures.time_s for r in recs)
        score = f"{borda[solver]:.2f}" if borda and solver in borda else ""
        rows.append([solver, outcomes_text(recs), f"{times[len(times) // 2]:.4f}", score])
    show(columns, rows, title="summary", legend=legend(
        [" ".join(r[1:2]) for r in rows] + (["Borda"] if borda else [])))


def _first_reason(records: Sequence[RunRecord]) -> str:
    for r in records:
        why = first_reason(r)
        if why:
            return clip(why, 120)
    return ""


def faults_line(records: Sequence[RunRecord]) -> str:
    """What was wrong, crashed or was killed, by solver, with the first reason; "" if nothing."""
    parts = []
    for outcome in FAULTS:
        bad = [r for r in records if r.verdict.outcome is outcome]
        if not bad:
            continue
        who = Counter(r.key.solver for r in bad)
        names = ", ".join(f"{s} {n}" for s, n in sorted(who.items()))
        why = _first_reason(bad)
        parts.append(f"{outcome.value}: {names}" + (f" (first: {why})" if why else ""))
    return ("Failed runs — " + "; ".join(parts) + ".") if parts else ""


def _ranked(records: Sequence[RunRecord]) -> list[tuple[str, Any]]:
    """(problem, its ranking table) for each problem, by the report's ``rank``; [] without
    the report package."""
    try:
        # imported on use: pandas and scipy are the report's, 0.5-1 s to load
        from puzzlebench.harness.campaign.storage.records_frame import records_to_frame
        from puzzlebench.report.answer import rank
    except ImportError:
        return []
    frame = records_to_frame(records)
    return [(problem, rank(frame[frame["problem"] == problem], problem).table)
            for problem in sorted(frame["problem"].unique())]


def best_text(problem: str, table: Any) -> str:
    """One problem's clause: the best configuration, its solved runs and PAR-2, and by how
    much it leads the next (PAR-2 ratio, mean ranks, and whether the report's pairwise test
    separates them — never "tied" for not separated)."""
    if len(table) < 2:
        return f"on {problem} nothing to rank (fewer than two solvers ran every instance)"
    first, second = table.iloc[0], table.iloc[1]
    a, b = float(first["PAR-2 s"]), float(second["PAR-2 s"])
    ra, rb = float(first["mean rank"]), float(second["mean rank"])
    floor = " (every solved time under the 1 ms noise floor)" if b <= NOISE_FLOOR_S else ""
    if ra == rb and a == b:
        level = [str(c) for c, r in zip(table["configuration"], table["mean rank"], strict=True)
                 if float(r) == ra]
        who = ", ".join(level[:-1]) + " and " + level[-1]
        return (f"on {problem} {who} score the same on every instance: solved "
                f"{first['solved runs']} runs, PAR-2 {a:.4g} s each{floor}, mean rank {ra:.2f}")
    ratio = f"{b / a:,.0f}" if b >= 100 * a else f"{b / a:.2f}"
    lead = (f"{ratio} × lower PAR-2 than {second['configuration']} ({b:.4g} s)"
            if b > a > 0 else f"the same PAR-2 as {second['configuration']}{floor}")
    if set(str(first["group"])) & set(str(second["group"])):
        test = "not separated by this design"
    else:
        test = "separated by the pairwise test (adjusted p < 0.05)"
    return (f"on {problem} {first['configuration']} did best: solved {first['solved runs']} "
            f"runs, PAR-2 {a:.4g} s, {lead}; mean rank {ra:.2f} vs {rb:.2f} "
            f"({second['configuration']}), {test}")


def verdict_line(records: Sequence[RunRecord]) -> str:
    """The comparison's closing sentence (see the module docstring)."""
    ranked = _ranked(records)
    if not ranked:
        return ""
    return "Verdict: " + "; ".join(best_text(p, t) for p, t in ranked) + "."


def print_verdict(records: Sequence[RunRecord], *, wide: bool = False) -> None:
    """The verdict line and, when a run failed, the failures line."""
    for text in (verdict_line(records), faults_line(records)):
        if text:
            say(text, wide=wide)
