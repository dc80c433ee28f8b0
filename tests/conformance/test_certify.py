"""``puzzlebench certify`` and the kit (``puzzlebench.testing``): broken solvers fail with the
right checks named, a good one passes, a user's ten-line pytest file runs the kit."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.conformance import Status, cases_of, certify, write_card
from puzzlebench.conformance.ranking import grid, rank, standings
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.testing import CheckFailed, check_case, check_solver

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "examples" / "certify" / "broken.py"
GOOD = '''\
from puzzlebench.contract import Claim, Proposal, Solver


class Shuffler(Solver):
    """Random permutations until one is a solution, under its time limit and its cap."""
    name = "shuffler"
    problems = frozenset({"nqueens"})
    stochastic = True
    honours = frozenset({"time_limit", "max_iterations"})

    def solve(self, instance, budget, rng):
        clock, tries = budget.clock(), 0
        while not clock.expired() and (budget.max_iterations is None
                                       or tries < budget.max_iterations):
            tries += 1
            cols = rng.permutation(instance.n)
            if len({r + c for r, c in enumerate(cols)}) == len(
                    {r - c for r, c in enumerate(cols)}) == instance.n:
                return Proposal(answer=cols, claim=Claim.SOLVED, counters={"iterations": tries})
        return Proposal(claim=Claim.UNKNOWN, counters={"iterations": tries})
'''


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("good") / "shuffler.py"
    path.write_text(GOOD)
    return f"{path}:Shuffler"


@pytest.mark.slow  # slow tier: see docs/development.md
def test_a_declared_but_ignored_cap_fails_its_check() -> None:
    card = certify(f"{BROKEN}:IgnoresItsCap", ranking=False)
    failed = {(r.check, r.status) for r in card.failed}
    assert failed == {("cap:max_iterations", Status.FAIL)}, card.failed
    assert "more than one natural step past its cap" in card.failed[0].reason
    with pytest.raises(CheckFailed, match="cap:max_iterations"):
        check_solver(f"{BROKEN}:IgnoresItsCap")


def test_a_liar_on_solvable_instances_fails_solves_and_keeps_passing_the_rest() -> None:
    card = certify(f"{BROKEN}:InfeasibleLiar", ranking=False)
    by_check = {(r.check, r.instance_id): r for r in card.results}
    lie = by_check[("solves", "nqueens-8")]
    assert lie.status is Status.FAIL and "claimed infeasible" in lie.reason
    assert by_check[("infeasible", "nqueens-2")].status is Status.PASS  # the truth passes
    assert by_check[("solves", "nqueens-1")].status is Status.PASS
    assert not card.passed and card.conclusion().startswith("NOT CERTIFIED")


def test_a_good_plugin_passes_every_check_that_applies(good: str) -> None:
    results = check_solver(good)
    statuses = {r.check: r.status for r in results}
    assert statuses["cap:max_iterations"] is Status.PASS
    assert statuses["counts"] is Status.SKIP and statuses["deterministic"] is Status.SKIP
    assert all(r.status is not Status.FAIL for r in results)


@pytest.mark.slow  # slow tier: see docs/development.md
def test_the_cli_prints_the_card_and_exits_by_it(good: str, capsys, tmp_path: Path) -> None:
    assert main(["certify", f"{BROKEN}:IgnoresItsCap", "--no-rank"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  cap:max_iterations" in out and "NOT CERTIFIED: ignores-its-cap" in out
    assert main(["certify", good, "--no-rank", "--json", "--out", str(tmp_path / "card")]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["passed"] is True and card["counts"]["FAIL"] == 0
    assert {c["check"] for c in card["checks"]} >= {"solves", "infeasible", "time-limit"}
    html = (tmp_path / "card" / "card.html").read_text()
    assert "CERTIFIED: shuffler" in html and "NOT CERTIFIED" not in html
    assert json.loads((tmp_path / "card" / "card.json").read_text())["solver"] == "shuffler"


def test_bad_input_is_one_line_and_exit_2(capsys) -> None:
    assert main(["certify", "no-such-solver"]) == 2
    assert main(["certify", "mod12", "--problems", "sliding"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "does not declare sliding" in err[1]


def test_cases_say_why_a_check_does_not_apply() -> None:
    cases = cases_of("mod12")
    skips = {c.check: c.skip for c in cases if c.skip}
    assert skips["counts"] == "declares no counts"
    assert skips["exact"] == "declares not exact"
    assert skips["cap:*"] == "declares no effort cap"
    assert "deterministic" not in skips  # mod12 declares itself not stochastic: checked
    shuffled = {c.check: c.skip for c in cases_of(f"{BROKEN}:IgnoresItsCap") if c.skip}
    assert shuffled["deterministic"] == "declares itself stochastic" and "cap:*" not in shuffled


def _rec(solver: str, outcome: Outcome, time_s: float, verified: bool | None = True) -> RunRecord:
    return RunRecord.of(problem="nqueens", size=8, instance_id="nqueens-8", solver=solver,
                     params={}, seed=0, outcome=outcome, claim="solved", valid=True,
                     time_s=time_s, verified=verified, budget={"time_limit": 1.0})


def test_standings_rank_verified_successes_then_par2() -> None:
    records = [_rec("a", Outcome.SOLVED, 0.5), _rec("a", Outcome.SOLVED, 0.5),
               _rec("b", Outcome.SOLVED, 0.1), _rec("b", Outcome.BUDGET, 1.0),
               _rec("c", Outcome.SOLVED, 0.5), _rec("c", Outcome.SOLVED, 0.5),
               _rec("d", Outcome.SOLVED, 0.01), _rec("d", Outcome.SOLVED, 0.01, verified=None)]
    table = {s.solver: s for s in standings(records, "b")}
    assert (table["a"].rank, table["c"].rank) == (1, 1)  # a tie shares its rank
    assert table["a"].par2_s == pytest.approx(0.5)
    # b and d: one verified success each (d's second is unverified): PAR-2 decides
    assert table["d"].par2_s == pytest.approx(1.005) and table["b"].par2_s == pytest.approx(1.05)
    assert (table["d"].rank, table["b"].rank) == (3, 4) and table["b"].candidate


@pytest.mark.slow  # slow tier: see docs/development.md
def test_ranking_beside_the_baselines_is_stored_and_resumed(tmp_path: Path) -> None:
    db = tmp_path / "rank.sqlite"
    first = rank(cases_of("cpsat", ["nqueens-completion"])[0].spec, "nqueens-completion", db=db)
    solvers = {s.solver for s in first}
    assert "cpsat" in solvers and len(solvers) >= 3
    assert all(s.runs == len(grid("nqueens-completion")) for s in first)
    ours = next(s for s in first if s.candidate)
    assert ours.solver == "cpsat" and ours.verified == ours.runs  # a complete solver, 1 s
    again = rank(cases_of("cpsat", ["nqueens-completion"])[0].spec, "nqueens-completion", db=db)
    assert again == first  # every run found stored: the same records, the same table


@pytest.mark.slow  # slow tier: see docs/development.md
def test_write_card_escapes_a_reason_into_html_and_markdown(tmp_path: Path) -> None:
    card = certify(f"{BROKEN}:IgnoresItsCap", ranking=False, problems=["nqueens"])
    paths = write_card(card, tmp_path)
    assert sorted(p.name for p in paths) == ["card.html", "card.json", "card.md"]
    md = (tmp_path / "card.md").read_text()
    assert "| FAIL | cap:max_iterations | nqueens | nqueens-30 |" in md


@pytest.mark.slow  # slow tier: see docs/development.md
def test_a_users_ten_line_pytest_file_runs_the_kit(good: str, tmp_path: Path) -> None:
    (tmp_path / "test_mine.py").write_text(textwrap.dedent(f'''\
        import pytest
        from puzzlebench.testing import check_case, check_solver, conformance_cases

        SOLVER = {good!r}

        @pytest.mark.parametrize("case", conformance_cases(SOLVER))
        def test_conformance(case):
            check_case(case)

        def test_everything_at_once():
            check_solver(SOLVER)
        '''))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path / "test_mine.py")], capture_output=True, text=True,
                          cwd=tmp_path, timeout=600)
    last = done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0, done.stdout[-3000:]
    n = len([c for c in cases_of(good) if not c.skip])
    assert f"{n + 1} passed" in last and "skipped" in last, last


def test_check_case_raises_an_assertion_naming_the_check() -> None:
    case = next(c for c in cases_of(f"{BROKEN}:InfeasibleLiar")
                if c.check == "solves" and c.instance is not None and c.instance.size == 8)
    with pytest.raises(AssertionError, match=r"FAIL  solves .*nqueens-8.*claimed infeasible"):
        check_case(case)


OVERRUNS = '''\
import time

from puzzlebench.contract import Claim, Proposal, Solver


class Waits(Solver):
    """Declares the time limit, then waits past it without working (no CPU)."""
    name = "waits"
    problems = frozenset({"nqueens"})
    honours = frozenset({"time_limit"})

    def solve(self, instance, budget, rng):
        time.sleep(4.0)
        return Proposal(claim=Claim.UNKNOWN)


class Works(Solver):
    """Declares the time limit, then works past it (CPU)."""
    name = "works"
    problems = frozenset({"nqueens"})
    honours = frozenset({"time_limit"})

    def solve(self, instance, budget, rng):
        end = time.perf_counter() + 2.0
        while time.perf_counter() < end:
            pass
        return Proposal(claim=Claim.UNKNOWN)
'''


@pytest.mark.parametrize("plugin", ["Waits", "Works"])
def test_the_time_limit_check_fails_a_run_that_waits_or_works_past_it(
        plugin: str, tmp_path: Path) -> None:
    """Work is counted by CPU time (a busy machine stretches wall time, not CPU time), so a
    run that only waits is caught by its wall time instead (``WALL_STRETCH``)."""
    path = tmp_path / "overruns.py"
    path.write_text(OVERRUNS)
    case = next(c for c in cases_of(f"{path}:{plugin}") if c.check == "time-limit")
    with pytest.raises(CheckFailed, match="declares time_limit but worked"):
        check_case(case)


LATE = '''\
import time

from puzzlebench.contract import Claim, Proposal, Solver


class AnswersLate(Solver):
    """Honours its cap exactly; uncapped, it answers 50 ms past its time limit (as a solver on a
    busy machine does whose answer and clock arrive together)."""
    name = "answers-late"
    problems = frozenset({"nqueens"})
    honours = frozenset({"time_limit", "max_iterations"})

    def solve(self, instance, budget, rng):
        n, tries = instance.n, 0
        end = time.perf_counter() + (budget.time_limit or 0.0) + 0.05
        while budget.max_iterations is None and time.perf_counter() < end:
            tries += 1
        if budget.max_iterations is not None:
            while tries < budget.max_iterations:
                tries += 1
            return Proposal(claim=Claim.UNKNOWN, counters={"iterations": tries})
        if n % 6 in (2, 3) or n % 2:
            return Proposal(claim=Claim.UNKNOWN, counters={"iterations": tries})
        cols = [2 * i + 1 for i in range(n // 2)] + [2 * i for i in range(n // 2)]
        return Proposal(answer=cols, claim=Claim.SOLVED, counters={"iterations": tries})
'''


def test_the_cap_probe_counts_the_effort_of_an_answer_past_the_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The uncapped probe measures what a run spends, not its speed: an answer just past the
    limit (judged a timeout) still says its effort, and the capped run is then checked. Before,
    the check failed on the probe (greedy-h2 on nqueens-30: 2.6 s idle, 3.002 s under load)."""
    from puzzlebench.conformance import limit_checks

    monkeypatch.setattr(limit_checks, "CAP_TIME_LIMIT", 1.0)
    path = tmp_path / "late.py"
    path.write_text(LATE)
    case = next(c for c in cases_of(f"{path}:AnswersLate") if c.check == "cap:max_iterations")
    check_case(case)  # raises CheckFailed ("uncapped: timeout (answered after …)") before
