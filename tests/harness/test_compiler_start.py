"""Starting numba's compiler in a fork server: SciPy's BLAS module is loaded directly, not
through ``scipy.linalg`` (0.25 s of every compiled one-shot command), and BLAS still works."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import sys
    import numba
    import numpy as np
    from puzzlebench.harness.run.inside.numba_kernels import start_compiler

    assert "scipy.linalg" not in sys.modules
    start_compiler()
    import numba.np.arraymath  # imported by the compiler's start: its BLAS check is done

    assert numba.np.arraymath._HAVE_BLAS, "numba's check found no BLAS"
    assert "scipy.linalg" not in sys.modules, "scipy.linalg's package was imported"
    assert "scipy.linalg.cython_blas" not in sys.modules, "left for later imports to find"

    @numba.njit
    def dot(a, b):
        return np.dot(a, b)

    x = np.arange(1.0, 9.0).reshape(2, 4)
    assert np.allclose(dot(x, x.T), x @ x.T)  # a matrix product: numba calls BLAS's dgemm
    import scipy.linalg.cython_blas  # later: the usual way, the attribute bound
    assert sys.modules["scipy.linalg.cython_blas"] is scipy.linalg.cython_blas
    print("ok")
""")


def test_the_compiler_starts_without_scipy_linalg_and_blas_works() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"
