"""The tuned configuration as a study fragment: a ``[[solvers]]`` table a study file takes
as it is, with ``tuned``, the record of how it was found (tuner, objective, budget, seed,
training and test instances, verdict), which ``run`` keeps and ``report`` puts in the
manifest."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def toml_value(value: Any) -> str:
    """A TOML literal for the scalars, lists and tables a fragment holds."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else ('inf' if value > 0 else '-inf'
                                                         if value < 0 else 'nan')
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def fragment_text(solver: str, params: Mapping[str, Any], tuned: Mapping[str, Any],
                  comment: str = "") -> str:
    """The ``[[solvers]]`` table, with a leading comment."""
    lines = [f"# {line}" for line in comment.splitlines()]
    lines += ["[[solvers]]", f"name = {toml_value(solver)}",
              f"params = {toml_value(dict(sorted(params.items())))}",
              f"tuned = {toml_value(dict(tuned))}", ""]
    return "\n".join(lines)


def write_fragment(path: str | Path, text: str) -> Path:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return out
