"""References of the kind ``path/to/model.mzn``: a user's MiniZinc model as a solver (see
``puzzlebench_baselines.minizinc_user``). Described by reading the file: MiniZinc runs only in
a run's own process.

It is not a baseline but the MiniZinc kind of solver reference (a user's .mzn); it
lives beside the MiniZinc adapter it shares, so the core never needs the minizinc package.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from puzzlebench.solvers.spec import SolverSpec, spec_of
from puzzlebench_baselines.minizinc_user import is_model, model_class, model_fingerprint


class MiniZincModelKind:
    """A MiniZinc model file."""

    name = "minizinc-model"
    runs_code = False

    def claims(self, ref: str) -> bool:
        return is_model(ref)

    def load(self, ref: str) -> SolverSpec:
        cls = model_class(ref)  # raises ModelFileError for a missing or unusable file
        return replace(spec_of(cls, origin="plugin"), reference=str(Path(ref).resolve()),
                       fingerprint=model_fingerprint(ref))

    def describe(self, ref: str) -> SolverSpec:
        return replace(self.load(ref), factory=None)


KIND = MiniZincModelKind()
