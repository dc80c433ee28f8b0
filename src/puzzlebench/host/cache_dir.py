"""Where puzzlebench keeps files it can always rebuild (tables, the registry's index).

``$PUZZLEBENCH_CACHE`` when set, else ``~/.cache/puzzlebench``. Nothing in it is needed for
correctness: a missing, stale or unwritable cache only costs time.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """The cache directory (not created here)."""
    return Path(os.environ.get("PUZZLEBENCH_CACHE", Path.home() / ".cache" / "puzzlebench"))
