"""The figures the harness accepts for one run: time, CPU and memory, from what it observed.

A run's process sends its own stamps; the harness keeps its own window around them (``go`` →
``stopped`` → ``done``, its cgroup's CPU counter at each) and, where it lacks a kernel
measurement, the process's resource usage. ``accepted_figures`` decides which figure stands
(see ``harness.run.measure`` for the rules on stamps) and says why in the notes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from puzzlebench.harness.run.measure import Timing, check_stamps, stamp_ns, usable_cores
from puzzlebench.harness.run.protocol.message_fields import number
from puzzlebench.records.record import RunFigures


@dataclass(slots=True)
class RunWindow:
    """What the harness observed of one run, filled in as its messages arrive.

    Clock values: ``t_*`` on ``time.monotonic`` (limits), ``*_ns`` on the stamps' clock;
    ``cpu_*`` the run's cgroup CPU seconds at ``go``/``stopped``/``done`` (None without a
    cgroup); ``peak_mb`` its cgroup's memory high-water mark at ``stopped``.
    """

    t_start: float
    core: int | None = None
    measured_by: str = "rusage"
    t_ready: float | None = None
    t_done: float | None = None
    go_ns: int = 0
    stop_ns: int = 0
    done_ns: int = 0
    cpu_go: float | None = None
    cpu_stop: float | None = None
    cpu_done: float | None = None
    peak_mb: float | None = None
    ready: dict[str, Any] = field(default_factory=dict)
    answered: bool = False  # a ``done`` message arrived (its ``meta``: ``done_meta``)
    done_meta: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    sandbox: str = "none"  # as the harness verified it at ``ready``
    nice: int | None = None  # the run's priority from ``go`` on, as the harness set it


#: CPU time beyond this many times the wall time (and the slack) means the run kept more than
#: one core busy: noted, as its time is then not a one-core time (its solver may say so).
MULTI_CORE_FACTOR, MULTI_CORE_SLACK_S = 1.2, 0.05


def cores_note(cpu_s: float, wall_s: float) -> str:
    """'' unless a solve's CPU time shows it kept more than one core busy (then what, in
    words: its time is not a one-core time, whether or not its solver says it uses threads)."""
    if wall_s <= 0 or cpu_s <= MULTI_CORE_FACTOR * wall_s + MULTI_CORE_SLACK_S:
        return ""
    return (f"the run used more than one core: {cpu_s:.2f} s of CPU in {wall_s:.2f} s "
            f"({cpu_s / wall_s:.1f} cores)")


def accepted_figures(run: RunWindow, rusage: Any, log: str) -> dict[str, Any]:
    """The run's time, CPU and memory as the harness accepts them, with what else the harness
    saw (ChildReport's fields: ``figures``, ``sandbox``, ``nice``, ``notes``, ``log``): the
    run's stamps where they lie in the harness's window and its CPU time does not contradict
    them, CPU and peak memory from its cgroup, else from resource usage."""
    notes = list(run.notes)
    started = run.go_ns > 0
    end_ns = run.done_ns if run.done_ns else stamp_ns()
    span = max(0.0, (end_ns - run.go_ns) / 1e9) if started else 0.0
    meta = run.done_meta
    done = run.answered
    cpu: float | None = None  # the solves' CPU time (go → stopped)
    window_cpu: float | None = None  # all of go → done, for the check
    if run.cpu_go is not None and run.cpu_stop is not None:
        cpu = max(0.0, run.cpu_stop - run.cpu_go)
        window_cpu = max(cpu, (run.cpu_done or run.cpu_stop) - run.cpu_go)
    if done and started:
        handover = (run.done_ns - run.stop_ns) / 1e9 if run.stop_ns else 0.0
        if run.stop_ns and run.cpu_stop is not None and run.cpu_done is not None:
            # the work the run did after its solves, not how long this harness took to read
            # its answer (a loop busy with other runs once refused a prompt run's stamps)
            handover = max(0.0, run.cpu_done - run.cpu_stop)
        timing = check_stamps(meta.get("stamps"), (run.go_ns, run.stop_ns or run.done_ns),
                              cpu_s=window_cpu, handover_s=handover, span_s=span,
                              cores=usable_cores() if run.core is None else 1,
                              solve_cpu_s=cpu if run.stop_ns else None)
        if timing.note:
            notes.append(timing.note)
    else:
        timing = Timing(span, span, 1, "harness")
    notes.extend(pre_go_notes(run))
    if cpu is None:  # the fallback: the run's own rusage delta, bounded by its whole life
        own = number(meta.get("cpu_s"))
        life = rusage.ru_utime + rusage.ru_stime if rusage is not None else None
        cpu = min(own, life) if own is not None and life is not None else (
            own if own is not None else 0.0)
    per_solve = cpu / max(1, timing.repeats) if started else 0.0
    busy = cores_note(per_solve, timing.time_s if started else 0.0)
    if busy:
        notes.append(busy)
    peak = run.peak_mb
    if peak is None:  # the fallback: the kernel's high-water mark of the run's process (its
        # whole life), never the run's own word — only where the kernel's figure is missing
        own_peak = number(meta.get("peak_rss_mb"))
        peak = rusage.ru_maxrss / 1024 if rusage is not None else (own_peak or 0.0)
    figures = RunFigures(
        time_s=timing.time_s if started else 0.0,
        time_min_s=timing.time_min_s if started else 0.0,
        repeats=timing.repeats,
        timed_by=timing.timed_by,
        span_s=span,
        cpu_s=per_solve,
        warmup_s=float(run.ready.get("warmup_s", 0.0) or 0.0),
        startup_s=(run.t_ready if run.t_ready is not None else time.monotonic()) - run.t_start,
        rss_base_mb=float(run.ready.get("rss_base_mb", 0.0) or 0.0),
        peak_rss_mb=peak,
        measured_by=run.measured_by,
        core=run.core)
    return {
        "figures": figures,
        "sandbox": run.sandbox,
        "nice": run.nice,
        "notes": tuple(notes),
        "log": log,
    }


#: CPU seconds a run's processes may use before ``go`` beyond its warm-up (loading its
#: solver's code) without a note: above it, the solver's own start-up did work.
PRE_GO_NOTE_S = 0.5


def pre_go_notes(run: RunWindow) -> list[str]:
    """What start-up and warm-up did to the run's time limit, in words, when it matters: a
    warm-up cut short, and a start-up and warm-up that used their whole share of the limit
    (the solver then had the rest). A note never holds "; " (it separates notes). Never
    figures: the notes of two runs of one seed must not
    differ by timings (``warmup_s`` and ``startup_s`` hold them) — save the one on work done
    before ``go`` (a timing note, ``record.TIMING_NOTES``): the run's cgroup CPU time before
    ``go`` beyond its warm-up, when over ``PRE_GO_NOTE_S``."""
    notes = []
    warmup = float(number(run.ready.get("warmup_s")) or 0.0)
    if run.cpu_go is not None and run.cpu_go - warmup > PRE_GO_NOTE_S:
        notes.append(f"the run worked before go: {run.cpu_go:.2f} s of CPU before it had its "
                     f"instance, {run.cpu_go - warmup:.2f} s beyond its warm-up (its solver's "
                     "loading and module-level code, not in its time, and it could not know "
                     "its instance or seed)")
    if run.ready.get("warmup_complete") is False:
        notes.append("warm-up cut short: start-up and warm-up may use max(1 s, 25 % of the time "
                     "limit), so first-call costs may fall in the timed phase")
    if run.done_meta.get("pre_go_capped") is True:
        notes.append("the time limit counts from the run's start: start-up and warm-up used "
                     "their whole share of it (25 %), so the solver was given the rest")
    return notes
