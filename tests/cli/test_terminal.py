"""The terminal at a glance (issue 58): every table fits 80 columns with solver names whole,
a verdict line closes each comparison, a legend explains its terms, a study file's mistakes are
all named at once, a failed run's line says why, and every command's help has an example."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebench.cli import main

CRASHER = '''
from puzzlebench.contract import Solver


class Crasher(Solver):
    """Raises on every board (a test's crashing solver)."""

    name = "crasher"
    problems = frozenset({"nqueens"})

    def solve(self, instance, budget, rng):
        raise ValueError(f"boom on n={instance.n}")
'''


@pytest.fixture
def at_80(monkeypatch: pytest.MonkeyPatch) -> None:
    """Output piped (capsys) with COLUMNS=80, as ``COLUMNS=80 puzzlebench … | cat``."""
    monkeypatch.setenv("COLUMNS", "80")


def fits(text: str, names: list[str], width: int = 80) -> None:
    """No line wider than ``width``; every name whole on one line, never cut with "…"."""
    for line in text.splitlines():
        assert len(line) <= width, f"{len(line)} columns: {line!r}"
    lines = text.splitlines()
    for name in names:
        assert any(name in line for line in lines), f"{name!r} is cut or missing"
        for cut in range(3, len(name)):
            assert f"{name[:cut]}…" not in text, f"{name!r} cut to {name[:cut]}…"


def test_compare_fits_80_columns_and_ends_with_a_verdict(
        at_80: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "nqueens", "--sizes", "4..7", "--solvers",
                 "mod12,backtracking,constraint-backtracking", "--details"]) == 0
    out = capsys.readouterr().out
    fits(out, ["mod12", "backtracking", "constraint-backtracking"])
    assert "4/4 solved" in out  # outcomes folded into one cell
    for empty in ("infeasible", "declined", "memout", "timeout"):  # empty in every row: dropped
        assert empty not in out.split("Legend")[0]
    lines = out.splitlines()
    table_end = max(i for i, line in enumerate(lines) if "4/4 solved" in line)
    verdict = next(i for i, line in enumerate(lines) if line.startswith("Verdict: on nqueens"))
    assert verdict > table_end and "PAR-2" in " ".join(lines[verdict:verdict + 4])
    assert any(line.startswith("Legend — Borda:") for line in lines)


def test_compare_wide_keeps_every_column(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "nqueens", "--sizes", "4..5", "--solvers", "mod12", "--wide"]) == 0
    header = next(line for line in capsys.readouterr().out.splitlines() if "solver" in line)
    for column in ("infeasible", "wrong", "budget", "declined", "timeout", "memout", "crash"):
        assert column in header


@pytest.mark.parametrize("args", [["solvers"], ["solvers", "--problem", "sliding"],
                                  ["problems"], ["studies"]])
def test_listings_fit_80_columns(at_80: None, capsys: pytest.CaptureFixture[str],
                                 args: list[str]) -> None:
    assert main(args) == 0
    out = capsys.readouterr().out
    names = ["idastar-linear-conflict", "astar-linear-conflict"] if args[0] == "solvers" else []
    fits(out, names)
    if args == ["solvers"]:
        assert "population_size" in out  # parameters shown without --wide (README says so)
        assert "Legend — complete:" in out


def test_run_fits_80_columns_and_says_where_the_report_will_be(
        at_80: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "s.toml"
    study.write_text('[study]\nname = "t"\n[[problems]]\nproblem = "nqueens"\nsizes = "4..6"\n'
                     '[[solvers]]\nname = "mod12"\n[[solvers]]\nname = "backtracking"\n')
    db = tmp_path / "t.sqlite"
    assert main(["run", str(study), "--db", str(db)]) == 0
    captured = capsys.readouterr()
    paths = [line for line in captured.out.splitlines() if str(tmp_path) in line]
    assert paths == [f"  {db}", f"  puzzlebench report --db {db} --out t-report/"]  # whole
    fits("\n".join(line for line in captured.out.splitlines() if line not in paths),
         ["mod12", "backtracking"])
    fits(captured.err, [])  # the progress lines
    assert "Verdict: on nqueens" in captured.out


def test_agree_splits_its_instances_over_tables_of_80_columns(
        at_80: None, capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlebench.cli.agree import print_agreement
    from puzzlebench.harness.campaign.agreement import AgreementReport

    report = AgreementReport(instances=[f"nqueens-{n}" for n in range(1, 13)])
    names = ["constraint-backtracking", "constraint-minconflicts", "constellations", "bitboard"]
    for name in names:
        for n in range(1, 13):
            report.note(name, f"nqueens-{n}", "none" if n in (2, 3) else "ok")
            if name in ("bitboard", "constellations"):
                report.note(name, f"nqueens-{n}", f"#{n * 40}/{n * 6}u")
    report.no_answer("constellations", "nqueens-12", "a count", "killed at the hard limit")
    print_agreement(report, "nqueens")
    out = capsys.readouterr().out
    fits(out, names)
    assert out.count("agreement: nqueens (") >= 2  # split, not squeezed
    assert "#N/Mu: N solutions counted, M of them unique" in " ".join(out.split())
    assert "Verdict: 4 solvers on 12 instances" in out
    assert "first: constellations on nqueens-12" in " ".join(out.split())


def test_certify_fits_80_columns_and_ends_with_its_standing(
        at_80: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlebench.conformance import card as cards
    from puzzlebench.conformance.checks import CheckResult, Status
    from puzzlebench.conformance.ranking import Standing

    long_name = "a-solver-with-a-rather-long-name-indeed"
    card = cards.Card(
        long_name, long_name, ("nqueens",),
        (CheckResult("solves", "nqueens", Status.PASS, "", "nqueens-8"),
         CheckResult("cap:max_iterations", "nqueens", Status.FAIL,
                     "ran more than one natural step past its cap " * 3, "nqueens-30"),
         CheckResult("counts", "nqueens", Status.SKIP, "declares no counts")),
        (Standing("nqueens", "mod12", 1, 6, 6, 0.0001, False),
         Standing("nqueens", long_name, 2, 4, 6, 0.668, True)), {"nqueens": 1.0})
    monkeypatch.setattr(cards, "certify", lambda *a, **k: card)
    assert main(["certify", "mod12", "--no-rank"]) == 1
    out = capsys.readouterr().out
    fits(out, [long_name, "mod12"])
    text = " ".join(out.split())
    assert "Verdict: a-solver-with-a-rather-long-name-indeed is not certified" in text
    assert "first failure: cap:max_iterations" in text and "2 of 2 on nqueens" in text
    assert "SKIP: a check that does not apply" in text


def test_two_mistakes_in_a_study_file_are_named_at_once_numbered_as_a_reader_counts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "s.toml"
    study.write_text('[study]\nname = "t"\nrepeat = 2\n'
                     '[[problems]]\nproblem = "nqeens"\nsizes = "4..6"\n'
                     '[[solvers]]\nname = "mod12"\n[[solvers]]\nname = "min-conflict"\n')
    assert main(["run", str(study), "--db", str(tmp_path / "t.sqlite")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "puzzlebench: error: s.toml [study]: unknown key 'repeat' (did you mean 'repeats'?)",
        "puzzlebench: error: s.toml [[problems]] #1.problem: unknown problem 'nqeens' (did you "
        "mean 'nqueens'?); known: " + err[1].split("known: ")[1],
        "puzzlebench: error: s.toml [[solvers]] #2.name: unknown solver 'min-conflict' (did you "
        "mean 'min-conflicts'?); see 'puzzlebench solvers'",
        "puzzlebench: 3 mistakes, nothing run"]
    assert not (tmp_path / "t.sqlite").exists()


def test_a_claim_naming_no_solver_of_the_study_gets_a_did_you_mean() -> None:
    from puzzlebench.harness.campaign.design.study import StudyError
    from puzzlebench.harness.campaign.design.study_file import study_from_dict

    data = {"study": {"name": "t"}, "problems": [{"problem": "nqueens", "sizes": [4]}],
            "solvers": [{"name": "mod12"}, {"name": "backtracking"}],
            "claims": [{"better": "mod12", "than": "backtraking"}]}
    with pytest.raises(StudyError, match=r"\[\[claims\]\] #1.than: 'backtraking' .*did you mean "
                                         r"'backtracking'"):
        study_from_dict(data)


def test_an_unknown_solver_is_named_from_the_index_without_loading_any_solver() -> None:
    """The mechanism behind "within 1 s": the name is checked against the registry's index,
    so neither the study nor the command line imports a solver module to reject it."""
    code = (
        "import sys, json\n"
        "from puzzlebench.solvers.registry import REGISTRY\n"
        "from puzzlebench.harness.campaign.design.study_file import study_from_dict\n"
        "from puzzlebench.harness.campaign.design.study import StudyError\n"
        "try:\n"
        "    study_from_dict({'study': {'name': 't'}, 'problems': [{'problem': 'nqueens',"
        " 'sizes': [4]}], 'solvers': [{'name': 'cpsat'}, {'name': 'min-conflict'}]})\n"
        "except StudyError as e:\n"
        "    msg = str(e)\n"
        "print(json.dumps([msg, REGISTRY._discovered, sorted(m for m in sys.modules"
        " if m.startswith(('ortools', 'puzzlebench.local', 'puzzlebench.search',"
        " 'puzzlebench_baselines.cpsat', 'puzzlebench_baselines.mod12')))]))\n")
    subprocess.run([sys.executable, "-c", "from puzzlebench.solvers.registry import REGISTRY; "
                    "REGISTRY.all()"], check=True)  # the index, as any earlier command leaves it
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    msg, discovered, loaded = json.loads(out)
    assert "#2.name: unknown solver 'min-conflict' (did you mean 'min-conflicts'?)" in msg
    assert discovered is False and loaded == []


def test_a_crashed_runs_lines_carry_its_first_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plugin = tmp_path / "crasher.py"
    plugin.write_text(CRASHER)
    assert main(["solve", "nqueens", "5", "--solver", f"{plugin}:Crasher"]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert "outcome=crash (ValueError: boom on n=5" in first
    assert main(["compare", "nqueens", "--sizes", "4..5", "--solvers",
                 f"{plugin}:Crasher,mod12"]) == 1
    captured = capsys.readouterr()
    progress = [line for line in captured.err.splitlines() if " crasher " in line]
    assert progress and all("crash" in line and "ValueError: boom" in line for line in progress)
    assert "Failed runs — crash: crasher 2 (first: ValueError: boom" in " ".join(
        captured.out.split())


def test_every_commands_help_is_plain_one_sentence_a_line_with_an_example() -> None:
    import typer

    from puzzlebench.cli import load_commands
    from puzzlebench.cli.app import app
    from puzzlebench.cli.help_text import EXAMPLES

    load_commands()
    root = typer.main.get_command(app)
    ctx = root.context_class(root, info_name="puzzlebench")
    commands = [(name, root.get_command(ctx, name)) for name in root.list_commands(ctx)]
    for name, command in commands:
        assert command is not None
        assert name in EXAMPLES, f"{name} has no example"
        text = command.help or ""
        assert "``" not in text and ":data:`" not in text, name
        assert f"Example:  {EXAMPLES[name]}" in text, name
        summary = command.short_help or ""
        assert summary and summary == text.split("\n\n")[0], name
        for line in text.split("\n\n")[1].splitlines() if "\n\n" in text else []:
            assert not line[:1].islower(), f"{name}: a line starts mid-sentence: {line!r}"
