"""The conformance checks: what every solver, built-in or a user's, is held to.

A check is a :class:`Case` — one named check on one problem (and, for per-instance checks,
one instance) — and :func:`run_case` runs it through the harness, isolated and judged as
every other run, and returns a :class:`CheckResult`. :func:`cases_for` lists the cases that
apply to what a solver declares; the ones that do not apply are listed too, as ``SKIP`` with
the reason, so a card never hides a check. ``certify`` (the command), ``puzzlebench.testing``
(a user's pytest suite) and the project's own ``tests/conformance`` all run these same cases.

The checks, by name:

``solves``
    each of the problem's small solvable cases is solved with a valid answer.
``infeasible``
    on its unsolvable cases a complete solver claims infeasible; an incomplete one ends on
    its budget or an infeasible claim; no one answers wrong.
``time-limit``
    on a hard case with a 0.3 s limit, a solver that declares ``time_limit`` stops by itself
    (never killed, never working past twice its limit and half a second); no one crashes.
``cap:<name>``
    each effort cap it declares stops a run that the cap must stop: the same seeded run
    uncapped spends E units (on the capped case, or the problem's largest case where E is at
    least 8); capped at E/4 it must end on its budget within one natural
    step of the cap (at most twice the cap and 100 more).
``same-seed``
    two runs with the same seed give the same record (timings aside).
``deterministic``
    a solver that declares itself not stochastic gives the same answer under two seeds.
``no-mutation``
    the instance is unchanged after a run: the run's process compares its copy (every
    solver), and a built-in solver is also run once in this process and compared.
``counts``
    a counting solver's counts equal the problem's known counts on its sizes 1..9 (n-queens:
    OEIS A000170) and on its conformance cases.
``exact``
    an exact solver's answers are as short as the problem's known optimum or another exact
    built-in solver's (the judge refuses a longer one claimed optimal).
``traces``
    a tracing solver's anytime trace reaches the record (the harness drops a malformed one).

Every check also holds each of its runs to the solver's declared counters
(``Solver.counter_names``): a run that reports a counter the solver does not declare fails the
check, so a declaration that study files are checked against cannot lie.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from puzzlebench.conformance.declared_counters import undeclared_counters
from puzzlebench.contract import Budget
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.problems import PROBLEMS, get_problem, problem_of
from puzzlebench.problems.base import Instance, PuzzlebenchError
from puzzlebench.record import Outcome, RunRecord
from puzzlebench.registry import REGISTRY
from puzzlebench.solver_spec import SolverSpec

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
#: Each count's budget in the ``counts`` check: the check is of the count, not of speed (a
#: python-constraint count of queens-knights 8 × 8 with 8 queens takes 28 s on a busy core).
COUNT_TIME_LIMIT = 180.0
#: What the harness notes when a run's process finds its copy of the instance changed.
MUTATION_NOTE = "the solver changed its copy of the instance"
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
#: The budget of the checks that only need an answer: generous, never what is tested.
ANSWER_BUDGET = Budget(time_limit=20)
INFEASIBLE_BUDGET = Budget(time_limit=1.0, max_nodes=200_000, max_iterations=20_000,
                           max_evaluations=200_000)
REPRODUCE_BUDGET = Budget(max_nodes=100_000, max_iterations=100_000, max_evaluations=1_000_000,
                          time_limit=20)

#: Every check's name, in the order a card lists them (``cap:*`` stands for each cap).
CHECK_NAMES: tuple[str, ...] = ("solves", "infeasible", "time-limit", "large", "cap:*", "same-seed",
                                "deterministic", "no-mutation", "counts", "exact", "traces")


class Status(StrEnum):
    """A check's verdict."""

    PASS = "PASS"
    FAIL = "FAIL"
    SKIP = "SKIP"


@dataclass(frozen=True, slots=True)
class Case:
    """One check of one solver on one problem (and instance, for per-instance checks).
    ``skip`` says why the check does not apply (the case then runs nothing)."""

    check: str
    spec: SolverSpec
    problem: str
    instance: Instance | None = None
    skip: str = ""

    @property
    def id(self) -> str:
        """A stable test id: ``solver-problem-check[-instance]``."""
        where = f"-{self.instance.instance_id}" if self.instance is not None else ""
        return f"{self.spec.name}-{self.problem}-{self.check}{where}"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """What one case found: its verdict, why, on which instance, and how long it took."""

    check: str
    problem: str
    status: Status
    reason: str = ""
    instance_id: str = ""
    seconds: float = 0.0
    runs: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"check": self.check, "problem": self.problem, "status": str(self.status),
                "reason": self.reason, "instance": self.instance_id,
                "seconds": round(self.seconds, 3), "runs": self.runs}


