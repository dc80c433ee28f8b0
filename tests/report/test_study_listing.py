"""Listing the built-in studies answers at once: it loads each study's module, and none of them
may load the statistics, the renderers or the solvers on import (``puzzlebench studies`` took
2.1 s for scipy.stats, matplotlib and every solver module; 0.47 s without them)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("scipy.stats", "matplotlib.pyplot", "plotly", "numba", "ortools")

PROBE = f"""
import json, sys
from puzzlebench.studies import catalog
names = sorted(catalog())
print(json.dumps({{"names": names, "loaded": [m for m in {HEAVY!r} if m in sys.modules]}}))
"""


def test_listing_the_studies_loads_no_statistics_renderer_or_solver() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=120, check=True)
    out = json.loads(done.stdout)
    assert {"baselines", "heuristics", "twentyfour-puzzle"} <= set(out["names"])
    assert out["loaded"] == []


def test_a_grid_made_on_use_is_the_same_each_time() -> None:
    from puzzlebench.studies import get_study

    baselines = get_study("baselines")
    assert callable(baselines.full)  # made on use: it asks the registry for every solver
    first, again = baselines.definition(quick=False), baselines.definition(quick=False)
    assert first == again and any(s["name"] == "mod12" for s in first["solvers"])
    assert get_study("heuristics").definition(quick=True) == get_study("heuristics").quick
