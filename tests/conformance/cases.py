"""The instances every registered solver is held to, by problem — read from each problem's
own ``conformance_cases()``, so a new family brings its cases in its own module.

Small enough that every solver, stochastic or not, answers in well under a second; chosen so
that solvable, infeasible and budget-bound behaviour are all exercised.
"""

from __future__ import annotations

from puzzlebench.problems import PROBLEMS, ConformanceCases, get_problem
from puzzlebench.problems.base import Instance


def make(problem: str, size: int, **options: object) -> Instance:
    return get_problem(problem).make(size, **options)


CASES: dict[str, ConformanceCases] = {
    pid: cases for pid, prob in PROBLEMS.items() if (cases := prob.conformance_cases()) is not None
}
SOLVABLE: dict[str, list[Instance]] = {pid: c.solvable for pid, c in CASES.items()}
INFEASIBLE: dict[str, list[Instance]] = {pid: c.infeasible for pid, c in CASES.items()}
#: Instances no solver here finishes in a blink: for the time and node budget checks.
HARD: dict[str, Instance] = {pid: c.hard for pid, c in CASES.items()}
#: Instances where a few hundred nodes or iterations are cheap: for the effort-cap check.
CAPPED: dict[str, Instance] = {pid: c.capped for pid, c in CASES.items()}
#: A mid-sized instance per problem for the same-seed-same-record check.
REPRODUCIBLE: dict[str, Instance] = {pid: c.reproducible for pid, c in CASES.items()}
