"""A problem family from outside the package, loaded by reference (``module:attr``): a row of
n bits with exactly ``ones`` ones and no two ones side by side. With its solver, it shows that
a family is one module: the CLI, studies, compare and the conformance cases take it with no
edit anywhere else."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Proposal, Solver
from puzzlebench.problems.base import (
    ConformanceCases,
    Instance,
    InvalidAnswerError,
    InvalidInstanceError,
    Problem,
    Verdict,
)
from puzzlebench.problems.options import ProblemOption, count


@dataclass(frozen=True, slots=True)
class OnesInstance(Instance):
    n: int
    ones: int
    problem: ClassVar[str] = "spaced-ones"

    @property
    def size(self) -> int:
        return self.n

    @property
    def instance_id(self) -> str:
        return f"spaced-ones-{self.n}-k{self.ones}"

    def describe(self) -> dict[str, Any]:
        return {"n": self.n, "ones": self.ones}


class SpacedOnes(Problem):
    id: ClassVar[str] = "spaced-ones"
    summary: ClassVar[str] = "n bits, exactly k ones, no two adjacent"
    options: ClassVar[tuple[ProblemOption, ...]] = (
        ProblemOption("ones", "spaced-ones: number of ones", count, many=True, required=True),
    )

    def make(self, size: int, **options: Any) -> OnesInstance:
        if options.get("ones") is None:
            raise InvalidInstanceError("spaced-ones needs --ones")
        if size < 1 or options["ones"] > size:
            raise InvalidInstanceError("need 1 ≤ n and ones ≤ n")
        return OnesInstance(size, options["ones"])

    def in_grid(self, size: int, options: Mapping[str, Any]) -> bool:
        return int(options["ones"]) <= size

    def validate(self, instance: OnesInstance, answer: Any) -> Verdict:
        if not isinstance(answer, str) or len(answer) != instance.n or set(answer) - {"0", "1"}:
            return Verdict(False, f"expected {instance.n} bits")
        if answer.count("1") != instance.ones:
            return Verdict(False, f"{answer.count('1')} ones, not {instance.ones}")
        if "11" in answer:
            return Verdict(False, "two ones side by side")
        return Verdict(True)

    def conflicts(self, instance: OnesInstance, answer: Any) -> int:
        return 0 if self.validate(instance, answer) else 1

    def parse_answer(self, instance: OnesInstance, text: str) -> str:
        if set(text) - {"0", "1"}:
            raise InvalidAnswerError("bits are 0 and 1")
        return text

    def answer_to_json(self, answer: Any) -> str:
        return str(answer)

    def answer_from_json(self, data: Any) -> str:
        return str(data)

    def is_solvable(self, instance: OnesInstance) -> bool:
        return instance.ones <= (instance.n + 1) // 2

    def warmup_instance(self) -> OnesInstance:
        return self.make(3, ones=1)

    def conformance_cases(self) -> ConformanceCases:
        return ConformanceCases(solvable=[self.make(5, ones=3)], infeasible=[self.make(4, ones=3)],
                                hard=self.make(9, ones=4), capped=self.make(9, ones=4),
                                reproducible=self.make(7, ones=2))


class Alternate(Solver):
    """Ones on even positions: complete for this family."""

    name: ClassVar[str] = "spaced-ones-alternate"
    problems: ClassVar[frozenset[str]] = frozenset({"spaced-ones"})
    complete: ClassVar[bool] = True

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        if instance.ones > (instance.n + 1) // 2:
            return Proposal(claim=Claim.INFEASIBLE)
        bits = ["0"] * instance.n
        for i in range(instance.ones):
            bits[2 * i] = "1"
        return Proposal(answer="".join(bits), claim=Claim.SOLVED)
