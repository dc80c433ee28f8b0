"""The house reads top-down: no import cycle, no layer importing upward, and every import
deferred into a function says why (so none is there to dodge a cycle).

The layers, top first; a module may import its own layer and the layers below it:

    the reference solvers (baselines/puzzlebench_baselines: a plugin package on top of the
        core, which never imports it; it uses the plugin API, nothing above the solvers)
    cli, the package's API (puzzlebench/__init__), __main__
    studies, tune
    harness | report          (siblings: neither imports the other)
    solvers.locators        (solver references resolved above the registry)
    the solvers: search, local, evolution, solvers.external_program; the public plugin API
        (puzzlebench.contract, a re-export)
    solvers.registry, .spec, .index, .fingerprint
    solvers.contract and the solver-side helpers (records.trace*, solvers.queens_keys*,
        .compiled_clock, .iterative, .param_space)
    problems
    records (record, claims), solvers.plugin_loader, host, old_paths   (the bottom floor:
        import nothing of the project)
"""

from __future__ import annotations

import ast

import pytest

from tests.house.import_graph import Edge, cycles, edges, modules

LAYERS: tuple[tuple[str, ...], ...] = (
    ("puzzlebench_baselines",),
    ("puzzlebench", "puzzlebench.__main__", "puzzlebench.console", "puzzlebench.cli",
     "puzzlebench.testing"),
    ("puzzlebench.studies", "puzzlebench.conformance", "puzzlebench.tune"),
    ("puzzlebench.harness", "puzzlebench.report"),
    ("puzzlebench.solvers.locators",),
    ("puzzlebench.search", "puzzlebench.local", "puzzlebench.evolution",
     "puzzlebench.solvers.external_program", "puzzlebench.contract"),
    ("puzzlebench.solvers.registry", "puzzlebench.solvers.spec", "puzzlebench.solvers.index",
     "puzzlebench.solvers.fingerprint"),
    ("puzzlebench.solvers.contract", "puzzlebench.records.trace",
     "puzzlebench.records.trace_points", "puzzlebench.records.trace_kernels",
     "puzzlebench.solvers.queens_keys", "puzzlebench.solvers.queens_keys_jit",
     "puzzlebench.solvers.compiled_clock", "puzzlebench.solvers.iterative",
     "puzzlebench.solvers.param_space"),
    ("puzzlebench.problems",),
    ("puzzlebench.records", "puzzlebench.solvers", "puzzlebench.solvers.plugin_loader",
     "puzzlebench.host", "puzzlebench.old_paths"),
)
#: Pairs of the same layer that must not import each other.
SIBLINGS = (("puzzlebench.harness", "puzzlebench.report"),)
#: The harness's three rooms and what each must never import: the run side (one process) knows
#: nothing of judging or of studies, and judging knows nothing of the store or of studies. The
#: front door (``harness.execute``, ``scheduler``, ``resolve``, ``run_request``) sits above the rooms.
HARNESS = "puzzlebench.harness"
ROOM_NEVER = {
    "puzzlebench.harness.run": ("puzzlebench.harness.judging", "puzzlebench.harness.campaign",
                                "puzzlebench.harness.execute", "puzzlebench.harness.scheduler",
                                "puzzlebench.harness.resolve"),
    "puzzlebench.harness.judging": ("puzzlebench.harness.campaign",
                                    "puzzlebench.harness.execute",
                                    "puzzlebench.harness.scheduler"),
}
#: At most this many modules at the harness's top level, and no harness module longer.
HARNESS_TOP_MODULES = 12
HARNESS_MODULE_LINES = 400
#: The plugin packages and the highest core layer they may import (the solvers' layer: a
#: reference solver is written against the same API as a user's).
PLUGINS = {"puzzlebench_baselines": "puzzlebench.search"}


def group_of(module: str) -> str:
    """The longest prefix of ``module`` named in LAYERS."""
    named = [g for layer in LAYERS for g in layer
             if module == g or module.startswith(g + ".")]
    if not named:
        raise LookupError(f"{module} is in no layer: add it to tests/house/test_layers.py")
    return max(named, key=len)


def layer_of(module: str) -> int:
    group = group_of(module)
    return next(i for i, layer in enumerate(LAYERS) if group in layer)


def upward(graph_edges: list[Edge]) -> list[str]:
    """Imports that run upward (the core importing a reference solver among them), sideways
    between siblings, or from a plugin package above the solvers' layer, as readable lines."""
    bad = []
    for e in graph_edges:
        if layer_of(e.imported) < layer_of(e.importer):
            bad.append(f"{e.importer}:{e.line} imports {e.imported}, a layer above it")
        plugin = group_of(e.importer)
        if (plugin in PLUGINS and group_of(e.imported) not in PLUGINS
                and layer_of(e.imported) < layer_of(PLUGINS[plugin])):
            bad.append(f"{e.importer}:{e.line} imports {e.imported}, above the plugin API")
        pair = (group_of(e.importer), group_of(e.imported))
        if pair in SIBLINGS or pair[::-1] in SIBLINGS:
            bad.append(f"{e.importer}:{e.line} imports its sibling {e.imported}")
    return bad


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def across_rooms(graph_edges: list[Edge]) -> list[str]:
    """Imports from a harness room into what that room must never know."""
    return [f"{e.importer}:{e.line} imports {e.imported}, which its room must not know"
            for e in graph_edges for room, never in ROOM_NEVER.items()
            if _within(e.importer, room) and any(_within(e.imported, n) for n in never)]


def _block_start(lines: list[str], index: int) -> int:
    """The first line of the block of imports (and a ``try:``) that line ``index`` is in."""
    while index > 0:
        above = lines[index - 1].strip()
        if not (above.startswith(("from ", "import ")) or above == "try:"
                or above.endswith((",", "(")) or above == ")"):
            break
        index -= 1
    return index


