"""The wall clock inside compiled (numba) loops, read through ``objmode`` (a few µs a call:
loops read it every few thousand steps)."""

from __future__ import annotations

import time

import numba
from numba import objmode


@numba.njit(cache=True)
def now() -> float:
    with objmode(t="float64"):
        t = time.perf_counter()
    return t
