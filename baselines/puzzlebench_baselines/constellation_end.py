"""The last four free rows of a constellation counted without a search: two tables and bit
intrinsics for the numba kernel (``puzzlebench_baselines.constellation_kernel``).

With four rows left there are four columns left, so a completion is one of the 24 ways to
give each row one of them. ``MASKS4`` answers which of those ways the rows' free squares
allow: it is indexed by the four rows' free squares, each compressed to 4 bits over the four
columns (``compress4``, one ``pext`` where the CPU has BMI2), and holds a 24-bit set of ways.
``DIAG4`` answers which ways keep the four new queens off each other's diagonals: that
depends only on the rows' distances (1-3 each: an edge queen's row may be stepped over) and
the gaps between the four columns (clamped at 7: the four rows span at most 5, as at most
two edge queens' rows lie between them), 27 × 512 entries of 24-bit sets. The count is the
popcount of the two sets' intersection, with no branch; the search above places queens down
to four rows left and no further (n = 16: 22% fewer queens placed and about 15% less CPU
time than searching the last rows).

numba's on-disk cache of the kernel does not notice edits here (it checks the kernel's own
file only): after changing this module, touch ``constellation_kernel.py`` too.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import cast

import llvmlite.binding as llvm
import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_WAYS = list(itertools.permutations(range(4)))  # way t gives row i the column of rank _WAYS[t][i]


def _i64_call(builder: ir.IRBuilder, name: str, args: list, extra: list | None = None) -> ir.Value:
    i64 = ir.IntType(64)
    extra = extra or []
    fnty = ir.FunctionType(i64, [i64] * len(args) + [e.type for e in extra])
    return builder.call(cgutils.get_or_insert_function(builder.module, fnty, name), args + extra)


@intrinsic
def _ctpop(typingctx, x):
    """The number of set bits (LLVM's ctpop: one ``popcnt``)."""
    def codegen(context, builder, signature, args):
        return _i64_call(builder, "llvm.ctpop.i64", list(args))
    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    """The index of the lowest set bit (LLVM's cttz: one ``tzcnt``)."""
    def codegen(context, builder, signature, args):
        return _i64_call(builder, "llvm.cttz.i64", list(args), [ir.Constant(ir.IntType(1), 0)])
    return types.int64(types.int64), codegen


@intrinsic
def _pext_intrinsic(typingctx, src, mask):
    def codegen(context, builder, signature, args):
        return _i64_call(builder, "llvm.x86.bmi.pext.64", list(args))
    return types.int64(types.int64, types.int64), codegen


_pext = cast(Callable[[int, int], int], _pext_intrinsic)  # BMI2's pext: only where _has_pext()


@numba.njit(cache=True, nogil=True)
def _by_pext(free: int, left4: int, x1: int, x2: int, x3: int, x4: int) -> int:
    return _pext(free, left4)


@numba.njit(cache=True, nogil=True)
def _by_tests(free: int, left4: int, x1: int, x2: int, x3: int, x4: int) -> int:
    return (((free & x1) != 0) | (((free & x2) != 0) << 1) | (((free & x3) != 0) << 2)
            | (((free & x4) != 0) << 3))


def _has_pext() -> bool:
    """Whether numba compiles for this host and the host has BMI2 (its ``pext``)."""
    return (getattr(numba.config, "CPU_NAME", None) is None
            and bool(llvm.get_host_cpu_features().get("bmi2")))


#: ``free``'s squares among the four columns ``left4`` (``x1`` < ``x2`` < ``x3`` < ``x4``,
#: its bits), packed into bits 0-3: one ``pext`` with BMI2, four tests without (about 4% more
#: CPU time in all at n = 16; chosen once at import, and numba's cache is per CPU).
compress4 = cast(Callable[[int, int, int, int, int, int], int],
                 _by_pext if _has_pext() else _by_tests)
#: The number of set bits (LLVM's ctpop: one ``popcnt``).
popcount = cast(Callable[[int | np.int64], int], _ctpop)
#: The index of the lowest set bit (LLVM's cttz: one ``tzcnt``).
trailing_zeros = cast(Callable[[int], int], _cttz)


def _mask_table() -> np.ndarray:
    index = np.arange(1 << 16, dtype=np.uint32)
    out = np.zeros(1 << 16, np.uint32)
    for t, way in enumerate(_WAYS):
        allowed = np.ones(1 << 16, bool)
        for i in range(4):
            allowed &= (index >> np.uint32(4 * i + way[i])) & np.uint32(1) == 1
        out |= allowed.astype(np.uint32) << np.uint32(t)
    return out


def _diagonal_table() -> np.ndarray:
    out = np.zeros(27 * 512, np.uint32)
    e1, e2, e3 = (g.ravel() for g in np.meshgrid(*[np.arange(1, 8)] * 3, indexing="ij"))
    cols = np.stack([np.zeros_like(e1), e1, e1 + e2, e1 + e2 + e3])
    for s1, s2, s3 in itertools.product(range(1, 4), repeat=3):
        rows = (0, s1, s1 + s2, s1 + s2 + s3)
        ways = np.zeros(len(e1), np.uint32)
        for t, way in enumerate(_WAYS):
            apart = np.ones(len(e1), bool)
            for i, j in itertools.combinations(range(4), 2):
                apart &= np.abs(cols[way[i]] - cols[way[j]]) != rows[j] - rows[i]
            ways |= apart.astype(np.uint32) << np.uint32(t)
        out[pattern_index(s1, s2, s3) + e1 + (e2 << 3) + (e3 << 6)] = ways
    return out


def pattern_index(s1: int, s2: int, s3: int) -> int:
    """``DIAG4``'s block for the last three rows' distances from the row before each (1-3)."""
    return ((s1 - 1) * 9 + (s2 - 1) * 3 + s3 - 1) * 512


#: Per index of four rows' compressed free squares (row i in bits 4i..4i+3): the ways allowed.
MASKS4 = _mask_table()
#: Per block of row distances plus column gaps (3 bits each, clamped at 7): the ways allowed.
DIAG4 = _diagonal_table()
