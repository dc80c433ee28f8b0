"""Code fingerprints: the part of a run key (and of a record's judge version) that follows the
code a run really used, so a run made with other code is a new run.

A fingerprint digests the *transitive import closure* of its root modules inside the project:
every module they import, at any depth and wherever the import statement sits (a deferred
import inside a function too), that belongs to the ``puzzlebench`` package, to the root
module's own top-level package (a plugin's package), or to no installed location at all (a
plugin file and the files beside it). Each module counts by its normalised code — the parsed
syntax tree without docstrings, comments, line numbers or layout — so rewording a docstring or
a comment keeps the key. Modules of the standard library are left out; every other (third-party)
library the closure imports counts by its installed distribution's name and version
(``importlib.metadata``), so upgrading OR-Tools or numba makes new runs, and so does
installing or removing a library a solver imports optionally.

The registration machinery (``registry``, ``solver_spec``, ``solver_index``, this module, and
``param_space``, the tuning ranges a solver declares for ``tune``) is
imported by every solver for ``@register`` but decides nothing a run computes (the run key
holds the full resolved parameters); it is left out of the closure, so editing it does not
re-make every stored run.

Everything is cached per process (per module name): a process fingerprints the code as it was
when first asked, which is the code it has loaded. ``forget`` empties the caches (tests).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import inspect
import json
import os
import sys
import sysconfig
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from pathlib import Path

from puzzlebench.host.cache_dir import cache_dir
from puzzlebench.old_paths import FACADES, canonical, to_first_names

__all__ = ["closure", "digest_of", "fingerprint", "forget", "library_versions", "module_digest",
           "module_lines"]

#: The project package: always inside the closure.
PROJECT = "puzzlebench"
#: Modules imported only to register solvers: outside every closure (see the module's doc).
REGISTRATION = frozenset({"puzzlebench.solvers.registry", "puzzlebench.solvers.spec",
                          "puzzlebench.solvers.index", "puzzlebench.solvers.fingerprint",
                          "puzzlebench.solvers.param_space"})
#: Digests are cut to this many hex digits (16: 64 bits).
DIGITS = 16

_PATHS = sysconfig.get_paths()
_LIBRARY_ROOTS = tuple(sorted({str(Path(_PATHS[k]).resolve()) for k in
                               ("stdlib", "platstdlib", "purelib", "platlib") if k in _PATHS}))


def fingerprint(cls: type) -> str:
    """A 16-hex-digit digest of a solver class's code: the normalised source of its module's
    import closure inside the project and the versions of the libraries that closure imports."""
    module = sys.modules.get(cls.__module__)
    if module is None or _source_of(cls.__module__) is None:  # defined interactively
        try:
            text = inspect.getsource(cls)
        except (OSError, TypeError):
            text = cls.__qualname__
        return hashlib.sha256(text.encode()).hexdigest()[:DIGITS]
    return digest_of((cls.__module__,))


def digest_of(roots: Iterable[str]) -> str:
    """The fingerprint of the closure of ``roots`` (module names): each module's normalised
    code and the third-party libraries' versions, in a fixed order."""
    return _digest(tuple(sorted(set(roots))))


@cache
def _digest(roots: tuple[str, ...]) -> str:
    names: set[str] = set()
    for root in roots:
        names |= closure(root)
    digest = hashlib.sha256()
    for line in module_lines(names):
        digest.update(line.encode())
    for dist, version in sorted(library_versions(names).items()):
        digest.update(f"library {dist} {version}\n".encode())
    _save_memo()
    return digest.hexdigest()[:DIGITS]


def module_lines(names: Iterable[str]) -> list[str]:
    """One ``module <name> <digest>`` line per module, by the name run keys know it
    (``old_paths.canonical``: a module that moved keeps its line) and in that name's order;
    a facade that only re-exports (``old_paths.FACADES``) has none."""
    by_name = {canonical(n): n for n in names if n not in FACADES}
    return [f"module {c} {module_digest(by_name[c])}\n" for c in sorted(by_name)]


@cache
def closure(root: str) -> frozenset[str]:
    """Every project module ``root`` imports, directly or through others, ``root`` included
    (registration modules excluded; see the module's doc)."""
    home = root.split(".")[0]
    seen: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in seen or name in REGISTRATION:
            continue
        seen.add(name)
        todo.extend(m for m in _imports(name) if _in_project(m, home))
    return frozenset(seen)