class CheckFailed(AssertionError):  # noqa: N818 - an assertion, named for what it means
    """A conformance case failed (raised by ``puzzlebench.testing``)."""


class _NotApplicable(Exception):  # noqa: N818 - a verdict, not an error
    """Raised by a check that finds, by running, that it does not apply (a SKIP)."""


@dataclass(slots=True)
class _Log:
    """The runs a check made, so that its result can say how many."""

    runs: list[RunRecord] = field(default_factory=list)

    def solve(self, spec: SolverSpec, instance: Instance, **kw: Any) -> RunRecord:
        record = run_solve(spec, instance, **kw)
        self.runs.append(record)
        return record

    def count(self, spec: SolverSpec, instance: Instance, **kw: Any) -> RunRecord:
        record = run_count(spec, instance, **kw)
        self.runs.append(record)
        return record


def _what(record: RunRecord) -> str:
    """A record's outcome and why, for a failure's reason."""
    why = record.reason or record.error
    return f"{record.outcome}" + (f" ({why.strip().splitlines()[-1][:200]})" if why else "")


def _problems(spec: SolverSpec, problems: list[str] | None) -> list[str]:
    """The declared problems that have conformance cases (all, or those named)."""
    chosen = sorted(spec.problems if problems is None else set(problems) & spec.problems)
    return [p for p in chosen if p in PROBLEMS and get_problem(p).conformance_cases() is not None]


def cases_for(spec: SolverSpec, problems: list[str] | None = None) -> list[Case]:
    """Every check that applies to what ``spec`` declares, on each of its problems (or those
    named), and the ones that do not, as skips that say why."""
    out: list[Case] = []
    for problem in _problems(spec, problems):
        cases = get_problem(problem).conformance_cases()
        assert cases is not None
        out += [Case("solves", spec, problem, inst) for inst in cases.solvable]
        out += [Case("infeasible", spec, problem, inst) for inst in cases.infeasible]
        out.append(Case("time-limit", spec, problem, cases.hard))
        out.append(Case("large", spec, problem, cases.large,
                        skip="" if cases.large is not None and "time_limit" in spec.honours
                        else "declares no time limit" if cases.large is not None
                        else "its hard case is its largest board"))
        caps = sorted(spec.honours - {"time_limit"})
        out += [Case(f"cap:{cap}", spec, problem, cases.capped) for cap in caps]
        if not caps:
            out.append(Case("cap:*", spec, problem, skip="declares no effort cap"))
        out.append(Case("same-seed", spec, problem, cases.reproducible))
        out.append(Case("deterministic", spec, problem, cases.reproducible,
                        skip="declares itself stochastic" if spec.stochastic else ""))
        out.append(Case("no-mutation", spec, problem, cases.reproducible))
        out.append(Case("counts", spec, problem, skip="" if spec.counts else "declares no counts"))
        out.append(Case("exact", spec, problem, skip="" if spec.exact else "declares not exact"))
        out.append(Case("traces", spec, problem, cases.reproducible,
                        skip="" if spec.traces else "declares no traces"))
    if spec.unavailable:
        out = [Case(c.check, c.spec, c.problem, c.instance,
                    skip=f"unavailable here: {spec.unavailable}") for c in out]
    return out


def run_case(case: Case) -> CheckResult:
    """Run one case (nothing for a skip) and judge it; never raises for a solver's fault."""
    iid = case.instance.instance_id if case.instance is not None else ""
    if case.skip:
        return CheckResult(case.check, case.problem, Status.SKIP, case.skip, iid)
    check = _CHECKS[case.check.split(":")[0]]
    log = _Log()
    start = time.perf_counter()
    try:
        failure = check(case, log)
        status = Status.FAIL if failure else Status.PASS
    except _NotApplicable as why:  # found only by running: e.g. no effort to cap
        status, failure = Status.SKIP, str(why)
    undeclared = undeclared_counters(case.spec, log.runs)
    if undeclared:
        status, failure = Status.FAIL, "; ".join(filter(None, [failure, undeclared]))
    return CheckResult(case.check, case.problem, status, failure, iid,
                       time.perf_counter() - start, len(log.runs))


# -- the checks: each returns "" when it passes, else the reason it fails ----------------------

def _solves(case: Case, log: _Log) -> str:
    assert case.instance is not None
    record = log.solve(case.spec, case.instance, seed=1, budget=ANSWER_BUDGET)
    if record.outcome is not Outcome.SOLVED or record.valid is not True:
        return f"not solved: {_what(record)}"
    problem = problem_of(case.instance)
    if not problem.validate(case.instance, problem.answer_from_json(record.answer)).valid:
        return "the stored answer does not re-validate"
    return ""


