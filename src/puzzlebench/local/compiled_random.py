"""An explicit random generator for compiled (numba) inner loops: splitmix64.

The state is a one-element uint64 array seeded from the run's numpy Generator, so compiled
solvers draw only from the run's seed — no numba- or numpy-global random state is touched.
"""

from __future__ import annotations

import numba
import numpy as np


def new_state(rng: np.random.Generator) -> np.ndarray:
    """A fresh splitmix64 state drawn from the run's generator."""
    return np.array([rng.integers(1, 2**63, dtype=np.int64)], dtype=np.uint64)


@numba.njit(cache=True, inline="always")
def next_u64(state: np.ndarray) -> np.uint64:
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def below(state: np.ndarray, k: int) -> int:
    """A uniform integer in [0, k) (k ≥ 1; modulo bias below 2^-40 for k < 2^24)."""
    return int(next_u64(state) % np.uint64(k))
