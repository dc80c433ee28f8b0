"""The legend under a table: each term a newcomer cannot know, in the words of
``docs/concepts/outcomes.md`` (outcomes) and ``docs/concepts/reports.md`` (scores)."""

from __future__ import annotations

import re
from collections.abc import Iterable

#: term → what it means (a term is looked for as a whole word in the table's text).
TERMS: dict[str, str] = {
    "infeasible": "a complete solver's claim that there is no solution, not contradicted by "
                  "the known facts or another run",
    "wrong": "an invalid answer, or a claim that contradicts the known facts or another run "
             "(never counted as solved)",
    "budget": "stopped by its own budget (nodes, evaluations, iterations, its own time limit) "
              "without an answer",
    "declined": "the solver refused the instance without trying",
    "timeout": "killed by the harness at the hard limit, or answered after its time limit",
    "memout": "past its memory limit",
    "crash": "an exception, a dead process, or a malformed proposal",
    "unverified": "a success nothing could check (counted as unsolved)",
    "Borda": "the MiniZinc Challenge's pairwise score, one point per instance shared by time "
             "(higher is better)",
    "PAR-2": "the time when verified solved, 2 × the time limit otherwise (lower is better)",
}

#: What the ``solvers`` table's "is" column says (``docs/reference/solvers.md``).
SOLVER_TERMS: dict[str, str] = {
    "complete": "can prove that there is no solution",
    "exact": "its sliding answers are optimal (shortest)",
    "stochastic": "its result depends on the seed",
    "counts": "can count every solution",
}

#: The agreement matrix's cell marks (``harness.campaign.agreement``).
AGREE_TERMS: dict[str, str] = {
    "ok": "a valid answer",
    "none": "no solution claimed (infeasible), confirmed by the solvability rule unless marked",
    "#N/Mu": "N solutions counted, M of them unique up to rotation and reflection",
    "(certified)": "confirmed by a checked proof",
    "(agreed)": "confirmed by two complete solvers",
    "?": "unverified",
    "list:": "the enumerating solver's listing of every solution",
}


def legend(texts: Iterable[str], terms: dict[str, str] | None = None) -> list[str]:
    """One legend line for the terms that appear in ``texts`` (empty when none does)."""
    terms = TERMS if terms is None else terms
    blob = " ".join(texts)
    found = [f"{term}: {meaning}" for term, meaning in terms.items()
             if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", blob)]
    return [f"Legend — {'; '.join(found)}."] if found else []


def agree_legend(cells: Iterable[str]) -> list[str]:
    """The legend of an agreement matrix: its marks that appear, and the outcomes."""
    cells = list(cells)
    found = []
    for mark, meaning in AGREE_TERMS.items():
        if mark == "#N/Mu":
            hit = any(re.search(r"#\d", c) for c in cells)
            unique = any(re.search(r"#\d+/\d+u", c) for c in cells)
            if hit:
                found.append("#N/Mu: " + meaning if unique else "#N: N solutions counted")
        elif mark == "?":
            if any(c.endswith("?") for c in cells):
                found.append(f"?: {meaning}")
        elif mark in ("ok", "none"):
            if any(c.split(" ")[0] == mark for c in cells):
                found.append(f"{mark}: {meaning}")
        elif any(mark in c for c in cells):
            found.append(f"{mark} {meaning}")
    outcomes = legend((c.replace("#", " ").lower() for c in cells),
                      {k: v for k, v in TERMS.items() if k not in ("Borda", "PAR-2",
                                                                       "infeasible")})
    head = [f"Legend — {'; '.join(found)}."] if found else []
    return head + outcomes
