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


_jit_ready = False


def prepare_jit() -> None:
    """Start numba's compiler in this process once, by calling the compiled clock (no solver
    code), so that every run forked from it inherits it: a compiled solver's warm-up then only
    loads its cached kernels (~0.03 s) instead of starting the compiler (~0.35 s)."""
    global _jit_ready
    if not _jit_ready:
        now()
        _jit_ready = True
