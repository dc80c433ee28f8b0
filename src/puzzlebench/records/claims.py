"""Claims a study states before it is run (pre-registration): "my solver beats that one on this
measure" (:class:`Claim`), or "this solver's cost grows as this model" (:class:`ScalingClaim`,
``on = "scaling"``). A study file lists them as ``[[claims]]``; the study file's reader checks each
against the study (its solvers, problems and measures) before any run, the store keeps them
with the study, and the report tests each one on the runs beside the built-in findings.

This module holds only the claim as data and the checks that need nothing but the claim, so
that the harness (which reads study files) and the report (which tests claims) share it
without importing each other.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

#: Measures a claim can name, with the records' column each reads (``success`` and ``par2``
#: are derived from the run's outcome and time: ``report.claim_tests.measure``): lower is better
#: for all but ``success``. A native counter is named ``counter:NAME`` (for example
#: ``counter:nodes``); lower is better.
MEASURES = {"time": "time_s", "success": "success", "par2": "time_s",
            "evaluations": "counter.evaluations"}
HIGHER_IS_BETTER = frozenset({"success"})
CLAIM_KEYS = {"says", "better", "than", "on", "problem", "margin"}
#: Keys of a scaling claim (``on = "scaling"``).
SCALING_KEYS = {"says", "on", "solver", "measure", "model", "problem", "at_most"}
#: The model families a scaling claim can name (``report.scaling_models``).
SCALING_MODELS = ("polynomial", "exponential", "root-exponential")
#: Sizes a scaling fit needs: three to fit two parameters with a residual, two held out.
SCALING_MIN_SIZES = 5
COUNTER = re.compile(r"counter:([A-Za-z_][A-Za-z0-9_]{0,63})")


class ClaimError(ValueError):
    """A claim that is malformed or names something its study does not have."""


@dataclass(frozen=True)
class Claim:
    """One hypothesis: ``better`` beats ``than`` on the measure ``on`` (on ``problem``, or on
    every problem the two share when empty); ``says`` is the author's own sentence."""

    says: str
    better: str
    than: str
    on: str = "time"
    problem: str = ""
    #: The smallest effect that matters: an absolute difference of success rates (``success``,
    #: below 1) or a ratio above 1 (the other measures). With it "equivalent" is a verdict.
    margin: float | None = None

    @property
    def higher_is_better(self) -> bool:
        return self.on in HIGHER_IS_BETTER

    @property
    def column(self) -> str:
        """The records' column the measure reads (``counter.NAME`` for a counter)."""
        match = COUNTER.fullmatch(self.on)
        return f"counter.{match.group(1)}" if match else MEASURES[self.on]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        if self.margin is None:  # stores made before margins hold the same dict
            del out["margin"]
        return out


@dataclass(frozen=True)
class ScalingClaim:
    """One hypothesis on growth: ``solver``'s ``measure`` (``time``, ``evaluations`` or a
    native counter's name) grows as ``model`` with size on ``problem`` (on every problem it
    runs when empty); ``at_most`` bounds the model's growth parameter (the exponent of a
    polynomial, the base of the others). Stored beside the two-solver claims with
    ``kind = "scaling"``."""

    says: str
    solver: str
    measure: str = "time"
    model: str = "polynomial"
    problem: str = ""
    at_most: float | None = None

    @property
    def column(self) -> str:
        """The records' column the measure reads."""
        return "time_s" if self.measure == "time" else f"counter.{self.measure}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "scaling", **asdict(self)}


AnyClaim = Claim | ScalingClaim


def claim_from_dict(data: Mapping[str, Any]) -> AnyClaim:
    """A claim from its stored form (``to_dict``): a scaling claim carries ``kind``; the
    two-solver claims of every store, old or new, carry none."""
    fields = dict(data)
    if fields.pop("kind", None) == "scaling":
        return ScalingClaim(**fields)
    return Claim(**fields)


