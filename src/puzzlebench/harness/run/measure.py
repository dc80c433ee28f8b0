"""How a run's time is taken and checked: stamps in the run, the harness's window around them.

A run's time is taken where the run happens. Harness code in the run's process reads
``CLOCK_MONOTONIC`` (one clock for every process on Linux) immediately before the solver is
constructed and immediately after its call returns, and sends the stamps with its ``done``
message. The harness accepts them only when they lie inside what it observed itself — after it
sent the instance (``go``), before it read ``done`` — and when they are not contradicted by the
run's CPU time (a run cannot use more CPU than ``cores × time``). Otherwise it records its own
span and says why in the record's notes (``timed_by: harness``). The harness's span is kept in
every record (``span_s``), so the difference between the two is visible.

What this trusts: a solver that tampers with its own process (it shares it with the stamping
code) could at most report itself faster *inside* the window the harness saw, and never below
``cpu_s / cores`` when its CPU time is read from the kernel (cgroups): a run that claims 1 ms
while its group used 4 s of CPU is refused. Nor below its solves' CPU time on one core: stamps
shorter than the kernel's CPU time of go → stopped (beyond ``CPU_SLACK_S``, the clock's noise)
give way to the harness's span of the solves (go → stopped), noted — so a forged end stamp
inside the ``cores`` bound gains nothing, and a run on several cores is timed by its wall
span, as the harness saw it.

Short runs are repeated in their process (``min_time``, as ``timeit`` and pyperf do), each
repeat with the run's same seed, until the timed total reaches ``min_time``; the record's
``time_s`` is the median repeat, ``time_min_s`` the fastest, ``repeats`` how many — unless the
repeats were measurably cheaper than the first solve (beyond the clock's noise and their own
spread, whatever the ratio): then ``time_s`` is the first solve's, with a note.
"""

from __future__ import annotations

import os
import resource
import statistics
import time
from dataclasses import dataclass, field

#: The clock every stamp reads: shared by all processes of the machine, never set back.
CLOCK = time.CLOCK_MONOTONIC
#: Seconds a run may take, beyond twice its stamped time, between its last solve and handing
#: its result over (turning a 10^7-queen answer into data takes a few tens of milliseconds).
HANDOVER_S = 0.25
#: Repeats a run makes at most to reach ``min_time`` (a guard against a 0 s solve).
MAX_REPEATS = 10_000
#: Slack allowed between a run's CPU time and cores × its stamped time (scheduler ticks,
#: the stamps' own cost).
CPU_SLACK_S = 0.005


def stamp_ns() -> int:
    """Now, on the shared monotonic clock, in nanoseconds."""
    return time.clock_gettime_ns(CLOCK)


def clock_resolution_s() -> float:
    """The resolution the kernel reports for the stamps' clock."""
    return time.clock_getres(CLOCK)


def usable_cores() -> int:
    """Cores this process may run on (its affinity), the bound on CPU time per second."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def rusage_cpu_s() -> float:
    """CPU seconds of this process and of its waited-for children (microsecond resolution):
    the fallback reading where the run's cgroup cannot be had."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


#: Seconds a run may spend starting and warming up (loading, constructing and warming its
#: solver) before its timed phase; past it the run is killed. Small: a solver that "warms" for
#: minutes is doing its work where it is not timed.
STARTUP_LIMIT = 30.0
#: The start-up limit of the project's own solvers (trusted code), at least: their warm-up may
#: build pattern databases on a cold cache (15-puzzle tables: about 15 s on a quiet machine).
PROJECT_STARTUP_LIMIT = 300.0


#: The time limit is the user's wait: a run's start-up and warm-up may use this share of it
#: (at least :data:`PRE_GO_FLOOR_S`, for the interpreter's own start), and whatever they used
#: of that share is taken from the timed phase's limit. So a run with limit T ends within
#: 1.1 × T + 0.5 s of its start (the hard limit), warm-up included, for T ≥ 2 s; below, the
#: floor may add up to half a second. A warm-up still at work when its share is spent is cut
#: Default hard limit: the time limit plus 10 % and half a second of grace.
#: The longest time limit (seconds, 1,000,000 s: 11.6 days) a run, a warm-up or a start-up may
#: be given. The harness waits on its limits through timers that cannot hold every float:
#: ``poll``/``epoll`` take whole milliseconds in a C int (2,147,483 s, 24.8 days; a run's
#: hard limit is 1.1 × its time limit + 0.5 s), itimers and thread waits take 64-bit
#: nanoseconds (9.2e9 s). A limit beyond it (``--time-limit 1e12``) is bad input, refused before
#: any run, never a run's crash.
MAX_TIME_LIMIT_S = 1_000_000.0
GRACE_FACTOR, GRACE_S = 1.1, 0.5


def default_hard_limit(time_limit: float | None) -> float | None:
    """Where the harness kills a run that ignores its time limit (None: never)."""
    return None if time_limit is None else GRACE_FACTOR * time_limit + GRACE_S


