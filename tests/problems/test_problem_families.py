"""A problem family is one module: its options reach every front end, it is discovered like a
solver, nothing outside ``problems/`` tests a problem's id, and claims no rule can check are
settled only by agreement."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.cli.problem_options import declared
from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.judging.cross_run import judge_across
from puzzlebench.problems import PROBLEMS, InvalidInstanceError, get_problem, register_problem
from puzzlebench.problems.nqueens import NQueens
from puzzlebench.records.record import Outcome, RunRecord

ROOT = Path(__file__).resolve().parents[2]
TOY = str(ROOT / "tests" / "plugins" / "toy_problem.py")
SOLVER = f"{TOY}:Alternate"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def dispatches_on_problem_ids(source: str, ids: Iterable[str]) -> list[int]:
    """Lines that branch on a problem id: compared (``==``, ``!=``, ``in``, ``not in``, on
    either side or inside a literal tuple, list or set), used as a dict key, or matched in a
    ``case``. Declaring the problems a solver handles (``problems = frozenset({...})``) is
    not a dispatch; nor is any other use of an id as data (a default argument, a message)."""
    known = set(ids)

    def named(node: ast.AST | None) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in known
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(named(e) for e in node.elts)
        return False

    lines: list[int] = []
    for node in ast.walk(ast.parse(source)):
        compared = isinstance(node, ast.Compare) and any(
            named(n) for n in [node.left, *node.comparators])
        keyed = isinstance(node, ast.Dict) and any(named(k) for k in node.keys)
        matched = isinstance(node, ast.MatchValue) and named(node.value)
        if compared or keyed or matched:
            lines.append(node.lineno)
    return lines


def test_no_problem_id_is_tested_outside_problems() -> None:
    """The issue's grep, made a syntax check (the grep for ``== "nqueens"`` missed dict
    dispatches): solvers, the harness and the reports read what a family declares, never
    its id."""
    found = [f"{path.relative_to(ROOT)}:{line}" for base in ("src",)
             for path in sorted((ROOT / base).rglob("*.py")) if "problems" not in path.parts
             for line in dispatches_on_problem_ids(path.read_text(encoding="utf-8"), PROBLEMS)]
    assert not found, found


@pytest.mark.parametrize("planted", [
    'if instance.problem == "sliding":\n    pass',
    'if "nqueens" != problem.id:\n    pass',
    'if problem.id in ("nqueens", "torus-queens"):\n    pass',
    'COLUMN = {"sliding": "answer_length"}[problem.id]',
    'match problem.id:\n    case "queens-knights":\n        pass',
])
def test_the_problem_id_check_finds_planted_dispatches(planted: str) -> None:
    assert dispatches_on_problem_ids(planted, PROBLEMS) == [2 if "case" in planted else 1]


def test_the_problem_id_check_leaves_declarations_alone() -> None:
    source = ('problems = frozenset({"nqueens", "torus-queens"})\n'
              'def f(problem="nqueens"):\n    return f"{problem} is not sliding"\n')
    assert dispatches_on_problem_ids(source, PROBLEMS) == []


def test_every_declared_option_is_a_flag_of_every_instance_command(capsys) -> None:
    names = set(declared())
    assert {"queens", "start", "goal", "shape", "placed"} <= names
    for command in ("solve", "check", "count", "compare", "agree"):
        _, out, _ = cli(capsys, command, "--help")
        flags = set(re.findall(r"--([a-z][a-z-]*)", out))
        assert {n.replace("_", "-") for n in names} | {"option"} <= flags, command


def test_an_option_of_another_problem_is_refused_naming_its_owner(capsys) -> None:
    code, _, err = cli(capsys, "solve", "nqueens", "8", "--placed", "0:0", "--solver", "cpsat")
    assert code == 2 and err.count("\n") == 1
    assert "nqueens has no option --placed (it applies to nqueens-completion)" in err
    code, _, err = cli(capsys, "compare", "sliding", "--queens", "2")
    assert code == 2 and "it applies to queens-knights" in err
    code, _, err = cli(capsys, "compare", "nqueens", "--generate", "3")
    assert code == 2 and "nqueens has no instance generator" in err


def test_completion_from_the_command_line(capsys) -> None:
    code, out, _ = cli(capsys, "solve", "nqueens-completion", "20", "--placed", "0:3,5:7",
                       "--solver", "cpsat", "--json")
    row = json.loads(out)
    assert code == 0 and row["outcome"] == "solved" and row["valid"] is True
    assert row["answer"][0] == 3 and row["answer"][5] == 7
    # The generic --option flag reaches the same option.
    code, out, _ = cli(capsys, "solve", "nqueens-completion", "6", "--option", "placed=0:0",
                       "--solver", "backtracking", "--json")
    assert code == 0 and json.loads(out)["outcome"] == "infeasible"
    code, out, _ = cli(capsys, "check", "nqueens-completion", "8", "--placed", "0:0",
                       "--answer", "3,1,6,2,5,7,4,0")
    assert code == 1 and "was moved" in out


def test_completion_from_python() -> None:
    import puzzlebench

    record = puzzlebench.solve("nqueens-completion", 12, "min-conflicts", placed="0:0,3:5", seed=2)
    answer = record.verdict.answer
    assert record.verdict.outcome is Outcome.SOLVED and answer[0] == 0 and answer[3] == 5
    with pytest.raises(InvalidInstanceError, match="pre-placed"):
        puzzlebench.solve("nqueens-completion", 12, "cpsat")


def test_compare_generates_seeded_instances(capsys) -> None:
    args = ("compare", "nqueens-completion", "--sizes", "9,10", "--generate", "2", "--json",
            "--solvers", "cpsat,backtracking", "--workers", "2", "--seed", "5")
    code, out, _ = cli(capsys, *args)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 8
    assert len({r["instance_id"] for r in rows}) == 4
    assert all(r["outcome"] in ("solved", "infeasible") and r["verified"] for r in rows)
    code, again, _ = cli(capsys, *args)
    assert {json.loads(line)["instance_id"] for line in again.splitlines()} == \
        {r["instance_id"] for r in rows}


def test_study_files_take_the_problems_own_keys() -> None:
    def study(entry: dict) -> object:
        return study_from_dict({"study": {"name": "s"}, "problems": [entry],
                                "solvers": [{"name": "cpsat"}]}, "s.toml")

    s = study({"problem": "nqueens-completion", "sizes": [8, 9],
               "placed": ["0:0", "0:1,1:3"], "generate": 2})
    ids = [inst.instance_id for _, _, _, inst in s.instances()]
    assert len(ids) == 8 and ids[:2] == ["nqueens-completion-8-0:0", "nqueens-completion-8-0:1,1:3"]
    assert [i.instance_id for *_, i in s.instances()] == ids  # generated the same way again
    with pytest.raises(StudyError, match=r"unknown key 'queens'"):
        study({"problem": "nqueens-completion", "sizes": [8], "queens": [1]})
    with pytest.raises(StudyError, match=r"nqueens has no instance generator"):
        study({"problem": "nqueens", "sizes": [8], "generate": 2})
    with pytest.raises(StudyError, match=r"placed"):
        study({"problem": "nqueens-completion", "sizes": [8]})
    with pytest.raises(StudyError, match=r"\.placed: a placed queen is ROW:COL"):
        study({"problem": "nqueens-completion", "sizes": [8], "placed": ["0-0"]})


@pytest.mark.slow  # slow tier (docs/development.md); cover: test_families_are_discovered_from_entry_points
def test_a_family_in_one_file_works_through_every_front_end(capsys, tmp_path: Path) -> None:
    problem = f"{TOY}:SpacedOnes"
    code, out, _ = cli(capsys, "solve", problem, "5", "--option", "ones=3", "--solver", SOLVER,
                       "--json")
    assert code == 0 and json.loads(out)["answer"] == "10101"
    # the validator that judged it is the family's own, the user's code: the record says so
    assert f"from {problem}" in json.loads(out)["notes"]
    assert "(not the project's code)" in json.loads(out)["notes"]
    code, out, _ = cli(capsys, "compare", problem, "--option", "ones=1,2,3", "--sizes", "4,5",
                       "--solvers", SOLVER, "--json", "--workers", "2")
    outcomes = sorted(json.loads(line)["outcome"] for line in out.splitlines())
    assert code == 0 and outcomes == ["infeasible"] + ["solved"] * 5
    code, _, err = cli(capsys, "agree", problem, "--sizes", "5", "--option", "ones=2",
                       "--solver", SOLVER)
    assert code == 0, err
    toml = tmp_path / "toy.toml"
    toml.write_text(textwrap.dedent(f"""
        [study]
        name = "toy"
        [[problems]]
        problem = "{problem}"
        sizes = [6]
        ones = [1, 3, 4]
        [[solvers]]
        name = "{SOLVER}"
    """))
    code, out, err = cli(capsys, "run", str(toml), "--db", str(tmp_path / "toy.sqlite"),
                         "--workers", "2")
    assert code == 0, err
    assert "PUZZLEBENCH_PROBLEMS" in os.environ and TOY in os.environ["PUZZLEBENCH_PROBLEMS"]


def test_families_are_discovered_from_entry_points(tmp_path: Path) -> None:
    """A distribution's entry point in ``puzzlebench.problems`` adds a family, found by the
    real importlib.metadata discovery in a fresh interpreter."""
    (tmp_path / "toy_family.py").write_text(Path(TOY).read_text(encoding="utf-8"))
    dist = tmp_path / "toy_family-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-family\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[puzzlebench.problems]\nones = toy_family:SpacedOnes\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("PUZZLEBENCH_PROBLEMS", None)
    out = subprocess.run([sys.executable, "-m", "puzzlebench", "problems", "--json"], env=env,
                         capture_output=True, text=True, check=True).stdout
    rows = {json.loads(line)["id"]: json.loads(line) for line in out.splitlines()}
    assert rows["spaced-ones"]["module"] == "toy_family"
    assert rows["spaced-ones"]["options"][0]["name"] == "ones"
    assert "nqueens-completion" in rows


def test_a_taken_id_is_refused() -> None:
    class Impostor(NQueens):
        pass

    with pytest.raises(InvalidInstanceError, match="taken"):
        register_problem(Impostor)
    assert type(PROBLEMS["nqueens"]) is NQueens
    with pytest.raises(InvalidInstanceError, match=r"cannot import problem|has no attribute"):
        get_problem(f"{TOY}:Missing")


def _infeasible(solver: str, *, verified: bool = False, outcome: Outcome = Outcome.INFEASIBLE,
                iid: str = "nqueens-completion-30-k9-x") -> RunRecord:
    return RunRecord.of(problem="nqueens-completion", size=30, instance_id=iid, solver=solver,
                     params={}, seed=0, outcome=outcome, claim=outcome.value, valid=None,
                     verified=verified, origin="baseline")  # only built-ins' agreement counts


def test_infeasibility_with_no_rule_is_settled_by_two_complete_solvers() -> None:
    complete = ["cpsat", "bitboard", "backtracking"]
    one = judge_across([_infeasible("cpsat")], complete_solvers=complete)
    assert one[0].verdict.verified is False  # one solver's word is not enough
    two = judge_across([_infeasible("cpsat"), _infeasible("bitboard")], complete_solvers=complete)
    assert all(r.verdict.verified for r in two) and "agreed by complete solvers" in two[0].verdict.reason
    same = judge_across([_infeasible("cpsat"), _infeasible("cpsat")], complete_solvers=complete)
    assert not any(r.verdict.verified for r in same)  # the same solver twice is one voice
    incomplete = judge_across([_infeasible("cpsat"), _infeasible("min-conflicts")],
                         complete_solvers=complete)
    assert not any(r.verdict.verified for r in incomplete)
    solved = _infeasible("min-conflicts", outcome=Outcome.SOLVED).with_(valid=True, verified=True)
    contradicted = judge_across([_infeasible("cpsat"), _infeasible("bitboard"), solved],
                           complete_solvers=complete)
    assert [r.verdict.outcome for r in contradicted[:2]] == [Outcome.WRONG, Outcome.WRONG]


def test_ioh_function_numbers_belong_to_the_families() -> None:
    """Adding a family (nqueens-completion sorts between nqueens and queens-knights) must not
    renumber the others' IOHprofiler functions."""
    from puzzlebench.harness.campaign.storage.ioh_export import function_id

    assert [function_id(p) for p in ("nqueens", "queens-knights", "sliding", "torus-queens",
                                     "nqueens-completion")] == [1, 2, 3, 4, 5]
    get_problem(f"{TOY}:SpacedOnes")  # a family without a number is numbered from 100
    assert function_id("spaced-ones") >= 100