def parse_claim(table: Mapping[str, Any], where: str) -> AnyClaim:
    """A claim from its TOML table; ClaimError naming ``where`` and the key at fault."""
    if not isinstance(table, Mapping):
        raise ClaimError(f"{where}: a claim is a table with says, better, than, on, problem")
    if table.get("on") == "scaling":
        return _scaling_claim(table, where)
    unknown = sorted(set(table) - CLAIM_KEYS)
    if unknown:
        raise ClaimError(f"{where}: unknown key {unknown[0]!r} (a claim takes "
                         f"{', '.join(sorted(CLAIM_KEYS))})")
    values: dict[str, str] = {}
    for key in ("says", "better", "than", "on", "problem"):
        value = table.get(key, "" if key in ("problem", "says") else None)
        if key == "on" and value is None:
            value = "time"
        if not isinstance(value, str) or (key in ("better", "than") and not value.strip()):
            raise ClaimError(f"{where}.{key}: a non-empty string is required, got {value!r}")
        values[key] = value.strip()
    if values["on"] not in MEASURES and not COUNTER.fullmatch(values["on"]):
        raise ClaimError(f"{where}.on: unknown measure {values['on']!r}; one of "
                         f"{', '.join(MEASURES)} or counter:NAME")
    if values["better"] == values["than"]:
        raise ClaimError(f"{where}: better and than name the same solver {values['better']!r}")
    margin = _margin(table.get("margin"), values["on"], where)
    if not values["says"]:
        what = f" on {values['problem']}" if values["problem"] else ""
        values["says"] = f"{values['better']} beats {values['than']} on {values['on']}{what}"
    return Claim(**values, margin=margin)


def _margin(value: Any, on: str, where: str) -> float | None:
    """A claim's margin: a success-rate difference in (0, 1), or a ratio above 1."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise ClaimError(f"{where}.margin: a number is required, got {value!r}")
    margin = float(value)
    if on == "success" and not 0 < margin < 1:
        raise ClaimError(f"{where}.margin: on success a difference of rates in (0, 1), "
                         f"for example 0.1; got {margin:g}")
    if on != "success" and not 1 < margin < 1e6:
        raise ClaimError(f"{where}.margin: on {on} a ratio above 1, for example 1.2; "
                         f"got {margin:g}")
    return margin


def _scaling_claim(table: Mapping[str, Any], where: str) -> ScalingClaim:
    """A scaling claim from its TOML table (``on = "scaling"``)."""
    unknown = sorted(set(table) - SCALING_KEYS)
    if unknown:
        raise ClaimError(f"{where}: unknown key {unknown[0]!r} (a scaling claim takes "
                         f"{', '.join(sorted(SCALING_KEYS))})")
    values: dict[str, str] = {}
    for key, default in (("says", ""), ("solver", None), ("measure", "time"),
                         ("model", None), ("problem", "")):
        value = table.get(key, default)
        if not isinstance(value, str) or (default is None and not value.strip()):
            raise ClaimError(f"{where}.{key}: a non-empty string is required, got {value!r}")
        values[key] = value.strip()
    measure = values["measure"].removeprefix("counter:")
    if measure != "time" and not COUNTER.fullmatch(f"counter:{measure}"):
        raise ClaimError(f"{where}.measure: time, evaluations or a native counter's name "
                         f"(nodes, iterations...), got {values['measure']!r}")
    values["measure"] = measure
    if values["model"] not in SCALING_MODELS:
        raise ClaimError(f"{where}.model: one of {', '.join(SCALING_MODELS)}, "
                         f"got {values['model']!r}")
    at_most = table.get("at_most")
    if at_most is not None:
        if isinstance(at_most, bool) or not isinstance(at_most, int | float) \
                or not math.isfinite(at_most) or at_most <= 0:
            raise ClaimError(f"{where}.at_most: a positive number is required, got {at_most!r}")
        if values["model"] != "polynomial" and at_most < 1:
            raise ClaimError(f"{where}.at_most: bounds the base of a {values['model']} model, "
                             f"which is at least 1 for a growing cost; got {at_most:g}")
        at_most = float(at_most)
    if not values["says"]:
        bound = ""
        if at_most is not None:
            bound = (f" with exponent at most {at_most:g}" if values["model"] == "polynomial"
                     else f" with base at most {at_most:g}")
        where_text = f" on {values['problem']}" if values["problem"] else ""
        values["says"] = (f"{values['solver']}'s {measure} grows {values['model']}ly"
                          f"{bound}{where_text}")
    return ScalingClaim(**values, at_most=at_most)
