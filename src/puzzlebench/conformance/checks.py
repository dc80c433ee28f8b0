"""The conformance checks: what every solver, built-in or a user's, is held to.

A check is a :class:`~puzzlebench.conformance.case.Case` — one named check on one problem (and,
for per-instance checks, one instance) — and :func:`run_case` runs it through the harness,
isolated and judged as every other run, and returns a
:class:`~puzzlebench.conformance.case.CheckResult`. :func:`cases_for` lists the cases that
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
``large``
    the ``time-limit`` check under a 0.5 s limit on the family's largest board in practice,
    for a solver that declares ``time_limit`` (one step of a search there can take long).
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

The checks themselves live by concern: the answers (``answer_checks``: solves, infeasible,
counts, exact), the limits (``limit_checks``: time-limit, large, cap), and what a run repeats or
leaves alone (``repeat_checks``: same-seed, deterministic, no-mutation, traces); their vocabulary
in ``case``. This module lists the cases and runs them.

Every check also holds each of its runs to the solver's declared counters
(``Solver.counter_names``): a run that reports a counter the solver does not declare fails the
check, so a declaration that study files are checked against cannot lie.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from puzzlebench.conformance import answer_checks, limit_checks, repeat_checks
from puzzlebench.conformance.case import Case, CheckFailed, CheckResult, NotApplicable, RunLog, Status
from puzzlebench.conformance.declared_counters import undeclared_counters
from puzzlebench.conformance.limit_checks import CAP_COUNTERS
from puzzlebench.problems import PROBLEMS, get_problem
from puzzlebench.solvers.spec import SolverSpec

__all__ = ["CAP_COUNTERS", "CHECK_NAMES", "Case", "CheckFailed", "CheckResult", "Status", "cases_for",
           "run_case"]

#: Every check's name, in the order a card lists them (``cap:*`` stands for each cap).
CHECK_NAMES: tuple[str, ...] = ("solves", "infeasible", "time-limit", "large", "cap:*", "same-seed",
                                "deterministic", "no-mutation", "counts", "exact", "traces")
#: Each check by name (``cap`` for every ``cap:<name>``): "" when it passes, else the reason.
_CHECKS: dict[str, Callable[[Case, RunLog], str]] = {
    "solves": answer_checks.solves, "infeasible": answer_checks.infeasible,
    "counts": answer_checks.counts, "exact": answer_checks.exact,
    "time-limit": limit_checks.time_limit, "large": limit_checks.large, "cap": limit_checks.effort_cap,
    "same-seed": repeat_checks.same_seed, "deterministic": repeat_checks.deterministic,
    "no-mutation": repeat_checks.no_mutation, "traces": repeat_checks.traces,
}


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
    log = RunLog()
    start = time.perf_counter()
    try:
        failure = check(case, log)
        status = Status.FAIL if failure else Status.PASS
    except NotApplicable as why:  # found only by running: e.g. no effort to cap
        status, failure = Status.SKIP, str(why)
    undeclared = undeclared_counters(case.spec, log.runs)
    if undeclared:
        status, failure = Status.FAIL, "; ".join(filter(None, [failure, undeclared]))
    return CheckResult(case.check, case.problem, status, failure, iid,
                       time.perf_counter() - start, len(log.runs))

