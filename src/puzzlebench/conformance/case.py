"""A conformance check's vocabulary: the case it runs, the result it gives, and the log of the
runs it made (shared by the checks of ``checks``, ``answer_checks``, ``limit_checks`` and
``repeat_checks``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.problems.base import Instance
from puzzlebench.records.record import RunRecord
from puzzlebench.solvers.spec import SolverSpec


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


class NotApplicable(Exception):  # noqa: N818 - a verdict, not an error
    """Raised by a check that finds, by running, that it does not apply (a SKIP)."""


@dataclass(slots=True)
class RunLog:
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


def what(record: RunRecord) -> str:
    """A record's outcome and why, for a failure's reason."""
    why = record.verdict.reason or record.verdict.error
    return f"{record.verdict.outcome}" + (f" ({why.strip().splitlines()[-1][:200]})" if why else "")
