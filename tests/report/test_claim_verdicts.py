"""One verdict per claim from a test that can reach it (report.claim_tests, report.stratified,
report.claim_power): synthetic stores where each verdict is the right one, a store where the
old mean-rank post-hoc test and the pooled pairwise test disagreed, and the design check a
study gets before any run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from puzzlebench.records.claims import Claim, ClaimError, parse_claim
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.report import write_report
from puzzlebench.report.answer import rank
from puzzlebench.report.statistics.claim_power import ClaimDesign, reach, reach_lines
from puzzlebench.report.statistics.claim_tests import claim_verdicts
from puzzlebench.report.statistics.scores import pairwise_tests
from puzzlebench.report.statistics.stratified import compare_strata, smallest_p
from tests.report.test_answer import frame_of, run

SIZES = (16, 32, 48, 64, 96, 128)


def runs(solver: str, times: dict[int, list[float | None]], *, evals: float = 1e4,
         problem: str = "nqueens") -> list[RunRecord]:
    """Runs of ``solver``: per size, one run per time (None: a timeout at the limit, 2 s)."""
    out = []
    for n, ts in times.items():
        for rep, t in enumerate(ts):
            if t is None:
                out.append(run(solver, n, 2.0, rep=rep, problem=problem, outcome=Outcome.TIMEOUT,
                               counters={"evaluations": 10 ** 9}))
            else:
                out.append(run(solver, n, t, rep=rep, problem=problem,
                               counters={"evaluations": int(evals * t * 100)}))
    return out


def claim(better: str, than: str, on: str = "time", margin: float | None = None) -> Claim:
    return Claim(f"{better} beats {than} on {on}", better, than, on, "nqueens", margin)


def test_a_success_claim_the_runs_plainly_show_is_confirmed(tmp_path: Path) -> None:
    """30 of 30 against 4 of 30 over six sizes of five repeats: one test over all the runs
    confirms it (a per-size test with Holm over many sizes could not)."""
    rng = np.random.default_rng(1)
    sa = runs("sa", {n: [0.1 + 0.05 * rng.random() for _ in range(5)] for n in SIZES})
    solved = {(n, r) for n, r in [(16, 0), (16, 1), (32, 0), (48, 2)]}
    hc = runs("hc", {n: [0.5 if (n, r) in solved else None for r in range(5)] for n in SIZES})
    verdicts = claim_verdicts(frame_of(tmp_path, sa + hc), [claim("sa", "hc", "success"),
                                                            claim("hc", "sa", "success")])
    assert [v.verdict for v in verdicts] == ["confirmed", "contradicted"]
    c = verdicts[0].comparison
    assert c is not None and c.effect == pytest.approx(1 - 4 / 30)
    assert c.effect_ci[0] > 0.5 and verdicts[0].solved == "solved in sa 30/30, hc 4/30 runs"


def test_a_false_claim_is_contradicted_and_censored_runs_never_count_as_fast(tmp_path: Path) -> None:
    """A solver that fails half its runs quickly (its stop time small) is not 'faster': an
    unsolved run scores 2 × the limit, worse than any solved run."""
    rng = np.random.default_rng(2)
    steady = runs("steady", {n: [0.3 + 0.02 * rng.random() for _ in range(4)] for n in SIZES})
    quitter = runs("quitter", {n: [0.01, None, None, 0.01] for n in SIZES})
    quitter = [r.with_(time_s=0.001) if r.verdict.outcome is Outcome.TIMEOUT else r for r in quitter]
    v = claim_verdicts(frame_of(tmp_path, steady + quitter), [claim("quitter", "steady")])[0]
    assert v.verdict == "inconclusive"  # half better, half censored: not separated
    evals = claim_verdicts(frame_of(tmp_path, steady + quitter),
                           [claim("quitter", "steady", "evaluations")])[0]
    assert evals.comparison is not None and evals.comparison.wins_b >= 0  # censored at inf
    frame = frame_of(tmp_path, steady + quitter)
    from puzzlebench.report.statistics.claim_tests import measure
    values = measure(frame, claim("quitter", "steady", "evaluations"))
    assert np.isinf(values[~frame["success"]]).all()


def test_equivalence_needs_a_margin_and_an_interval_inside_it(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    a = runs("a", {n: [1.0 + 0.01 * rng.random() for _ in range(5)] for n in SIZES})
    b = runs("b", {n: [1.0 + 0.01 * rng.random() for _ in range(5)] for n in SIZES})
    frame = frame_of(tmp_path, a + b)
    with_margin, without = claim_verdicts(frame, [claim("a", "b", margin=1.2), claim("a", "b")])
    assert with_margin.verdict == "equivalent"
    assert without.verdict == "inconclusive" and "the runs do not separate them" in without.why
    assert "the design could" in without.why  # 8 sizes × 5 runs: a small p was within reach
    assert "state a margin" in without.why
    lo, hi = with_margin.comparison.effect_ci90  # type: ignore[union-attr]
    assert 1 / 1.2 <= lo <= hi <= 1.2
    # a margin narrower than the noise does not make them equivalent
    b2 = runs("b", {n: [1.5 + 0.5 * rng.random() for _ in range(5)] for n in SIZES})
    (tmp_path / "wide").mkdir()
    b2 = [r for r in b2 if r.key.size in SIZES]
    wide = claim_verdicts(frame_of(tmp_path / "wide", a + b2), [claim("a", "b", margin=1.01)])[0]
    assert wide.verdict == "confirmed"  # a separated difference is never called equivalent


def test_deterministic_repeats_are_one_observation(tmp_path: Path) -> None:
    """Two deterministic solvers, three identical repeats each on six instances: the unit is
    the instance (a sign test, p = 2/2^6), never 18 against 18 runs."""
    recs = runs("x", {n: [0.2, 0.2, 0.2] for n in SIZES}, evals=1)
    recs += runs("y", {n: [0.4, 0.4, 0.4] for n in SIZES}, evals=1)
    v = claim_verdicts(frame_of(tmp_path, recs), [claim("x", "y", "evaluations")])[0]
    assert v.comparison is not None
    assert (v.comparison.runs_a, v.comparison.runs_b) == (6, 6)
    assert v.comparison.p == pytest.approx(2 / 2 ** 6)


def test_holm_runs_over_the_claims_only_and_claims_csv_has_one_row_each(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    recs = []
    for name, base in (("fast", 0.01), ("mid", 0.1), ("slow", 1.0)):
        recs += runs(name, {n: [base * (1 + 0.1 * rng.random()) for _ in range(3)]
                            for n in SIZES})
    frame = frame_of(tmp_path, recs)
    claims = [claim("fast", "slow"), claim("slow", "mid"), claim("fast", "mid", "success")]
    verdicts = claim_verdicts(frame, claims)
    raw = [v.comparison.p for v in verdicts if v.comparison and v.comparison.p is not None]
    assert len(raw) == 2  # success: every run solved, no difference anywhere, no p
    assert verdicts[0].p_adjusted == pytest.approx(min(1.0, 2 * min(raw)))
    assert verdicts[2].verdict == "inconclusive"
    # tables/claims.csv and report.md's claims: test_first_screen.py, on the report it writes


def test_ranking_sentences_and_pairwise_table_agree_where_nemenyi_and_pooling_did_not(
        tmp_path: Path) -> None:
    """The researcher's store: the annealer beats CP-SAT on all six instances (five repeats
    each, narrowly); five configurations. Nemenyi on six blocks could not separate them while
    a pooled test called it significant; now one test answers both, and they agree."""
    rng = np.random.default_rng(5)
    recs = []
    for name, base in (("sa", 0.10), ("cpsat", 0.13), ("hc", 0.5), ("fchc", 0.9), ("mc", 1.4)):
        recs += runs(name, {n: [base * (1 + 0.05 * rng.random()) for _ in range(5)]
                            for n in SIZES})
    frame = frame_of(tmp_path, recs)
    ranking = rank(frame, "nqueens")
    assert "sa beats cpsat" in " ".join(ranking.sentences) or "it beats cpsat" in ranking.headline
    table = pairwise_tests(frame)
    letters = ranking.table.set_index("configuration")["group"]
    for _, row in table.iterrows():
        separated = not set(letters[row["A"]]) & set(letters[row["B"]])
        assert separated == (row["p (Holm)"] < 0.05), (row["A"], row["B"])
    assert "tied" not in ranking.headline and "tied" not in " ".join(ranking.sentences)


def test_the_design_check_says_which_claims_cannot_be_reached() -> None:
    weak = ClaimDesign(Claim("x beats y", "x", "y", "evaluations"), [(1, 1)] * 3, (False, False))
    strong = ClaimDesign(Claim("x is faster", "x", "y", "time"), [(5, 5)] * 6)
    reached = reach([weak, strong])
    assert [r.reachable for r in reached] == [False, True]
    assert reached[0].p_min == pytest.approx(2 / 2 ** 3) and reached[0].needed == 0.025
    (line,) = reach_lines([weak, strong])
    assert line.startswith("claim 1 ('x beats y') cannot be confirmed by this design")
    assert "7 instances would reach" in line  # 2/2^7 = 0.016 < 0.025
    grow = reach_lines([ClaimDesign(Claim("t", "x", "y", "time"), [(1, 1)] * 3)])
    assert "repeats = 2 would reach" in grow[0]


def test_smallest_p_is_the_extreme_of_the_exact_distribution() -> None:
    assert smallest_p([(1, 1)] * 6) == pytest.approx(2 / 64)
    assert smallest_p([(3, 3)] * 2) == pytest.approx(2 / 400)
    strata = {f"i{k}": (np.array([float(k)]), np.array([float(k) + 1])) for k in range(6)}
    assert compare_strata(strata).p == pytest.approx(2 / 64)


def test_a_margin_is_checked_when_the_claim_is_read() -> None:
    with pytest.raises(ClaimError, match="ratio above 1"):
        parse_claim({"better": "a", "than": "b", "margin": 0.5}, "w")
    with pytest.raises(ClaimError, match=r"difference of rates in \(0, 1\)"):
        parse_claim({"better": "a", "than": "b", "on": "success", "margin": 2}, "w")
    assert parse_claim({"better": "a", "than": "b", "margin": 1.2}, "w").margin == 1.2


def test_run_check_warns_before_any_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlebench.cli import main

    study = tmp_path / "s.toml"
    study.write_text('[study]\nname = "weak"\ntime_limit = 2.0\n[[problems]]\n'
                     'problem = "nqueens"\nsizes = [8, 9, 10]\n[[solvers]]\nname = "mod12"\n'
                     '[[solvers]]\nname = "bitboard"\n[[solvers]]\nname = "backtracking"\n'
                     'problems = ["nqueens"]\n[[problems]]\nproblem = "torus-queens"\n'
                     'sizes = [5]\n[[claims]]\nbetter = "mod12"\nproblem = "nqueens"\n'
                     'than = "bitboard"\non = "success"\n')
    assert main(["run", str(study), "--check", "--db", str(tmp_path / "s.sqlite")]) == 0
    out = capsys.readouterr()
    assert "claim 1 ('mod12 beats bitboard on success on nqueens') cannot be confirmed" in out.err
    assert "0 within reach" in out.out and not (tmp_path / "s.sqlite").exists()
    assert "solver 3 (backtracking) skips torus-queens (its entry's problems leave it out)" in out.err


@pytest.mark.slow  # slow tier (docs/development.md); cover: tests/report/test_first_screen.py
def test_the_answer_box_is_read_in_half_a_minute(tmp_path: Path) -> None:
    """Five configurations on two problems and three claims: the answer box (headlines and
    claim sentences, tables aside) stays within 200 words; the details hold the rest."""
    rng = np.random.default_rng(6)
    recs = []
    for problem in ("nqueens", "torus-queens"):
        for name, base in (("sa", 0.1), ("cpsat", 0.13), ("hc", 0.5), ("fchc", 0.9), ("mc", 1.4)):
            recs += runs(name, {n: [base * (1 + 0.3 * rng.random()) for _ in range(5)]
                                for n in (5, 7, 11, 13)}, problem=problem)
    frame = frame_of(tmp_path, recs)
    claims = [Claim("sa is faster than cpsat", "sa", "cpsat", "time", "nqueens"),
              Claim("sa beats hc on the torus", "sa", "hc", "par2", "torus-queens"),
              Claim("sa solves as often as mc", "sa", "mc", "success", "", 0.1)]
    write_report(frame, tmp_path / "r", claims=claims)
    md = (tmp_path / "r" / "report.md").read_text()
    box = md.split("## The answer")[1].split("### Claims")[0]
    assert "Best on nqueens" in box and "Best on torus-queens" in box
    assert "sa is faster than cpsat: confirmed" in box
    assert len(box.split()) <= 200, len(box.split())
    assert "Virtual best solver" not in box and "Best on all problems" not in box
    assert "Best on all problems" in md.split("## Details")[1]


def test_a_ranking_on_time_alone_says_so_and_gives_answer_quality(tmp_path: Path) -> None:
    """On the sliding puzzle a greedy search is fast with long answers: the headline says the
    ranking is on time alone and how often the best's answers were optimal."""
    recs = []
    for k in range(6):
        iid = f"sliding-3x3-{k}"
        recs.append(run("greedy", 8, 0.01 + 0.001 * k, problem="sliding").with_(
            instance_id=iid, answer_length=30, optimum=20))
        recs.append(run("astar", 8, 0.05 + 0.001 * k, problem="sliding").with_(
            instance_id=iid, answer_length=20, optimum=20))
    ranking = rank(frame_of(tmp_path, recs), "sliding")
    assert ranking.headline.startswith("Best on sliding by mean rank: greedy")
    assert ranking.headline.endswith("ranked on time alone: its answers optimal in 0 of 6 solved "
                                     "runs, 10 moves over on average.")
    assert "astar optimal in 6 of 6 solved runs" in " ".join(ranking.sentences)


def test_a_stochastic_solver_that_always_succeeds_keeps_its_repeats(tmp_path: Path) -> None:
    """The researcher's case: five successes in five repeats of a stochastic solver (its
    counters differ) against five failures are ten observations, not one against one."""
    recs = []
    for n in (64, 128, 256):
        for rep in range(5):
            recs.append(run("sa", n, 0.1, rep=rep, counters={"iterations": 100 + rep}))
            recs.append(run("hc", n, 2.0, rep=rep, outcome=Outcome.TIMEOUT,
                            counters={"iterations": 5000 + 7 * rep}))
    v = claim_verdicts(frame_of(tmp_path, recs), [claim("sa", "hc", "success")])[0]
    assert v.comparison is not None and (v.comparison.runs_a, v.comparison.runs_b) == (15, 15)
    assert v.verdict == "confirmed"
