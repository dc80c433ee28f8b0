"""``puzzlebench pdb build``: build (or check) the pattern databases ``idastar-pdb`` uses."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import CliInputError
from puzzlebench.cli.output import emit_json
from puzzlebench.problems.base import InvalidInstanceError
from puzzlebench.problems.sliding import SlidingInstance
from puzzlebench.problems.sliding_board import default_goal, parse_shape, parse_state

pdb_app = typer.Typer(help="Pattern databases of the sliding puzzle (idastar-pdb).",
                      no_args_is_help=True)
app.add_typer(pdb_app, name="pdb")


@pdb_app.command("build")
def build_command(
    shape: Annotated[str, typer.Option(help="Board ROWSxCOLS, at most 25 cells (beyond 16: the "
                                                 "compact 6-tile tables, 6-6-6-6 on 5x5).")] = "4x4",
    goal: Annotated[str | None, typer.Option(
        help="Goal state (default: 1..N then the blank). Goals with the blank in a corner share "
             "one set of databases.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even when a sound copy is cached.")] = False,
    partition: Annotated[str, typer.Option(
        help="6-6-3 (patterns of at most 6 tiles) or 7-8 (two compact-ranked patterns of at most "
             "8; idastar-pdb --param partition=7-8).")] = "6-6-3",
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> int:
    """Build the databases for a board and goal, cache them, and print their size and build time."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.search.pattern_databases.pattern_database_files import load_or_build
    from puzzlebench.search.pattern_databases.pdb_lookup import MAX_CELLS
    from puzzlebench.search.pattern_databases.pdb_lookup import partition as static_partition
    from puzzlebench.search.sliding.idastar_pdb import MAX_BOARD_CELLS
    from puzzlebench.search.sliding.sliding_symmetry import relabel

    try:
        rows, cols = parse_shape(shape)
        if rows < 1 or cols < 1 or rows * cols < 2 or rows * cols > MAX_BOARD_CELLS:
            raise CliInputError(f"--shape must have 2..{MAX_BOARD_CELLS} cells, got {shape!r}")
        if partition not in ("6-6-3", "7-8"):
            raise CliInputError(f"--partition must be 6-6-3 or 7-8, got {partition!r}")
        goal_t = parse_state(goal, rows * cols) if goal else default_goal(rows, cols)
        instance = SlidingInstance(rows, cols, goal_t, goal_t)
    except InvalidInstanceError as exc:
        raise CliInputError(str(exc)) from None
    rel = relabel(instance)
    if partition == "7-8" or rows * cols > MAX_CELLS:  # beyond 16 cells: compact tables only
        return _build_compact(rel, rows, cols, goal_t, force, as_json)
    rows_out: list[dict[str, Any]] = []
    for cells in static_partition(rel.rows, rel.cols, rel.blank_goal):
        db = load_or_build(cells, rel.rows, rel.cols, rebuild=force, blank_goal=rel.blank_goal)
        aware = load_or_build(cells, rel.rows, rel.cols, kind="blank",  # made by the same search
                              blank_goal=rel.blank_goal)
        rows_out.append({**_row(db), "blank_aware_entries": int(aware.table.size),
                         "blank_aware_bytes": aware.nbytes})
    if as_json:
        emit_json({"shape": f"{rows}x{cols}", "goal": list(goal_t), "databases": rows_out})
        return 0
    total = sum(r["bytes"] for r in rows_out)
    typer.echo(f"{rows}x{cols} board, goal {','.join(map(str, goal_t))}: {len(rows_out)} additive "
               f"pattern databases, {total / 2**20:.1f} MiB (patterns named by goal cells after relabelling: "
               "blank on cell 0 when the goal has it in a corner)")
    for r in rows_out:
        _echo_row(r, cells_width=20, states_width=12, extra=(
            f"    + blank-aware table (consistent; --param blank_aware=true): "
            f"{r['blank_aware_entries']:,} entries, {r['blank_aware_bytes'] / 2**20:.1f} MiB"))
    _echo_unsaved(rows_out)
    return 0


def _build_compact(rel: Any, rows: int, cols: int, goal_t: tuple[int, ...], force: bool,
                   as_json: bool) -> int:
    """``--partition 7-8`` (and every board beyond 16 cells: 6-6-6-6 on 5×5): the compact-ranked
    tables (one byte per placement of the pattern)."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.search.pattern_databases.compact_lookup import compact_partition
    from puzzlebench.search.pattern_databases.pattern_database_files import load_or_build

    rows_out: list[dict[str, Any]] = []
    for cells in compact_partition(rel.rows, rel.cols, rel.blank_goal):
        db = load_or_build(cells, rel.rows, rel.cols, rebuild=force, kind="compact",
                           blank_goal=rel.blank_goal)
        rows_out.append(_row(db))
    if as_json:
        emit_json({"shape": f"{rows}x{cols}", "goal": list(goal_t),
                   "partition": ("7-8" if rows * cols <= 16
                                 else "-".join(str(len(r["cells"])) for r in rows_out)),
                   "databases": rows_out})
        return 0
    total = sum(r["bytes"] for r in rows_out)
    typer.echo(f"{rows}x{cols} board, goal {','.join(map(str, goal_t))}: {len(rows_out)} additive "
               f"compact-ranked pattern databases, {total / 2**20:.1f} MiB, one byte per placement "
               "(patterns named by goal cells after relabelling)")
    for r in rows_out:
        _echo_row(r, cells_width=24, states_width=13)
    _echo_unsaved(rows_out)
    return 0


def _row(db: Any) -> dict[str, Any]:
    """One database as ``pdb build --json`` reports it."""
    return {"cells": list(db.cells), "entries": int(db.table.size), "bytes": db.nbytes,
            "abstract_states": db.states, "build_s": round(db.build_s, 3),
            "built_now": db.built_now, "seconds_now": round(db.load_s, 3),
            "path": str(db.path) if db.path else None}


def _echo_row(r: dict[str, Any], *, cells_width: int, states_width: int, extra: str = "") -> None:
    """One database as a line (and its file), for people."""
    how = (f"built in {r['build_s']:.2f} s" if r["built_now"]
           else f"cached (built in {r['build_s']:.2f} s; checked in {r['seconds_now']:.3f} s)")
    typer.echo(f"  tiles of goal cells {' '.join(map(str, r['cells'])):<{cells_width}} "
               f"{r['entries']:>12,} entries {r['bytes'] / 2**20:7.1f} MiB "
               f"{r['abstract_states']:>{states_width},} states  {how}")
    if extra:
        typer.echo(extra)
    if r["path"]:
        typer.echo(f"    {r['path']}")


def _echo_unsaved(rows_out: list[dict[str, Any]]) -> None:
    if not all(r["path"] for r in rows_out):
        typer.echo("  (the cache directory is not writable: the databases were not saved)")
