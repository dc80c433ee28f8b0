"""Tuning ranges a solver declares beside its defaults (``Solver.param_space``).

``params`` says what a parameter's default is and which values are *allowed*; ``param_space``
says which values are worth *trying* when the solver is tuned (``puzzlebench tune``). The two
are apart so that declaring a space never changes a default, a run key or a validity check.
Each entry is an :class:`IntRange`, a :class:`FloatRange` (``log`` for scale parameters) or a
:class:`Choice`; :func:`check_space` refuses a space that names an unknown parameter, leaves
the allowed range, or does not hold the default.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from puzzlebench.solvers.contract import Param


@dataclass(frozen=True, slots=True)
class IntRange:
    """Integers from ``low`` to ``high`` inclusive, sampled on a log scale when ``log``."""

    low: int
    high: int
    log: bool = False


@dataclass(frozen=True, slots=True)
class FloatRange:
    """Reals from ``low`` to ``high``, sampled on a log scale when ``log``."""

    low: float
    high: float
    log: bool = False


@dataclass(frozen=True, slots=True)
class Choice:
    """One of ``values`` (strings, numbers or booleans)."""

    values: tuple[Any, ...]


Dimension = IntRange | FloatRange | Choice


class SpaceError(ValueError):
    """A parameter space that cannot be tuned (the message names the parameter)."""


def dimension_to_json(dim: Dimension) -> dict[str, Any]:
    """The JSON form a plugin's description carries."""
    if isinstance(dim, Choice):
        return {"choice": list(dim.values)}
    kind = "int" if isinstance(dim, IntRange) else "float"
    return {kind: [dim.low, dim.high], "log": dim.log}


def dimension_from_json(data: Mapping[str, Any]) -> Dimension:
    """The inverse of :func:`dimension_to_json` (SpaceError when malformed)."""
    if "choice" in data:
        return Choice(tuple(data["choice"]))
    if "int" in data:
        low, high = data["int"]
        return IntRange(int(low), int(high), bool(data.get("log", False)))
    if "float" in data:
        low, high = data["float"]
        return FloatRange(float(low), float(high), bool(data.get("log", False)))
    raise SpaceError(f"not a parameter range: {dict(data)!r}")


def check_space(solver: str, params: Mapping[str, Any], space: Mapping[str, Any]) -> None:
    """Refuse a space that cannot be tuned: every dimension a declared parameter, its range
    non-empty and within the parameter's allowed range (log scales above zero), its choices
    allowed, and the default inside it (the tuner starts from the defaults)."""
    for key, dim in space.items():
        where = f"solver {solver!r} param_space[{key!r}]"
        if key not in params:
            raise SpaceError(f"{where}: no such parameter (declared: "
                             f"{', '.join(sorted(params)) or 'none'})")
        decl = params[key]
        default = decl.default if isinstance(decl, Param) else decl
        if isinstance(dim, Choice):
            if not dim.values:
                raise SpaceError(f"{where}: no choices")
            allowed = decl.choices if isinstance(decl, Param) else None
            if allowed is not None and set(dim.values) - set(allowed):
                raise SpaceError(f"{where}: choices outside the allowed {list(allowed)}")
            if default not in dim.values:
                raise SpaceError(f"{where}: the default {default!r} is not among the choices")
            continue
        if not isinstance(dim, IntRange | FloatRange):
            raise SpaceError(f"{where}: not an IntRange, FloatRange or Choice")
        if not (math.isfinite(dim.low) and math.isfinite(dim.high)) or dim.low >= dim.high:
            raise SpaceError(f"{where}: empty range {dim.low}..{dim.high}")
        if dim.log and dim.low <= 0:
            raise SpaceError(f"{where}: a log scale needs low > 0")
        if isinstance(decl, Param) and ((decl.low is not None and dim.low < decl.low)
                                        or (decl.high is not None and dim.high > decl.high)):
            raise SpaceError(f"{where}: {dim.low}..{dim.high} leaves the allowed range "
                             f"{decl.low}..{decl.high}")
        if isinstance(default, bool) or not isinstance(default, int | float):
            raise SpaceError(f"{where}: a range for a non-numeric default {default!r}")
        if isinstance(dim, IntRange) and not isinstance(default, int):
            raise SpaceError(f"{where}: an integer range for the float default {default!r}")
        if not dim.low <= default <= dim.high:
            raise SpaceError(f"{where}: the default {default!r} is outside {dim.low}..{dim.high}")