def library_versions(modules: Iterable[str]) -> dict[str, str]:
    """``{distribution: version}`` of every third-party library the ``modules`` import
    (``absent`` for an optional one that is not installed)."""
    out: dict[str, str] = {}
    for name in modules:
        for imported in _imports(name):
            top = imported.split(".")[0]
            if _is_library(top, name.split(".")[0]):
                out.update(_distribution(top))
    return out


def module_digest(name: str) -> str:
    """The digest of one module's normalised code: its syntax tree without docstrings and
    other bare string statements, dumped without positions (comments never reach the tree)."""
    facts = _facts(name)
    return facts[0] if facts is not None else "no-source"


def forget() -> None:
    """Empty the per-process caches (for tests that edit code between two fingerprints)."""
    for cached in (_digest, closure, _facts, _source_of, _distribution, _site_listing):
        cached.cache_clear()
    _MEMO.clear()
    _MEMO_STATE.update(loaded=False, dirty=False)


# -- reading modules ---------------------------------------------------------------------


@cache
def _source_of(name: str) -> Path | None:
    """The ``.py`` file of module ``name`` (None: no such module, or not Python source)."""
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None) if module is not None else None
    parent, _, last = name.rpartition(".")
    if path is None and parent and parent not in sys.modules:
        # found beside its parent's file: ``find_spec`` would import the parent (and what it
        # imports: numba, for a run of a plugin that never uses it)
        above = _source_of(parent)
        if above is not None and above.name == "__init__.py":
            for candidate in (above.parent / f"{last}.py", above.parent / last / "__init__.py"):
                if candidate.is_file():
                    return candidate.resolve()
            return None
        if above is not None:  # a module's attribute, not a module
            return None
    if path is None:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError, AttributeError):
            return None
        path = spec.origin if spec is not None else None
    if not path or not str(path).endswith(".py"):
        return None
    return Path(path).resolve()


def _imports(name: str) -> tuple[str, ...]:
    """The modules module ``name``'s import statements name (see ``_facts``)."""
    facts = _facts(name)
    return facts[1] if facts is not None else ()


@cache
def _facts(name: str) -> tuple[str, tuple[str, ...]] | None:
    """(normalised digest, imported module names) of module ``name``; None without source.

    Parsing is most of a fingerprint's cost, so both are also kept on disk (``_MEMO``) under
    the module's name and a hash of its bytes (a file is read and hashed in microseconds),
    per interpreter version (whose syntax trees may differ)."""
    path = _source_of(name)
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    key = f"{MEMO_VERSION}|{name}|{hashlib.sha256(data).hexdigest()}"
    memo = _memo()
    held = memo.get(key)
    if isinstance(held, list) and len(held) == 2 and isinstance(held[0], str):
        return held[0], tuple(str(n) for n in held[1])
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            node.body = [s for s in body if not _is_bare_string(s)] or [ast.Pass()]  # type: ignore[attr-defined]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    named = _named_imports(tree, package)
    to_first_names(tree)
    facts = (hashlib.sha256(ast.dump(tree, include_attributes=False).encode()).hexdigest(),
             named)
    memo[key] = [facts[0], list(facts[1])]
    _MEMO_STATE["dirty"] = True
    return facts


