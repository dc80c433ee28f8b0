"""Type checks for the frames a run sends: a frame the run got wrong — an unknown event, a
field of the wrong type or out of range, nesting deeper than any real message — makes that run
a crash, never the harness's traceback.

A run writes JSON messages on its result pipe (``harness.run.child``): ``ready`` (loaded and warm),
``stopped`` (its solves are over), ``done`` (its proposal and how it was measured), ``error``
and ``repeats``. The solver shares that process, so every message is data from an untrusted
source: :func:`message_problem` checks every field the harness reads before any is used (the
proposal inside ``done`` is checked again, field by field, when it is read back:
``harness.run.payload.from_payload``). Fields a message does not know are ignored, never read.
"""

from __future__ import annotations

from typing import Any

#: Deepest nesting a message may have (a queens-knights answer inside ``done`` is 4 deep).
MAX_DEPTH = 32
#: Most [start, end] stamp pairs a ``done`` may carry (one per repeat).
MAX_STAMPS = 10_000
EVENTS = ("ready", "stopped", "done", "error", "repeats")
ERROR_KINDS = ("crash", "memout")


def number(value: object) -> float | None:
    """A finite, non-negative number from a frame field, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 <= value < float("inf") else None


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether lists and objects nest more than ``limit`` deep (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, dict | list))
    return False


def message_problem(message: Any) -> str:
    """'' for a well-formed message, else what is wrong with it (``malformed ready frame
    (warmup_s is 'soon', not a finite non-negative number)``)."""
    if not isinstance(message, dict):
        return "frame that is not a JSON object"
    event = message.get("event")
    if not isinstance(event, str) or event not in EVENTS:
        return f"frame with an unknown event {_show(event)}"
    if too_deep(message):
        return f"{event} frame nested more than {MAX_DEPTH} deep"
    check = _CHECKS.get(event)
    why = check(message) if check is not None else ""
    return f"malformed {event} frame ({why})" if why else ""


def _ready(message: dict[str, Any]) -> str:
    for name in ("warmup_s", "rss_base_mb"):
        if number(message.get(name)) is None:
            return f"{name} is {_show(message.get(name))}, not a finite non-negative number"
    for name in ("sandbox", "sandbox_why"):
        if name in message and not isinstance(message[name], str):
            return f"{name} is {_show(message[name])}, not text"
    own = message.get("own_processes", 1)
    if isinstance(own, bool) or not isinstance(own, int) or own < 0:
        return f"own_processes is {_show(own)}, not a count"
    if not isinstance(message.get("warmup_complete", True), bool):
        return f"warmup_complete is {_show(message['warmup_complete'])}, not true or false"
    return ""


def _done(message: dict[str, Any]) -> str:
    payload, meta = message.get("payload"), message.get("meta", {})
    if not isinstance(payload, dict):
        return f"payload is {_show(payload)}, not an object"
    if not isinstance(meta, dict):
        return f"meta is {_show(meta)}, not an object"
    stamps = meta.get("stamps")
    if stamps is not None and not (
            isinstance(stamps, list) and len(stamps) <= MAX_STAMPS
            and all(isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p)
                    for p in stamps)):
        return "stamps are not a list of [start_ns, end_ns] integer pairs"
    for name in ("cpu_s", "peak_rss_mb"):
        if meta.get(name) is not None and number(meta[name]) is None:
            return f"{name} is {_show(meta[name])}, not a finite non-negative number"
    for name in ("mutated", "repeats_follow"):
        if name in meta and not isinstance(meta[name], bool):
            return f"{name} is {_show(meta[name])}, not a boolean"
    return ""


def _error(message: dict[str, Any]) -> str:
    if message.get("kind") not in ERROR_KINDS:
        return f"kind is {_show(message.get('kind'))}, not one of {', '.join(ERROR_KINDS)}"
    if not isinstance(message.get("error", ""), str):
        return f"error is {_show(message.get('error'))}, not text"
    return ""


def _repeats(message: dict[str, Any]) -> str:
    agree = message.get("agree")
    if agree is not None and not isinstance(agree, bool):
        return f"agree is {_show(agree)}, not a boolean"
    return ""


def _show(value: Any) -> str:
    """A short description of a bad field's value (its type, for containers)."""
    if isinstance(value, dict | list):
        return f"a {type(value).__name__}"
    return repr(value)[:40]


_CHECKS = {"ready": _ready, "done": _done, "error": _error, "repeats": _repeats}
