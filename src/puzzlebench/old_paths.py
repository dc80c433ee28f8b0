"""Where modules lived before the core was regrouped into rooms (issue 56), and the one table
that keeps those paths working.

* Old import paths keep working: :class:`OldPaths`, installed by ``puzzlebench/__init__``, makes
  ``import puzzlebench.iterative`` give the module that now lives at ``puzzlebench.solvers.iterative``
  (the same module object, not a copy), so a user's plugin written against an old path runs.
* Run keys do not move with the code: the fingerprint (:mod:`puzzlebench.solvers.fingerprint`)
  names each module, and rewrites each import statement, by the name it had when keys were first
  made (:func:`canonical`), so a module that only moved keeps its digest and every stored run
  stays valid.

A module moved again later has its line here point to its newest name, and its name in between
gets a line of ``_MOVED_AGAIN`` (so both old paths import it, and run keys keep its first name).
"""

from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

#: Old name → new name, both under ``puzzlebench.``.
_MOVED = {
    "report.agreement_matrix": "report.statistics.agreement_matrix",
    "cache_dir": "host.cache_dir",
    "claims": "records.claims",
    "code_fingerprint": "solvers.fingerprint",
    "compiled_clock": "solvers.compiled_clock",
    "external_program": "solvers.external_program",
    "harness.campaign.claim_revisions": "harness.campaign.design.claim_revisions",
    "harness.campaign.exports": "harness.campaign.storage.exports",
    "harness.campaign.ioh_export": "harness.campaign.storage.ioh_export",
    "harness.campaign.records_frame": "harness.campaign.storage.records_frame",
    "harness.campaign.seals": "harness.campaign.storage.seals",
    "harness.campaign.store": "harness.campaign.storage.store",
    "harness.campaign.store_modes": "harness.campaign.storage.store_modes",
    "harness.campaign.study": "harness.campaign.design.study",
    "harness.campaign.study_claims": "harness.campaign.design.study_claims",
    "harness.campaign.study_file": "harness.campaign.design.study_file",
    "harness.campaign.study_mistakes": "harness.campaign.design.study_mistakes",
    "harness.campaign.study_tune": "harness.campaign.design.study_tune",
    "harness.campaign.study_values": "harness.campaign.design.study_values",
    "harness.judging.certificate": "harness.judging.proofs",
    "harness.judging.certify_runs": "harness.judging.proof_runs",
    "harness.judging.judge": "harness.judging.rules",
    "harness.judging.verdict": "harness.judging.pipeline",
    "harness.run.cgroups": "harness.run.sealed.cgroups",
    "harness.run.child": "harness.run.inside.child",
    "harness.run.early_server": "harness.run.forking.early_server",
    "harness.run.forkserver": "harness.run.forking.forkserver",
    "harness.run.forkserver_main": "harness.run.forking.forkserver_main",
    "harness.run.linux_calls": "harness.run.sealed.linux_calls",
    "harness.run.message_fields": "harness.run.protocol.message_fields",
    "harness.run.messages": "harness.run.protocol.messages",
    "harness.run.numba_kernels": "harness.run.inside.numba_kernels",
    "harness.run.payload": "harness.run.protocol.payload",
    "harness.run.pid_namespace": "harness.run.sealed.pid_namespace",
    "harness.run.sandbox": "harness.run.sealed.sandbox",
    "harness.run.sealed_view": "harness.run.sealed.sealed_view",
    "harness.run.solver_call": "harness.run.inside.solver_call",
    "harness.run.warmup": "harness.run.inside.warmup",
    "harness.task": "harness.run_request",
    "iterative": "solvers.iterative",
    "param_space": "solvers.param_space",
    "plugin_loader": "solvers.plugin_loader",
    "queens_keys": "solvers.queens_keys",
    "queens_keys_jit": "solvers.queens_keys_jit",
    "record": "records.record",
    "registry": "solvers.registry",
    "report.anytime_statistics": "report.statistics.anytime_statistics",
    "report.verdict": "report.answer",
    "report.bootstrap": "report.statistics.bootstrap",
    "report.borda": "report.statistics.borda",
    "report.claim_power": "report.statistics.claim_power",
    "report.claim_tests": "report.statistics.claim_tests",
    "report.count_runs": "report.statistics.count_runs",
    "report.distorted": "report.statistics.distorted",
    "report.findings": "report.statistics.findings",
    "report.quality": "report.statistics.quality",
    "report.scaling": "report.statistics.scaling",
    "report.scaling_models": "report.statistics.scaling_models",
    "report.scores": "report.statistics.scores",
    "report.stratified": "report.statistics.stratified",
    "search.blank_aware_kernel": "search.sliding.blank_aware_kernel",
    "search.compact_batch_kernel": "search.pattern_databases.compact_batch_kernel",
    "search.compact_kernel": "search.pattern_databases.compact_kernel",
    "search.compact_lookup": "search.pattern_databases.compact_lookup",
    "search.idastar": "search.sliding.idastar",
    "search.idastar_pdb": "search.sliding.idastar_pdb",
    "search.knuth_estimate": "search.queens.knuth_estimate",
    "search.pattern_database": "search.pattern_databases.pattern_database",
    "search.pattern_database_files": "search.pattern_databases.pattern_database_files",
    "search.pdb_lookup": "search.pattern_databases.pdb_lookup",
    "search.pdb_preparation": "search.pattern_databases.pdb_preparation",
    "search.queens_search": "search.queens.queens_search",
    "search.queens_states": "search.queens.queens_states",
    "search.region_pdb_build": "search.pattern_databases.region_pdb_build",
    "search.seed001_loop": "search.queens.source001_loop",
    "search.sliding_heuristics": "search.sliding.sliding_heuristics",
    "search.sliding_kernels": "search.sliding.sliding_kernels",
    "search.sliding_search": "search.sliding.sliding_search",
    "search.sliding_state": "search.sliding.sliding_state",
    "search.sliding_symmetry": "search.sliding.sliding_symmetry",
    "solver_index": "solvers.index",
    "solver_references": "solvers.locators",
    "solver_references.manifest": "solvers.locators.manifest",
    "solver_references.python_plugin": "solvers.locators.python_plugin",
    "solver_spec": "solvers.spec",
    "terminal": "host.terminal",
    "trace": "records.trace",
    "trace_kernels": "records.trace_kernels",
    "trace_points": "records.trace_points",
}
#: A name in between → the newest name, for a module that moved twice (its first name's line in
#: ``_MOVED`` already points to the newest).
_MOVED_AGAIN = {
    "search.queens.seed001_loop": "search.queens.source001_loop",
    "solvers.references": "solvers.locators",
    "solvers.references.manifest": "solvers.locators.manifest",
    "solvers.references.python_plugin": "solvers.locators.python_plugin",
}
#: ``puzzlebench.<old>`` → ``puzzlebench.<new>``.
MOVED: dict[str, str] = {f"puzzlebench.{o}": f"puzzlebench.{n}"
                         for o, n in (_MOVED | _MOVED_AGAIN).items()}