def _infeasible(case: Case, log: _Log) -> str:
    assert case.instance is not None
    record = log.solve(case.spec, case.instance, seed=1, budget=INFEASIBLE_BUDGET)
    if case.spec.complete and record.outcome is not Outcome.INFEASIBLE:
        return f"a complete solver did not prove it infeasible: {_what(record)}"
    if record.outcome not in (Outcome.BUDGET, Outcome.INFEASIBLE, Outcome.DECLINED):
        return f"expected budget, infeasible or a decline: {_what(record)}"
    return ""


def _time_limit(case: Case, log: _Log) -> str:
    return _stops_within(case, log, TIME_CHECK_LIMIT)


def _large(case: Case, log: _Log) -> str:
    """The ``time-limit`` check on the family's largest board in practice, where one step of a
    search can take long (issue 43: A* and backtracking looked at the clock per node, and one
    node at n = 10,000 took seconds). Only solvers that declare ``time_limit`` come here."""
    return _stops_within(case, log, LARGE_TIME_LIMIT)


def _stops_within(case: Case, log: _Log, limit: float) -> str:
    """A run under ``limit`` on the case's instance: nobody crashes or answers wrong, and a
    solver that declares ``time_limit`` stops by itself (never killed, never working past
    ``OVERRUN_FACTOR`` × the limit + ``OVERRUN_S``)."""
    assert case.instance is not None
    record = log.solve(case.spec, case.instance, seed=0, budget=Budget(time_limit=limit),
                       hard_limit=TIME_CHECK_KILL_AT)
    if record.outcome in (Outcome.CRASH, Outcome.WRONG, Outcome.MEMOUT):
        return _what(record)
    if "time_limit" not in case.spec.honours:
        return ""
    if record.outcome is Outcome.TIMEOUT and "hard limit" in record.error:
        return f"declares time_limit but was killed at {TIME_CHECK_KILL_AT:g} s"
    allowed = OVERRUN_FACTOR * limit + OVERRUN_S
    # the work it did: its CPU time where measured (a busy machine stretches the wall time of
    # the same work, never its CPU time), its wall time where that is less (threads)
    worked = min(record.time_s, record.cpu_s) if record.cpu_s > 0 else record.time_s
    if worked > allowed or record.time_s > WALL_STRETCH * allowed:  # working, or waiting
        return (f"declares time_limit but worked {worked:.2f} s (wall {record.time_s:.2f} s, "
                f"CPU {record.cpu_s:.2f} s) under a {limit:g} s limit ({record.outcome}; "
                f"allowed {allowed:g} s)")
    return ""


def _effort(record: RunRecord, cap: str) -> int | None:
    """The effort a run spent in a cap's unit (the smallest of its counters that name it)."""
    seen = [int(record.counters[c]) for c in CAP_COUNTERS[cap] if c in record.counters]
    return min(seen) if seen else None


def _cap(case: Case, log: _Log) -> str:
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
        free = log.solve(case.spec, instance, seed=0, budget=Budget(time_limit=CAP_TIME_LIMIT))
        # the probe measures effort, not speed: an answer that came just past the limit (a
        # busy machine: greedy-h2 on nqueens-30 answers at 2.6 s idle, 3.002 s under load) is
        # a timeout whose counters still say what the run spent (a killed run has none)
        late = free.outcome is Outcome.TIMEOUT and _effort(free, cap) is not None
        if free.outcome.failure and not late:
            return f"{instance.instance_id} uncapped: {_what(free)}"
        spent = _effort(free, cap)
        if spent is None:
            return f"declares {cap} but reports none of {', '.join(CAP_COUNTERS[cap])}"
        if spent >= MIN_CAPPED_EFFORT:
            return _capped(case, instance, cap, spent, log)
    raise _NotApplicable(f"no case takes it {MIN_CAPPED_EFFORT} or more "
                         f"{cap.removeprefix('max_')} uncapped (tried {', '.join(tried)})")


def _capped(case: Case, instance: Instance, cap: str, spent: int, log: _Log) -> str:
    value = spent // 4
    capped = log.solve(case.spec, instance, seed=0,
                       budget=Budget(time_limit=CAPPED_TIME_LIMIT, **{cap: value}))
    used = _effort(capped, cap)
    where = (f"{instance.instance_id}: capped at {value} (a quarter of the {spent} it spends "
             "uncapped, same seed)")
    if capped.outcome is not Outcome.BUDGET:
        return f"{where} it did not stop on its budget: {_what(capped)}, {used} spent"
    if used is None or used > CAP_STEP_FACTOR * value + CAP_STEP_SLACK:
        return f"{where} it spent {used}: more than one natural step past its cap"
    return ""


