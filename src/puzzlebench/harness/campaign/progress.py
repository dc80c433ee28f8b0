"""Study progress: a live bar on a terminal, plain lines elsewhere, a summary at the end."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Mapping

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from puzzlebench.host.terminal import clip, output_width
from puzzlebench.records.record import Outcome, RunRecord


def first_reason(record: RunRecord) -> str:
    """The first line of why a run failed (its reason, else its error), "" when none."""
    for text in (record.verdict.reason, record.verdict.error):
        lines = (text or "").strip().splitlines()
        if lines:
            return lines[0]
    return ""


class StudyProgress:
    """Reports each finished run; ``quiet`` prints nothing."""

    def __init__(self, total: int, skipped: int, *, quiet: bool = False,
                 console: Console | None = None, unknown_total: bool = False) -> None:
        self.total, self.skipped, self.quiet = total, skipped, quiet
        self.console = console or Console(stderr=True, highlight=False)
        self.done = 0
        self.outcomes: Counter[str] = Counter()
        self.started = time.perf_counter()
        self.bar: Progress | None = None
        self.task = None
        if quiet:
            return
        if skipped:
            self.console.print(f"resuming: {skipped} runs already stored, {total} to go")
        if self.console.is_terminal:
            self.bar = Progress(TextColumn("[bold]runs"), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[failures]}"), TimeRemainingColumn(),
                                console=self.console)
            self.task = self.bar.add_task("runs", total=None if unknown_total else total,
                                          failures="")
            self.bar.start()

    def update(self, record: RunRecord) -> None:
        self.done += 1
        self.outcomes[record.verdict.outcome.value] += 1
        if self.quiet:
            return
        failures = " ".join(f"{k}={v}" for k, v in sorted(self.outcomes.items())
                            if k not in (Outcome.SOLVED.value, Outcome.INFEASIBLE.value))
        why = first_reason(record) if record.verdict.outcome.failure else ""
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, advance=1, failures=failures)
            if why:  # a failed run is named above the bar, with its first reason
                line = f"{record.key.solver} {record.key.instance_id} {record.verdict.outcome.value}"
                self.bar.console.print(line + " — " + clip(why, self.console.width - len(line) - 3),
                                       markup=False, highlight=False)
        else:
            of = "" if self.bar is None and not self.total else f"/{self.total}"
            line = (f"[{self.done}{of}] {record.key.solver} {record.key.instance_id} "
                    f"{record.verdict.outcome.value} {record.figures.time_s:.3f}s")
            if why:
                line += " — " + clip(why, max(output_width(sys.stderr) - len(line) - 3, 20))
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


class SplitProgress:
    """A split count's progress: sub-problems done, solutions so far and the time left,
    estimated from the sub-problems this call finished (a split deals its heavy classes
    round the parts, so the parts are of like size). A live line on a terminal, one plain
    line per sub-problem elsewhere; ``quiet`` prints nothing."""

    def __init__(self, total: int, done: Mapping[str, RunRecord], *, quiet: bool = False,
                 console: Console | None = None) -> None:
        self.total, self.quiet = total, quiet
        self.counted = len(done)
        self.solutions = 0  # weighted: filled by ``update``; stored parts are added below
        self.fresh = 0
        self.console = console or Console(stderr=True, highlight=False)
        self.started = time.perf_counter()
        self.bar: Progress | None = None
        if quiet:
            return
        if done:
            self.console.print(f"resuming: {len(done)} of {total} sub-problems already stored")
        if self.console.is_terminal:
            self.bar = Progress(TextColumn("[bold]sub-problems"), BarColumn(),
                                MofNCompleteColumn(), TextColumn("{task.fields[found]}"),
                                TimeRemainingColumn(), console=self.console)
            self.task = self.bar.add_task("parts", total=total, completed=len(done), found="")
            self.bar.start()

    def add_stored(self, solutions: int) -> None:
        """Count solutions of the sub-problems found stored."""
        self.solutions += solutions

    def update(self, record: RunRecord, weight: int) -> None:
        counted = (record.verdict.outcome in (Outcome.SOLVED, Outcome.INFEASIBLE)
                   and record.verdict.count is not None)
        self.fresh += 1
        if counted:
            self.counted += 1
            self.solutions += weight * int(record.verdict.count or 0)
        if self.quiet:
            return
        found = f"{self.solutions:,} solutions so far"
        if self.bar is not None:
            self.bar.update(self.task, completed=self.counted, found=found)
            return
        elapsed = time.perf_counter() - self.started
        left = self.total - self.counted
        eta = f", about {_duration(elapsed / self.fresh * left)} left" if left else ""
        what = "" if counted else f" ({record.verdict.outcome.value}: run again)"
        print(f"[{self.counted}/{self.total}] {record.key.instance_id}: {record.verdict.count}{what}; "
              f"{found}{eta}", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def summary_table(records: list[RunRecord], borda: Mapping[str, float] | None = None) -> Table:
    """Runs per solver by outcome, with the median wall time; with ``borda`` (solver → its
    MiniZinc-style Borda score, computed by the caller from the report package) a ``Borda``
    column."""
    table = Table(title="study summary")
    outcomes = [o.value for o in Outcome]
    for col in ("solver", "runs", *outcomes, "median time (s)", *(["Borda"] if borda else [])):
        table.add_column(col)
    by_solver: dict[str, list[RunRecord]] = {}
    for r in records:
        by_solver.setdefault(r.key.solver, []).append(r)
    for solver in sorted(by_solver):
        recs = by_solver[solver]
        counts = Counter(r.verdict.outcome.value for r in recs)
        times = sorted(r.figures.time_s for r in recs)
        score = [f"{borda[solver]:.2f}" if solver in borda else ""] if borda else []
        table.add_row(solver, str(len(recs)), *(str(counts.get(o, "")) for o in outcomes),
                      f"{times[len(times) // 2]:.4f}", *score)
    return table
