"""A user's own MiniZinc model as a solver: ``--solver path/to/model.mzn``.

The model receives the instance as data — ``n`` (and ``queens`` for queens-knights) — and the
answer is read from an output array: for nqueens and torus-queens the array named by
``--param answer=NAME`` (default ``q``, one 0-based column per row); for queens-knights a
``piece`` array (0 empty, 1 queen, 2 knight per square) — a model that declares ``queens``
handles queens-knights, otherwise the queens problems. ``--param mzn_solver=gecode`` picks the
MiniZinc solver. The judge's process only reads the file; MiniZinc runs in the run's process.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, ClassVar

from puzzlebench.baselines.minizinc_gecode import MiniZincSolver
from puzzlebench.contract import Param, Solver
from puzzlebench.problems.base import PuzzlebenchError


class ModelFileError(PuzzlebenchError, ValueError):
    """A MiniZinc model that cannot serve as a solver."""


def is_model(name: str) -> bool:
    return name.endswith(".mzn")


def model_fingerprint(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def model_class(path: str | Path) -> type[Solver]:
    """A solver class for a model file (reads the file: no code runs)."""
    p = Path(path).resolve()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ModelFileError(f"MiniZinc model {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelFileError(f"cannot read MiniZinc model {str(path)!r}: {exc}") from None
    if not re.search(r"\bint\s*:\s*n\s*;", text):
        raise ModelFileError(f"{p.name}: the model must declare the data parameter 'int: n;'")
    knights = re.search(r"\bint\s*:\s*queens\s*;", text) is not None

    class UserModel(MiniZincSolver):
        name: ClassVar[str] = f"mzn:{p.stem}"
        problems: ClassVar[frozenset[str]] = frozenset(
            {"queens-knights"} if knights else {"nqueens", "torus-queens"})
        params: ClassVar[dict[str, Any]] = {
            "mzn_solver": Param("gecode", choices=("gecode",)), "answer": "q"}
        summary: ClassVar[str] = f"the MiniZinc model {p.name}"

        def model_for(self, instance: Any) -> Path:
            return p

    UserModel.__qualname__ = f"UserModel[{p.name}]"
    return UserModel
