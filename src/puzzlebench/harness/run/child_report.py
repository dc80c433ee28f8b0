"""What the harness saw of one run's process, as one immutable report."""

from __future__ import annotations

import signal
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ChildReport:
    """What the harness saw of one run's process.

    ``status``: ``done`` (a proposal arrived: ``data``/``raw``), ``error`` (the child reported
    ``error_kind``: crash or memout), ``timeout`` (killed at the hard limit), ``died`` (ended
    without a report), ``startup`` (killed before its timed phase began).

    ``wall_s`` is the run's time as accepted (``timed_by``: the run's own stamps, or the
    harness's span), ``span_s`` the harness's own go → done window, ``cpu_s``/``peak_rss_mb``
    come from ``measured_by`` (``cgroup-v1``/``cgroup-v2``, ``rusage``, or ``process`` for
    in-process runs). With repeats, ``wall_s`` is the median repeat and ``cpu_s`` the CPU time
    per repeat.
    """

    status: str
    data: dict[str, Any] | None = None
    raw: bytes | None = None
    error: str = ""
    error_kind: str = ""
    wall_s: float = 0.0
    cpu_s: float = 0.0
    warmup_s: float = 0.0
    startup_s: float = 0.0
    peak_rss_mb: float = 0.0
    rss_base_mb: float = 0.0
    mutated: bool = False
    log: str = ""
    span_s: float = 0.0
    time_min_s: float = 0.0
    repeats: int = 1
    repeats_agree: bool | None = None
    timed_by: str = "harness"
    measured_by: str = "rusage"
    core: int | None = None
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
