"""Modules moved into rooms (issue 56) keep their old import paths and their run keys."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

from puzzlebench import old_paths
from puzzlebench.solvers import fingerprint


@pytest.mark.parametrize("old", sorted(old_paths.MOVED))
def test_every_old_path_is_found_at_its_new_home(old: str) -> None:
    spec = importlib.util.find_spec(old)
    new = importlib.util.find_spec(old_paths.MOVED[old])
    assert spec is not None and new is not None
    assert spec.origin == new.origin


def test_an_old_import_gives_the_same_module_object() -> None:
    from puzzlebench.iterative import kernel_caps as old_caps

    from puzzlebench.solvers.iterative import kernel_caps

    assert old_caps is kernel_caps
    assert sys.modules["puzzlebench.iterative"] is sys.modules["puzzlebench.solvers.iterative"]


def test_an_unknown_path_is_still_an_import_error() -> None:
    with pytest.raises(ImportError):
        importlib.import_module("puzzlebench.no_such_module")


@pytest.mark.parametrize("now, first", [
    ("puzzlebench.solvers.iterative", "puzzlebench.iterative"),
    ("puzzlebench.solvers.contract", "puzzlebench.contract"),
    ("puzzlebench.solvers.contract.Budget", "puzzlebench.contract.Budget"),
    ("puzzlebench.solvers.locators.manifest", "puzzlebench.solver_references.manifest"),
    ("puzzlebench.search.queens.queens_states", "puzzlebench.search.queens_states"),
    ("puzzlebench.problems.nqueens", "puzzlebench.problems.nqueens"),
    ("numpy.random", "numpy.random"),
])
def test_canonical_names_are_first_names(now: str, first: str) -> None:
    assert old_paths.canonical(now) == first


def _plugin(folder: Path, name: str, contract: str) -> str:
    (folder / f"{name}.py").write_text(
        f"from {contract} import Proposal, Solver\n\n"
        "class Mine(Solver):\n    name = 'mine'\n    problems = frozenset({'nqueens'})\n\n"
        "    def solve(self, instance, budget, rng):\n        return Proposal()\n",
        encoding="utf-8")
    return name


def test_the_public_contract_and_its_home_give_one_fingerprint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin importing the public re-export and one importing the contract's home hash the
    same code: the facade is followed, never hashed, and the home is named by its first name."""
    monkeypatch.syspath_prepend(str(tmp_path))
    public = _plugin(tmp_path, "plugin_public", "puzzlebench.contract")
    home = _plugin(tmp_path, "plugin_home", "puzzlebench.solvers.contract")
    fingerprint.forget()
    try:
        lines_public = fingerprint.module_lines(fingerprint.closure(public))
        lines_home = fingerprint.module_lines(fingerprint.closure(home))
    finally:
        fingerprint.forget()
    assert fingerprint.module_digest(public) == fingerprint.module_digest(home)
    assert [ln for ln in lines_public if public not in ln] == \
        [ln for ln in lines_home if home not in ln]
    assert any(ln.startswith("module puzzlebench.contract ") for ln in lines_home)
    assert not any("puzzlebench.solvers.contract" in ln for ln in lines_public + lines_home)


def test_a_changed_import_still_changes_the_digest(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """First names hide moves, not edits: importing another module is another digest."""
    monkeypatch.syspath_prepend(str(tmp_path))
    a = _plugin(tmp_path, "plugin_a", "puzzlebench.solvers.contract")
    b = _plugin(tmp_path, "plugin_b", "puzzlebench.solvers.iterative")
    fingerprint.forget()
    try:
        assert fingerprint.module_digest(a) != fingerprint.module_digest(b)
    finally:
        fingerprint.forget()
