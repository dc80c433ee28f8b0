"""A solver's declared capabilities as data (``SolverSpec``), read from its class or from
the description a plugin's own process sent — checked the same way in both cases.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from puzzlebench.problems import PROBLEMS
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.solvers.contract import BUDGET_FIELDS, EFFORT_UNIT, Param, Solver, resolve_params
from puzzlebench.solvers.fingerprint import fingerprint
from puzzlebench.solvers.param_space import (
    SpaceError,
    check_space,
    dimension_from_json,
    dimension_to_json,
)


class RegistryError(PuzzlebenchError, ValueError):
    """Unknown or duplicate solver name, or a solver reference that does not load."""


#: What a solver's name may be, whatever declares it (a class, a manifest, a MiniZinc model's
#: file name, a plugin's description): it names folders (IOH exports), report rows and
#: store rows, so it starts with a letter or digit, holds no separator, space or control
#: character, and is at most 64 characters long.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:+=-]{0,63}")


def check_name(name: object, where: str) -> str:
    """``name`` when it is a valid solver name, else RegistryError naming ``where``."""
    if not isinstance(name, str) or NAME_PATTERN.fullmatch(name) is None:
        raise RegistryError(
            f"{where}: solver name {str(name)[:80]!r} is not a name (1-64 characters: letters, "
            "digits and . _ : + = -, starting with a letter or digit)")
    return name


@dataclass(frozen=True, slots=True)
class SolverSpec:
    """A registered solver's capabilities, as data.

    ``factory`` is the solver class where this process may run the solver's code; a plugin
    seen from the judge's process is only a description (``factory`` None, its capabilities
    read in a separate process) — see ``Registry.get``. ``reference`` is what loads it
    (a registered name or a plugin reference); ``fingerprint`` digests its code.
    """

    name: str
    factory: type[Solver] | None
    problems: frozenset[str]
    complete: bool
    exact: bool
    stochastic: bool
    counts: bool
    params: Mapping[str, Any]
    enumerates: bool
    origin: str
    summary: str = ""
    module: str = field(default="")
    honours: frozenset[str] = frozenset({"time_limit"})
    compiled: bool = False
    fingerprint: str = ""
    reference: str = ""
    counts_unique: bool = False
    count_max_n: int | None = None
    unavailable: str = ""
    traces: bool = False
    evaluation: str = ""
    evaluation_approximate: bool = False
    #: The native counters its proposals may report (``Solver.counter_names``); None when it
    #: declares none (claims on its counters cannot be checked before the run).
    counter_names: frozenset[str] | None = None
    #: The tuning ranges (``param_space``: name → IntRange, FloatRange or Choice); empty when
    #: the solver declares none (``tune`` refuses it).
    param_space: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def create(self, **params: Any) -> Solver:
        """A configured solver instance (raises SolverConfigError on bad parameters)."""
        if self.factory is None:
            raise RegistryError(f"solver {self.name!r} is a plugin: its code runs only in a "
                                "run's own process (use the harness's run_solve/run_count)")
        return self.factory(**params)

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """The full parameter set (defaults filled in, values coerced and range-checked) —
        without running any of the solver's code."""
        return resolve_params(self.name, self.params, params or {})

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "problems": sorted(self.problems),
            "complete": self.complete,
            "exact": self.exact,
            "stochastic": self.stochastic,
            "counts": self.counts,
            "enumerates": self.enumerates,
            "params": {k: v.default if isinstance(v, Param) else v for k, v in self.params.items()},
            "ranges": {k: [v.low, v.high] for k, v in self.params.items() if isinstance(v, Param)},
            "origin": self.origin,
            "summary": self.summary,
            "honours": sorted(self.honours),
            "compiled": self.compiled,
            "fingerprint": self.fingerprint,
            "counts_unique": self.counts_unique,
            "count_max_n": self.count_max_n,
            "unavailable": self.unavailable,
            "traces": self.traces,
            "effort_unit": EFFORT_UNIT if self.traces or self.evaluation else None,
            "evaluation": self.evaluation,
            "effort_approximate": self.evaluation_approximate,
            "counters": None if self.counter_names is None else sorted(self.counter_names),
            "param_space": {k: dimension_to_json(v) for k, v in self.param_space.items()},
        }


def where_from(spec: SolverSpec) -> str:
    """Where a solver comes from, for messages: its origin and its module or reference."""
    source = spec.reference if spec.reference and spec.reference != spec.name else spec.module
    return f"the {spec.origin} {spec.name!r}" + (f" ({source})" if source else "")


def check_distinct(specs: Iterable[SolverSpec]) -> None:
    """Refuse two different solvers under one name in one command or study (RegistryError
    naming both): every record, report row and agreement cell is keyed by the name. One
    plugin file named by two paths is one solver."""
    seen: dict[str, SolverSpec] = {}
    for spec in specs:
        held = seen.setdefault(spec.name, spec)
        if _identity(held) != _identity(spec):
            raise RegistryError(f"two solvers are named {spec.name!r}: {where_from(held)} and "
                                f"{where_from(spec)}; solver names must be unique")


def _identity(spec: SolverSpec) -> str:
    """What a solver is, whatever path named it: its reference (a plugin file's path
    resolved) or its module."""
    ref = spec.reference or spec.module
    target, sep, attr = ref.rpartition(":")
    if sep and target.endswith(".py"):
        return f"{Path(target).resolve()}:{attr}"
    return ref


