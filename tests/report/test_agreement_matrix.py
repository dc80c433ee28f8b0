"""The report's agreement matrix: NO only for a disagreement; failures counted apart;
instances in natural order."""

from __future__ import annotations

import pandas as pd

from puzzlebench.report.statistics.agreement_matrix import agreement_matrix, natural_key


def runs(*rows: tuple[str, str, str, int | None]) -> pd.DataFrame:
    return pd.DataFrame([{"instance_id": i, "solver": s, "outcome": o, "count": c,
                          "task": "count" if c is not None else "solve", "unverified": False}
                         for i, s, o, c in rows])


def row(table: pd.DataFrame, iid: str) -> pd.Series:
    return table.set_index("instance").loc[iid]


def test_a_timeout_beside_agreeing_runs_is_no_disagreement() -> None:
    table = agreement_matrix(runs(("nqueens-11", "astar-h1", "timeout", None),
                                  ("nqueens-11", "cpsat", "solved", None),
                                  ("nqueens-11", "mod12", "solved", None),
                                  ("nqueens-11", "ga", "budget", None)))
    assert row(table, "nqueens-11")["agree"] == "yes"
    assert row(table, "nqueens-11")["no answer"] == 2


def test_disagreements_say_no() -> None:
    table = agreement_matrix(runs(
        ("a-1", "x", "wrong", None), ("a-1", "y", "solved", None),          # a wrong answer
        ("a-2", "x", "solved", None), ("a-2", "y", "infeasible", None),     # solved vs infeasible
        ("a-3", "x", "solved", 92), ("a-3", "y", "solved", 90),              # different counts
        ("a-4", "x", "solved", 92), ("a-4", "y", "solved", 92)))             # agreement
    assert [row(table, f"a-{k}")["agree"] for k in (1, 2, 3, 4)] == ["NO", "NO", "NO", "yes"]
    assert all(row(table, f"a-{k}")["no answer"] == 0 for k in (1, 2, 3, 4))


def test_instances_in_natural_order() -> None:
    ids = ["nqueens-10", "nqueens-8", "nqueens-100", "nqueens-9"]
    table = agreement_matrix(runs(*[(i, "cpsat", "solved", None) for i in ids]))
    assert list(table["instance"]) == ["nqueens-8", "nqueens-9", "nqueens-10", "nqueens-100"]
    assert sorted(["x-2-b", "x-10-a", "x-2-a"], key=natural_key) == ["x-2-a", "x-2-b", "x-10-a"]


def test_wrong_runs_in_natural_order() -> None:
    from puzzlebench.report.summary import wrong_runs

    ids = ["nqueens-10", "nqueens-8", "nqueens-100", "nqueens-9"]
    frame = pd.DataFrame([{"problem": "nqueens", "instance_id": i, "solver": "x", "seed": 0,
                           "outcome": "crash", "reason": "", "error": "boom"} for i in ids])
    assert list(wrong_runs(frame)["instance_id"]) == ["nqueens-8", "nqueens-9", "nqueens-10",
                                                      "nqueens-100"]
