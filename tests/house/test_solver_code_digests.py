"""Solvers' run keys do not move when the code around them moves (issue 39): each built-in
solver's code digest equals the one recorded in ``data/solver_code_digests.json``."""

from __future__ import annotations

import json

from tests.house.solver_code_digests import GOLDEN, current


def test_every_builtin_solver_keeps_its_code_digest() -> None:
    recorded = json.loads(GOLDEN.read_text())
    now = current()
    assert set(now) == set(recorded), (
        "solvers added or removed: run `python tests/house/solver_code_digests.py`")
    changed = sorted(name for name in now if now[name] != recorded[name])
    assert not changed, (
        f"code digests changed for {changed}: their stored runs would be re-made; if the "
        "change to the solver is meant, run `python tests/house/solver_code_digests.py`")
