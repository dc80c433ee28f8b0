"""References of the kind ``path/to/solver.toml``: a program in any language (see
``puzzlebench.solvers.external_program``). Described from the manifest alone: no program runs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from puzzlebench.solvers.external_program import (
    is_manifest,
    manifest_fingerprint,
    read_manifest,
    solver_class,
)
from puzzlebench.solvers.spec import SolverSpec, spec_of


class ManifestKind:
    """A TOML manifest naming a program and its capabilities."""

    name = "manifest"
    runs_code = False

    def claims(self, ref: str) -> bool:
        return is_manifest(ref)

    def load(self, ref: str) -> SolverSpec:
        manifest = read_manifest(ref)
        return replace(spec_of(solver_class(ref), origin="plugin"),
                       reference=str(Path(ref).resolve()),
                       fingerprint=manifest_fingerprint(ref, manifest["command"]))

    def describe(self, ref: str) -> SolverSpec:
        return replace(self.load(ref), factory=None)  # the class is built from data alone


KIND = ManifestKind()
