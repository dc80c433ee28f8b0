"""Certified infeasibility: an ``infeasible`` claim proved by a checked proof of
unsatisfiability, as the SAT Competition asks of an UNSAT answer.

The judge encodes the instance as CNF with its own encoding (``problems.cnf``, tested against
brute force), solves it with PySAT's CaDiCaL 1.9.5 asking for a DRUP proof, and checks the
proof with an independent checker. A proof a solver hands over (``sat-cadical --param
proof=true``, or an external program's proof file) is checked the same way, against the
judge's formula or against the solver's own formula when every clause of that is one of the
judge's (an unsatisfiable sub-formula makes the whole formula unsatisfiable).

The checker is dratify's pure-Python engine (forward checking: every lemma is checked, not
only those the refutation needs, so a corrupted step is caught where it stands), chosen by
measurement over ``drup`` (a checker extracted from verified Why3 code): on the proofs
CaDiCaL gives for generated nqueens-completion instances (``/work/notes/issue28.md``)
dratify took 0.01-0.03 s at n = 12 and 0.04-0.09 s at n = 16 where drup took 1.2-1.4 s and
9.6-11.3 s — drup ignores deletions (the proof's lemmas accumulate) and converts every clause
through ctypes structures; it also reads proof text with a parser that runs a deletion line
into the line before it. Two orders of magnitude decide it.

A proof runs in a process of its own started by the judge's (never the solver's), under
its own wall-clock and memory limits: a proof that runs out of either leaves the claim
at the rung it had and says so.
"""

from __future__ import annotations

import contextlib
import pickle
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

from puzzlebench.harness.run.forking.forkserver import python_command, python_env
from puzzlebench.problems import problem_of
from puzzlebench.problems.base import Instance
from puzzlebench.problems.cnf import Cnf, encode, encodes

#: Wall-clock seconds a proof (solve and check) may take by default.
PROOF_TIME_S = 60.0
#: Address space (MB) a proof's process may use by default.
PROOF_MEMORY_MB = 4096
#: The SAT solver that makes the judge's own proofs (PySAT's name for CaDiCaL 1.9.5).
ENGINE = "cadical195"

#: Statuses of a proof.
CERTIFIED, REFUTED, REJECTED, LIMIT, UNAVAILABLE = (
    "certified", "refuted", "rejected", "limit", "unavailable")


@dataclass(frozen=True, slots=True)
class ProofResult:
    """What proving one claim found.

    ``status``: ``certified`` (a proof of the judge's formula was checked), ``refuted`` (the
    formula has a model and ``answer`` is the solution read from it — the claim is false),
    ``rejected`` (a proof handed over failed the check: ``text`` has the checker's reason),
    ``limit`` (time or memory ran out, or the formula could not be used: nothing is decided),
    ``unavailable`` (no encoding of the problem). ``text`` is one line for records and output;
    ``check_s`` the checker's seconds, ``solve_s`` the SAT solver's.
    """

    status: str
    text: str
    check_s: float | None = None
    solve_s: float | None = None
    answer: Any = None

    @property
    def certified(self) -> bool:
        return self.status == CERTIFIED


def checker_name() -> str:
    """The proof checker and its version, as records name it."""
    return f"dratify {version('dratify')}"


def check_proof(cnf: Cnf, proof: str) -> tuple[bool, str, int]:
    """(accepted, the checker's reason, lemmas) for DRUP/DRAT text ``proof`` of ``cnf``, checked
    in this process by dratify's pure-Python engine; accepted only when every step checks and
    the empty clause is derived."""
    # the checker is loaded only where a proof is checked (start-up time)
    import dratify

    formula = dratify.parse_dimacs(cnf.dimacs())
    try:
        result = dratify.check_proof(formula, proof, engine="python")
    except (ValueError, IndexError, KeyError) as exc:
        return False, f"the proof is not DRUP/DRAT text: {exc}", 0
    if result.ok and result.reached_empty:
        return True, str(result.reason), int(result.steps)
    where = f" at lemma {result.failed_step}" if result.failed_step >= 0 else ""
    reason = str(result.reason) or "the empty clause is not derived"
    return False, f"{reason}{where}", int(result.steps)


def formula_from_dimacs(text: str, judges: Cnf) -> Cnf:
    """A solver's DIMACS formula, accepted only when every clause of it is a clause of the
    judge's own formula (``judges``) (raises ValueError naming the first that is not)."""
    clauses: list[tuple[int, ...]] = []
    current: list[int] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("c", "p", "%")):
            continue
        for token in line.split():
            lit = int(token)
            if lit == 0:
                clauses.append(tuple(current))
                current = []
            else:
                current.append(lit)
    if current:
        clauses.append(tuple(current))
    known = judges.clause_set()
    for clause in clauses:
        if tuple(sorted(set(clause))) not in known:
            raise ValueError(f"clause {' '.join(map(str, clause))} 0 is not in the judge's "
                             f"encoding of the instance")
    variables = max((abs(x) for c in clauses for x in c), default=0)
    return Cnf(judges.problem, judges.n, variables, tuple(clauses))


