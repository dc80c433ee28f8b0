"""Agreement across solvers, Knuth's estimate and the exact backtracking tree size."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from puzzlebench.cli import main
from puzzlebench.harness.campaign.agreement import check_agreement
from puzzlebench.search.queens.knuth_estimate import estimate_tree, tree_nodes

WRONG_PLUGIN = '''
from puzzlebench.contract import Claim, Proposal, Solver

class Liar(Solver):
    """Claims every board of size 6 infeasible and answers the others correctly."""
    name = "liar"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):
        n = instance.n
        if n == 6:
            return Proposal(claim=Claim.INFEASIBLE)
        if n in (2, 3):
            return Proposal(claim=Claim.INFEASIBLE)
        cols = {1: [0], 4: [1, 3, 0, 2], 5: [0, 2, 4, 1, 3]}.get(n)
        return Proposal(answer=cols, claim=Claim.SOLVED if cols else Claim.UNKNOWN)
'''


@pytest.mark.slow  # slow tier: see docs/development.md
@pytest.mark.parametrize("problem", ["nqueens", "torus-queens"])
def test_all_solvers_agree_up_to_10(problem: str) -> None:
    # Counts get their own, generous limit (a count that ends after its limit is rightly a
    # timeout, and on a loaded machine a count of n = 9 can take over a second).
    report = check_agreement(problem, range(1, 11), time_limit=1.0, count_time_limit=60.0,
                             count_up_to=9, enumerate_up_to=7)
    assert report.agreed, [str(d) for d in report.disagreements]
    assert len(report.instances) == 10 and len(report.cells) >= 5


@pytest.mark.slow  # slow tier: see docs/development.md
def test_queens_knights_agreement_on_small_boards() -> None:
    # counts get a limit of their own, as above: choco's count of 5-A0 takes 0.6-1.0 s alone
    report = check_agreement("queens-knights", range(1, 6), time_limit=1.0, enumerate_up_to=5,
                             count_time_limit=60.0)
    assert report.agreed, [str(d) for d in report.disagreements]
    assert len(report.instances) == sum(n + 1 for n in range(1, 6))


def test_a_lying_solver_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plugin = tmp_path / "liar.py"
    plugin.write_text(WRONG_PLUGIN)
    report = check_agreement("nqueens", [4, 6], [f"{plugin}:Liar"], time_limit=2.0)
    bad = [d for d in report.disagreements if d.solver == "liar"]
    assert bad and bad[0].instance_id == "nqueens-6" and bad[0].claimed == "infeasible"
    code = main(["agree", "nqueens", "--sizes", "4..6", "--solver", f"{plugin}:Liar",
                 "--time-limit", "2"])
    out = capsys.readouterr().out
    assert code == 1 and "DISAGREEMENT: liar on nqueens-6" in out


def test_knuth_estimate_brackets_the_exact_tree() -> None:
    assert [tree_nodes(n) for n in (4, 8)] == [17, 2057]  # 2057: Knuth's 8-queens tree
    est = estimate_tree(10, 4000, np.random.default_rng(1))
    exact = tree_nodes(10)
    assert est.ci_low <= exact <= est.ci_high
    assert abs(est.mean / exact - 1) < 0.1


def test_estimate_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["estimate", "nqueens", "8", "--probes", "500", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"exact": 2057' in out
    assert main(["estimate", "nqueens", "31"]) == 2
    assert main(["estimate", "nqueens", "8", "--probes", "1"]) == 2


@pytest.mark.slow  # slow tier: see docs/development.md
def test_a_truncated_listing_is_not_used_as_the_solution_set(capsys) -> None:  # type: ignore[no-untyped-def]
    """queens-knights 8 with no queens has far too many solutions to list in a second: the
    listing says it is incomplete, and no answer is called outside it."""
    from puzzlebench.cli import main

    code = main(["agree", "queens-knights", "--sizes", "8", "--queens", "0", "--time-limit", "1",
                 "--solver", "stochastic-hc", "--json"])
    report = __import__("json").loads(capsys.readouterr().out)
    assert code == 0 and report["agreed"], report["disagreements"]
    # the listing is cut short (by the cap or its own limit), or killed: never used as the set
    assert any("truncated" in cell or "list:timeout" in cell
               for row in report["matrix"].values() for cell in row.values())


def test_agree_checks_sliding_scrambles(capsys) -> None:  # type: ignore[no-untyped-def]
    from puzzlebench.cli import main

    code = main(["agree", "sliding", "--time-limit", "30", "--json"])
    report = __import__("json").loads(capsys.readouterr().out)
    assert code == 0 and report["agreed"] and len(next(iter(report["matrix"].values()))) == 3


SLEEPER_PLUGIN = '''
import time
from puzzlebench.contract import Proposal, Solver

class Sleeper(Solver):
    """Never answers within its time: killed at the hard limit (a timeout)."""
    name = "sleeper"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):
        time.sleep(30)
        return Proposal()
'''


def test_a_timeout_beside_agreeing_runs_is_no_disagreement(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    """A run that gave no answer said nothing to disagree with: it is named apart (NO
    ANSWER), the solvers that answered agree, and the exit status still says a run failed."""
    plugin = tmp_path / "sleeper.py"
    plugin.write_text(SLEEPER_PLUGIN)
    report = check_agreement("nqueens", [6], [f"{plugin}:Sleeper", "backtracking", "mod12"],
                             time_limit=0.5, count_up_to=0, enumerate_up_to=0)
    assert report.agreed and not report.disagreements
    # the sleeper is named; on a busy host a baseline may also run out of its 0.5 s, and is
    # named the same way — never as a disagreement
    assert ("sleeper", "nqueens-6") in [(d.solver, d.instance_id) for d in report.unanswered]
    code = main(["agree", "nqueens", "--sizes", "6", "--solver", f"{plugin}:Sleeper",
                 "--solver", "backtracking", "--time-limit", "0.5"])
    out = capsys.readouterr().out
    assert code == 1 and "NO ANSWER: sleeper on nqueens-6" in out and "DISAGREEMENT" not in out
