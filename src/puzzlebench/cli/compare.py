"""``puzzlebench compare``: every applicable solver on a range of sizes, judged, as a table.

A front-end to the study runner: the flags make a study (named ``compare-<problem>``), which
runs in supervised workers with a hard limit per run. With ``--db`` the runs are stored and the
same command continues where it stopped; without it a temporary store is used.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import (
    CliInputError,
    check_limit,
    check_out_dir,
    check_seed,
    parse_counts,
    parse_sizes,
)
from puzzlebench.cli.output import console, emit_json, record_json, runs_table
from puzzlebench.cli.run import check_workers
from puzzlebench.harness.outcome import RunRecord
from puzzlebench.harness.progress import summary_table
from puzzlebench.problems import get_problem
from puzzlebench.registry import REGISTRY

#: Most runs one ``compare`` makes (a bigger grid belongs in a study file).
MAX_RUNS = 100_000


@app.command("compare")
def compare_command(
    problem: Annotated[str, typer.Argument(help="nqueens, torus-queens, queens-knights, sliding")],
    sizes: Annotated[str | None, typer.Option(
        help="Sizes: 4..12, 4,6,8 or 8 (default 4..10; sliding: the start's size).")] = None,
    solvers: Annotated[str | None, typer.Option(help="Comma-separated solver names.")] = None,
    repeats: Annotated[int, typer.Option(help="Runs per solver and size.")] = 1,
    seed: Annotated[int, typer.Option(help="Master seed.")] = 0,
    time_limit: Annotated[float, typer.Option(help="Per-run budget (s); killed at 1.1×+0.5 s.")] = 10.0,
    queens: Annotated[str | None, typer.Option(help="Queens A (queens-knights), e.g. 2 or 0,2,4.")] = None,
    start: Annotated[str | None, typer.Option(help="Sliding start states, ';'-separated.")] = None,
    goal: Annotated[str | None, typer.Option(help="Sliding goal state.")] = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes.")] = None,
    db: Annotated[str | None, typer.Option(help="SQLite store; the same command resumes.")] = None,
    report: Annotated[str | None, typer.Option(help="Write a report to this folder.")] = None,
    details: Annotated[bool, typer.Option(help="Print every run, not only the summary.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per run.")] = False,
) -> int:
    """Compare solvers: exit 1 if any run is wrong, crashed or was killed."""
    from puzzlebench.harness.runner import run_study
    from puzzlebench.harness.store import load_records
    from puzzlebench.harness.study_file import study_from_dict
    if repeats < 1:
        raise CliInputError(f"--repeats must be at least 1, got {repeats}")
    check_limit(time_limit)
    check_seed(seed)
    check_workers(workers)
    get_problem(problem)
    entry: dict[str, Any] = {"problem": problem}
    if problem == "queens-knights":
        if queens is None:
            raise CliInputError("queens-knights needs --queens A (or a list: 0,2,4)")
        entry["queens"] = parse_counts(queens)
    elif queens is not None:
        raise CliInputError(f"--queens applies to queens-knights, not {problem}")
    if problem == "sliding":
        if not start:
            raise CliInputError("sliding needs --start STATE (several: 'S1;S2')")
        entry["starts"] = [s for s in start.split(";") if s]
        if goal:
            entry["goal"] = goal
        cells = {len(s.split(",")) if "," in s else len(s) for s in entry["starts"]}
        sizes = sizes or ",".join(str(c - 1) for c in sorted(cells))
    elif start is not None or goal is not None:
        raise CliInputError(f"--start/--goal apply to sliding, not {problem}")
    size_list = parse_sizes(sizes or "4..10")
    entry["sizes"] = size_list
    names = ([n.strip() for n in solvers.split(",") if n.strip()] if solvers
             else [s.name for s in REGISTRY.all(problem)])
    for name in names:
        spec = REGISTRY.get(name)
        if problem not in spec.problems:
            raise CliInputError(f"solver {spec.name!r} does not handle {problem}")
    study = study_from_dict({
        "study": {"name": f"compare-{problem}", "master_seed": seed, "repeats": repeats,
                  "time_limit": time_limit},
        "problems": [entry],
        "solvers": [{"name": n} for n in names],
    }, "compare")
    runs = study.runs()
    if not runs:
        raise CliInputError("this comparison has no runs (no solver handles any instance)")
    if len(runs) > MAX_RUNS:
        raise CliInputError(f"this comparison would make {len(runs):,} runs; at most "
                            f"{MAX_RUNS:,} per command (use a study file and 'run')")
    if report:
        check_out_dir(report)
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(db) if db else Path(tmp) / "compare.sqlite"
        run_study(study, target, workers=workers, quiet=as_json)
        exact = [spec.name for spec in map(REGISTRY.get, names) if spec.exact]
        records = load_records(target, keys=[s.key for s in runs], exact_solvers=exact)
        records.sort(key=lambda r: (r.solver, r.size, r.instance_id, r.repeat))
        if as_json:
            for rec in records:
                emit_json(record_json(rec))
        else:
            if details:
                console().print(runs_table(records, title=f"{problem}: {sizes}"))
            console().print(summary_table(records))
        if report:
            write_report(records, report)
    return 1 if any(r.outcome.failure for r in records) else 0


def write_report(records: list[RunRecord], out_dir: str) -> None:
    """Write the comparison report (the report package) for these runs."""
    try:
        from puzzlebench.report import write_report as writer
    except ImportError:
        raise CliInputError("--report needs the report package, which is not installed") from None
    from puzzlebench.harness.frame import records_to_frame

    writer(records_to_frame(records), out_dir)
