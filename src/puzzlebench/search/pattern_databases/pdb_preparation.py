"""What ``idastar-pdb`` needs built before its runs: the pattern databases not in the cache.

Asked by a study before its first run (``harness.campaign.preparation``), never by a run. Kept
apart from ``search.idastar_pdb`` on purpose: the solver's code digest (its runs' keys) covers
only what its runs execute, and this question changes nothing a run computes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from puzzlebench.problems.sliding import SlidingInstance
from puzzlebench.problems.sliding_board import default_goal
from puzzlebench.search.pattern_databases.compact_lookup import compact_partition
from puzzlebench.search.pattern_databases.pattern_database_files import blank_region, database_path
from puzzlebench.search.pattern_databases.pdb_lookup import MAX_CELLS, partition
from puzzlebench.search.sliding.idastar_pdb import MAX_BOARD_CELLS, IDAStarPDB
from puzzlebench.search.sliding.sliding_search import solvable
from puzzlebench.search.sliding.sliding_symmetry import relabel

#: About how long each kind of table takes to build here (seconds): the compact ones (7-8,
#: 6-6-6-6: 518 s idle for 7-8), 6-6-3 on 4x4 (about 20 s), anything smaller.
COMPACT_S, SIX_SIX_THREE_S, SMALL_S = 600.0, 20.0, 2.0


def unprepared(params: Mapping[str, Any], instance: Any) -> tuple[str, str, float] | None:
    """(what, the ``pdb build`` command that builds it, about how many seconds) for the
    tables runs of ``idastar-pdb`` with ``params`` on ``instance`` read and the cache lacks;
    None when every one is there (or the runs read none). Checks files only: nothing loaded."""
    solver = IDAStarPDB(**params)
    if (not isinstance(instance, SlidingInstance) or solver.refusal(instance)
            or instance.rows * instance.cols > MAX_BOARD_CELLS or not solvable(instance)):
        return None
    rel = relabel(instance)
    compact = solver.config["partition"] == "7-8" or instance.rows * instance.cols > MAX_CELLS
    if compact:
        tables = [(c, "compact") for c in compact_partition(rel.rows, rel.cols, rel.blank_goal)]
    else:
        kind = "blank" if solver.config["blank_aware"] else "compressed"
        tables = [(c, kind) for c in partition(rel.rows, rel.cols, rel.blank_goal)]
    if all(database_path(c, rel.rows, rel.cols, k,
                         blank_region(c, rel.rows, rel.cols, rel.blank_goal)).is_file()
           for c, k in tables):
        return None
    large = instance.rows * instance.cols > MAX_CELLS
    name = "6-6-6-6" if large else str(solver.config["partition"])
    command = f"puzzlebench pdb build --shape {instance.rows}x{instance.cols}"
    if not large:
        command += f" --partition {name}"
    goal = tuple(instance.goal) or default_goal(instance.rows, instance.cols)
    if goal != default_goal(instance.rows, instance.cols):
        command += f" --goal {','.join(map(str, goal))}"
    estimate = COMPACT_S if compact else (
        SIX_SIX_THREE_S if instance.rows * instance.cols > 12 else SMALL_S)
    return (f"idastar-pdb's {name} pattern databases for {instance.rows}x{instance.cols}",
            command, estimate)
