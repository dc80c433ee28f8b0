"""``count`` without ``--solver``: the fastest counter measured for the board, and it says so."""

from __future__ import annotations

import json

import pytest

import puzzlebench
from puzzlebench.cli import main
from puzzlebench.harness.default_counter import CONSTELLATIONS_FROM, default_counter


def test_the_default_counter_follows_the_measured_crossover() -> None:
    cross = CONSTELLATIONS_FROM
    assert default_counter("nqueens", cross - 1) == "bitboard"
    assert default_counter("nqueens", cross) == "constellations"
    assert default_counter("nqueens", 32) == "constellations"
    assert default_counter("nqueens", 33) == "bitboard"  # past constellations' largest board
    assert default_counter("torus-queens", cross + 2) == "bitboard"  # constellations: nqueens only


def test_the_command_names_the_counter_it_chose(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "nqueens", str(CONSTELLATIONS_FROM), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["solver"], data["solver_default"], data["outcome"]) == (
        "constellations", True, "solved")
    assert main(["count", "nqueens", "8"]) == 0
    out = capsys.readouterr().out
    assert "(bitboard, the default counter below n = " in out and "92 solutions" in out
    assert main(["count", "nqueens", "8", "--solver", "constellations", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["solver"], data["solver_default"], data["count"]) == ("constellations", False, 92)


def test_the_python_api_counts_with_the_default_counter() -> None:
    rec = puzzlebench.count("nqueens", CONSTELLATIONS_FROM)
    assert rec.key.solver == "constellations" and rec.verdict.verified
    rec = puzzlebench.count("nqueens", 6, unique=True)
    assert (rec.key.solver, rec.verdict.count, rec.verdict.unique) == ("bitboard", 4, 1)
    assert puzzlebench.count("nqueens", 6, "constellations").key.solver == "constellations"
