"""What the harness saw of one run's process, as one immutable report."""

from __future__ import annotations

import signal
from dataclasses import dataclass, field
from typing import Any

from puzzlebench.records.record import RunFigures


def unmeasured() -> RunFigures:
    """The figures of a run nothing measured yet: no time, the harness's clock, rusage."""
    return RunFigures(timed_by="harness", measured_by="rusage")


@dataclass(frozen=True, slots=True)
class ChildReport:
    """What the harness saw of one run's process.

    ``status``: ``done`` (a proposal arrived: ``data``/``raw``), ``error`` (the child reported
    ``error_kind``: crash or memout), ``timeout`` (killed at the hard limit), ``died`` (ended
    without a report), ``startup`` (killed before its timed phase began).

    ``figures`` are what the harness measured and accepted, in the record's own type (one
    definition of each figure, ``records.record.RunFigures``): ``time_s`` the run's time
    (``timed_by``: the run's own stamps, or the harness's span), ``span_s`` the harness's own
    go → done window, ``cpu_s``/``peak_rss_mb`` from ``measured_by`` (``cgroup-v1``/``cgroup-v2``,
    ``rusage``, or ``process`` for in-process runs); with repeats, ``time_s`` is the median
    repeat and ``cpu_s`` the CPU time per repeat. The solver's counters and trace, and the
    clock's resolution, are added when the run is judged (``judging.run_record.figures_of``).
    """

    status: str
    data: dict[str, Any] | None = None
    raw: bytes | None = None
    error: str = ""
    error_kind: str = ""
    figures: RunFigures = field(default_factory=unmeasured)
    mutated: bool = False
    log: str = ""
    notes: tuple[str, ...] = ()
    #: How the run was sealed (``harness.run.sealed.sandbox``): ``namespaces`` as the harness saw it
    #: from outside, else ``none``.
    sandbox: str = "none"
    #: The nice value the harness gave the run's processes for their timed phase (None: the
    #: run kept the priority it inherited).
    nice: int | None = None


def describe_status(code: int | None) -> str:
    """'the run's process exited with status 3 without a result' or '... killed by SIGSEGV'."""
    if code is None:
        return "the run's process was lost"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the run's process was killed by {name}"
    return f"the run's process exited with status {code} without a result"
