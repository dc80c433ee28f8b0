"""Certified infeasibility: proofs made and checked by the judge, proofs handed over by
solvers, the ladder of verification in records, stores, ``agree`` and ``check --infeasible``."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.contract import Budget
from puzzlebench.harness.campaign.storage.store import Store, load_records
from puzzlebench.harness.execute import run_count, run_solve
from puzzlebench.harness.judging.cross_run import judge_across
from puzzlebench.harness.judging.pipeline import as_judged_then
from puzzlebench.harness.judging.proof_runs import prove_claim
from puzzlebench.harness.judging.proofs import (
    CERTIFIED,
    LIMIT,
    REFUTED,
    REJECTED,
    formula_from_dimacs,
    prove_infeasible,
)
from puzzlebench.harness.judging.rules import Judgement
from puzzlebench.problems import get_problem
from puzzlebench.problems.cnf import encode
from puzzlebench.records.record import Outcome, RunRecord

HERE = Path(__file__).parent
LIARS = str(HERE / "liars.py")
COMPLETION = get_problem("nqueens-completion")
#: Three generated 12-queens completions (no rule decides n > 10): the first is solvable, the
#: second infeasible with a proof of 139 lemmas, the third refuted by unit propagation alone.
SOLVABLE_12, INFEASIBLE_12, PROPAGATED_12 = COMPLETION.agreement_instances(12, {})


def ref(name: str) -> str:
    return f"{LIARS}:{name}"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


def test_the_instances_are_what_the_tests_take_them_for() -> None:
    assert COMPLETION.is_solvable(SOLVABLE_12) is None  # above the module's own enumeration
    assert prove_infeasible(SOLVABLE_12).status == REFUTED
    made = prove_infeasible(INFEASIBLE_12)
    assert made.certified and "lemmas" in made.text and made.check_s is not None
    assert "unit propagation" in prove_infeasible(PROPAGATED_12).text


@pytest.mark.parametrize(("problem", "n", "options"), [
    ("nqueens", 2, {}), ("nqueens", 3, {}), ("torus-queens", 4, {}), ("torus-queens", 6, {}),
    ("queens-knights", 2, {"queens": 1}), ("queens-knights", 3, {"queens": 2}),
    ("nqueens-completion", 6, {"placed": "0:0"}),
])
def test_infeasible_families_are_certified(problem: str, n: int, options: dict[str, str]) -> None:
    got = prove_infeasible(get_problem(problem).make(n, **options))
    assert got.status == CERTIFIED, got.text
    assert "checked by dratify" in got.text


def test_a_solvable_instance_is_refuted_with_a_valid_answer() -> None:
    got = prove_infeasible(get_problem("queens-knights").make(6, queens=3))
    inst = get_problem("queens-knights").make(6, queens=3)
    assert got.status == REFUTED and get_problem("queens-knights").validate(inst, got.answer)


def test_a_liar_on_a_solvable_completion_instance_is_caught() -> None:
    rec = run_solve(ref("BareLiar"), SOLVABLE_12, budget=Budget(time_limit=5))
    v = rec.verdict
    assert v.outcome is Outcome.WRONG and v.verified is None and v.verified_by == ""
    assert "found a solution" in rec.verdict.reason
    # on a truly infeasible instance the same bare claim is certified by the judge's own proof
    rec = run_solve(ref("BareLiar"), INFEASIBLE_12, budget=Budget(time_limit=5))
    assert rec.verdict.outcome is Outcome.INFEASIBLE and rec.verdict.verified_by == "certificate"
    assert "CaDiCaL" in rec.verdict.certificate and rec.verdict.certify_s is not None


def test_a_count_of_zero_is_certified_or_caught() -> None:
    rec = run_count(ref("ZeroCounter"), SOLVABLE_12, budget=Budget(time_limit=5))
    assert rec.verdict.outcome is Outcome.WRONG and "counted 0 solutions, but" in rec.verdict.reason
    rec = run_count(ref("ZeroCounter"), INFEASIBLE_12, budget=Budget(time_limit=5))
    assert rec.verdict.outcome is Outcome.SOLVED and rec.verdict.count == 0 and rec.verdict.verified is True
    assert rec.verdict.verified_by == "certificate" and "checked by dratify" in rec.verdict.certificate
    from puzzlebench.harness.judging.pipeline import judge_stored

    again = judge_stored(rec.with_(judge_version="an older judge"))  # its proof is not stored
    assert again.verdict.verified_by == "certificate" and again.verdict.verified is True
    known = run_count(ref("ZeroCounter"), get_problem("nqueens").make(3))
    assert known.verdict.verified_by == "rule" and known.verdict.certificate == ""  # OEIS decides it


@pytest.mark.parametrize("instance", [SOLVABLE_12, INFEASIBLE_12],
                         ids=["solvable", "infeasible"])
def test_a_forged_proof_is_caught(instance: object) -> None:
    rec = run_solve(ref("ForgedProof"), instance, budget=Budget(time_limit=5))  # type: ignore[arg-type]
    assert rec.verdict.outcome is Outcome.WRONG and "fails the check" in rec.verdict.reason
    assert "rejected by dratify" in rec.verdict.reason and "lemma 1" in rec.verdict.reason
    assert prove_infeasible(instance, proof="0\n").status == REJECTED  # type: ignore[arg-type]


def test_a_proof_of_another_formula_certifies_nothing() -> None:
    got = prove_infeasible(INFEASIBLE_12, proof="0\n", cnf="p cnf 1 2\n1 0\n-1 0\n")
    assert got.status == LIMIT and "not in the judge's encoding" in got.text
    # judged, the claim is certified (or refuted) by the judge's own proof, never by that one
    rec = run_solve(ref("ForeignFormula"), INFEASIBLE_12, budget=Budget(time_limit=5))
    assert rec.verdict.outcome is Outcome.INFEASIBLE and rec.verdict.verified_by == "certificate"
    assert rec.verdict.certificate.startswith("DRUP proof") and "not in the judge's encoding" in \
        rec.verdict.certificate
    rec = run_solve(ref("ForeignFormula"), SOLVABLE_12, budget=Budget(time_limit=5))
    assert rec.verdict.outcome is Outcome.WRONG and "found a solution" in rec.verdict.reason


def test_a_sub_formula_of_the_judges_is_accepted() -> None:
    reference = encode(get_problem("nqueens").make(3))
    text = "p cnf 9 2\n" + "\n".join(" ".join(map(str, c)) + " 0"
                                      for c in reversed(reference.clauses[:2]))
    assert len(formula_from_dimacs(text, reference).clauses) == 2
    with pytest.raises(ValueError, match="not in the judge's encoding"):
        formula_from_dimacs("1 2 0\n", reference)


def test_sat_cadical_hands_over_its_proof() -> None:
    qk = get_problem("queens-knights").make(5, queens=4)  # no rule decides A = 4 of 5
    rec = run_solve("sat-cadical", qk, params={"proof": True}, budget=Budget(time_limit=20))
    assert rec.verdict.outcome is Outcome.INFEASIBLE and rec.verdict.verified_by == "certificate"
    assert rec.verdict.certificate.startswith("the solver's proof")
    assert rec.figures.counters["proof_lemmas"] > 0
    ruled = run_solve("sat-cadical", get_problem("nqueens").make(3), params={"proof": True})
    assert ruled.verdict.verified_by == "rule" and ruled.verdict.certificate.startswith("the solver's proof")
    solved = run_solve("sat-cadical", get_problem("nqueens").make(8), params={"proof": True})
    assert solved.verdict.outcome is Outcome.SOLVED and solved.verdict.verified_by == "validator"


def test_certification_out_of_time_or_memory_leaves_the_claim_where_it_was() -> None:
    assert prove_infeasible(INFEASIBLE_12, time_limit=0.001).status == LIMIT
    big = COMPLETION.generate(60, 1, __import__("numpy").random.default_rng(1))[0]
    short = prove_infeasible(big, memory_mb=1)  # its formula alone needs far more
    assert short.status == LIMIT and "memory" in short.text
    unverified = Judgement(Outcome.INFEASIBLE, None, "infeasibility not verified by a rule",
                           verified=False)
    fresh = COMPLETION.agreement_instances(13, {})[0]  # certified by no other test (cache)
    assert prove_infeasible(fresh).certified
    kept = prove_claim(fresh, unverified, time_limit=0.001)
    assert kept.verified is False and kept.verified_by == ""
    assert "ran out of time" in kept.certificate and "left unverified" in kept.certificate
    agreed = replace(unverified, verified=True, verified_by="agreement")
    assert prove_claim(fresh, agreed, time_limit=0.001).certificate.endswith("left agreement")
    assert prove_claim(fresh, agreed).verified_by == "certificate"  # the stronger rung


def _claim(solver: str, **changes: object) -> RunRecord:
    base = RunRecord.of(problem="nqueens-completion", size=30, instance_id="c30", solver=solver,
                     params={}, seed=0, outcome=Outcome.INFEASIBLE, claim="infeasible",
                     valid=None, verified=False, origin="baseline")
    return base.with_(**changes)


def test_agreement_never_replaces_a_certificate() -> None:
    certified = _claim("cpsat", verified=True, verified_by="certificate", certificate="proof")
    out = judge_across([certified, _claim("bitboard")], complete_solvers=["cpsat", "bitboard"])
    assert out[0].verdict.verified_by == "certificate" and out[0].verdict.certificate == "proof"
    assert out[1].verdict.verified_by == "" and out[1].verdict.verified is False  # one unproved voice
    two = judge_across([_claim("cpsat"), _claim("bitboard")], complete_solvers=["cpsat", "bitboard"])
    assert [r.verdict.verified_by for r in two] == ["agreement", "agreement"]


def test_records_stored_before_the_ladder_get_their_rung() -> None:
    def old(**fields: object) -> RunRecord:
        d = _claim("cpsat", **fields).to_dict()
        for name in ("verified_by", "certificate", "certify_s"):
            d.pop(name)
        return RunRecord.from_dict(as_judged_then(d))  # as a stored row is read

    assert old(verified=True, reason="infeasibility agreed by complete solvers a, b "
                                     "(no rule decides it)").verdict.verified_by == "agreement"
    assert old(verified=True, reason="").verdict.verified_by == "rule"
    assert old(verified=False).verdict.verified_by == ""
    assert old(outcome=Outcome.SOLVED, verified=True, task="solve").verdict.verified_by == "validator"
    assert old(outcome=Outcome.SOLVED, verified=True, task="count").verdict.verified_by == "rule"


def test_the_store_keeps_the_rung_and_the_certificate(tmp_path: Path) -> None:
    rec = run_solve(ref("BareLiar"), INFEASIBLE_12, budget=Budget(time_limit=5))
    with Store(tmp_path / "s.sqlite") as store:
        store.add("k", rec)
    [back] = load_records(tmp_path / "s.sqlite")
    assert back.verdict.verified_by == "certificate" and back.verdict.certificate == rec.verdict.certificate


def test_check_infeasible_certifies_refutes_and_rejects(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    placed = COMPLETION.options_of(INFEASIBLE_12)["placed"]
    code, out, _ = cli(capsys, "check", "nqueens-completion", "12", "--placed", placed,
                       "--infeasible", "--json")
    row = json.loads(out)
    assert code == 0 and row["certified"] and row["rule"] == "undecided" and row["check_s"] > 0
    code, out, _ = cli(capsys, "check", "nqueens", "8", "--infeasible")
    assert code == 1 and "refuted" in out and "rule, apart from the proof, says: solvable" in out
    forged = tmp_path / "forged.drup"
    forged.write_text("0\n", encoding="ascii")
    code, out, _ = cli(capsys, "check", "nqueens-completion", "12", "--placed", placed,
                       "--infeasible", "--proof", str(forged))
    assert code == 1 and "rejected" in out
    cnf = tmp_path / "own.cnf"
    cnf.write_text(encode(get_problem("nqueens").make(3)).dimacs(), encoding="ascii")
    proof = tmp_path / "own.drup"
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=[list(c) for c in
                                                   encode(get_problem("nqueens").make(3)).clauses],
                with_proof=True) as sat:
        assert not sat.solve()
        proof.write_text("\n".join(sat.get_proof()) + "\n", encoding="ascii")
    code, out, _ = cli(capsys, "check", "nqueens", "3", "--infeasible", "--proof", str(proof),
                       "--cnf", str(cnf))
    assert code == 0 and "infeasible (certified)" in out and "the solver's formula" in out


@pytest.mark.parametrize("args", [
    ["check", "nqueens", "3", "--infeasible", "--answer", "0,1,2"],
    ["check", "nqueens", "3"],
    ["check", "nqueens", "3", "--proof", "p.drup"],
    ["check", "nqueens", "3", "--infeasible", "--cnf", "f.cnf"],
    ["check", "nqueens", "3", "--infeasible", "--proof", "/nonexistent/p.drup"],
    ["check", "sliding", "8", "--start", "123456780", "--infeasible"],
    ["check", "nqueens", "3", "--infeasible", "--time-limit", "-1"],
    ["agree", "nqueens", "--generate", "3"],
    ["agree", "nqueens-completion", "--generate", "0"],
])
def test_check_infeasible_bad_input_is_one_line(capsys, args: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli(capsys, *args)
    assert code == 2 and err.startswith("puzzlebench: error:") and len(err.splitlines()) == 1


def test_agree_shows_certified_claims_with_the_checkers_time(capsys) -> None:  # type: ignore[no-untyped-def]
    placed = ";".join(COMPLETION.options_of(i)["placed"] for i in (SOLVABLE_12, INFEASIBLE_12))
    code, out, _ = cli(capsys, "agree", "nqueens-completion", "--sizes", "12", "--placed",
                       placed, "--time-limit", "30", "--json")
    report = json.loads(out)
    assert code == 0 and report["agreed"], report["disagreements"]
    iid = INFEASIBLE_12.instance_id
    assert "checked by dratify" in report["certificates"][iid]
    rungs = report["verified_by"][iid]
    assert rungs["cpsat"] == "certificate" and rungs["backtracking"] == "certificate"
    assert report["matrix"]["cpsat"][iid] == "none (certified)"
    assert report["verified_by"][SOLVABLE_12.instance_id]["cpsat"] == "validator"


def test_an_external_programs_proof_file_is_checked(tmp_path: Path) -> None:
    script = (
        "import json, os, sys\n"
        "request = json.loads(sys.stdin.read())\n"
        "from pysat.solvers import Solver\n"
        "from puzzlebench.problems import get_problem\n"
        "from puzzlebench.problems.cnf import encode\n"
        "inst = get_problem(request['problem']).make(request['size'], "
        "**{k: v for k, v in request['instance'].items() if k != 'n'})\n"
        "cnf = encode(inst)\n"
        "path = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'proof.drup')\n"
        "with Solver(name='cadical195', bootstrap_with=[list(c) for c in cnf.clauses],"
        " with_proof=True) as sat:\n"
        "    assert not sat.solve()\n"
        "    lines = sat.get_proof()\n"
        "if request['params']['forge']:\n"
        "    lines = ['0']\n"
        "open(path, 'w').write('\\n'.join(lines) + '\\n')\n"
        "print(json.dumps({'claim': 'infeasible', 'proof': path}))\n")
    (tmp_path / "prog.py").write_text(script, encoding="utf-8")
    manifest = tmp_path / "solver.toml"
    manifest.write_text("[solver]\nname = \"proof-program\"\nproblems = [\"nqueens-completion\"]\n"
                        f"command = [{json.dumps(sys.executable)}, \"prog.py\"]\n"
                        "complete = true\n[solver.params]\nforge = false\n", encoding="utf-8")
    honest = run_solve(str(manifest), INFEASIBLE_12, budget=Budget(time_limit=30))
    assert honest.verdict.outcome is Outcome.INFEASIBLE, honest
    assert honest.verdict.verified_by == "certificate", honest
    assert honest.verdict.certificate.startswith("the solver's proof")
    forged = run_solve(str(manifest), INFEASIBLE_12, params={"forge": True},
                       budget=Budget(time_limit=30))
    assert forged.verdict.outcome is Outcome.WRONG and "rejected by dratify" in forged.verdict.reason
