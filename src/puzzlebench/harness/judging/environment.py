"""The reproducibility manifest: library versions and the machine a run used."""

from __future__ import annotations

import os
import platform
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from typing import Any

TRACKED_PACKAGES: tuple[str, ...] = (
    "puzzlebench", "ortools", "deap", "python-constraint2", "numba", "numpy",
)


@lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """Installed versions of the packages whose behaviour a record depends on."""
    out = {"python": platform.python_version()}
    for name in TRACKED_PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "absent"
    return out


@lru_cache(maxsize=1)
def machine() -> dict[str, Any]:
    """Host name, CPU model and core count."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"host": platform.node(), "cpu": cpu, "cores": os.cpu_count() or 1,
            "system": platform.system()}