#: short (``harness.run.warmup.warm_up``) and the record says so.
PRE_GO_SHARE = 0.25
PRE_GO_FLOOR_S = 1.0


def pre_go_allowance(time_limit: float | None) -> float | None:
    """Seconds a run with this time limit may spend before its timed phase (None: no
    limit, the warm-up's own rounds bound it)."""
    if time_limit is None:
        return None
    return max(PRE_GO_FLOOR_S, PRE_GO_SHARE * time_limit)


def pre_go_charge(time_limit: float | None, pre_go_s: float) -> float:
    """Seconds of the time limit a run's start-up and warm-up used up (at most the share)."""
    if time_limit is None:
        return 0.0
    return min(max(0.0, pre_go_s), PRE_GO_SHARE * time_limit)


#: The nice value a run's processes get when its timed phase starts, where the harness may
#: raise a priority (as root): a CPU-bound process of the machine at the default priority then
#: takes a few per cent of the run's core instead of half, so a run's time stays the run's own
#: (``benchmarks/timing_stability.py`` measures it beside two CPU burners). The harness's own
#: loop keeps its priority; its deadlines do not depend on it. Where the harness may not, the
#: run keeps the priority it inherited and its record says so (``machine["nice"]``).
RUN_NICE = -10
NICE_ENV = "PUZZLEBENCH_NICE"


def default_nice() -> int | None:
    """``$PUZZLEBENCH_NICE`` (a nice value, or ``off``: runs keep their priority), else
    :data:`RUN_NICE`."""
    raw = os.environ.get(NICE_ENV, "").strip().lower()
    if raw in ("off", "none"):
        return None
    try:
        return int(raw) if raw else RUN_NICE
    except ValueError:
        return RUN_NICE


@dataclass(frozen=True, slots=True)
class Measurement:
    """How the runs of one command or study are measured and confined.

    ``min_time``: repeat each run in its process until this many seconds of timed work
    (None: once). ``pin``: give each worker its own core (cpuset cgroup, else affinity).
    ``cgroups``: use a cgroup per run where the machine allows (False: always the rusage
    fallback). ``startup_limit``: seconds a run may take to be ready (start-up and warm-up).
    ``sandbox``: how runs are sealed off from the machine (``harness.run.sealed.sandbox``: ``auto``,
    ``required``, ``off``; None: ``$PUZZLEBENCH_SANDBOX`` or ``auto``). ``nice``: the
    scheduling priority each run's processes get for their timed phase where the harness may
    raise it (root or CAP_SYS_NICE; None: left as inherited) — see :data:`RUN_NICE`.
    """

    min_time: float | None = None
    pin: bool = False
    cgroups: bool = True
    startup_limit: float = STARTUP_LIMIT
    sandbox: str | None = None
    nice: int | None = field(default_factory=default_nice)

    def __post_init__(self) -> None:
        if self.nice is not None and not -20 <= self.nice <= 19:
            raise ValueError(f"nice must be in -20..19, got {self.nice}")
        if self.min_time is not None and not self.min_time > 0:
            raise ValueError(f"min_time must be positive, got {self.min_time}")
        if not 0 < self.startup_limit < float("inf"):
            raise ValueError(f"startup_limit must be a positive number of seconds, got "
                             f"{self.startup_limit}")
        if self.sandbox is not None and self.sandbox not in ("auto", "required", "off"):
            raise ValueError(f"sandbox must be auto, required or off, got {self.sandbox!r}")

    def startup_limit_for(self, project: bool) -> float:
        """The start-up limit of a run: ``startup_limit``, or for a project solver at least
        :data:`PROJECT_STARTUP_LIMIT`."""
        return max(self.startup_limit, PROJECT_STARTUP_LIMIT) if project else self.startup_limit


@dataclass(frozen=True, slots=True)
class Timing:
    """A run's time as accepted by the harness."""

    time_s: float
    time_min_s: float
    repeats: int
    timed_by: str  # "run": the in-run stamps; "harness": the harness's own span
    note: str = ""