def spec_from_description(data: Mapping[str, Any], reference: str) -> SolverSpec:
    """A plugin's spec from the description its own process sent (checked like a class)."""
    try:
        name = data["name"]
        problems = frozenset(str(p) for p in data["problems"])
        params = dict(data.get("params", {}))
        for key, (low, high) in dict(data.get("ranges", {})).items():
            params[key] = Param(params[key], low, high)
        honours = frozenset(str(h) for h in data.get("honours", ["time_limit"]))
        spec = SolverSpec(
            name=str(name), factory=None, problems=problems, complete=bool(data["complete"]),
            exact=bool(data["exact"]), stochastic=bool(data["stochastic"]),
            counts=bool(data["counts"]), params=MappingProxyType(params),
            enumerates=bool(data["enumerates"]), origin="plugin",
            summary=str(data.get("summary", "")), module="", honours=honours,
            compiled=bool(data.get("compiled", False)),
            fingerprint=str(data.get("fingerprint", "")), reference=reference,
            counts_unique=bool(data.get("counts_unique", False)),
            count_max_n=None if data.get("count_max_n") is None else int(data["count_max_n"]),
            unavailable=str(data.get("unavailable", "")),
            traces=bool(data.get("traces", False)),
            evaluation=str(data.get("evaluation", "")),
            evaluation_approximate=bool(data.get("effort_approximate", False)),
            counter_names=None if data.get("counters") is None
            else frozenset(str(c) for c in data["counters"]),
            param_space=MappingProxyType({k: dimension_from_json(v) for k, v in
                                          dict(data.get("param_space", {})).items()}),
        )
        check_space(spec.name, spec.params, spec.param_space)
    except (KeyError, TypeError, ValueError) as exc:
        raise RegistryError(f"solver {reference!r} describes itself badly: {exc}") from None
    check_name(spec.name, f"solver {reference!r}")
    if not spec.name or not spec.problems or spec.problems - set(PROBLEMS):
        raise RegistryError(
            f"solver {reference!r} must declare a name and problems among {sorted(PROBLEMS)}")
    return spec


def spec_of(cls: type[Solver], origin: str | None = None) -> SolverSpec:
    """Read a solver class's declared capabilities; refuses incomplete declarations."""
    if not (isinstance(cls, type) and issubclass(cls, Solver)):
        raise RegistryError(f"{cls!r} is not a puzzlebench Solver subclass")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise RegistryError(f"solver class {cls.__qualname__} declares no name")
    check_name(name, f"solver class {cls.__qualname__}")
    problems = frozenset(getattr(cls, "problems", frozenset()))
    unknown = problems - set(PROBLEMS)
    if not problems or unknown:
        raise RegistryError(
            f"solver {name!r} must declare problems among {sorted(PROBLEMS)} (got {sorted(problems)})"
        )
    module = cls.__module__
    if origin is None:  # a reference solver's origin comes with its entry point (registry)
        origin = "handwritten" if module.startswith("puzzlebench.") else "plugin"
    doc = (cls.summary or (cls.__doc__ or "").strip().split("\n")[0]).strip()
    honours = frozenset(getattr(cls, "honours", frozenset({"time_limit"})))
    if honours - set(BUDGET_FIELDS):
        raise RegistryError(f"solver {name!r} declares unknown budget fields "
                            f"{sorted(honours - set(BUDGET_FIELDS))} (known: {list(BUDGET_FIELDS)})")
    space = MappingProxyType(dict(getattr(cls, "param_space", {})))
    try:
        check_space(name, cls.params, space)
    except SpaceError as exc:
        raise RegistryError(str(exc)) from None
    return SolverSpec(
        name=name,
        factory=cls,
        problems=problems,
        complete=bool(cls.complete),
        exact=bool(cls.exact),
        stochastic=bool(cls.stochastic),
        counts=bool(cls.counts),
        params=MappingProxyType(dict(cls.params)),
        enumerates=cls.enumerate is not Solver.enumerate,
        origin=origin,
        summary=doc,
        module=module,
        honours=honours,
        compiled=bool(getattr(cls, "compiled", False)),
        fingerprint=fingerprint(cls),
        reference=name if origin != "plugin" else "",
        counts_unique=bool(getattr(cls, "counts_unique", False)),
        count_max_n=getattr(cls, "count_max_n", None),
        unavailable=str(getattr(cls, "unavailable", "")),
        traces=bool(getattr(cls, "traces", False)),
        evaluation=str(getattr(cls, "evaluation", "")),
        evaluation_approximate=bool(getattr(cls, "evaluation_approximate", False)),
        counter_names=_counter_names(cls, name),
        param_space=space,
    )


def _counter_names(cls: type[Solver], name: str) -> frozenset[str] | None:
    """A class's declared counter names (None when it declares none); RegistryError for a
    declaration that is not a set of names."""
    declared = getattr(cls, "counter_names", None)
    if declared is None:
        return None
    if isinstance(declared, str) or not isinstance(declared, Iterable) \
            or not all(isinstance(c, str) and c for c in declared):
        raise RegistryError(f"solver {name!r}: counter_names must be a frozenset of counter "
                            f"names, got {declared!r}")
    return frozenset(declared)
