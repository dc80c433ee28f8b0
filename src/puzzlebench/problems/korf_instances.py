"""Korf's 100 random 15-puzzle instances (Korf 1985, Table 1): start states, published optimal
lengths and the nodes his IDA* with Manhattan distance generated; and Korf & Felner's 50 random
24-puzzle instances (AIJ 134 (2002) 9-22): start states, published optimal lengths and the
nodes their IDA* with 6-6-6-6 pattern databases expanded (``data/korf24.csv``, ``korf24:N``).

The goal has the blank first: ``0, 1, ..., 15`` (``0, 1, ..., 24`` for the 24-puzzle).
The published lengths are facts the judge
checks every exact 15-puzzle answer against (``Sliding.known_optimum``); the node counts are
what the ``fifteen-puzzle`` study sets beside ours. The table is data shipped with the package
(``data/korf100.csv``); it imports nothing from any solver.

A transcription check is part of the tests: the Manhattan distance of every start has the
parity of its optimal length. (One public copy of the table lists 36 as the Manhattan distance
of #89; it is 38, which is why that column is not shipped but computed.)
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files

KORF_GOAL: tuple[int, ...] = tuple(range(16))
KORF24_GOAL: tuple[int, ...] = tuple(range(25))


@dataclass(frozen=True, slots=True)
class KorfInstance:
    """One row of Korf's table."""

    number: int
    start: tuple[int, ...]
    optimal: int
    ida_nodes_1985: int


@lru_cache(maxsize=1)
def korf100() -> tuple[KorfInstance, ...]:
    """The 100 instances in Korf's order (numbered from 1)."""
    text = files("puzzlebench.problems").joinpath("data/korf100.csv").read_text(encoding="utf-8")
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return tuple(KorfInstance(int(r["id"]), tuple(int(t) for t in r["start"].split()),
                              int(r["optimal"]), int(r["ida_nodes"])) for r in rows)


@lru_cache(maxsize=1)
def _by_start() -> dict[tuple[int, ...], KorfInstance]:
    return {k.start: k for k in korf100()}


def korf_instance(number: int) -> KorfInstance:
    """Instance #number (1..100)."""
    table = korf100()
    if not 1 <= number <= len(table):
        raise ValueError(f"Korf's instances are numbered 1..{len(table)}, got {number}")
    return table[number - 1]


@dataclass(frozen=True, slots=True)
class Korf24Instance:
    """One row of Korf & Felner's 24-puzzle table."""

    number: int
    start: tuple[int, ...]
    optimal: int
    nodes_expanded: int


@lru_cache(maxsize=1)
def korf24() -> tuple[Korf24Instance, ...]:
    """The 50 24-puzzle instances in Korf & Felner's order (numbered from 1)."""
    text = files("puzzlebench.problems").joinpath("data/korf24.csv").read_text(encoding="utf-8")
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return tuple(Korf24Instance(int(r["id"]), tuple(int(t) for t in r["start"].split()),
                                int(r["optimal"]), int(r["nodes_expanded"])) for r in rows)


def korf24_instance(number: int) -> Korf24Instance:
    """24-puzzle instance #number (1..50)."""
    table = korf24()
    if not 1 <= number <= len(table):
        raise ValueError(f"Korf & Felner's 24-puzzle instances are numbered 1..{len(table)}, got {number}")
    return table[number - 1]


@lru_cache(maxsize=1)
def _by_start24() -> dict[tuple[int, ...], Korf24Instance]:
    return {k.start: k for k in korf24()}


def published_optimum(start: tuple[int, ...], goal: tuple[int, ...]) -> int | None:
    """The published optimal length when (start, goal) is one of Korf's (or Korf & Felner's
    24-puzzle) instances."""
    if goal == KORF24_GOAL:
        found24 = _by_start24().get(tuple(start))
        return None if found24 is None else found24.optimal
    if goal != KORF_GOAL:
        return None
    found = _by_start().get(tuple(start))
    return None if found is None else found.optimal
