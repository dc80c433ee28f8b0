"""Size lists and integers as people write them — on the command line and in study files alike.

One grammar, one set of messages: an integer is ``1000000``, ``1_000_000``, ``10**6`` or
``1e6``; a size list is ``4..12``, ``4,6,8``, ``8`` or a mix (``4..8,16,10**3``), or, in a
study file, an integer or a list of integers. Callers turn :class:`SizeListError` into their
own error type (``CliInputError`` for exit status 2, ``StudyError`` naming the study key)."""

from __future__ import annotations

import math
from typing import Any

from puzzlebench.problems.base import PuzzlebenchError

MAX_INT = 2**62
#: The most sizes one list may expand to (a typo like 4..40000000 must not allocate).
MAX_SIZES = 10_000


class SizeListError(PuzzlebenchError, ValueError):
    """A malformed integer or size list."""


def parse_integer(text: str, what: str = "value") -> int:
    """An integer written ``1000000``, ``1_000_000``, ``10**6`` or ``1e6``."""
    t = str(text).strip().replace("_", "")
    try:
        if "**" in t:
            base, exp = (int(p) for p in t.split("**"))
            if not (0 <= exp <= 64 and abs(base) <= 10**6):
                raise ValueError
            value = base**exp
        elif "e" in t.lower():
            as_float = float(t)
            if not math.isfinite(as_float) or as_float != int(as_float):
                raise ValueError
            value = int(as_float)
        else:
            value = int(t)
    except (ValueError, OverflowError):
        raise SizeListError(f"{what} must be an integer, got {text!r}") from None
    if abs(value) > MAX_INT:
        raise SizeListError(f"{what} is too large: {text!r} (at most {MAX_INT:.0e})")
    return value


def parse_size_list(value: Any, *, minimum: int = 1, what: str = "size") -> list[int]:
    """Sorted distinct integers ≥ ``minimum`` from a size-list string, an int or a list of ints."""
    if isinstance(value, bool):
        raise SizeListError(f"{what}s are \"4..12\", \"4,8\" or a list of integers, got {value!r}")
    if isinstance(value, int):
        items: list[int] = [value]
    elif isinstance(value, list):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise SizeListError(f"{what}s must be integers, got {value!r}")
        items = list(value)
        if len(items) > MAX_SIZES:
            raise SizeListError(f"{len(items):,} {what}s; at most {MAX_SIZES:,} in all")
    elif isinstance(value, str):
        items = _parse_text(value, what)
    else:
        raise SizeListError(f"{what}s are \"4..12\", \"4,8\" or a list of integers, got {value!r}")
    if not items:
        raise SizeListError(f"no {what}s in {value!r}")
    if min(items) < minimum:
        raise SizeListError(f"{what}s must be at least {minimum}, got {min(items)}")
    return sorted(set(items))


def _parse_text(text: str, what: str) -> list[int]:
    out: set[int] = set()
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        lo_t, sep, hi_t = part.partition("..")
        lo = parse_integer(lo_t, what)
        hi = parse_integer(hi_t, what) if sep else lo
        if hi < lo:
            raise SizeListError(f"{what} range {part!r} is empty (start after end)")
        if hi - lo + 1 + len(out) > MAX_SIZES:
            raise SizeListError(f"{what} range {part!r} has {hi - lo + 1} values; at most "
                                f"{MAX_SIZES} in all (list the ones you need)")
        out.update(range(lo, hi + 1))
    return sorted(out)
