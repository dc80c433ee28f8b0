"""The puzzlebench command the benchmarks time as a whole process.

The console script installed beside the running interpreter, so that a version manager's shim
(pyenv's is a shell script that starts ``pyenv exec``) is not timed with it; else the script on
PATH; else ``python -m puzzlebench``.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def installed_command() -> list[str]:
    """argv prefix that runs puzzlebench."""
    script = Path(sys.executable).parent / "puzzlebench"
    if script.is_file():
        return [str(script)]
    found = shutil.which("puzzlebench")
    return [found] if found else [sys.executable, "-m", "puzzlebench"]
