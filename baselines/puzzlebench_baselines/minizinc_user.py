"""A user's own MiniZinc model as a solver: ``--solver path/to/model.mzn``.

The model receives the instance as data — ``n`` (and ``queens`` for queens-knights) — and the
answer is read from the output array named by ``--param answer=NAME``: for nqueens and
torus-queens (default ``q``) one column per row; for queens-knights (default ``piece``) an
n × n array of squares, empty, queen, knight (ints, or an enum whose values are named ``Q``
and ``N``) — a model that declares ``queens`` handles queens-knights, otherwise the queens
problems. The answer is read in the model's own terms: ``--param base=auto`` (the default)
takes the index base from the lower bound of the array's declared domain —
``array [1..n] of var 1..n: q`` is 1-based, ``var 0..n-1`` 0-based, ``var 0..2`` pieces count
from 0 — and ``base=0`` or ``base=1`` says it outright. The run's log says which base was used.
``--param mzn_solver=gecode`` picks the MiniZinc solver. The judge's process only reads the
file; MiniZinc runs in the run's process.

It is not a baseline but the solver a user's .mzn model runs as; it lives beside the
MiniZinc adapter it shares, so the core never needs the minizinc package.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any, ClassVar

from puzzlebench.contract import Param, Solver
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.problems.conventions import BASES
from puzzlebench_baselines.minizinc_gecode import MiniZincSolver


class ModelFileError(PuzzlebenchError, ValueError):
    """A MiniZinc model that cannot serve as a solver."""


def is_model(name: str) -> bool:
    return name.endswith(".mzn")


def model_fingerprint(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"%[^\n]*", "", text)


def _lower_bound(domain: str, text: str, depth: int = 0) -> int | None:
    """The lower bound of a declared domain when the file states it: ``LO..HI`` with LO an
    integer literal or a name bound to one (``int: lo = 1;``), or a name bound to such a set
    (``set of int: COLS = 1..n;``), or an enum (counted from 1 by MiniZinc, read by name)."""
    domain = domain.strip()
    while domain.startswith("(") and domain.endswith(")"):
        domain = domain[1:-1].strip()
    if depth > 8:
        return None
    if ".." in domain:
        low = domain.split("..", 1)[0].strip()
        if re.fullmatch(r"[+-]?\d+", low):
            return int(low)
        bound = re.search(rf"\bint\s*:\s*{re.escape(low)}\s*=\s*([^;]+);", text)
        if re.fullmatch(r"\w+", low) and bound:
            value = bound.group(1).strip()
            return int(value) if re.fullmatch(r"[+-]?\d+", value) else None
        return None
    if re.fullmatch(r"\w+", domain):
        named = re.search(rf"\bset\s+of\s+int\s*:\s*{re.escape(domain)}\s*=\s*([^;]+);", text)
        if named:
            return _lower_bound(named.group(1), text, depth + 1)
        if re.search(rf"\benum\s+{re.escape(domain)}\b", text):
            return 1
    return None


def declared_base(text: str, array: str) -> tuple[int, str]:
    """The index base of the output array ``array`` read from the model's text — the lower
    bound of its declared domain, 0 or 1 — with the declaration, for the run's log. Raises
    ModelFileError saying what to change when the file does not state it."""
    text = _strip_comments(text)
    found = re.search(
        rf"\barray\s*\[[^\]]*\]\s*of\s+var\s+([^:;]+?)\s*:\s*{re.escape(array)}\b", text)
    if found is None:
        raise ModelFileError(f"the model declares no output array 'array [...] of var ...: "
                             f"{array};' — name the answer's array with --param answer=NAME")
    declaration = " ".join(found.group(0).split())
    low = _lower_bound(found.group(1), text)
    if low is None:
        raise ModelFileError(f"cannot tell the index base of {array!r} from its declaration "
                             f"'{declaration}': declare its domain as LO..HI with LO 0 or 1, "
                             "or pass --param base=0 or --param base=1")
    if low not in BASES:
        raise ModelFileError(f"{array!r} is declared '{declaration}', counted from {low}: "
                             "answers count from 0 or 1 (or pass --param base=0|1)")
    return low, declaration


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
            "mzn_solver": Param("gecode", choices=("gecode",)),
            "answer": "piece" if knights else "q",
            "base": Param("auto", choices=("auto", "0", "1"))}
        summary: ClassVar[str] = f"the MiniZinc model {p.name}"

        def __init__(self, **params: Any) -> None:
            super().__init__(**params)
            self.bases: dict[str, int] = {}
            self.notes: dict[str, str] = {}

        def model_for(self, instance: Any) -> Path:
            return p

        def answer_base(self, instance: Any) -> int:
            array = self.answer_array(instance)
            if array not in self.bases:  # said once in the run's log: the choice is recorded
                if self.config["base"] != "auto":
                    base, why = int(self.config["base"]), "--param base"
                else:
                    base, declaration = declared_base(text, array)
                    why = f"declared '{declaration}'"
                self.notes[array] = f"{p.name}: answer array {array!r} read {base}-based ({why})"
                print(self.notes[array])
                self.bases[array] = base
            return self.bases[array]

        def answer_note(self, instance: Any) -> str:
            """The base chosen for the answer array and why: in the record's notes, so that
            ``solve`` and ``--json`` show it."""
            array = self.answer_array(instance)
            self.answer_base(instance)
            return self.notes.get(array, "")

    UserModel.__qualname__ = f"UserModel[{p.name}]"
    return UserModel
