"""Stored traces in the IOHprofiler format, for IOHanalyzer and iohinspector.

One folder per algorithm (the solver, followed by the parameters that differ between its
parameter sets in the store; the full parameters are in the meta file's ``info``) holding, per
problem, a meta file ``IOHprofiler_f<F>_<problem>.json`` and
``data_f<F>_<problem>/IOHprofiler_f<F>_DIM<n>.dat``.
Function F = the problem (its ``ioh_function``: nqueens 1, queens-knights 2, sliding 3,
torus-queens 4, nqueens-completion 5), dimension = n, instance = the
instance's index among that problem's and size's stored instances (from 1; listed in
``instances.csv``), minimisation of the conflict count, one IOH run per stored run with at
least one trace point (a run that recorded none has no value the format could hold).

Each ``.dat`` block starts with the header ``evaluations raw_y`` and holds the run's
improvements. The format marks a new run by an evaluation count of 1, so every block's first
row is written at evaluation 1 with the run's first traced value (for a population-based solver
that value is the best of its first evaluated population — the earliest best the trace knows);
later rows keep the trace's counts (at least 2). The meta file's ``evals`` is the run's whole
effort (its ``evaluations`` counter, or its last trace point) and ``best`` its last improvement.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd

from puzzlebench.harness.campaign.storage.exports import write_csv
from puzzlebench.harness.campaign.storage.records_frame import config_labels
from puzzlebench.problems import PROBLEMS
from puzzlebench.problems.base import PuzzlebenchError

FORMAT_VERSION = "0.3.5"


def function_id(problem: str) -> int:
    """The family's own IOH function number; families without one get 100 + their rank."""
    own = PROBLEMS[problem].ioh_function
    if own is not None:
        return own
    return 100 + sorted(p for p, prob in PROBLEMS.items() if prob.ioh_function is None).index(problem)


class IOHExportError(PuzzlebenchError, ValueError):
    """Stored runs that cannot be written in the format (no traces, a name that would not
    make a folder inside the export's own)."""


def algorithm_name(label: str) -> str:
    """A folder-safe algorithm name from a short label (``ga-permutation {elite=0}``); a label
    that would name no folder of its own (empty, ``.``, ``..``) is refused."""
    name = re.sub(r"[^A-Za-z0-9_.=+-]", "_",
                  label.replace(" {", "_").replace("}", "").replace(", ", "_"))
    if not name.strip("."):
        raise IOHExportError(f"solver name {label!r} cannot name an algorithm folder")
    return name


def inside(root: Path, path: Path) -> Path:
    """``path`` when it lies inside ``root`` (after resolving ``..`` and links), else
    IOHExportError: no path built from a stored name leaves the export's folder."""
    base = root.resolve()
    resolved = path.resolve()
    if resolved != base and base not in resolved.parents:
        raise IOHExportError(f"a stored name would write {str(path)!r}, outside {str(root)!r}")
    return path


def export_ioh(traces: pd.DataFrame, out: str | Path) -> dict[str, int]:
    """Write ``traces`` (``load_traces`` rows) under ``out``; returns counts of what was written."""
    if traces.empty:
        raise IOHExportError("the store holds no traces (only tracing solvers record them)")
    unknown = sorted(set(traces["problem"]) - set(PROBLEMS))
    if unknown:
        raise IOHExportError(f"the store holds traces of unknown problem {unknown[0]!r}")
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    instances: dict[tuple[str, int], list[str]] = {}
    for (problem, size), sub in traces.groupby(["problem", "size"], sort=True):
        instances[(problem, int(size))] = sorted(sub["instance_id"].unique())
    pd.DataFrame([{"problem": p, "size": n, "instance": i + 1, "instance_id": iid}
                  for (p, n), ids in instances.items() for i, iid in enumerate(ids)]
                 ).pipe(write_csv, root / "instances.csv")
    runs_written = 0
    labels = config_labels(traces)
    for (solver, params, problem), sub in traces.groupby(["solver", "params", "problem"], sort=True):
        algo = algorithm_name(labels[(solver, params)])
        fid = function_id(problem)
        folder = inside(root, root / algo)
        data_dir = inside(folder, folder / f"data_f{fid}_{problem}")
        data_dir.mkdir(parents=True, exist_ok=True)
        scenarios = []
        for size, by_size in sub.groupby("size", sort=True):
            rel = f"data_f{fid}_{problem}/IOHprofiler_f{fid}_DIM{int(size)}.dat"
            blocks, runs = [], []
            for _, run in by_size.groupby("key", sort=False):
                run = run.sort_values("point")
                rows = ["evaluations raw_y"]
                for i, (e, b) in enumerate(zip(run["evaluations"], run["best"], strict=True)):
                    rows.append(f"{1 if i == 0 else max(int(e), 2)} {int(b)}")
                blocks.append("\n".join(rows))
                last = run.iloc[-1]
                total = last["run_evaluations"]
                evals = int(max(last["evaluations"], 0 if pd.isna(total) else total, 1))
                runs.append({"instance": instances[(problem, int(size))].index(last["instance_id"]) + 1,
                             "evals": evals,
                             "best": {"evals": max(int(last["evaluations"]), 1), "y": float(last["best"]),
                                      "x": []}})
            (folder / rel).write_text("\n".join(blocks) + "\n", encoding="utf-8")
            scenarios.append({"dimension": int(size), "path": rel, "runs": runs})
            runs_written += len(runs)
        meta = {"version": FORMAT_VERSION, "suite": "puzzlebench", "function_id": fid,
                "function_name": problem, "maximization": False,
                "algorithm": {"name": algo, "info": f"puzzlebench solver {solver}, parameters {params}"},
                "attributes": ["evaluations", "raw_y"], "scenarios": scenarios}
        (folder / f"IOHprofiler_f{fid}_{problem}.json").write_text(json.dumps(meta, indent=1),
                                                                    encoding="utf-8")
    return {"runs": runs_written, "algorithms": traces.groupby(["solver", "params"]).ngroups}