def _same_seed(case: Case, log: _Log) -> str:
    assert case.instance is not None
    first = log.solve(case.spec, case.instance, seed=12345, budget=REPRODUCE_BUDGET)
    second = log.solve(case.spec, case.instance, seed=12345, budget=REPRODUCE_BUDGET)
    if first.outcome.failure:
        return _what(first)
    a, b = first.stable(), second.stable()
    changed = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    return f"the same seed changed the record's {', '.join(changed)}" if changed else ""


def _deterministic(case: Case, log: _Log) -> str:
    assert case.instance is not None
    first = log.solve(case.spec, case.instance, seed=1, budget=REPRODUCE_BUDGET)
    second = log.solve(case.spec, case.instance, seed=2, budget=REPRODUCE_BUDGET)
    if first.outcome.failure:
        return _what(first)
    if (first.outcome, first.answer) != (second.outcome, second.answer):
        return "declares itself not stochastic, but seeds 1 and 2 gave different answers"
    return ""


def _no_mutation(case: Case, log: _Log) -> str:
    assert case.instance is not None
    instance = case.instance
    record = log.solve(case.spec, instance, seed=3, budget=Budget(time_limit=5))
    if MUTATION_NOTE in record.notes:  # the run's process compares its copy after the run
        return "the solver changed the instance it was given (its run's copy)"
    if record.outcome in (Outcome.CRASH, Outcome.WRONG):
        return _what(record)
    if case.spec.factory is None:  # a plugin's code runs only in its own process
        return ""
    before = (instance.describe(), hash(instance), instance.instance_id)
    log.solve(case.spec, instance, seed=3, budget=Budget(time_limit=5), isolate=False)
    if (instance.describe(), hash(instance), instance.instance_id) != before:
        return "the solver changed the instance it was given (in this process)"
    return ""


def _counts(case: Case, log: _Log) -> str:
    problem = get_problem(case.problem)
    cases = problem.conformance_cases()
    assert cases is not None
    known: list[tuple[Instance, int]] = []
    small: list[Instance] = []
    for n in range(1, 10):  # the problem's own small sizes (n-queens: OEIS A000170)
        with contextlib.suppress(PuzzlebenchError):
            small.append(problem.make(n))
    for inst in [*small, *cases.solvable, *cases.infeasible]:
        count = problem.known_count(inst)
        if count is not None and not any(i.instance_id == inst.instance_id for i, _ in known):
            known.append((inst, count))
    limit = case.spec.count_max_n
    known = [(i, c) for i, c in known if limit is None or i.size <= limit]
    if not known:
        raise _NotApplicable("no case of this problem has a known count")
    for inst, count in known:
        record = log.count(case.spec, inst, budget=Budget(time_limit=COUNT_TIME_LIMIT))
        if record.outcome is not Outcome.SOLVED or record.count != count:
            return f"{inst.instance_id}: counted {record.count} ({_what(record)}); known {count}"
    return ""


def _exact(case: Case, log: _Log) -> str:
    problem = get_problem(case.problem)
    cases = problem.conformance_cases()
    assert cases is not None
    others = [s for s in REGISTRY.all(case.problem)
              if s.exact and s.name != case.spec.name and not s.unavailable]
    compared = 0
    for inst in cases.solvable:
        record = log.solve(case.spec, inst, seed=1, budget=ANSWER_BUDGET)
        if record.outcome is not Outcome.SOLVED:
            return f"{inst.instance_id}: {_what(record)}"
        if record.answer_length is None:
            continue
        best = problem.known_optimum(inst)
        source = "the known optimum"
        if best is None and others:
            ref = log.solve(others[0], inst, seed=1, budget=ANSWER_BUDGET)
            best, source = ref.answer_length, f"{others[0].name}'s answer"
        if best is None:
            continue
        compared += 1
        if record.answer_length > best:
            return (f"{inst.instance_id}: declares exact but answered {record.answer_length} "
                    f"where {source} is {best}")
    if not compared:
        raise _NotApplicable("no answer with a length to compare on this problem")
    return ""


def _traces(case: Case, log: _Log) -> str:
    assert case.instance is not None
    record = log.solve(case.spec, case.instance, seed=7, budget=REPRODUCE_BUDGET)
    if record.outcome.failure:
        return _what(record)
    dropped = [n for n in record.notes.split("; ") if n.startswith("trace dropped")]
    if dropped:
        return f"the harness dropped its trace: {dropped[0]}"
    if not record.trace:
        return "declares traces but sent no trace point"
    return ""


_CHECKS: dict[str, Callable[[Case, _Log], str]] = {
    "solves": _solves, "infeasible": _infeasible, "time-limit": _time_limit, "cap": _cap,
    "large": _large, "same-seed": _same_seed, "deterministic": _deterministic, "no-mutation": _no_mutation,
    "counts": _counts, "exact": _exact, "traces": _traces,
}
