"""Claims a study states before it is run (pre-registration): "my solver beats that one on this
measure". A study file lists them as ``[[claims]]``; the study file's reader checks each
against the study (its solvers, problems and measures) before any run, the store keeps them
with the study, and the report tests each one on the runs beside the built-in findings.

This module holds only the claim as data and the checks that need nothing but the claim, so
that the harness (which reads study files) and the report (which tests claims) share it
without importing each other.
"""

from __future__ import annotations

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
CLAIM_KEYS = {"says", "better", "than", "on", "problem"}
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

    @property
    def higher_is_better(self) -> bool:
        return self.on in HIGHER_IS_BETTER

    @property
    def column(self) -> str:
        """The records' column the measure reads (``counter.NAME`` for a counter)."""
        match = COUNTER.fullmatch(self.on)
        return f"counter.{match.group(1)}" if match else MEASURES[self.on]

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


def parse_claim(table: Mapping[str, Any], where: str) -> Claim:
    """A claim from its TOML table; ClaimError naming ``where`` and the key at fault."""
    if not isinstance(table, Mapping):
        raise ClaimError(f"{where}: a claim is a table with says, better, than, on, problem")
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
    if not values["says"]:
        what = f" on {values['problem']}" if values["problem"] else ""
        values["says"] = f"{values['better']} beats {values['than']} on {values['on']}{what}"
    return Claim(**values)
