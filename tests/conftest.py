"""Session set-up: build the shipped C example solver (examples/external/c) with the system cc,
so that the conformance suite and the agreement tests can run it like any other solver."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

C_EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "external" / "c"


def build_c_example() -> Path:
    """Compile nqueens.c when the binary is missing or older than its source."""
    source, binary = C_EXAMPLE / "nqueens.c", C_EXAMPLE / "nqueens"
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler is None:
            raise pytest.UsageError("the C example needs a C compiler (cc); .ci/run installs one")
        subprocess.run([compiler, "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def pytest_sessionstart(session: pytest.Session) -> None:
    build_c_example()
