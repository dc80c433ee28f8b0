"""Solvers in any language: a program described by a TOML manifest, spoken to in JSON.

A manifest names the program and declares its capabilities::

    [solver]
    name = "my-c-solver"
    problems = ["nqueens", "torus-queens"]
    command = ["./nqueens", "--fast"]   # run in the manifest's folder
    complete = false
    stochastic = true
    counts = false
    base = 0                            # 1: the answer's rows and columns count from 1
    answer_format = "encoding"          # "board": the answer is drawn with Q, N and .
    [solver.params]                     # defaults; overridable with --param
    restarts = 10

Protocol (docs/how-to/external-program.md): the program is started in the run's process group, reads one
JSON object on stdin — ``problem``, ``size``, ``instance`` (the instance's fields), ``seed``,
``budget``, ``params``, ``task`` (``solve`` or ``count``) — and writes its result as the *last
non-empty line* of stdout: ``{"claim": ..., "answer": ..., "counters": {...}, "count": ...,
"unique": ...}`` (a claim among ``solved``, ``infeasible``, ``unknown``, ``declined``); an
``infeasible`` claim may name a DRUP/DRAT ``proof`` file and the DIMACS
``cnf`` file it refutes, which the judge checks (``harness.judging.proofs``). Everything else it
prints is kept as the run's log. A non-zero exit status, a death by signal, or a missing or
malformed last line is a crash with the tail of stderr.

The judge's process only reads the manifest (data); the program itself runs in the run's own
process (``harness.run.child``), like any solver, so it is timed, limited and killed the same way.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from puzzlebench.problems import PROBLEMS
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.problems.conventions import (
    ANSWER_FORMATS,
    BASES,
    ConventionError,
    convention_hint,
    from_board,
    shift_base,
)
from puzzlebench.solvers.contract import BUDGET_FIELDS, Budget, Claim, Proposal, Solver
from puzzlebench.solvers.spec import NAME_PATTERN

MANIFEST_KEYS = {"name", "problems", "command", "complete", "exact", "stochastic", "counts",
                 "counts_unique", "honours", "params", "summary", "base", "answer_format"}


class ManifestError(PuzzlebenchError, ValueError):
    """A manifest that does not describe a runnable program; the message names the key."""


class ExternalProgramError(RuntimeError):
    """The program failed (exit status, signal, no result line); the run is a crash."""


def is_manifest(name: str) -> bool:
    return name.endswith(".toml")


def read_manifest(path: str | Path) -> dict[str, Any]:
    """The checked ``[solver]`` table of a manifest, ``command`` resolved against its folder."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"solver manifest {str(p)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"cannot read solver manifest {str(p)!r}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{p.name}: not valid TOML ({exc})") from None
    table = data.get("solver")
    if not isinstance(table, dict):
        raise ManifestError(f"{p.name}: a [solver] table is required")
    unknown = set(table) - MANIFEST_KEYS
    if unknown:
        raise ManifestError(f"{p.name} [solver]: unknown key {sorted(unknown)[0]!r}")
    name, problems, command = table.get("name"), table.get("problems"), table.get("command")
    if not isinstance(name, str) or not name:
        raise ManifestError(f"{p.name} [solver].name: a non-empty string is required")
    if NAME_PATTERN.fullmatch(name) is None:
        raise ManifestError(f"{p.name} [solver].name: {name[:80]!r} is not a solver name "
                            "(1-64 characters: letters, digits and . _ : + = -, starting with "
                            "a letter or digit)")
    if not isinstance(problems, list) or not problems or not set(problems) <= set(PROBLEMS):
        raise ManifestError(f"{p.name} [solver].problems: a list among {sorted(PROBLEMS)}")
    if not isinstance(command, list) or not command or not all(isinstance(c, str) for c in command):
        raise ManifestError(f"{p.name} [solver].command: a list of strings is required")
    honours = table.get("honours", ["time_limit"])
    if not isinstance(honours, list) or not set(honours) <= set(BUDGET_FIELDS):
        raise ManifestError(f"{p.name} [solver].honours: a list among {list(BUDGET_FIELDS)}")
    params = table.get("params", {})
    if not isinstance(params, dict):
        raise ManifestError(f"{p.name} [solver].params: must be a table")
    folder = p.resolve().parent
    first = command[0]
    if first.startswith(("./", "../")) or "/" in first:
        command = [str((folder / first).resolve()), *command[1:]]
    out = dict(table, command=command, honours=honours, params=params, folder=str(folder))
    for flag in ("complete", "exact", "stochastic", "counts", "counts_unique"):
        if not isinstance(out.get(flag, False), bool):
            raise ManifestError(f"{p.name} [solver].{flag}: true or false")
    if out.setdefault("base", 0) not in BASES or isinstance(out["base"], bool):
        raise ManifestError(f"{p.name} [solver].base: 0 or 1 (what the answer's rows and "
                            "columns count from)")
    if out.setdefault("answer_format", "encoding") not in ANSWER_FORMATS:
        raise ManifestError(f"{p.name} [solver].answer_format: one of {list(ANSWER_FORMATS)}")
    return out


def manifest_fingerprint(path: str | Path, command: list[str]) -> str:
    """A digest of the manifest and of the program file it starts (when it is a file)."""
    digest = hashlib.sha256(Path(path).read_bytes())
    program = Path(command[0])
    if program.is_file():
        digest.update(hashlib.sha256(program.read_bytes()).digest())
    return digest.hexdigest()[:16]


