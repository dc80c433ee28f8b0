"""The reference solvers are a plugin package (issue 30): they reach the registry only through
the project's own ``puzzlebench.solvers`` entry points, and they pass the conformance kit a
user's package uses (``puzzlebench.testing``). The full conformance suite runs every one of them
(``tests/conformance``); here the kit runs through the entry points on a few fast ones."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points

import pytest

from puzzlebench.solvers.registry import ENTRY_POINT_GROUP, Registry
from puzzlebench.testing import Case, check_case, check_solver, conformance_cases

#: The reference solvers' entry points: those the puzzlebench distribution itself declares.
REFERENCES = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)
              if ep.dist is not None and ep.dist.name == "puzzlebench"}


def test_every_reference_is_an_entry_point_of_the_baselines_package() -> None:
    assert len(REFERENCES) >= 10
    assert all(ep.module.startswith("puzzlebench_baselines.") for ep in REFERENCES.values())


def test_solvers_lists_every_reference_through_the_entry_point() -> None:
    out = subprocess.run([sys.executable, "-m", "puzzlebench", "solvers", "--json"],
                         capture_output=True, text=True, check=True, timeout=300).stdout
    listed = [json.loads(line) for line in out.splitlines() if line.strip()]
    baselines = {s["name"] for s in listed if s["origin"] == "baseline"}
    assert baselines == set(REFERENCES)  # every reference, and nothing else is a baseline
    assert {s["origin"] for s in listed} <= {"handwritten", "baseline", "plugin"}


def test_a_registry_without_the_entry_points_has_no_reference() -> None:
    core = {s.name for s in Registry(solver_entry_points=()).all()}
    assert core and not core & set(REFERENCES)  # the handwritten solvers alone
    full = Registry(solver_entry_points=REFERENCES.values()).all()
    assert {s.name for s in full} == core | set(REFERENCES)
    assert {s.origin for s in full if s.name in REFERENCES} == {"baseline"}


def test_the_minizinc_model_kind_arrives_through_an_entry_point() -> None:
    from puzzlebench.solvers.locators import kinds

    eps = {ep.value for ep in entry_points(group="puzzlebench.references")}
    assert "puzzlebench_baselines.minizinc_reference:KIND" in eps
    assert "minizinc-model" in {k.name for k in kinds()}


@pytest.mark.parametrize("case", conformance_cases("mod12"))
def test_mod12_conformance(case: Case) -> None:
    check_case(case)


@pytest.mark.parametrize("name", ["backtracking"])
def test_reference_conformance_at_once(name: str) -> None:
    check_solver(name, ["nqueens"])
