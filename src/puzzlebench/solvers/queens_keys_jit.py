"""The queens line keys of ``puzzlebench.solvers.queens_keys``, compiled for numba kernels.

The arithmetic stays in ``queens_keys`` (one copy for solvers; the validator keeps its own), and
only kernels load this module, so a pure-Python solver's process never loads numba. numba's
cache does not notice edits to ``queens_keys`` from a kernel in another module: clear
``__pycache__`` after changing it.
"""

from __future__ import annotations

import numba

from puzzlebench.solvers.queens_keys import diagonal_keys, diagonal_lines, shares_both_diagonals

__all__ = ["diagonal_keys_jit", "diagonal_lines_jit", "shares_both_diagonals_jit"]

diagonal_keys_jit = numba.njit(cache=True, inline="always")(diagonal_keys)
diagonal_lines_jit = numba.njit(cache=True, inline="always")(diagonal_lines)
shares_both_diagonals_jit = numba.njit(cache=True, inline="always")(shares_both_diagonals)
