"""A model's interface is analysed once per process (``minizinc_gecode.analysed``): every solve
branches from the analysed instance instead of running ``minizinc --model-interface-only``
again (about 40 ms of each mzn-gecode run, timed), and the answers stay the same."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from puzzlebench.contract import Budget
from puzzlebench.problems import get_problem
from puzzlebench.problems.nqueens import A000170
from puzzlebench.solvers.registry import REGISTRY

pytestmark = pytest.mark.skipif(shutil.which("minizinc") is None,
                                reason="needs Debian's minizinc")


def test_the_model_is_analysed_once_and_every_solve_branches_from_it(monkeypatch) -> None:
    from minizinc.driver import Driver

    from puzzlebench_baselines import minizinc_gecode

    monkeypatch.setattr(minizinc_gecode, "_ANALYSED", {})
    calls: list[str] = []
    run = Driver._run

    def counting(self, args, *rest, **kw):  # type: ignore[no-untyped-def]
        calls.append(args[0])
        return run(self, args, *rest, **kw)

    monkeypatch.setattr(Driver, "_run", counting)
    solver = REGISTRY.find("mzn-gecode").create()
    problem = get_problem("nqueens")
    for n in (8, 3, 10, 6):
        proposal = solver.solve(problem.make(n), Budget(time_limit=30.0), np.random.default_rng(n))
        if n == 3:
            assert proposal.claim.value == "infeasible"
        else:
            assert problem.validate(problem.make(n), proposal.answer).valid
    assert solver.count(problem.make(6), Budget(time_limit=30.0)).count == A000170[6]
    assert calls.count("--model-interface-only") == 1  # the first solve's analysis, no other
