"""Records as a pandas DataFrame: the one tabular shape the store, exports and reports share.

One row per run. Columns are the RunRecord fields; the nested dicts stay as object columns
(``params``, ``counters``, ``budget``, ``instance``, ``versions``, ``machine``) and are also
flattened into ``param.<name>`` and ``counter.<name>`` columns for analysis. ``params_key`` is
the canonical JSON of the parameters, so a solver with a parameter set groups as one line.
``success`` is the one definition of success every report uses — accepted *and* verified —
and ``unverified`` marks accepted claims nothing could check (shown apart, never counted).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pandas as pd

from puzzlebench.records.record import FLAT_FIELDS, SUCCESS_VALUES, RunRecord


def records_to_frame(records: Iterable[RunRecord | dict[str, Any]]) -> pd.DataFrame:
    """A DataFrame with one row per record (see module docstring for the columns); records
    read from a store bring what their check found (``seals.StoreCheck``, as a dict with the
    sentences a report opens with) as ``frame.attrs["store_check"]``."""
    check = getattr(records, "check", None)
    frame = _frame_of(records)
    if check is not None:  # plain data and the sentences a report says (it reads no harness)
        frame.attrs["store_check"] = {"refused": list(check.refused), "unsealed": check.unsealed,
                                      "sentences": check.sentences()}
    return frame


def _frame_of(records: Iterable[RunRecord | dict[str, Any]]) -> pd.DataFrame:
    rows = []
    for rec in records:
        d = rec.to_dict() if isinstance(rec, RunRecord) else dict(rec)
        params = d.get("params") or {}
        counters = d.get("counters") or {}
        d["params_key"] = json.dumps(params, sort_keys=True)
        for k, v in params.items():
            d[f"param.{k}"] = v
        for k, v in counters.items():
            d[f"counter.{k}"] = v
        rows.append(d)
    frame = pd.DataFrame(rows)
    if frame.empty:
        return pd.DataFrame(columns=[*FLAT_FIELDS, "params_key", "success",
                                     "unverified"])
    accepted = frame["outcome"].isin(SUCCESS_VALUES)
    verified = frame["verified"] if "verified" in frame else pd.Series(True, index=frame.index)
    frame["success"] = accepted & (verified == True)  # noqa: E712 - None/NaN are not True
    frame["unverified"] = accepted & ~frame["success"]
    for col in [c for c in frame.columns if c.startswith("counter.")]:
        frame[col] = pd.to_numeric(frame[col], errors="coerce")  # old stores may hold text
    return frame


def config_labels(traces: pd.DataFrame) -> dict[tuple[str, str], str]:
    """A short label per (solver, params JSON): the solver's name, followed by the parameters
    that differ between that solver's parameter sets in the data (``ga-permutation {elite=0}``)."""
    labels = {}
    for solver, sub in traces.groupby("solver", sort=True):
        sets = {p: json.loads(p) for p in sub["params"].unique()}
        varying = sorted({k for d in sets.values() for k in d
                          if len({json.dumps(x.get(k), sort_keys=True) for x in sets.values()}) > 1})
        for text, d in sets.items():
            shown = ", ".join(f"{k}={d.get(k)}" for k in varying)
            labels[(solver, text)] = f"{solver} {{{shown}}}" if shown else str(solver)
    return labels
