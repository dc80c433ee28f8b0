"""Knuth's Monte Carlo estimate of a backtracking tree's size (Knuth 1975; seed 003).

A probe walks from the root choosing one promising child uniformly at each level; with c_k
promising children at depth k, it estimates the tree size as 1 + c_0 + c_0·c_1 + ... — an
unbiased estimator. The mean over probes and a normal-approximation 95% confidence interval
are reported. The tree is the classic one: one queen per row, a child per safe column.

``tree_nodes`` is the exact size the estimate is checked against (``estimate``, the
backtracking study): a plain depth-first count of that tree, owned here rather than borrowed
from a solver, since measuring the tree is not solving the puzzle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np


@dataclass(frozen=True, slots=True)
class Estimate:
    """The estimate of the tree size, its 95% CI and the probes' spread."""

    n: int
    probes: int
    mean: float
    ci_low: float
    ci_high: float
    std: float

    def to_json(self) -> dict[str, float | int]:
        return {"n": self.n, "probes": self.probes, "estimate": self.mean,
                "ci95_low": self.ci_low, "ci95_high": self.ci_high, "std": self.std}


def probe(n: int, rng: np.random.Generator) -> float:
    """One random root-to-leaf walk; returns its tree-size estimate."""
    cols: set[int] = set()
    diag: set[int] = set()
    anti: set[int] = set()
    total, weight = 1.0, 1.0
    for row in range(n):
        safe = [c for c in range(n)
                if c not in cols and row + c not in diag and row - c not in anti]
        if not safe:
            break
        weight *= len(safe)
        total += weight
        c = safe[int(rng.integers(len(safe)))]
        cols.add(c)
        diag.add(row + c)
        anti.add(row - c)
    return total


def estimate_tree(n: int, probes: int, rng: np.random.Generator) -> Estimate:
    """Mean of ``probes`` probes with a 95% confidence interval."""
    if n < 1 or probes < 2:
        raise ValueError("Knuth's estimate needs n >= 1 and at least 2 probes")
    values = np.array([probe(n, rng) for _ in range(probes)])
    mean = float(values.mean())
    std = float(values.std(ddof=1))
    half = 1.96 * std / math.sqrt(probes)
    return Estimate(n, probes, mean, mean - half, mean + half, std)


def tree_nodes(n: int) -> int:
    """Exact size of the classic row-by-row backtracking tree for nqueens, root included
    (every partial placement with no attacking pair). It grows about 6× per n: n = 14 took
    0.26 s of CPU, n = 15 1.6 s (2026-11-27, this project's 2-core machine), so n = 16 takes
    about 10 s and callers stop short of it (``estimate`` and the scaling study at 14)."""
    if not 1 <= n <= 30:
        raise ValueError(f"tree_nodes takes 1 ≤ n ≤ 30, got {n}")
    return int(_tree_nodes(n))


@numba.njit(cache=True)
def _tree_nodes(n: int) -> int:  # pragma: no cover - compiled
    full = (1 << n) - 1
    cols = np.zeros(n, np.int64)
    left = np.zeros(n, np.int64)
    right = np.zeros(n, np.int64)
    avail = np.zeros(n, np.int64)
    avail[0] = full
    total = 1  # the root
    depth = 0
    while depth >= 0:
        free = avail[depth]
        if free == 0:
            depth -= 1
            continue
        bit = free & -free
        avail[depth] = free ^ bit
        total += 1
        if depth + 1 < n:
            c = cols[depth] | bit
            lft = ((left[depth] | bit) << 1) & full
            rgt = (right[depth] | bit) >> 1
            cols[depth + 1] = c
            left[depth + 1] = lft
            right[depth + 1] = rgt
            avail[depth + 1] = full & ~(c | lft | rgt)
            depth += 1
    return total