#: The reverse: a module's name now → its name when run keys were first made.
FIRST_NAME: dict[str, str] = {f"puzzlebench.{new}": f"puzzlebench.{old}"
                              for old, new in _MOVED.items()}
FIRST_NAME["puzzlebench.solvers.contract"] = "puzzlebench.contract"
#: Modules that only re-export another (the public plugin API's fixed path): a fingerprint
#: follows what they import and hashes that, never the re-export itself.
FACADES = frozenset({"puzzlebench.contract"})

__all__ = ["FACADES", "FIRST_NAME", "MOVED", "OldPaths", "canonical", "install", "to_first_names"]


def canonical(name: str) -> str:
    """A module's name as run keys know it: its first name if it moved (a submodule of a moved
    package follows its package), else itself."""
    if name in FIRST_NAME:
        return FIRST_NAME[name]
    head = name.rpartition(".")[0]
    while head:
        if head in FIRST_NAME:
            return FIRST_NAME[head] + "." + name[len(head) + 1:]
        head = head.rpartition(".")[0]
    return name


def to_first_names(tree: ast.Module) -> None:
    """Every import statement names its modules by their first names (``old_paths``), and each
    run of the project's ``from … import`` statements is in the order of those names (the
    order the import sorter kept before the move): a module that only moved, or only follows
    a moved import, keeps its digest."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            node.module = canonical(node.module)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                alias.name = canonical(alias.name)
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            body = getattr(node, name, None)
            if isinstance(body, list):
                setattr(node, name, _sorted_runs(body))


def _sorted_runs(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` with each run of consecutive project ``from … import`` statements sorted by
    module name, as the import sorter orders them (lower case)."""
    out: list[ast.stmt] = []
    run: list[ast.ImportFrom] = []
    for stmt in [*body, None]:
        if (isinstance(stmt, ast.ImportFrom) and not stmt.level and stmt.module is not None
                and stmt.module.startswith("puzzlebench")):
            run.append(stmt)
            continue
        ordered: list[ast.ImportFrom] = sorted(run, key=_module_lower)
        out.extend(ordered)
        run.clear()
        if stmt is not None:
            out.append(stmt)
    return out


def _module_lower(stmt: ast.ImportFrom) -> str:
    return (stmt.module or "").lower()


class _Alias(importlib.abc.Loader):
    """Loads an old name as the module now at its new name (the same object)."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module at the new name is already executed."""


class OldPaths(importlib.abc.MetaPathFinder):
    """Finds ``puzzlebench.<old name>`` as the module at its new name."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        found = importlib.util.find_spec(new)
        return importlib.util.spec_from_loader(
            fullname, _Alias(new), origin=found.origin if found is not None else None)


def install() -> None:
    """Put :class:`OldPaths` on ``sys.meta_path`` once (``puzzlebench/__init__`` calls it)."""
    if not any(isinstance(f, OldPaths) for f in sys.meta_path):
        sys.meta_path.append(OldPaths())