def prove_infeasible(instance: Instance, *, proof: str | None = None, cnf: str | None = None,
                       time_limit: float = PROOF_TIME_S,
                       memory_mb: int | None = PROOF_MEMORY_MB) -> ProofResult:
    """Certify that ``instance`` has no solution: check the ``proof`` handed over (against
    ``cnf``, the solver's formula, or the judge's own), or, with none, make one with CaDiCaL
    and check it — in a fresh process of the judge's under ``time_limit`` seconds and
    ``memory_mb`` of address space.

    A fresh interpreter (``python -P -m puzzlebench.harness.judging.proofs``: safe path),
    not a fork: the judge's process runs threads (the scheduler's reading loop, a Dask
    worker's), and a forked child can deadlock on a lock one of them held; ``subprocess``
    forks and executes at once."""
    if not encodes(instance.problem):
        return ProofResult(UNAVAILABLE, f"no CNF encoding of {instance.problem}")
    request = pickle.dumps((instance, proof, cnf, memory_mb))
    try:
        done = subprocess.run(python_command("puzzlebench.harness.judging.proofs"),
                              input=request, capture_output=True, timeout=time_limit,
                              check=False, env=python_env())
    except subprocess.TimeoutExpired:  # the child is killed and waited for
        return ProofResult(LIMIT, f"certification ran out of time ({time_limit:g} s)")
    except OSError as exc:
        return ProofResult(LIMIT, f"certification could not start: {exc}")
    if done.returncode == 0:
        try:
            got = pickle.loads(done.stdout)
        except (pickle.UnpicklingError, EOFError, AttributeError, ValueError):
            got = None
        if isinstance(got, ProofResult):
            return got
    tail = " | ".join(done.stderr.decode(errors="replace").strip().splitlines()[-2:])[-300:]
    what = (f"ran out of memory ({memory_mb} MB) or died" if memory_mb is not None
            else "died")
    return ProofResult(LIMIT, f"certification {what} (exit {done.returncode})"
                                + (f": {tail}" if tail else ""))


def _main() -> None:
    """The proof's own process: the request on stdin (pickled by the judge), its
    memory limit, the work, one pickled ProofResult on stdout."""
    # the module by its own name, so that what is pickled names puzzlebench's classes
    from puzzlebench.harness.judging import proofs

    instance, proof, cnf_text, memory_mb = pickle.loads(sys.stdin.buffer.read())
    if memory_mb is not None:
        limit = memory_mb * 1024 * 1024
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        result = proofs._prove_here(instance, proof, cnf_text)
    except MemoryError:
        result = proofs.ProofResult(
            LIMIT, f"certification ran out of memory ({memory_mb} MB)")
    except Exception as exc:  # e.g. a library that cannot load within the memory limit
        result = proofs.ProofResult(
            LIMIT, f"certification failed: {type(exc).__name__}: {exc}")
    sys.stdout.buffer.write(pickle.dumps(result))
    sys.stdout.flush()


def _prove_here(instance: Instance, proof: str | None, cnf_text: str | None) -> ProofResult:
    judges = encode(instance)
    size = f"{judges.variables} variables, {len(judges.clauses)} clauses"
    if proof is not None:
        formula = judges
        if cnf_text is not None:
            try:
                formula = formula_from_dimacs(cnf_text, judges)
            except ValueError as exc:
                return ProofResult(LIMIT, f"the proof's formula was not used: {exc}")
        t = time.perf_counter()
        ok, reason, lemmas = check_proof(formula, proof)
        check_s = time.perf_counter() - t
        if not ok:
            return ProofResult(REJECTED, f"proof rejected by {checker_name()}: {reason}",
                                 check_s)
        whose = "the solver's formula" if cnf_text is not None else "the judge's formula"
        return ProofResult(CERTIFIED, f"the solver's proof ({lemmas} lemmas) of {whose} "
                                        f"checked by {checker_name()} in {check_s:.3f} s",
                             check_s)
    # PySAT is loaded only where the judge makes a proof of its own (start-up time)
    from pysat.solvers import Solver

    t = time.perf_counter()
    with Solver(name=ENGINE, bootstrap_with=[list(c) for c in judges.clauses],
                with_proof=True) as sat:
        satisfiable = sat.solve()
        model = sat.get_model() if satisfiable else None
        lines = None if satisfiable else sat.get_proof()
    solve_s = time.perf_counter() - t
    if model is not None:
        answer = judges.answer(model)
        validation = problem_of(instance).validate(instance, answer)
        if not validation.valid:  # the encoding is wrong: decide nothing
            return ProofResult(LIMIT, f"the judge's formula has a model that is not a "
                                        f"solution ({validation.reason}); nothing certified",
                                 None, solve_s)
        shown = str(answer) if len(str(answer)) <= 200 else str(answer)[:200] + "…"
        return ProofResult(REFUTED, f"the judge's CaDiCaL found a solution in {solve_s:.3f} s: "
                                      f"{shown}", None, solve_s, answer)
    t = time.perf_counter()
    ok, reason, lemmas = check_proof(judges, "\n".join(lines or []))
    check_s = time.perf_counter() - t
    if not ok:  # the judge's own proof failed: a fault of the tools, not of the claim
        return ProofResult(LIMIT, f"CaDiCaL's proof was rejected by {checker_name()} "
                                    f"({reason}); nothing certified", check_s, solve_s)
    steps = f"{lemmas} lemmas" if lemmas else "unit propagation alone refutes it"
    return ProofResult(CERTIFIED, f"DRUP proof ({steps}; {size}) by CaDiCaL 1.9.5 in "
                                    f"{solve_s:.3f} s, checked by {checker_name()} in "
                                    f"{check_s:.3f} s", check_s, solve_s)


if __name__ == "__main__":
    _main()
