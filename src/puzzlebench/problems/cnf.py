"""The judge's own CNF encoding of the queens problems, the formula proofs of infeasibility are
checked against.

A proof of unsatisfiability only certifies an instance infeasible if the formula it refutes
has a model for every solution of the instance; so the formula is the judge's, written here
beside the validators (it imports nothing of any solver) and tested against brute force on
small boards (``tests/certify_infeasible``). A solver may refute this very formula (``sat-cadical
--param proof=true``) or hand over a formula of its own together with its proof; the judge
accepts the latter only when every clause of it is a clause of this formula (a sub-formula
that is unsatisfiable makes the whole one so).

Variables (DIMACS numbering, 1-based), fixed so that an outside program can write the same
formula: square (r, c) holding a queen is ``r·n + c + 1``; for queens-knights a knight on
(r, c) is ``n² + r·n + c + 1``; the cardinality counters' auxiliary variables follow, in the
order the clauses are written.

* nqueens, torus-queens, nqueens-completion: at least one queen per row; pairwise at most
  one per row, per column and per diagonal (per wrapped diagonal on the torus); completion adds
  one unit clause per placed queen. n queens at most one per row means exactly one per row.
* queens-knights: at most one piece per square; a queen excludes every piece on its row,
  column and diagonals, a knight every piece a knight's move away (one binary clause per
  pair); exactly A queens and n − A knights by Sinz's sequential counter (at most k of x and at
  most len(x) − k of ¬x).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from puzzlebench.problems.errors import InvalidInstanceError

Clause = tuple[int, ...]

#: The problems this module encodes (every queens family; sliding is not a satisfaction
#: problem a proof of unsatisfiability speaks about).
ENCODED = ("nqueens", "torus-queens", "nqueens-completion", "queens-knights")

_KNIGHT_STEPS = ((2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2))


@dataclass(frozen=True)
class Cnf:
    """A formula: its clauses, its number of variables, and how to read an answer back."""

    problem: str
    n: int
    variables: int
    clauses: tuple[Clause, ...]

    def dimacs(self) -> str:
        """The formula as DIMACS text."""
        lines = [f"p cnf {self.variables} {len(self.clauses)}"]
        lines += [" ".join(map(str, c)) + " 0" for c in self.clauses]
        return "\n".join(lines) + "\n"

    def answer(self, model: Sequence[int]) -> Any:
        """The problem's JSON answer read from a model (true square variables)."""
        n = self.n
        true = {lit for lit in model if 0 < lit <= (2 if self.problem == "queens-knights" else 1)
                * n * n}
        if self.problem == "queens-knights":
            pieces = []
            for v in sorted(true):
                kind, square = ("Q", v - 1) if v <= n * n else ("N", v - 1 - n * n)
                pieces.append([kind, square // n, square % n])
            return pieces
        cols = [-1] * n
        for v in true:
            r, c = divmod(v - 1, n)
            cols[r] = c
        return cols

    def clause_set(self) -> frozenset[Clause]:
        """The clauses as a set of sorted literal tuples (order and repeats ignored)."""
        return frozenset(tuple(sorted(set(c))) for c in self.clauses)


def encodes(problem: str) -> bool:
    """Whether the judge has a CNF encoding of the problem."""
    return problem in ENCODED


def encode(instance: Any) -> Cnf:
    """The judge's CNF of a queens-family instance (raises InvalidInstanceError otherwise)."""
    problem = instance.problem
    if problem not in ENCODED:
        raise InvalidInstanceError(f"no CNF encoding of {problem} (encoded: {', '.join(ENCODED)})")
    n = int(instance.n)
    if problem == "queens-knights":
        return _queens_knights(n, int(instance.queens))
    clauses: list[Clause] = []
    torus = problem == "torus-queens"

    def q(r: int, c: int) -> int:
        return r * n + c + 1

    for r in range(n):
        clauses.append(tuple(q(r, c) for c in range(n)))
    lines: list[list[int]] = [[q(r, c) for c in range(n)] for r in range(n)]
    lines += [[q(r, c) for r in range(n)] for c in range(n)]
    if torus:
        lines += [[q(r, (k - r) % n) for r in range(n)] for k in range(n)]
        lines += [[q(r, (r + k) % n) for r in range(n)] for k in range(n)]
    else:
        lines += [[q(r, s - r) for r in range(n) if 0 <= s - r < n] for s in range(2 * n - 1)]
        lines += [[q(r, r - d) for r in range(n) if 0 <= r - d < n] for d in range(-n + 1, n)]
    for line in lines:
        clauses.extend(_at_most_one(line))
    for r, c in getattr(instance, "placed", ()):
        clauses.append((q(r, c),))
    return Cnf(problem, n, n * n, tuple(clauses))


def _at_most_one(lits: Sequence[int]) -> list[Clause]:
    return [(-a, -b) for i, a in enumerate(lits) for b in lits[i + 1:]]


def _queens_knights(n: int, queens: int) -> Cnf:
    squares = [(r, c) for r in range(n) for c in range(n)]

    def q(r: int, c: int) -> int:
        return r * n + c + 1

    def k(r: int, c: int) -> int:
        return n * n + r * n + c + 1

    clauses: list[Clause] = [(-q(r, c), -k(r, c)) for r, c in squares]
    pairs: set[Clause] = set()
    for r, c in squares:
        for i, j in squares:
            if (i, j) != (r, c) and (i == r or j == c or abs(i - r) == abs(j - c)):
                pairs.add(tuple(sorted((-q(r, c), -q(i, j)))))
                pairs.add(tuple(sorted((-q(r, c), -k(i, j)))))
        for dr, dc in _KNIGHT_STEPS:
            i, j = r + dr, c + dc
            if 0 <= i < n and 0 <= j < n:
                pairs.add(tuple(sorted((-k(r, c), -k(i, j)))))
                pairs.add(tuple(sorted((-k(r, c), -q(i, j)))))
    clauses.extend(sorted(pairs))
    top = 2 * n * n
    for lits, bound in (([q(r, c) for r, c in squares], queens),
                        ([k(r, c) for r, c in squares], n - queens)):
        for literals, most in ((lits, bound), ([-x for x in lits], len(lits) - bound)):
            more, top = _at_most(literals, most, top)
            clauses.extend(more)
    return Cnf("queens-knights", n, top, tuple(clauses))


def _at_most(lits: Sequence[int], k: int, top: int) -> tuple[list[Clause], int]:
    """Sinz's sequential counter for "at most k of lits" (auxiliary variables from top + 1):
    s[i][j] says at least j + 1 of lits[0..i] are true. Returns the clauses and the new top."""
    m = len(lits)
    if k >= m:
        return [], top
    if k == 0:
        return [(-x,) for x in lits], top
    s = [[top + i * k + j + 1 for j in range(k)] for i in range(m - 1)]
    top += (m - 1) * k
    out: list[Clause] = [(-lits[0], s[0][0])]
    out += [(-s[0][j],) for j in range(1, k)]
    for i in range(1, m - 1):
        out.append((-lits[i], s[i][0]))
        out.append((-s[i - 1][0], s[i][0]))
        for j in range(1, k):
            out.append((-lits[i], -s[i - 1][j - 1], s[i][j]))
            out.append((-s[i - 1][j], s[i][j]))
        out.append((-lits[i], -s[i - 1][k - 1]))
    out.append((-lits[m - 1], -s[m - 2][k - 1]))
    return out, top
