"""Loading a plugin's object from a reference: ``package.module:attr`` or
``path/to/file.py:attr`` — for solvers (``registry``) and problem families
(``problems.catalogue``) alike.

A file is imported once per process under a name derived from its resolved path
(``puzzlebench_plugin_<digest>``), so objects pickled in one process unpickle in another that
loaded the same file.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any


class PluginLoadError(Exception):
    """A reference that is malformed, missing, or whose import failed (one-line message)."""


def load_attribute(ref: str, what: str = "plugin") -> Any:
    """The object a reference names (raises PluginLoadError naming ``what``)."""
    target, _, attr = ref.rpartition(":")
    if not target or not attr:
        raise PluginLoadError(f"{what} reference {ref!r} is not MODULE:ATTR or FILE.py:ATTR")
    try:
        module = _load_file(target, ref, what) if target.endswith(".py") else \
            importlib.import_module(target)
    except PluginLoadError:
        raise
    except BaseException as exc:  # the plugin's own import error (SystemExit too), one line
        raise PluginLoadError(f"cannot import {what} {ref!r}: {type(exc).__name__}: {exc}") \
            from exc
    obj = getattr(module, attr, None)
    if obj is None:
        raise PluginLoadError(f"{target!r} has no attribute {attr!r}")
    return obj


def _load_file(target: str, ref: str, what: str) -> Any:
    path = Path(target)
    if not path.is_file():
        raise PluginLoadError(f"{what} file {target!r} does not exist")
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:16]
    mod_name = f"puzzlebench_plugin_{digest}"
    if mod_name in sys.modules:  # each file is executed once per process
        return sys.modules[mod_name]
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise PluginLoadError(f"cannot load {what} file {target!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # SystemExit or KeyboardInterrupt too
        del sys.modules[mod_name]
        raise PluginLoadError(f"cannot import {what} {ref!r}: {type(exc).__name__}: {exc}") \
            from None
    return module
