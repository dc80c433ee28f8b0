"""A solver's code fingerprint: part of every run key, so a run made with other code is new.

The digest covers the source of the module that defines the solver class and of every
module that module refers to directly (imported modules and imported names), except the
standard library and installed third-party packages, whose versions the record keeps apart.
It does not depend on the path used to name a plugin — only on the code's content.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

_LIBRARY_ROOTS = tuple(
    str(Path(p).resolve()) for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
                                     sysconfig.get_paths()["platlib"]}
)


def _project_roots() -> tuple[str, ...]:
    return (str(Path(__file__).resolve().parent),)


def _source_file(module: ModuleType | None) -> Path | None:
    path = getattr(module, "__file__", None)
    if not path or not str(path).endswith(".py"):
        return None
    resolved = Path(path).resolve()
    if str(resolved).startswith(_LIBRARY_ROOTS) and not str(resolved).startswith(_project_roots()):
        return None  # the standard library or an installed third-party package
    return resolved


def fingerprint(cls: type) -> str:
    """A 16-hex-digit digest of the solver's own code and the project code it uses directly."""
    module = sys.modules.get(cls.__module__)
    files: set[Path] = set()
    own = _source_file(module)
    if own is not None:
        files.add(own)
    for value in vars(module).values() if module is not None else ():
        target = value if isinstance(value, ModuleType) else inspect.getmodule(value)
        path = _source_file(target) if target is not None else None
        if path is not None:
            files.add(path)
    digest = hashlib.sha256()
    if not files:  # defined interactively: the class's own source, if any
        try:
            digest.update(inspect.getsource(cls).encode())
        except (OSError, TypeError):
            digest.update(cls.__qualname__.encode())
    for path in sorted(files):
        try:
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            digest.update(str(path).encode())
    return digest.hexdigest()[:16]