def solver_class(path: str | Path) -> type[Solver]:
    """A Solver class that runs the manifest's program (built in the run's own process)."""
    m = read_manifest(path)

    class ExternalProgram(Solver):
        name: ClassVar[str] = m["name"]
        problems: ClassVar[frozenset[str]] = frozenset(m["problems"])
        complete: ClassVar[bool] = bool(m.get("complete", False))
        exact: ClassVar[bool] = bool(m.get("exact", False))
        stochastic: ClassVar[bool] = bool(m.get("stochastic", False))
        counts: ClassVar[bool] = bool(m.get("counts", False))
        counts_unique: ClassVar[bool] = bool(m.get("counts_unique", False))
        honours: ClassVar[frozenset[str]] = frozenset(m["honours"])
        params: ClassVar[dict[str, Any]] = dict(m["params"])
        summary: ClassVar[str] = str(m.get("summary", f"external program {m['command'][0]}"))
        command: ClassVar[list[str]] = m["command"]
        folder: ClassVar[str] = m["folder"]
        base: ClassVar[int] = m["base"]
        answer_format: ClassVar[str] = m["answer_format"]
        manifest: ClassVar[str] = Path(path).name

        def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
            return self._call("solve", instance, budget, int(rng.integers(2**63 - 1)))

        def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
            return self._call("count", instance, budget, 0, unique=unique)

        def _call(self, task: str, instance: Any, budget: Budget, seed: int,
                  unique: bool = False) -> Proposal:
            request = {"problem": instance.problem, "size": instance.size,
                       "instance": instance.describe(), "seed": seed, "budget": budget.to_dict(),
                       "params": self.config, "task": task, "unique": unique}
            proposal = run_program(self.command, request, self.folder)
            return in_encoding(proposal, instance, self.base, self.answer_format, self.manifest)

    ExternalProgram.__qualname__ = f"ExternalProgram[{m['name']}]"
    return ExternalProgram


def run_program(command: list[str], request: dict[str, Any], folder: str) -> Proposal:
    """Start the program in the manifest's folder, hand it the request, read its last line as
    the proposal."""
    try:
        proc = subprocess.run(command, input=json.dumps(request), capture_output=True, text=True,
                              check=False, cwd=folder)
    except OSError as exc:
        raise ExternalProgramError(f"cannot start {command[0]!r}: {exc.strerror or exc}") from None
    sys.stdout.write(proc.stdout)  # the run's log
    sys.stderr.write(proc.stderr)
    tail = " | ".join(proc.stderr.strip().splitlines()[-3:])[-500:]
    if proc.returncode != 0:
        how = (f"was killed by signal {-proc.returncode}" if proc.returncode < 0
               else f"exited with status {proc.returncode}")
        raise ExternalProgramError(f"the program {how}" + (f": {tail}" if tail else ""))
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if not lines:
        raise ExternalProgramError("the program printed no result line"
                                   + (f": {tail}" if tail else ""))
    try:
        result = json.loads(lines[-1])
    except ValueError:
        raise ExternalProgramError(f"the program's last line is not JSON: {lines[-1][:200]!r}") from None
    if not isinstance(result, dict):
        raise ExternalProgramError("the program's last line is not a JSON object")
    # The answer stays the program's JSON data: the judge validates exactly that.
    return Proposal(answer=result.get("answer"), claim=result.get("claim", Claim.UNKNOWN),
                    counters=result.get("counters") or {}, count=result.get("count"),
                    unique=result.get("unique"), note=str(result.get("note", ""))[:500],
                    proof=_handed_file(result, "proof", folder),
                    cnf=_handed_file(result, "cnf", folder))


def _handed_file(result: dict[str, Any], key: str, folder: str) -> str | None:
    """The text of a file the result line names under ``key`` (``proof``: a DRUP/DRAT proof,
    ``cnf``: the DIMACS formula it refutes; a path relative to the manifest's folder, e.g.
    in ``$TMPDIR``), read here in the run's process: its text crosses to the judge."""
    path = result.get(key)
    if path is None:
        return None
    if not isinstance(path, str):
        raise ExternalProgramError(f"the result's {key!r} must be a file path, got {path!r}")
    try:
        return (Path(folder) / path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        raise ExternalProgramError(f"cannot read the {key} file {path!r}: "
                                   f"{getattr(exc, 'strerror', None) or exc} (text DRUP/DRAT "
                                   "and DIMACS only)") from None


def in_encoding(proposal: Proposal, instance: Any, base: int, answer_format: str,
                manifest: str = "solver.toml") -> Proposal:
    """The program's answer in the problem's encoding, read in the convention its manifest
    declares (``base``, ``answer_format``). An undeclared 1-based or drawn answer is refused
    (ExternalProgramError, a crash) with what to change, never judged ``wrong`` for it."""
    answer, problem, n = proposal.answer, instance.problem, getattr(instance, "n", 0)
    if answer is None or not n:  # no board of n: moves (sliding) have no base or drawing
        return proposal
    if answer_format == "board":
        try:
            return replace(proposal, answer=from_board(problem, n, answer))
        except ConventionError as exc:
            raise ExternalProgramError(f"the answer is not a board (answer_format = \"board\"): "
                                       f"{exc}") from None
    hint = convention_hint(problem, n, answer)
    if hint == "board":
        raise ExternalProgramError(
            "the answer is a drawn board: declare answer_format = \"board\" under [solver] in "
            f"{manifest}, or print the problem's JSON encoding (e.g. nqueens: [c0, c1, ...], "
            "the 0-based column of each row)")
    if hint == "1-based" and base == 0:
        raise ExternalProgramError(
            f"the answer counts rows and columns from 1 ({n} appears; on an n = {n} board they "
            f"run 0..{n - 1}): declare base = 1 under [solver] in {manifest}, or print each "
            "number minus 1")
    return replace(proposal, answer=shift_base(problem, answer, base))
