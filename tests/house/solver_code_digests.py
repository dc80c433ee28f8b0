"""Every built-in solver's code digest: the project modules its run key follows, without the
libraries' versions (those differ between machines; the modules must not).

A refactoring of the harness or of any layer around the solvers must leave these digests as
they are: a changed digest re-makes every stored run of that solver. Run this file to rewrite
``data/solver_code_digests.json`` after changing a solver's code on purpose::

    python tests/house/solver_code_digests.py
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from puzzlebench.solvers import fingerprint as code_fingerprint
from puzzlebench.solvers.registry import REGISTRY

GOLDEN = Path(__file__).parent / "data" / "solver_code_digests.json"


def code_digest(module: str) -> str:
    """The module part of ``code_fingerprint.digest_of((module,))``."""
    digest = hashlib.sha256()
    for line in code_fingerprint.module_lines(code_fingerprint.closure(module)):
        digest.update(line.encode())
    return digest.hexdigest()[:code_fingerprint.DIGITS]


def current() -> dict[str, str]:
    """Solver name → code digest, for every solver the registry finds."""
    REGISTRY.discover()
    out = {}
    for spec in REGISTRY.all():
        module = getattr(spec.factory, "__module__", None)
        if module is not None:
            out[spec.name] = code_digest(module)
    return dict(sorted(out.items()))


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(current(), indent=1) + "\n")
    print(f"wrote {len(current())} digests to {GOLDEN}", file=sys.stderr)