def _is_bare_string(node: ast.AST) -> bool:
    """A statement that is only a string: a docstring, or an attribute's note."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
        and isinstance(node.value.value, str)


def _named_imports(tree: ast.Module, package: str) -> tuple[str, ...]:
    """Every module an import statement names: ``import a.b`` gives ``a.b``; ``from a import
    b`` gives ``a`` and ``a.b`` (a module or not: names that are no module are dropped when
    resolved); relative imports resolved against ``package``. A parent package only passed
    through (``a`` of ``import a.b``) runs its ``__init__`` but gives nothing the module uses:
    it is not followed (a package whose names are used is named itself)."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                try:
                    base = importlib.util.resolve_name("." * node.level + (node.module or ""),
                                                       package)
                except (ImportError, ValueError):
                    continue
            else:
                base = node.module or ""
            found.append(base)
            found.extend(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return tuple(dict.fromkeys(n for n in found if n))


#: The on-disk memo of ``_facts`` (key → [digest, imports]): read once per process, written
#: back when it grew; at most ``MEMO_SIZE`` entries, the newest kept.
_MEMO: dict[str, object] = {}
_MEMO_STATE = {"loaded": False, "dirty": False}
MEMO_SIZE = 4000
#: Part of every memo key: digests made before import statements were read by first names
#: (``old_paths.to_first_names``) are never reused.
MEMO_VERSION = "first-names-2"


def _memo_path() -> Path:
    version = "".join(map(str, sys.version_info[:3]))
    return cache_dir() / "fingerprints" / f"modules-py{version}.json"


def _memo() -> dict[str, object]:
    if not _MEMO_STATE["loaded"]:
        _MEMO_STATE["loaded"] = True
        try:
            held = json.loads(_memo_path().read_text(encoding="utf-8"))
            if isinstance(held, dict):
                _MEMO.update(held)
        except (OSError, ValueError):
            pass  # no memo yet, or a damaged one: parse (and write a new one)
    return _MEMO


def _save_memo() -> None:
    """Write the memo back atomically; a read-only cache only costs the next process time."""
    if not _MEMO_STATE["dirty"]:
        return
    _MEMO_STATE["dirty"] = False
    path = _memo_path()
    kept = dict(list(_MEMO.items())[-MEMO_SIZE:])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(kept), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def _in_project(name: str, home: str) -> bool:
    """Whether module ``name`` is project code to follow (the package, the root's own
    package, or a file installed nowhere), rather than the standard library or a library."""
    top = name.split(".")[0]
    if top in (PROJECT, home):
        return _source_of(name) is not None
    if top in sys.stdlib_module_names or top == "__future__":
        return False
    top_path = _source_of(top)  # a top-level name is found without importing anything
    if top_path is None or str(top_path).startswith(_LIBRARY_ROOTS):
        return False  # a library (its submodules are never looked up: no library is imported)
    return _source_of(name) is not None


def _is_library(top: str, home: str) -> bool:
    """Whether top-level module ``top`` is a third-party library (not the standard library,
    not the project, not a local file)."""
    if top in (PROJECT, home, "__future__") or top in sys.stdlib_module_names:
        return False
    path = _source_of(top)  # a local module beside a plugin is hashed as code, not versioned
    return path is None or str(path).startswith(_LIBRARY_ROOTS)


@cache
def _distribution(top: str) -> tuple[tuple[str, str], ...]:
    """``((distribution, version), ...)`` providing top-level module ``top``: the
    distribution of the same name when there is one (most share their module's name), else
    those whose file list, beside the module, names it (``constraint`` is
    python-constraint2's, ``pysat`` python-sat's). An optional library that is not installed
    is ``(top, "absent")``; a module no distribution lists, ``(top, "unlisted")``."""
    try:
        return ((top, metadata.version(top)),)
    except metadata.PackageNotFoundError:
        pass
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: nothing is imported
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin:
        return ((top, "absent"),)
    origin = Path(spec.origin)
    site = origin.parent.parent if spec.submodule_search_locations else origin.parent
    return tuple(_site_listing(str(site)).get(top, ())) or ((top, "unlisted"),)


@cache
def _site_listing(site: str) -> dict[str, list[tuple[str, str]]]:
    """Top-level module → (distribution, version) of every ``.dist-info`` folder in ``site``
    (read once per folder, and only for a module named otherwise than its distribution)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for info in sorted(Path(site).glob("*.dist-info")):
        for top in _listed_tops(info):
            out.setdefault(top, []).append(_listing_names(info))
    return out


def _listing_names(info: Path) -> tuple[str, str]:
    """(name, version) of a ``NAME-VERSION.dist-info`` folder, read from its name (parsing
    every distribution's metadata costs a third of a second)."""
    name, _, version = info.name.removesuffix(".dist-info").partition("-")
    return name, version


def _listed_tops(info: Path) -> set[str]:
    """The top-level modules a ``.dist-info`` folder lists (``top_level.txt``, else the first
    part of every path in ``RECORD``)."""
    try:
        return set((info / "top_level.txt").read_text(encoding="utf-8").split())
    except OSError:
        pass
    tops: set[str] = set()
    try:
        lines = (info / "RECORD").read_text(encoding="utf-8").splitlines()
    except OSError:
        return tops
    for line in lines:
        first, sep, _ = line.split(",", 1)[0].partition("/")
        tops.add(first if sep else first.split(".", 1)[0])
    return tops


@cache
def imports_numba(module: str) -> bool:
    """Whether ``module``'s import closure imports numba, read from the source (once per
    module and process: 0.1 ms a look, on every task of a study otherwise)."""
    return "numba" in library_versions(closure(module))
