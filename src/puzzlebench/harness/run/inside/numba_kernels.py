"""Every numba matter of the run side, in one place.

Which runs want numba's compiler started before the fork (``uses_numba``); starting it once
in the fork server, so that every run it forks inherits it (``start_compiler``); whether a
solver's kernels are in numba's cache for their current source *and for the argument types its
runs call them with*, so that a primer would only load them (``kernels_on_disk``, which reads
the note each primer leaves of the cache entries its warm-up used: ``noting_kernels``); numba's
cache made read-only in a sealed run (``read_only_caches``); and, for the warm-up, whether numba
is compiling right now and how many kernels it has compiled or loaded (``compiling``,
``compilations``).

Nothing here loads numba: each function looks at ``sys.modules`` first, so the lean fork
server and pure-Python runs never pay for it. Two numba matters live elsewhere, each beside
what it serves: ``code_fingerprint.imports_numba`` (read from the source, below the harness)
and ``compiled_clock`` (the clock compiled solvers read, on the solvers' side).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import sys
from collections.abc import Iterator
from typing import Any

from puzzlebench.solvers.fingerprint import closure, imports_numba
from puzzlebench.solvers.spec import SolverSpec


def uses_numba(spec: SolverSpec) -> bool:
    """Whether the solver's runs want numba's compiler started before the fork: it is declared
    compiled, or its module or a project module it imports imports numba (read from the
    source, never run; a plugin's own code is not followed past what is importable by name)."""
    return spec.compiled or imports_numba(spec.module)


def start_compiler(*, load: bool = False) -> None:
    """Start numba's compiler here once numba is loaded (a compiled solver's run then only
    loads its cached kernels: ~0.03 s instead of ~0.35 s); never load numba for it, unless
    ``load`` (the harness about to fork a compiled solver's run itself)."""
    if "numba" not in sys.modules and not load:
        return
    # imported here: only a process whose runs use numba starts its compiler
    from puzzlebench.solvers.compiled_clock import prepare_jit

    with blas_loaded():
        prepare_jit()


@contextlib.contextmanager
def blas_loaded() -> Iterator[bool]:
    """Around the start of numba's compiler: SciPy's BLAS module (``scipy.linalg.cython_blas``,
    the real extension) loaded without the package around it; yields whether it was loaded here.

    Why: numba's compiler checks on start that BLAS is there (``numba.np.arraymath`` imports
    ``scipy.linalg.cython_blas``), and importing it through ``scipy.linalg`` runs that
    package's ``__init__`` — its array-API layer clones numpy and so loads ``numpy.f2py`` and
    every other lazy submodule: 0.25 s of the 0.45 s the compiler takes to start, on every
    compiled one-shot command's path. Afterwards the module is taken out of ``sys.modules``
    again: a later ``import scipy.linalg.cython_blas`` (numba compiling ``np.dot``, a solver)
    goes the usual way, package and all, and gets the same module (an extension loads once
    per process). Where SciPy is missing, laid out otherwise, or already loaded, nothing is
    done and numba imports what it imports."""
    name = "scipy.linalg.cython_blas"
    loaded = name not in sys.modules and "scipy.linalg" not in sys.modules and _load(name)
    try:
        yield loaded
    finally:
        if loaded:
            sys.modules.pop(name, None)


def _load(name: str) -> bool:
    """Load the extension module ``scipy.linalg.cython_blas`` by its file alone."""
    try:
        # imported here: only a process that starts numba's compiler looks for SciPy's BLAS
        import importlib.machinery
        import importlib.util

        # imported here, for the same reason
        import scipy

        folder = os.path.join(os.path.dirname(scipy.__file__), "linalg")
        paths = [os.path.join(folder, "cython_blas" + suffix)
                 for suffix in importlib.machinery.EXTENSION_SUFFIXES]
        path = next((p for p in paths if os.path.exists(p)), None)
        spec = importlib.util.spec_from_file_location(name, path) if path else None
        if spec is None or spec.loader is None:
            return False
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
    except Exception:  # any trouble: numba imports it the usual way
        return False
    return True


def kernels_on_disk(module: str, key: tuple[str, ...]) -> bool:
    """Whether a primer for ``key`` (``forkserver.prime_key``: solver, warm-up instance,
    parameters) would only load what each run loads anyway (0.3-0.5 s per solver, measured):
    the note its last primer left (``noting_kernels``) names every cached numba kernel of
    ``module`` and the project modules it imports, and every entry it put in a kernel's index
    (argument types, CPU, bytecode) is in that index now, fresh for the current source.

    An index file alone is not enough: numba keys it by the argument types of each call, and
    runs call a kernel with types of their own (a pattern database read-only memory-mapped,
    where an in-process test passed a writable array). A kernel whose index holds only other
    entries compiles again in every sealed run's warm-up, seconds each."""
    if "numba" not in sys.modules:  # the module and all it imports are loaded: no kernel
        return True
    try:
        kernels = _cached_kernels(module)
        if not kernels:
            return True
        note = _read_note(kernels, module, key)
        # an index written for an older source of its module reads as empty (numba ignores it)
        return note.keys() == kernels.keys() and all(
            set(note[path]) <= {str(entry) for entry in kernel._cache._cache_file._load_index()}
            for path, kernel in kernels.items())
    except Exception:  # no note, or a module or an index it cannot read: prime
        return False


@contextlib.contextmanager
def noting_kernels(module: str, key: tuple[str, ...]) -> Iterator[None]:
    """Around a primer's warm-up: note which index entries of each cached kernel of
    ``module``'s closure the warm-up looked up (hit or miss) and that are on disk after it,
    for ``kernels_on_disk``. The runs look up the same entries (their warm-up is the same).
    An entry the primer could not write (an uncachable kernel, a cache it may not write) is
    left out: priming again would not write it either. Nothing is noted when the warm-up
    raises or the note cannot be written (the next server primes again)."""
    # imported on use: a primer runs only where numba is loaded (kernels_on_disk above)
    caching = importlib.import_module("numba.core.caching")
    looked_up: set[str] = set()
    load = caching.Cache.load_overload

    def load_overload(self: Any, sig: Any, target_context: Any) -> Any:
        with contextlib.suppress(Exception):
            looked_up.add(str(self._index_key(sig, target_context.codegen())))
        return load(self, sig, target_context)

    caching.Cache.load_overload = load_overload
    try:
        yield
    finally:
        caching.Cache.load_overload = load
    with contextlib.suppress(Exception):
        kernels = _cached_kernels(module)
        note = {path: sorted(looked_up & {str(e) for e in k._cache._cache_file._load_index()})
                for path, k in kernels.items()}
        path = _note_path(kernels, module, key)
        part = f"{path}.{os.getpid()}.part"
        with open(part, "w", encoding="utf-8") as f:
            json.dump(note, f)
        os.replace(part, path)  # whole or not at all: a server may read it meanwhile


def load_kernels(module: str, key: tuple[str, ...]) -> int:
    """In the fork server: load from numba's cache the kernels the primer of ``key`` noted
    (``noting_kernels``), so that every run forked afterwards inherits them instead of loading
    them itself: 20-40 ms of every compiled run's warm-up, once per server instead (the first
    command's 28 runs of the queens searches loaded the same kernels 28 times). Only entries
    that load are added, never compiled here: a stale or missing entry is left to the runs,
    which compile it in their warm-up as before. Returns how many kernels were loaded."""
    if "numba" not in sys.modules:
        return 0
    try:
        kernels = _cached_kernels(module)
        if not kernels:
            return 0
        note = _read_note(kernels, module, key)
        # imported on use: numba is loaded already (checked above)
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.sigutils import normalize_signature
    except Exception:  # no note yet, or numba laid out otherwise: the runs load their own
        return 0
    loaded = 0
    for path, kernel in kernels.items():
        wanted = set(note.get(path, ()))
        with contextlib.suppress(Exception), global_compiler_lock:
            for entry in kernel._cache._cache_file._load_index():
                args, _ = normalize_signature(entry[0])
                if str(entry) not in wanted or tuple(args) in kernel.overloads:
                    continue
                cres = kernel._cache.load_overload(entry[0], kernel.targetctx)
                if cres is None:  # not loadable here: the run compiles it, as before
                    continue
                if not cres.objectmode:  # as numba's own Dispatcher.compile on a cache hit
                    kernel.targetctx.insert_user_function(cres.entry_point, cres.fndesc,
                                                          [cres.library])
                kernel.add_overload(cres)
                loaded += 1
    return loaded


def _cached_kernels(module: str) -> dict[str, Any]:
    """The numba kernels of ``module`` and the project modules it imports that numba caches on
    disk (``cache=True``), as loaded in this process, by the path of their index file."""
    # imported on use: numba is loaded already (the callers check)
    from numba.core.registry import CPUDispatcher

    kernels: dict[str, Any] = {}
    for name in closure(module) | {module}:
        for obj in getattr(sys.modules.get(name), "__dict__", {}).values():
            if not isinstance(obj, CPUDispatcher) or obj.targetoptions.get("inline") == "always":
                continue  # inlined helpers are compiled into their callers, never on their own
            cache_file = getattr(getattr(obj, "_cache", None), "_cache_file", None)
            index = getattr(cache_file, "_index_path", None)  # None: not cached on disk
            if index is not None:
                kernels[index] = obj
    return kernels


def _read_note(kernels: dict[str, Any], module: str, key: tuple[str, ...]) -> dict[str, list[str]]:
    """The note the last primer of ``key`` left (``noting_kernels``): per kernel's index file,
    the entries its warm-up looked up. Raises OSError or ValueError where there is none."""
    with open(_note_path(kernels, module, key), encoding="utf-8") as f:
        note: dict[str, list[str]] = json.load(f)
    return note


def _note_path(kernels: dict[str, Any], module: str, key: tuple[str, ...]) -> str:
    """Where the primer of ``key`` leaves its note: beside the first of the kernels' index files
    (in numba's cache, which goes with it), named for the module's file and the key."""
    where = repr((getattr(sys.modules.get(module), "__file__", module), key))
    digest = hashlib.sha256(where.encode()).hexdigest()[:20]
    return os.path.join(os.path.dirname(min(kernels)), f"puzzlebench-primed-{digest}.json")


def read_only_caches(private_tmp: str) -> None:
    """Numba's in-tree caches can no longer be written: cached kernels load, new ones stay in
    memory. Numba refuses ``cache=True`` functions whose cache directory it cannot write, and
    fails a compilation whose result it cannot save; both are relaxed in this process only."""
    caching = sys.modules.get("numba.core.caching")
    if caching is None:
        # numba not loaded yet: point its cache at the run's private temporary directory
        # (kernels compile anew)
        os.environ.setdefault("NUMBA_CACHE_DIR", f"{private_tmp}/numba-cache")
        return
    locator = caching._CacheLocator
    ensure = locator.ensure_cache_path

    def ensure_cache_path(self: object) -> None:
        with contextlib.suppress(OSError):
            ensure(self)

    locator.ensure_cache_path = ensure_cache_path
    save = caching.Cache.save_overload

    def save_overload(self: object, sig: object, data: object) -> None:
        with contextlib.suppress(OSError):
            save(self, sig, data)

    caching.Cache.save_overload = save_overload


def compiling() -> bool:
    """Whether this thread is inside numba's compiler (it holds numba's compiler lock)."""
    if "numba" not in sys.modules:
        return False
    # imported on use: numba is loaded already (checked above); never loaded for this
    from numba.core.compiler_lock import global_compiler_lock

    return bool(global_compiler_lock.is_locked())


_count = [0]
_listening = False


def compilations() -> int:
    """Kernels numba has compiled or loaded in this process since it was first asked, plus
    one once numba is loaded at all (0 while it is not: nothing can have compiled), so a
    round that loaded numba for the first time counts as one that compiled."""
    global _listening
    if "numba" not in sys.modules:  # never load numba to count what it did not do
        return 0
    if not _listening:
        # imported on use: only in a run whose solver has loaded numba already
        from numba.core import event

        class Counter(event.Listener):
            def on_start(self, _event: Any) -> None:
                _count[0] += 1

            def on_end(self, _event: Any) -> None:
                pass

        event.register("numba:compile", Counter())
        _listening = True
    return 1 + _count[0]
