"""Every numba matter of the run side, in one place.

Which runs want numba's compiler started before the fork (``uses_numba``); starting it once
in the fork server, so that every run it forks inherits it (``start_compiler``); whether a
solver's kernels are in numba's cache for their current source, so that a primer would only
load them (``kernels_on_disk``); numba's cache made read-only in a sealed run
(``read_only_caches``); and, for the warm-up, whether numba is compiling right now and how
many kernels it has compiled or loaded (``compiling``, ``compilations``).

Nothing here loads numba: each function looks at ``sys.modules`` first, so the lean fork
server and pure-Python runs never pay for it. Two numba matters live elsewhere, each beside
what it serves: ``code_fingerprint.imports_numba`` (read from the source, below the harness)
and ``compiled_clock`` (the clock compiled solvers read, on the solvers' side).
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

from puzzlebench.code_fingerprint import closure, imports_numba
from puzzlebench.solver_spec import SolverSpec


def uses_numba(spec: SolverSpec) -> bool:
    """Whether the solver's runs want numba's compiler started before the fork: it is declared
    compiled, or its module or a project module it imports imports numba (read from the
    source, never run; a plugin's own code is not followed past what is importable by name)."""
    return spec.compiled or imports_numba(spec.module)


def start_compiler() -> None:
    """Start numba's compiler here once numba is loaded (a compiled solver's run then only
    loads its cached kernels: ~0.03 s instead of ~0.35 s); never load numba for it."""
    if "numba" not in sys.modules:
        return
    # imported here: only a server whose runs use numba starts its compiler
    from puzzlebench.compiled_clock import prepare_jit

    prepare_jit()


def kernels_on_disk(module: str) -> bool:
    """Whether every cached numba kernel of ``module`` and the project modules it imports has
    been compiled into numba's cache for their current source (an index file that numba
    reads as fresh): then a primer would only load what each run loads anyway (0.3-0.5 s
    per solver, measured)."""
    if "numba" not in sys.modules:  # the module and all it imports are loaded: no kernel
        return True
    # imported on use: in the fork server only, where numba is loaded already (checked above)
    from numba.core.registry import CPUDispatcher

    try:
        names = closure(module) | {module}
    except Exception:  # a module it cannot read: prime, as if nothing were cached
        return False
    for name in names:
        for obj in getattr(sys.modules.get(name), "__dict__", {}).values():
            if not isinstance(obj, CPUDispatcher) or obj.targetoptions.get("inline") == "always":
                continue  # inlined helpers are compiled into their callers, never on their own
            cache_file = getattr(getattr(obj, "_cache", None), "_cache_file", None)
            index = getattr(cache_file, "_index_path", None)
            if index is not None and not os.path.exists(index):
                return False
            # an index written for an older source of the module is stale: numba ignores it
            # and every sealed run would compile the kernel again (and, bounded by its share
            # of the time limit, in its timed phase), so it counts as missing
            load = getattr(cache_file, "_load_index", None)
            if index is not None and callable(load):
                try:
                    if not load():
                        return False
                except Exception:
                    return False
    return True


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