def check_stamps(stamps: object, window: tuple[int, int], *, cpu_s: float | None,
                 cores: int, handover_s: float = 0.0, span_s: float | None = None,
                 solve_cpu_s: float | None = None) -> Timing:
    """Accept the run's stamps ``[[start_ns, end_ns], ...]`` (one pair per repeat) when they
    are well formed, ordered and inside ``window`` (the harness's go → stopped, in ns), when the
    run handed its result over promptly after its solves (``handover_s``, stopped → done, at
    most ``HANDOVER_S`` + twice the stamped time: the CPU time its processes used there where a
    cgroup measures the run, else the wall time the harness saw) and when ``cpu_s`` (the
    kernel's CPU time of the whole go → done) does not contradict them; otherwise the harness's
    own span (``span_s``, go → done; default the window), with the reason. Stamps shorter
    than ``solve_cpu_s`` (the kernel's CPU time of go → stopped) by more than the clock's noise
    are not the run's time either (a one-core solve cannot use more CPU than its wall time: a
    forged end stamp inside the ``cores`` bound is still refused): then the harness's span of
    the solves (the window, go → stopped) per solve is, with a note."""
    lo, hi = window
    span = span_s if span_s is not None else max(0.0, (hi - lo) / 1e9)
    fallback = Timing(span, span, 1, "harness")
    if not (isinstance(stamps, list) and stamps and len(stamps) <= MAX_REPEATS):
        return _note(fallback, "the run sent no usable time stamps")
    durations: list[int] = []
    previous_end = lo
    for pair in stamps:
        if not (isinstance(pair, list) and len(pair) == 2
                and all(type(x) is int for x in pair)):
            return _note(fallback, "the run's time stamps are malformed")
        start, end = pair
        if not previous_end <= start <= end <= hi:
            return _note(fallback, "the run's time stamps lie outside the window the harness "
                                   "observed")
        durations.append(end - start)
        previous_end = end
    total_s = sum(durations) / 1e9
    if handover_s > HANDOVER_S + 2 * total_s:
        return _note(fallback, f"the run took {handover_s:.3f} s after its {total_s:.6f} s of "
                               "solving to hand its result over")
    if cpu_s is not None and cpu_s > cores * (total_s + handover_s) + CPU_SLACK_S:
        return _note(fallback, f"the run's time stamps ({total_s:.6f} s) are contradicted by "
                               f"its CPU time ({cpu_s:.6f} s on {cores} cores)")
    # the noise: the slack, and the loop's own work between repeats (outside the stamps)
    if solve_cpu_s is not None and solve_cpu_s > total_s + CPU_SLACK_S + len(durations) * \
            CLOCK_NOISE_S:
        solves = max(0.0, (hi - lo) / 1e9)
        each = solves / len(durations)
        return Timing(each, each, len(durations), "harness",
                      f"the run's time stamps ({total_s:.6f} s) are shorter than its CPU time "
                      f"({solve_cpu_s:.6f} s) allows on one core: the harness's span of its "
                      f"solves ({solves:.6f} s, go → stopped) is its time (a stamp cut short, or "
                      "a run on more than one core)")
    seconds = [d / 1e9 for d in durations]
    if reused_first_solve(seconds):
        later = statistics.median(seconds[1:])
        return Timing(seconds[0], min(seconds), len(seconds), "run",
                      f"the first solve took {seconds[0]:.3g} s and the {len(seconds) - 1} "
                      f"repeats after it a median of {later:.3g} s, measurably less: repeats "
                      "in one process may have reused the first solve's work (or found its "
                      "caches warm), so the first solve's time is the run's")
    return Timing(statistics.median(seconds), min(seconds), len(seconds), "run")


#: The stamps' own noise: two clock reads and the loop around a solve, plus the jitter of a
#: timer tick (seconds). Below it, a first solve and its repeats cannot be told apart.
CLOCK_NOISE_S = 2e-6
#: Robust spreads of the repeats (1.4826 × their median absolute deviation: a standard
#: deviation for normal noise) a first solve may lie above their median, as noise.
SPREAD_FACTOR = 3.0


def first_solve_excess(seconds: list[float]) -> float:
    """How much longer the first solve took than the repeats after it beyond their noise
    (the clock's, or the repeats' own robust spread, whichever is larger); 0 when it did not."""
    if len(seconds) < 2:
        return 0.0
    later = seconds[1:]
    middle = statistics.median(later)
    spread = 1.4826 * statistics.median(abs(x - middle) for x in later)
    noise = max(CLOCK_NOISE_S, clock_resolution_s(), SPREAD_FACTOR * spread)
    return max(0.0, seconds[0] - middle - noise)


def reused_first_solve(seconds: list[float]) -> bool:
    """Whether ``seconds`` (one per solve, in order) show the repeats measurably cheaper than
    the first — by any ratio, however short the first: ``--min-time`` repeats share one
    process, so a cheaper repeat may be a remembered answer, and the harness cannot tell it
    from a warm cache. The first solve's time is then the run's (see ``check_stamps``)."""
    return first_solve_excess(seconds) > 0.0


def _note(timing: Timing, why: str) -> Timing:
    return Timing(timing.time_s, timing.time_min_s, timing.repeats, timing.timed_by,
                  f"{why}; the harness's own span is recorded")


def repeat_more(count: int, total_ns: int, longest_ns: int, min_time: float | None,
                elapsed_s: float, hard_limit: float | None) -> bool:
    """Whether a run that has made ``count`` solves (``total_ns`` of timed work, the longest
    ``longest_ns``) makes another: below ``min_time`` of timed work, and the next solve (as
    long as the longest so far) still ends well inside the hard limit, which covers the whole
    run."""
    if min_time is None or count >= MAX_REPEATS or total_ns / 1e9 >= min_time:
        return False
    return hard_limit is None or elapsed_s + 2 * longest_ns / 1e9 < 0.8 * hard_limit
