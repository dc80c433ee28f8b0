"""Numbers in a study file: typed, finite and within the bounds the harness can hold (a time
limit at most ``MAX_TIME_LIMIT_S``, counts at most what a machine can make per unit); each
mistake a StudyError naming the key."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.run.measure import MAX_TIME_LIMIT_S
from puzzlebench.problems.size_lists import SizeListError, parse_size_list


def number(table: Mapping[str, Any], key: str, kind: type, where: str, minimum: float = 0,
            default: Any = None, maximum: float = 2**62) -> Any:
    value = table.get(key, default)
    if value is None:
        return None
    ok = isinstance(value, kind) or (kind is float and isinstance(value, int))
    if not ok or isinstance(value, bool) or not math.isfinite(value) or value < minimum:
        raise StudyError(f"{where}.{key}: expected a {kind.__name__} ≥ {minimum}, got {value!r}")
    if abs(value) > maximum:
        raise StudyError(f"{where}.{key}: at most {maximum:,.0f}, got {value!r}")
    return kind(value)


def limit(table: Mapping[str, Any], key: str, where: str, default: float | None = None
           ) -> float | None:
    """A time limit in seconds: positive and at most ``MAX_TIME_LIMIT_S`` (what the harness's
    timers can hold)."""
    value = number(table, key, float, where, default=default, maximum=MAX_TIME_LIMIT_S)
    if value is not None and value <= 0:
        raise StudyError(f"{where}.{key}: must be positive, got {value}")
    return value


def parse_sizes(value: Any, where: str) -> list[int]:
    """A size list from "4..12", "4,8" or a list of ints; errors name ``where``."""
    try:
        return parse_size_list(value)
    except SizeListError as e:
        raise StudyError(f"{where}: {e}") from None
