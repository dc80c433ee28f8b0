"""One short label and one look per solver configuration, fixed for a whole report.

A configuration is a (solver, parameters) pair. Its label is the solver's name when the report
holds one parameter set of that solver, and ``solver#k`` when it holds several (k = 1, 2, …
ordered by parameter name, then value, numbers numerically: population 50 before 200); the
full parameters go in the report's legend table, never in a plot legend. Colour, marker and
line style are assigned once, in label order, so a configuration looks the same in every
figure and table of the report, whichever subset a figure shows. Twenty colours, ten markers
and four line styles: the first twenty configurations differ by colour alone; from the 21st on,
line style and a shifted marker tell configurations of the same colour apart. Should two
configurations arrive at the same label (a solver literally named ``x#1`` beside ``x`` with
two parameter sets), the later one gets a prime (``x#1′``), so no label is ever shared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pandas as pd

#: Colour-blind-aware first ten (Okabe–Ito + Tol), then ten darker/lighter companions.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#332288",
           "#882255", "#117733", "#999933", "#44AA99", "#AA4499", "#661100", "#6699CC",
           "#888888", "#DDCC77", "#000000", "#AA4466", "#4477AA", "#228833")
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*", "<", ">")
DASHES = ("solid", "dashed", "dotted", "dashdot")
#: Reference series drawn beside the configurations (not solvers themselves).
REFERENCE_COLOUR = "#444444"


@dataclass(frozen=True)
class SeriesStyle:
    """How one configuration is drawn."""

    label: str
    solver: str
    params_key: str
    colour: str
    marker: str
    dash: str

    @property
    def parameters(self) -> str:
        """The parameters as ``name=value`` text, "(defaults)" when there are none."""
        return ", ".join(f"{k}={json.dumps(v)}" for k, v in
                         sorted(json.loads(self.params_key or "{}").items())) or "(defaults)"

    @property
    def family(self) -> str:
        """The solver family used to group small multiples: the name up to its first '-'
        (``astar-h1`` → ``astar``), so a family's variants share a panel."""
        return self.solver.split("-", 1)[0]


def _natural(params_key: str) -> list[tuple[str, int, float, str]]:
    """Sort key of a parameter set: by name, numbers by value (50 before 200)."""
    out = []
    for k, v in sorted(json.loads(params_key or "{}").items()):
        num = isinstance(v, int | float) and not isinstance(v, bool)
        out.append((k, 0 if num else 1, float(v) if num else 0.0, "" if num else json.dumps(v)))
    return out


def label_order(label: str) -> tuple[str, int, str]:
    """Sort key of a label: by solver, then ``#k`` numerically (``x#2`` before ``x#10``)."""
    base, sep, rest = label.partition("#")
    digits = rest.rstrip("′")
    if sep and digits.isdigit():
        return base, int(digits), rest[len(digits):]
    return label, 0, ""


class SeriesStyles:
    """Labels and looks of every configuration in a report's runs."""

    def __init__(self, configs: list[tuple[str, str]]):
        configs = sorted(set(configs), key=lambda c: (c[0], _natural(c[1]), c[1]))
        per_solver: dict[str, list[str]] = {}
        for solver, key in configs:
            per_solver.setdefault(solver, []).append(key)
        self._by_config: dict[tuple[str, str], SeriesStyle] = {}
        used: set[str] = set()
        for i, (solver, key) in enumerate(configs):
            keys = per_solver[solver]
            label = solver if len(keys) == 1 else f"{solver}#{keys.index(key) + 1}"
            while label in used:
                label += "′"
            used.add(label)
            self._by_config[(solver, key)] = SeriesStyle(
                label, solver, key, PALETTE[i % len(PALETTE)],
                MARKERS[(i + i // len(PALETTE)) % len(MARKERS)],
                DASHES[(i // len(PALETTE)) % len(DASHES)])
        self._by_label = {s.label: s for s in self._by_config.values()}

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> SeriesStyles:
        """Styles for every (solver, params_key) in a records frame."""
        if frame.empty:
            return cls([])
        return cls(list(zip(frame["solver"].astype(str), frame["params_key"].astype(str),
                            strict=True)))

    def label(self, solver: str, params_key: str) -> str:
        return self._by_config[(solver, params_key)].label

    def of(self, label: str) -> SeriesStyle:
        """The style of a label; an unknown label (a reference series) gets a neutral look."""
        return self._by_label.get(label) or SeriesStyle(label, label, "{}", REFERENCE_COLOUR,
                                                        "", "dashed")

    def family(self, label: str) -> str:
        """The small-multiples family of a label (see ``SeriesStyle.family``)."""
        return self.of(label).family

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self._by_config.values()]

    def with_labels(self, frame: pd.DataFrame) -> pd.DataFrame:
        """``frame`` with a ``label`` column."""
        return frame.assign(label=[self.label(s, p) for s, p in
                                   zip(frame["solver"], frame["params_key"], strict=True)])

    def legend_table(self) -> pd.DataFrame:
        """Label → solver and full parameters, the key to every figure and table."""
        rows = [{"label": s.label, "solver": s.solver, "parameters": s.parameters}
                for s in self._by_config.values()]
        return pd.DataFrame(rows, columns=["label", "solver", "parameters"])
