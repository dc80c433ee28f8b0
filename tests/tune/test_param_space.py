"""Tuning ranges declared beside the defaults (``Solver.param_space``): read into the spec,
carried through a plugin's description, and refused when they cannot be tuned."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from puzzlebench.contract import Param, Solver
from puzzlebench.solvers.param_space import Choice, FloatRange, IntRange, SpaceError, check_space
from puzzlebench.solvers.registry import REGISTRY
from puzzlebench.solvers.spec import RegistryError, spec_from_description, spec_of


@pytest.mark.parametrize("name", ["first-choice-hc", "stochastic-hc", "min-conflicts",
                                  "ga-permutation", "ga-seed002"])
def test_builtin_spaces_hold_their_defaults(name: str) -> None:
    spec = REGISTRY.load(name)
    assert spec.param_space
    defaults = spec.check_params({})
    for key, dim in spec.param_space.items():
        if isinstance(dim, Choice):
            assert defaults[key] in dim.values
        else:
            assert dim.low <= defaults[key] <= dim.high


def test_a_space_survives_a_plugin_description() -> None:
    spec = REGISTRY.load("ga-permutation")
    back = spec_from_description(spec.to_json(), "somewhere.py:GA")
    assert dict(back.param_space) == dict(spec.param_space)


def test_defaults_are_unchanged_by_a_space() -> None:
    assert REGISTRY.load("first-choice-hc").check_params({}) == {"max_iter": 180,
                                                                 "neighbourhood": "any"}


class _Bad(Solver):
    name = "bad-space"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    params: ClassVar[dict[str, Any]] = {"rate": Param(0.5, 0.0, 1.0), "mode": "a"}
    param_space: ClassVar[dict[str, Any]] = {"rate": FloatRange(0.0, 2.0)}

    def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
        raise NotImplementedError


def test_a_space_outside_the_allowed_range_is_refused() -> None:
    with pytest.raises(RegistryError, match="leaves the allowed range"):
        spec_of(_Bad)


@pytest.mark.parametrize(("space", "why"), [
    ({"nope": IntRange(1, 2)}, "no such parameter"),
    ({"rate": FloatRange(0.6, 0.9)}, "outside"),
    ({"rate": FloatRange(0.0, 1.0, log=True)}, "log scale"),
    ({"mode": Choice(("b", "c"))}, "not among the choices"),
    ({"mode": IntRange(1, 3)}, "non-numeric"),
    ({"rate": FloatRange(0.5, 0.5)}, "empty range"),
])
def test_untunable_spaces_name_the_fault(space: dict[str, Any], why: str) -> None:
    with pytest.raises(SpaceError, match=why):
        check_space("x", _Bad.params, space)
