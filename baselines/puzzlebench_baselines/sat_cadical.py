"""A SAT encoding solved by CaDiCaL through PySAT (``python-sat``).

One Boolean per square (and per piece kind for queens-knights). nqueens: exactly one queen per
row and per column, at most one per diagonal (exactly one per wrapped diagonal on the torus),
with PySAT's sequential-counter cardinality encodings. queens-knights: at most one piece per
square, exactly A queens and n − A knights (sequential counters), and binary clauses forbidding
a queen beside any piece on its lines and a knight beside any piece a knight's move away.
The encoding's size is reported as the counters ``variables`` and ``clauses``, beside
CaDiCaL's own ``conflicts`` and ``decisions``.

``--param proof=true`` solves the judge's own formula (``puzzlebench.problems.cnf``, pairwise
at-most-one clauses, the same variables an outside program would use) with CaDiCaL's DRUP
proof switched on and hands an ``infeasible`` claim over with its proof: the judge checks it
and records the claim as certified, or ``wrong`` if the proof fails (``harness.judging.proofs``).

Time: CaDiCaL cannot be interrupted through PySAT, so ``solve`` reads no budget — the
harness's hard limit stops it (``honours`` is empty). Counting and listing add one blocking
clause per model and check the clock between models.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

import numpy as np

from puzzlebench.contract import Budget, Claim, Enumeration, Param, Proposal, Solver
from puzzlebench.problems.cnf import encode
from puzzlebench.problems.queens_knights import KNIGHT_STEPS, QueensKnightsInstance
from puzzlebench.solvers.queens_keys import diagonal_squares

ENGINE = "cadical195"


class Encoding:
    """The CNF of one instance and how to read an answer from a model."""

    def __init__(self, instance: Any) -> None:
        # PySAT on first use: start-up time
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool

        self.instance, n = instance, instance.n
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        kinds = "QN" if isinstance(instance, QueensKnightsInstance) else "Q"
        self.var = {(k, r, c): self.pool.id((k, r, c)) for k in kinds
                    for r in range(n) for c in range(n)}

        def card(lits: list[int], bound: int, exact: bool) -> None:
            build = CardEnc.equals if exact else CardEnc.atmost
            self.clauses.extend(build(lits=lits, bound=bound, vpool=self.pool,
                                      encoding=EncType.seqcounter).clauses)

        if isinstance(instance, QueensKnightsInstance):
            self._queens_knights(n, instance.queens, card)
            return
        torus = instance.wraps
        q = {(r, c): self.var["Q", r, c] for r in range(n) for c in range(n)}
        for k in range(n):
            card([q[k, c] for c in range(n)], 1, True)
            card([q[r, k] for r in range(n)], 1, True)
        for line in diagonal_squares(n, torus):  # a torus's n wrapped lines hold one each
            if len(line) > 1 or torus:
                card([q[s] for s in line], 1, torus)

    def _queens_knights(self, n: int, queens: int, card: Any) -> None:
        v = self.var
        squares = [(r, c) for r in range(n) for c in range(n)]
        for r, c in squares:
            self.clauses.append([-v["Q", r, c], -v["N", r, c]])
        card([v["Q", r, c] for r, c in squares], queens, True)
        card([v["N", r, c] for r, c in squares], n - queens, True)
        for r, c in squares:
            for i, j in squares:
                if (i, j) != (r, c) and (i == r or j == c or abs(i - r) == abs(j - c)):
                    self.clauses.append([-v["Q", r, c], -v["Q", i, j]])
                    self.clauses.append([-v["Q", r, c], -v["N", i, j]])
            for dr, dc in KNIGHT_STEPS:
                i, j = r + dr, c + dc
                if 0 <= i < n and 0 <= j < n:
                    self.clauses.append([-v["N", r, c], -v["Q", i, j]])
                    self.clauses.append([-v["N", r, c], -v["N", i, j]])

    def answer(self, model: list[int]) -> Any:
        true = {lit for lit in model if lit > 0}
        n = self.instance.n
        if isinstance(self.instance, QueensKnightsInstance):
            return [(k, r, c) for (k, r, c), x in self.var.items() if x in true]
        cols = [0] * n
        for (_, r, c), x in self.var.items():
            if x in true:
                cols[r] = c
        return cols

    def blocking(self, model: list[int]) -> list[int]:
        """The clause that forbids this placement again."""
        true = {lit for lit in model if lit > 0}
        return [-x if x in true else x for x in self.var.values()]

    def counters(self, sat: Any) -> dict[str, int]:
        stats = sat.accum_stats() or {}
        return {"variables": self.pool.top, "clauses": len(self.clauses),
                **{k: int(stats[k]) for k in ("conflicts", "decisions") if k in stats}}


class SatCadical(Solver):
    """SAT encoding (cardinality constraints, binary conflict clauses) solved by CaDiCaL."""

    name: ClassVar[str] = "sat-cadical"
    counter_names: ClassVar[frozenset[str] | None] = frozenset({
        "variables", "clauses", "conflicts", "decisions", "proof_lemmas"})
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens", "torus-queens", "queens-knights"})
    complete: ClassVar[bool] = True
    counts: ClassVar[bool] = True
    honours: ClassVar[frozenset[str]] = frozenset()  # CaDiCaL cannot be interrupted: hard kill
    params: ClassVar[dict[str, Any]] = {"proof": Param(False)}

    def solve(self, instance: Any, budget: Budget, rng: np.random.Generator) -> Proposal:
        from pysat.solvers import Solver as SatSolver  # on first use: start-up time

        if self.config["proof"]:
            return self._solve_with_proof(instance)
        enc = Encoding(instance)
        with SatSolver(name=ENGINE, bootstrap_with=enc.clauses) as sat:
            if sat.solve():
                return Proposal(answer=enc.answer(sat.get_model()), claim=Claim.SOLVED,
                                counters=enc.counters(sat))
            return Proposal(claim=Claim.INFEASIBLE, counters=enc.counters(sat))

    def _solve_with_proof(self, instance: Any) -> Proposal:
        """Refute (or solve) the judge's formula with a DRUP proof, handed over as text."""
        from pysat.solvers import Solver as SatSolver  # on first use: start-up time

        cnf = encode(instance)
        with SatSolver(name=ENGINE, bootstrap_with=[list(c) for c in cnf.clauses],
                       with_proof=True) as sat:
            satisfiable = sat.solve()
            stats = sat.accum_stats() or {}
            counters = {"variables": cnf.variables, "clauses": len(cnf.clauses),
                        **{k: int(stats[k]) for k in ("conflicts", "decisions") if k in stats}}
            if satisfiable:
                return Proposal(answer=cnf.answer(sat.get_model()), claim=Claim.SOLVED,
                                counters=counters)
            proof = sat.get_proof() or []
        return Proposal(claim=Claim.INFEASIBLE, counters={**counters, "proof_lemmas": len(proof)},
                        proof="\n".join(proof) + "\n")

    def _models(self, instance: Any, budget: Budget, limit: int | None
                ) -> tuple[list[Any], bool, dict[str, int]]:
        from pysat.solvers import Solver as SatSolver  # on first use: start-up time

        enc = Encoding(instance)
        end = budget.clock().end
        found: list[Any] = []
        with SatSolver(name=ENGINE, bootstrap_with=enc.clauses) as sat:
            while sat.solve():
                model = sat.get_model()
                found.append(enc.answer(model))
                sat.add_clause(enc.blocking(model))
                if (limit is not None and len(found) >= limit) or time.perf_counter() >= end:
                    return found, False, enc.counters(sat)
            return found, True, enc.counters(sat)

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        if unique:
            raise ValueError("sat-cadical counts all solutions, not unique ones")
        found, complete, counters = self._models(instance, budget, None)
        if not complete:
            return Proposal(counters=counters, note=f"stopped after {len(found)} solutions")
        return Proposal(claim=Claim.SOLVED if found else Claim.INFEASIBLE, count=len(found),
                        counters=counters)

    def enumerate(self, instance: Any, budget: Budget, *, limit: int | None = None) -> Enumeration:
        found, complete, _ = self._models(instance, budget, limit)
        return Enumeration(found, complete=complete and (limit is None or len(found) < limit))