def test_solve_prints_a_problems_own_answer_summary(capsys) -> None:
    code, out, _ = cli(capsys, "solve", "sliding", "8", "--start", "125408367", "--solver",
                       "astar-manhattan")
    first, second = out.splitlines()[:2]
    assert code == 0 and first.endswith("moves=20") and second.strip().startswith("moves: ")
    code, out, _ = cli(capsys, "solve", "nqueens", "8", "--solver", "mod12")
    assert code == 0 and "moves" not in out


def test_a_plugin_familys_origin_reaches_the_record_and_the_report(tmp_path: Path) -> None:
    """A family from a user's file judges with its own validator: the record's versions and
    notes name the file, and the report's manifest (which lists the versions) shows it."""
    from puzzlebench.harness.execute import make_request, run_judged
    from puzzlebench.harness.resolve import resolve_solver
    from puzzlebench.problems import get_problem
    from puzzlebench.problems.catalogue import family_origin

    problem = get_problem(f"{TOY}:SpacedOnes")
    digest = hashlib.sha256(Path(TOY).read_bytes()).hexdigest()[:12]
    assert family_origin(problem.id) == f"{TOY}:SpacedOnes (sha256 {digest})"
    assert family_origin("nqueens") == ""
    spec = resolve_solver(SOLVER)
    record = run_judged(spec, make_request(spec, problem.make(5, ones=3), "solve"))
    assert record.verdict.outcome is Outcome.SOLVED and record.verdict.verified_by == "validator"
    assert record.provenance.versions["problem family"] == f"{TOY}:SpacedOnes (sha256 {digest})"
    assert "problem family's own validator" in record.provenance.notes
    import pandas as pd

    from puzzlebench.report import manifest

    frame = pd.DataFrame([record.to_dict()])
    assert any("problem family" in str(v) for v in manifest(frame)["value"])
