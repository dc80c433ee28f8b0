"""The instances every registered solver is held to, by problem.

Small enough that every solver, stochastic or not, answers in well under a second; chosen so
that solvable, infeasible and budget-bound behaviour are all exercised.
"""

from __future__ import annotations

from puzzlebench.problems import get_problem
from puzzlebench.problems.base import Instance


def make(problem: str, size: int, **options: object) -> Instance:
    return get_problem(problem).make(size, **options)


SOLVABLE: dict[str, list[Instance]] = {
    "nqueens": [make("nqueens", 1), make("nqueens", 5), make("nqueens", 8)],
    "torus-queens": [make("torus-queens", 1), make("torus-queens", 5), make("torus-queens", 7)],
    "queens-knights": [
        make("queens-knights", 5, queens=0),
        make("queens-knights", 6, queens=2),
        make("queens-knights", 8, queens=8),
    ],
    "sliding": [
        make("sliding", 8, start="123456708"),
        make("sliding", 8, start="125408367"),
        make("sliding", 8, start="102643785"),
    ],
}

INFEASIBLE: dict[str, list[Instance]] = {
    "nqueens": [make("nqueens", 2), make("nqueens", 3)],
    "torus-queens": [make("torus-queens", 2), make("torus-queens", 4)],
    "queens-knights": [make("queens-knights", 2, queens=1), make("queens-knights", 3, queens=3)],
    "sliding": [make("sliding", 8, start="123456870")],
}

#: Instances no solver here finishes in a blink: for the time and node budget checks.
HARD: dict[str, Instance] = {
    "nqueens": make("nqueens", 200),
    "torus-queens": make("torus-queens", 49),
    "queens-knights": make("queens-knights", 12, queens=7),
    # Korf's 15-puzzle instance 1 (57 moves optimal; his goal puts the blank first).
    "sliding": make("sliding", 15, start="14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3",
                    goal=",".join(str(t) for t in range(16))),
}

#: Instances where a few hundred nodes or iterations are cheap: for the effort-cap check.
CAPPED: dict[str, Instance] = {
    "nqueens": make("nqueens", 30),
    "torus-queens": make("torus-queens", 25),
    "queens-knights": make("queens-knights", 10, queens=6),
    "sliding": HARD["sliding"],
}

#: A mid-sized instance per problem for the same-seed-same-record check.
REPRODUCIBLE: dict[str, Instance] = {
    "nqueens": make("nqueens", 8),
    "torus-queens": make("torus-queens", 7),
    "queens-knights": make("queens-knights", 6, queens=2),
    "sliding": make("sliding", 8, start="125408367"),
}
