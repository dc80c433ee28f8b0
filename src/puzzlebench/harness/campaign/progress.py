"""Study progress: a live bar on a terminal, plain lines elsewhere, a summary at the end."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Mapping

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from puzzlebench.record import Outcome, RunRecord


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
        self.outcomes[record.outcome.value] += 1
        if self.quiet:
            return
        failures = " ".join(f"{k}={v}" for k, v in sorted(self.outcomes.items())
                            if k not in (Outcome.SOLVED.value, Outcome.INFEASIBLE.value))
        if self.bar is not None and self.task is not None:
            self.bar.update(self.task, advance=1, failures=failures)
        else:
            of = "" if self.bar is None and not self.total else f"/{self.total}"
            print(f"[{self.done}{of}] {record.solver} {record.instance_id} "
                  f"{record.outcome.value} {record.time_s:.3f}s", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


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
        by_solver.setdefault(r.solver, []).append(r)
    for solver in sorted(by_solver):
        recs = by_solver[solver]
        counts = Counter(r.outcome.value for r in recs)
        times = sorted(r.time_s for r in recs)
        score = [f"{borda[solver]:.2f}" if solver in borda else ""] if borda else []
        table.add_row(solver, str(len(recs)), *(str(counts.get(o, "")) for o in outcomes),
                      f"{times[len(times) // 2]:.4f}", *score)
    return table
