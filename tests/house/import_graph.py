"""The project's import graph — the core package and the reference solvers' package — read
from their source with ``ast`` (no code is imported)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PACKAGE = "puzzlebench"
#: The reference solvers' package (a plugin package of the project's own) and its folder.
BASELINES = "puzzlebench_baselines"
BASELINES_ROOT = ROOT / "baselines"


@dataclass(frozen=True)
class Edge:
    """``importer`` imports ``imported`` at ``line``; ``deferred`` when inside a function or
    under ``if TYPE_CHECKING``."""

    importer: str
    imported: str
    line: int
    deferred: bool


def modules(src: Path = SRC, baselines: Path = BASELINES_ROOT) -> dict[str, Path]:
    """Module name → file, for every module of the core package and the baselines package."""
    found = {}
    for root, package in ((src, PACKAGE), (baselines, BASELINES)):
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _target(name: str, known: dict[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _deferred_nodes(tree: ast.AST) -> set[int]:
    """ids of import nodes inside a function body or an ``if TYPE_CHECKING:`` block."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        scoped = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or (
            isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
        if scoped:
            inside.update(id(n) for n in ast.walk(node) if n is not node)
    return inside


def edges(src: Path = SRC, baselines: Path = BASELINES_ROOT) -> list[Edge]:
    """Every import of one project module by another (``from a import b`` where ``a.b`` is a
    module counts as importing ``a.b``, not the package ``a``)."""
    known = modules(src, baselines)
    found: list[Edge] = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        deferred = _deferred_nodes(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                for alias in node.names:
                    sub = f"{origin}.{alias.name}"
                    targets.append(sub if sub in known else origin)
            for target in targets:
                hit = _target(target, known) if target.startswith((PACKAGE, BASELINES)) else None
                if hit and hit != name:
                    found.append(Edge(name, hit, node.lineno, id(node) in deferred))
    return found


def cycles(graph_edges: list[Edge]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), deferred imports
    included: an import inside a function is still a dependency."""
    graph: dict[str, set[str]] = {}
    for e in graph_edges:
        graph.setdefault(e.importer, set()).add(e.imported)
        graph.setdefault(e.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found
