"""Declared counters (``Solver.counter_names``): a study's claim on a counter a solver of the
claim does not record is refused when the study file is read (API: StudyError; CLI: one line,
exit 2); a plugin that declares none is taken on trust with a warning; the conformance checks
hold every run to the declaration, so it cannot lie."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from puzzlebench.conformance.checks import Case, Status, run_case
from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_file import study_from_dict
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems import get_problem
from puzzlebench.solvers.registry import REGISTRY

PLUGINS = Path(__file__).resolve().parents[1] / "conformance" / "counter_declarations.py"


def study(solvers: list[str], claim: dict[str, Any], sizes: str = "4..6") -> dict[str, Any]:
    return {"study": {"name": "counted", "time_limit": 1.0},
            "problems": [{"problem": "nqueens", "sizes": sizes}],
            "solvers": [{"name": s} for s in solvers], "claims": [claim]}


def test_every_registered_solver_declares_its_counters() -> None:
    undeclared = [s.name for s in REGISTRY.all() if s.counter_names is None]
    assert undeclared == []
    assert "nodes" in resolve_solver("backtracking").counter_names  # type: ignore[operator]
    assert resolve_solver("mod12").to_json()["counters"] == ["cells_written"]


@pytest.mark.parametrize(("claim", "message"), [
    ({"better": "backtracking", "than": "bitboard", "on": "counter:nodez"},
     r"backtracking records no counter 'nodez' \(did you mean 'nodes'\?\)"),
    ({"better": "mod12", "than": "bitboard", "on": "counter:nodes"},
     r"\.on: mod12 records no counter 'nodes' \(it records: cells_written"),
    ({"on": "scaling", "solver": "bitboard", "measure": "backtracks", "model": "exponential"},
     r"\.measure: bitboard records no counter 'backtracks'"),
])
def test_a_claim_on_a_counter_no_solver_of_it_records_is_refused(claim: dict[str, Any],
                                                                 message: str) -> None:
    with pytest.raises(StudyError, match=message):
        study_from_dict(study(["backtracking", "bitboard", "mod12"], claim, "4..12"), "s.toml")


def test_a_claim_on_a_counter_both_record_is_accepted() -> None:
    read = study_from_dict(study(["backtracking", "bitboard"], {
        "better": "bitboard", "than": "backtracking", "on": "counter:nodes"}), "s.toml")
    assert read.claims[0].on == "counter:nodes"


def test_the_cli_refuses_it_in_one_line_and_warns_for_a_plugin_without_a_declaration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlebench.cli import main

    refused = tmp_path / "refused.toml"
    refused.write_text('[study]\nname = "counted"\n[[problems]]\nproblem = "nqueens"\n'
                       'sizes = "4..6"\n[[solvers]]\nname = "mod12"\n[[solvers]]\n'
                       'name = "bitboard"\n[[claims]]\nbetter = "bitboard"\nthan = "mod12"\n'
                       'on = "counter:nodes"\n')
    assert main(["run", str(refused), "--check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "mod12 records no counter 'nodes'" in err[0], err

    trusted = tmp_path / "trusted.toml"
    trusted.write_text('[study]\nname = "counted"\n[[problems]]\nproblem = "nqueens"\n'
                       'sizes = "4..8"\n[[solvers]]\nname = "bitboard"\n[[solvers]]\n'
                       f'name = "{PLUGINS}:Undeclared"\n[[claims]]\non = "scaling"\n'
                       'solver = "undeclared"\nmeasure = "probes"\nmodel = "polynomial"\n')
    assert main(["run", str(trusted), "--check"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "counter_names" in line]
    assert len(warnings) == 1
    assert "undeclared declares no counter_names" in warnings[0]
    assert "'probes' cannot be checked before the run" in warnings[0]


@pytest.mark.parametrize(("solver", "status"), [
    ("KeepsItsWord", Status.PASS), ("Understates", Status.FAIL), ("Undeclared", Status.PASS)])
def test_the_conformance_checks_hold_runs_to_the_declaration(solver: str,
                                                              status: Status) -> None:
    spec = resolve_solver(f"{PLUGINS}:{solver}")
    result = run_case(Case("solves", spec, "nqueens", get_problem("nqueens").make(6)))
    assert result.status is status, result.reason
    if status is Status.FAIL:
        assert "reported counter 'probes' not in its counter_names (nodes)" in result.reason
