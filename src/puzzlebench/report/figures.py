"""Figures (matplotlib, Agg): time, effort and success against size; runtime ECDF; cactus
with the virtual best solver; Dolan–Moré performance profiles. Saved as PNG with no time
stamp in the metadata, so the same data gives the same bytes."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from puzzlebench.report.scores import per_instance_times, performance_profile
from puzzlebench.report.summary import counter_columns, with_labels

plt.rcParams.update({"figure.dpi": 90, "savefig.dpi": 90, "font.size": 9,
                     "svg.hashsalt": "puzzlebench"})


def _save(fig: plt.Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)
    return path


def _by_size(frame: pd.DataFrame, value: str, agg: str) -> pd.DataFrame:
    return frame.groupby(["label", "size"])[value].agg(agg).unstack("label").sort_index()


def problem_figures(frame: pd.DataFrame, problem: str, out: Path) -> list[tuple[str, Path]]:
    """All figures of one problem; returns (caption, path) pairs in a fixed order."""
    frame = with_labels(frame[frame["problem"] == problem])
    figs: list[tuple[str, Path]] = []
    slug = problem.replace("-", "_")
    solved = frame[frame["success"]]
    if frame["size"].nunique() > 1:
        if not solved.empty:
            fig, ax = plt.subplots(figsize=(6, 3.6))
            _by_size(solved, "time_s", "median").plot(ax=ax, marker="o", logy=True)
            ax.set_xlabel("size n")
            ax.set_ylabel("median wall time (s), solved runs")
            ax.legend(fontsize=7)
            figs.append((f"{problem}: time against size", _save(fig, out / f"{slug}_time.png")))
            effort = [c for c in counter_columns(solved) if solved[c].notna().any()]
            main = next((c for c in ("counter.nodes_expanded", "counter.nodes",
                                     "counter.evaluations", "counter.iterations")
                         if c in effort), effort[0] if effort else None)
            if main is not None:
                fig, ax = plt.subplots(figsize=(6, 3.6))
                data = _by_size(solved.dropna(subset=[main]), main, "median")
                data.clip(lower=1).plot(ax=ax, marker="o", logy=True)
                ax.set_xlabel("size n")
                ax.set_ylabel(f"median {main.removeprefix('counter.')}")
                ax.legend(fontsize=7)
                figs.append((f"{problem}: effort ({main.removeprefix('counter.')}) against size",
                             _save(fig, out / f"{slug}_effort.png")))
        fig, ax = plt.subplots(figsize=(6, 3.6))
        rate = frame.assign(ok=frame["success"].astype(float))
        _by_size(rate, "ok", "mean").plot(ax=ax, marker="o", ylim=(-0.05, 1.05))
        ax.set_xlabel("size n")
        ax.set_ylabel("success rate")
        ax.legend(fontsize=7)
        figs.append((f"{problem}: success rate against size", _save(fig, out / f"{slug}_success.png")))
    times = per_instance_times(frame)
    if not times.empty:
        fig, ax = plt.subplots(figsize=(6, 3.6))
        for col in times.columns:
            t = np.sort(times[col].dropna().to_numpy())
            if t.size:
                ax.step(t, np.arange(1, t.size + 1) / len(times), where="post", label=col)
        ax.set_xscale("log")
        ax.set_xlabel("wall time (s)")
        ax.set_ylabel("fraction of runs solved")
        ax.legend(fontsize=7)
        figs.append((f"{problem}: runtime ECDF", _save(fig, out / f"{slug}_ecdf.png")))
        fig, ax = plt.subplots(figsize=(6, 3.6))
        vbs = times.min(axis=1)
        for col, series in [*times.items(), ("virtual best", vbs)]:
            t = np.sort(series.dropna().to_numpy())
            if t.size:
                ax.plot(np.arange(1, t.size + 1), t, marker=".", label=col,
                        linestyle="--" if col == "virtual best" else "-")
        ax.set_yscale("log")
        ax.set_xlabel("instances solved")
        ax.set_ylabel("time (s)")
        ax.legend(fontsize=7)
        figs.append((f"{problem}: cactus plot with the virtual best solver",
                     _save(fig, out / f"{slug}_cactus.png")))
        taus = np.logspace(0, 3, 60)
        profile = performance_profile(times, taus)
        fig, ax = plt.subplots(figsize=(6, 3.6))
        profile.plot(ax=ax, logx=True, ylim=(-0.05, 1.05))
        ax.set_xlabel("τ (time ratio to the best solver)")
        ax.set_ylabel("fraction of instances")
        ax.legend(fontsize=7)
        figs.append((f"{problem}: Dolan–Moré performance profile",
                     _save(fig, out / f"{slug}_profile.png")))
    return figs