def unexplained_deferred(graph_edges: list[Edge]) -> list[str]:
    """Imports inside a function with no comment saying why, on the line itself or on the
    line above its block of imports."""
    sources = {name: path.read_text(encoding="utf-8").splitlines()
               for name, path in modules().items()}
    bad = []
    for e in graph_edges:
        if not e.deferred:
            continue
        lines = sources[e.importer]
        start = _block_start(lines, e.line - 1)
        said = "#" in lines[e.line - 1] or (start > 0 and lines[start - 1].strip().startswith("#"))
        if not said:
            bad.append(f"{e.importer}:{e.line} imports {e.imported} inside a function "
                       "without a comment saying why")
    return bad


def deferred_imports(name: str, lines: list[str]) -> list[int]:
    """Line numbers of every import inside a function of a module, of any package (the
    project's, the standard library's or a third party's)."""
    tree = ast.parse("\n".join(lines))
    found = set()
    for func in ast.walk(tree):
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            found.update(node.lineno for node in ast.walk(func)
                         if isinstance(node, ast.Import | ast.ImportFrom))
    return sorted(found)


def unexplained_anywhere() -> list[str]:
    """Imports of any module inside a function with no comment saying why."""
    bad = []
    for name, path in modules().items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for line in deferred_imports(name, lines):
            start = _block_start(lines, line - 1)
            said = "#" in lines[line - 1] or (start > 0
                                              and lines[start - 1].strip().startswith("#"))
            if not said:
                bad.append(f"{name}:{line} imports inside a function without a comment "
                           "saying why")
    return bad


GRAPH = edges()


def test_every_module_is_in_a_layer() -> None:
    for module in modules():
        group_of(module)


def test_no_import_cycle() -> None:
    assert cycles(GRAPH) == []


def test_no_upward_import() -> None:
    assert upward(GRAPH) == []


def test_harness_rooms_keep_to_themselves() -> None:
    assert across_rooms(GRAPH) == []


@pytest.mark.parametrize("importer, imported", [
    ("puzzlebench.harness.run.inside.child", "puzzlebench.harness.judging.rules"),
    ("puzzlebench.harness.judging.rules", "puzzlebench.harness.campaign.storage.store"),
    ("puzzlebench.harness.run.forking.forkserver", "puzzlebench.harness.execute"),
])
def test_room_check_catches_a_planted_import(importer: str, imported: str) -> None:
    assert across_rooms([*GRAPH, Edge(importer, imported, 1, False)])


def test_harness_is_a_few_small_rooms() -> None:
    names = [m for m in modules() if _within(m, HARNESS)]
    top = [m for m in names if m.count(".") == 2 and m + ".__init__" not in names
           and not any(_within(n, m) and n != m for n in names)]
    assert len(top) <= HARNESS_TOP_MODULES, top
    long = {m: n for m in names
            if (n := len(modules()[m].read_text(encoding="utf-8").splitlines()))
            > HARNESS_MODULE_LINES}
    assert long == {}, f"harness modules over {HARNESS_MODULE_LINES} lines: {long}"


def test_deferred_imports_say_why() -> None:
    assert unexplained_deferred(GRAPH) == []


def test_deferred_imports_of_other_packages_say_why_too() -> None:
    assert unexplained_anywhere() == []


def test_every_deferred_import_is_found() -> None:
    lines = ["import os", "def f():", "    import json", "    if x:", "        from a import b",
             "    return json"]
    assert deferred_imports("m", lines) == [3, 5]


@pytest.mark.parametrize("importer, imported", [
    ("puzzlebench.report.summary", "puzzlebench.harness.campaign.storage.store"),  # report → harness
    ("puzzlebench.solvers.registry", "puzzlebench.harness.resolve"),  # the old registry → harness
    ("puzzlebench.records.record", "puzzlebench.contract"),  # the bottom floor importing up
    ("puzzlebench.studies.backtracking", "puzzlebench_baselines.bitboard"),  # core → a reference
    ("puzzlebench.solvers.registry", "puzzlebench_baselines.minizinc_user"),  # core → a reference
    ("puzzlebench_baselines.cpsat", "puzzlebench.harness.campaign.storage.store"),  # above the API
])
def test_checks_catch_a_planted_upward_import(importer: str, imported: str) -> None:
    planted = [*GRAPH, Edge(importer, imported, 1, False)]
    assert any(importer in line for line in upward(planted))


def test_checks_catch_an_unexplained_deferred_import(tmp_path: object) -> None:
    lines = ["def f():", "    x = 1", "    from puzzlebench.records.record import Outcome", "    return x"]
    assert _block_start(lines, 2) == 2 and not lines[1].strip().startswith("#")
    lines.insert(2, "    # imported on use: start-up time")
    assert _block_start(lines, 3) == 3 and lines[2].strip().startswith("#")


def test_checks_catch_a_planted_cycle() -> None:
    planted = [*GRAPH, Edge("puzzlebench.records.record", "puzzlebench.report.summary", 1, False)]
    assert any("puzzlebench.records.record" in c for c in cycles(planted))


def test_graph_reads_real_imports() -> None:
    """The reader finds imports known to be there (so an empty graph cannot pass)."""
    pairs = {(e.importer, e.imported) for e in GRAPH}
    assert ("puzzlebench.report.summary", "puzzlebench.records.record") in pairs
    assert ("puzzlebench.harness.resolve", "puzzlebench.solvers.locators") in pairs
    assert ("puzzlebench_baselines.bitboard", "puzzlebench_baselines.bitboard_tasks") in pairs
    assert ("puzzlebench_baselines.cpsat", "puzzlebench.contract") in pairs
    assert len(GRAPH) > 300
