"""The checks of a solver's limits: ``time-limit``, ``large`` and ``cap:<name>`` (what each
holds a solver to: ``checks``'s docstring)."""

from __future__ import annotations

from puzzlebench.conformance.case import Case, NotApplicable, RunLog, what
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import Instance
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.solvers.contract import Budget

#: The counters that show each cap's effort, first the one a cap is read from (a generation
#: is a GA's iteration; search solvers cap the nodes they expand).
CAP_COUNTERS: dict[str, tuple[str, ...]] = {
    "max_nodes": ("nodes", "nodes_expanded", "nodes_generated", "nodes_examined"),
    "max_iterations": ("iterations", "generations"),
    "max_evaluations": ("evaluations",),
}
#: The ``cap:*`` check's runs: uncapped (to see the effort E a seeded run spends, within this
#: time limit) and capped at E/4. A run may pass its cap by one natural step (a
#: generation, a batch), so it may spend up to twice the cap and this much more — and must
#: still have stopped on its budget.
CAP_TIME_LIMIT = 3.0
#: The capped run's limit: generous, so that on a loaded machine the cap, not the clock,
#: stops a solver that honours it (one that ignores its cap runs into this limit and fails).
CAPPED_TIME_LIMIT = 20.0
CAP_STEP_FACTOR, CAP_STEP_SLACK = 2, 100
#: The least effort an uncapped run must spend for its cap to be checked on that case.
MIN_CAPPED_EFFORT = 8
#: The time limit of the ``time-limit`` check, and where the harness kills that run: far
#: beyond it, so a run killed there ignored its limit for real, not because the machine was
#: slow.
TIME_CHECK_LIMIT = 0.3
TIME_CHECK_KILL_AT = 10.0
#: The time limit of the ``large`` check (the family's largest board in practice).
LARGE_TIME_LIMIT = 0.5
#: A run that declares ``time_limit`` may overrun it by this factor and this many seconds
#: (loading is not in a run's time; a busy machine still delays its last step).
OVERRUN_FACTOR, OVERRUN_S = 2.0, 0.5
#: How far a busy machine may stretch a run's wall time past what it may work (CPU time) before
#: the wait itself fails the check: a solver that sleeps or waits past its limit, using no CPU.
WALL_STRETCH = 3.0


def time_limit(case: Case, log: RunLog) -> str:
    return _stops_within(case, log, TIME_CHECK_LIMIT)


def large(case: Case, log: RunLog) -> str:
    """The ``time-limit`` check on the family's largest board in practice, where one step of a
    search can take long (issue 43: A* and backtracking looked at the clock per node, and one
    node at n = 10,000 took seconds). Only solvers that declare ``time_limit`` come here."""
    return _stops_within(case, log, LARGE_TIME_LIMIT)


def _stops_within(case: Case, log: RunLog, limit: float) -> str:
    """A run under ``limit`` on the case's instance: nobody crashes or answers wrong, and a
    solver that declares ``time_limit`` stops by itself (never killed, never working past
    ``OVERRUN_FACTOR`` × the limit + ``OVERRUN_S``)."""
    assert case.instance is not None
    record = log.solve(case.spec, case.instance, seed=0, budget=Budget(time_limit=limit),
                       hard_limit=TIME_CHECK_KILL_AT)
    if record.verdict.outcome in (Outcome.CRASH, Outcome.WRONG, Outcome.MEMOUT):
        return what(record)
    if "time_limit" not in case.spec.honours:
        return ""
    if record.verdict.outcome is Outcome.TIMEOUT and "hard limit" in record.verdict.error:
        return f"declares time_limit but was killed at {TIME_CHECK_KILL_AT:g} s"
    allowed = OVERRUN_FACTOR * limit + OVERRUN_S
    # the work it did: its CPU time where measured (a busy machine stretches the wall time of
    # the same work, never its CPU time), its wall time where that is less (threads)
    fig = record.figures
    worked = min(fig.time_s, fig.cpu_s) if fig.cpu_s > 0 else fig.time_s
    if worked > allowed or record.figures.time_s > WALL_STRETCH * allowed:  # working, or waiting
        return (f"declares time_limit but worked {worked:.2f} s (wall {record.figures.time_s:.2f} s, "
                f"CPU {record.figures.cpu_s:.2f} s) under a {limit:g} s limit ({record.verdict.outcome}; "
                f"allowed {allowed:g} s)")
    return ""


def _effort(record: RunRecord, cap: str) -> int | None:
    """The effort a run spent in a cap's unit (the smallest of its counters that name it)."""
    seen = [int(record.figures.counters[c]) for c in CAP_COUNTERS[cap] if c in record.figures.counters]
    return min(seen) if seen else None


def effort_cap(case: Case, log: RunLog) -> str:
    assert case.instance is not None
    cap = case.check.split(":", 1)[1]
    if cap not in CAP_COUNTERS:
        return f"declares an unknown cap {cap!r} (known: {', '.join(CAP_COUNTERS)})"
    cases = get_problem(case.problem).conformance_cases()
    assert cases is not None
    # the capped case first; where the solver spends too little there (or declines it), the
    # problem's other cases, largest first: a case the cap must stop
    others = sorted([cases.reproducible, *cases.solvable], key=lambda i: -i.size)
    tried: list[str] = []
    for instance in [case.instance, *others]:
        if instance.instance_id in tried:
            continue
        tried.append(instance.instance_id)
        # killed only far past its limit: a busy machine stretches the probe's wall time
        # (greedy-h3 on torus-queens-25 was killed at the default 1.25 × the limit, load 9)
        free = log.solve(case.spec, instance, seed=0, budget=Budget(time_limit=CAP_TIME_LIMIT),
                         hard_limit=CAPPED_TIME_LIMIT)
        # the probe measures effort, not speed: an answer that came just past the limit (a
        # busy machine: greedy-h2 on nqueens-30 answers at 2.6 s idle, 3.002 s under load) is
        # a timeout whose counters still say what the run spent (a killed run has none)
        late = free.verdict.outcome is Outcome.TIMEOUT and _effort(free, cap) is not None
        if free.verdict.outcome.failure and not late:
            return f"{instance.instance_id} uncapped: {what(free)}"
        spent = _effort(free, cap)
        if spent is None:
            return f"declares {cap} but reports none of {', '.join(CAP_COUNTERS[cap])}"
        if spent >= MIN_CAPPED_EFFORT:
            return _capped(case, instance, cap, spent, log)
    raise NotApplicable(f"no case takes it {MIN_CAPPED_EFFORT} or more "
                        f"{cap.removeprefix('max_')} uncapped (tried {', '.join(tried)})")


def _capped(case: Case, instance: Instance, cap: str, spent: int, log: RunLog) -> str:
    value = spent // 4
    capped = log.solve(case.spec, instance, seed=0,
                       budget=Budget(time_limit=CAPPED_TIME_LIMIT, **{cap: value}))
    used = _effort(capped, cap)
    where = (f"{instance.instance_id}: capped at {value} (a quarter of the {spent} it spends "
             "uncapped, same seed)")
    if capped.verdict.outcome is not Outcome.BUDGET:
        return f"{where} it did not stop on its budget: {what(capped)}, {used} spent"
    if used is None or used > CAP_STEP_FACTOR * value + CAP_STEP_SLACK:
        return f"{where} it spent {used}: more than one natural step past its cap"
    return ""
