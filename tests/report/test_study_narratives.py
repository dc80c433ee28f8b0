"""The studies' generated sentences: every one that checks a source study's finding names its
test, n and p, or says there is not enough data — computed from the runs, never fixed."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from puzzlebench.report.statistics.findings import findings_detail, findings_table, sentences
from puzzlebench.studies import get_study

#: A claim tested per size: verdict counts, the test and the Holm adjustment.
PER_SIZE = re.compile(r": ((?:not )?confirmed|contradicted|not enough data) at \d+ \(.*\) of \d+ "
                      r"sizes? \((Mann–Whitney U|Spearman ρ) per size, Holm-adjusted over this "
                      r"report's \d+ findings tests")


def _runs(rows: list[dict]) -> pd.DataFrame:
    base = {"problem": "nqueens", "params_key": "{}", "budget": {"time_limit": 10.0},
            "outcome": "solved", "repeat": 0}
    frame = pd.DataFrame([{**base, **r} for r in rows])
    frame["success"] = frame["outcome"] == "solved"
    return frame


def test_heuristics_sentences_test_the_seed_finding() -> None:
    rng = np.random.default_rng(0)
    rows = []
    for solver in get_study("heuristics").full["solvers"]:
        name = solver["name"]
        scale = {"h1": 1.0, "h2": 0.8, "h3": 0.05}[name[-2:]] * (5 if name.startswith("a") else 1)
        for n in (8, 9, 10):
            for k in range(10):
                t = float(scale * (1 + rng.random()))  # groups 20× apart do not overlap
                rows.append({"solver": name, "size": n, "instance_id": f"{n}-{k}", "seed": k,
                             "time_s": min(t, 10.0), "outcome": "solved" if t < 10 else "timeout",
                             "counter.steps": float(rng.integers(5, 30))})
    found = get_study("heuristics").findings(_runs(rows))
    claims = [s for s in sentences(found) if s.startswith("Source study 000 found")]
    assert len(claims) == 4
    assert all(PER_SIZE.search(s) for s in claims), claims
    greedy = next(s for s in claims if "greedy-h3 faster than greedy-h1" in s)
    assert re.search(r": confirmed at \d", greedy), greedy  # 10 vs 10 runs per size, 20× apart
    table = findings_table(found).set_index("claim")
    row = table.loc[next(c for c in table.index if "greedy-h3 faster than greedy-h1" in c)]
    assert row["sizes"] == 3 and row["confirmed"] == 3 and row["contradicted"] == 0
    assert (table[["confirmed", "contradicted", "not confirmed", "too little data"]].sum(axis=1)
            == table["sizes"]).all()
    assert len(findings_detail(found)) == len(found) == 10 * 3  # 10 tests at each of 3 sizes


def test_heuristics_with_too_few_runs_says_so() -> None:
    rows = [{"solver": s["name"], "size": 8, "instance_id": "8-0", "seed": 0, "time_s": 0.1,
             "counter.steps": 10.0} for s in get_study("heuristics").full["solvers"]]
    found = get_study("heuristics").findings(_runs(rows))
    claims = [s for s in sentences(found) if s.startswith("Source study 000 found")]
    assert claims and all(": not enough data at 1 (n = 8) of 1 size" in s for s in claims)
    table = findings_table(found)
    assert (table["too little data"] == 1).all() and (table["adjusted p"] == "-").all()


def test_heuristics_names_the_budget_and_what_stopped_each_unsolved_run() -> None:
    """The study's budget is nodes (a time limit behind it); the sentence on unsolved runs
    counts them by what stopped them, read from the records, never assumed to be the limit."""
    grid = get_study("heuristics").full["study"]
    assert (grid["max_nodes"], grid["time_limit"]) == (2_000_000, 10.0)  # nodes, time behind
    budget = {"time_limit": 10.0, "max_nodes": 2_000_000}
    rows = [{"solver": s["name"], "size": 10, "instance_id": "10-0", "seed": 0, "time_s": 0.01,
             "counter.steps": 10.0, "budget": budget, "stopped_by": "answer"}
            for s in get_study("heuristics").full["solvers"]]
    rows += [{"solver": "astar-h1", "size": 10, "instance_id": "10-0", "seed": k, "time_s": 0.6,
              "outcome": "budget", "budget": budget, "stopped_by": stop}
             for k, stop in enumerate(["max_nodes", "max_nodes", "memory_cap", "time_limit"], 1)]
    lines = get_study("heuristics").narrative(_runs(rows))
    assert "with 2,000,000 nodes generated per run (a 10 s time limit behind it)" in lines[0]
    unsolved = next(line for line in lines if "ended unsolved" in line)
    assert unsolved == ("4 runs ended unsolved (astar-h1: 4): 2 at the node budget, 1 at the "
                        "search's stored-state cap, 1 at the time limit.")


def test_ga_parameter_sentences_are_tested_per_size() -> None:
    rng = np.random.default_rng(1)
    study = get_study("ga-parameters")
    defaults = {"mutation_rate": 0.8, "crossover_rate": 0.9, "population_size": 100}
    rows = []
    for param, values in (("mutation_rate", [0.1, 0.3, 0.5, 0.8, 1.0]),
                          ("crossover_rate", [0.0, 0.3, 0.6, 0.9]),
                          ("population_size", [20, 50, 100, 200])):
        for v in values:
            params = {**defaults, param: v}
            for seed in range(6):
                gens = float(rng.integers(10, 200)) * (100 / params["population_size"])
                rows.append({"solver": "ga-seed002", "size": 8, "instance_id": "8",
                             "seed": seed, "time_s": gens * params["population_size"] * 1e-5,
                             "counter.generations": gens,
                             **{f"param.{k}": x for k, x in params.items()}})
    frame = _runs(rows)
    assert study.narrative(frame) == []  # every statement of the source study is a finding
    lines = sentences(study.findings(frame))
    assert len(lines) == 4  # mutation, crossover, population: generations and time/generation
    assert all(PER_SIZE.search(s) for s in lines), lines
    generations = next(s for s in lines if "generations to a solution" in s)
    assert re.search(r": confirmed at 1 \(n = 8\)", generations), generations
    table = study.extras(frame)[0][1]
    assert list(table.columns) == ["parameter", "source study 002 says", "tested here", "test", "p",
                                   "verdict"]
    assert len(table) == 4 and "Holm" in table["p"].iloc[0]


def test_completion_counts_instances_by_how_they_were_decided() -> None:
    from puzzlebench.studies.completion import per_size

    rows = []
    for k, kind in enumerate(("solvable", "rule", "agreed", "open")):
        iid = f"nqueens-completion-20-k10-{k}"
        for solver in ("cpsat", "bitboard", "backtracking", "min-conflicts"):
            outcome, reason, verified = "budget", "", None
            if kind == "solvable" and solver != "backtracking":
                outcome, verified = "solved", True
            elif kind in ("rule", "agreed") and solver != "min-conflicts":
                outcome, verified = "infeasible", True
                reason = "infeasibility agreed by complete solvers" if kind == "agreed" else ""
            rows.append({"solver": solver, "size": 20, "instance_id": iid, "seed": 0,
                         "time_s": 0.5 if solver == "cpsat" else 5.0, "outcome": outcome,
                         "reason": reason, "verified": verified})
    frame = _runs(rows)
    frame["success"] = frame["outcome"].isin(["solved", "infeasible"]) & (frame["verified"] == True)  # noqa: E712
    frame["unverified"] = False
    table = per_size(frame).iloc[0]
    assert (table["instances"], table["solvable"], table["infeasible (verified)"],
            table["of which by agreement"]) == (4, 1, 2, 1)
    assert table["cpsat: successes"] == "3/4" and table["min-conflicts: successes"] == "1/4"
    lines = get_study("completion").narrative(frame)
    assert lines[0].startswith("4 generated instances, 16 runs: 1 instance solved by some run, "
                               "2 proved infeasible")
    assert "1 undecided within the limit" in lines[0]
    assert any(s.startswith("CP-SAT decides completion faster than bitboard") and "Mann–Whitney U"
               in s for s in sentences(get_study("completion").findings(frame)))


def test_fifteen_puzzle_sets_each_partition_beside_korf_and_felner() -> None:
    """Runs of idastar-pdb are told apart by their partition (runs stored before the option are
    6-6-3): one column per configuration beside Korf's 1985 nodes, and Felner et al.'s figure
    under each partition's totals."""
    # imported on use: only this test reads the study's module
    from puzzlebench.problems.korf_instances import KORF_GOAL, korf100
    from puzzlebench.studies import fifteen_puzzle as fp

    rows = []
    for k in korf100()[:3]:
        instance = {"start": list(k.start), "goal": list(KORF_GOAL)}
        for params, nodes in (({}, 1000), ({"partition": "6-6-3"}, 1000), ({"partition": "7-8"}, 10)):
            rows.append({"solver": fp.PDB, "params": params, "instance": instance, "outcome": "solved",
                         "answer_length": k.optimal, "counters": {"nodes_generated": nodes},
                         "time_s": 0.01})
    frame = _runs(rows)[lambda f: f.index % 3 != 0]  # one 6-6-3 run per instance: the explicit one
    table = fp.beside_korf(frame)
    assert list(table["pdb: nodes"]) == [1000] * 3 and list(table["pdb78: nodes"]) == [10] * 3
    totals = fp.totals(frame)
    searches = list(totals["search"])
    assert searches.index("idastar-pdb 7-8 + reflection") + 1 == \
        searches.index("Felner, Korf & Hanan 2004, 7-8 + reflection")
    assert "36,710" in list(totals["nodes per instance"])
    lines = fp.narrative(frame)
    assert any("7-8 partition with reflection (0.00×)" in line for line in lines)
    assert any("6-6-3 partition with reflection (0.00×)" in line for line in lines)


def test_twentyfour_puzzle_sets_ours_beside_korf_and_felner() -> None:
    """Solved runs carry their nodes beside the published ones; a run stopped by its limit is
    counted among the rest, with the published nodes it would have needed, never as solved."""
    # imported on use: only this test reads the study's module
    from puzzlebench.problems.korf_instances import KORF24_GOAL, korf24_instance
    from puzzlebench.studies import twentyfour_puzzle as tp

    rows = []
    for number, outcome in ((40, "solved"), (25, "solved"), (9, "budget")):
        k = korf24_instance(number)
        rows.append({"solver": tp.PDB, "params": {}, "outcome": outcome,
                     "instance": {"start": list(k.start), "goal": list(KORF24_GOAL)},
                     "answer_length": k.optimal if outcome == "solved" else None,
                     "counters": {"nodes_generated": 2 * k.nodes_expanded,
                                  "nodes_expanded": k.nodes_expanded // 2,
                                  "expanded_before_last": k.nodes_expanded // 4},
                     "time_s": 1.0, "budget": {"time_limit": 60.0}})
    table = tp.beside_korf_felner(_runs(rows))
    assert list(table["#"]) == [9, 25, 40]
    assert list(table["ours / published"].dropna()) == [0.5, 0.5]
    assert table.set_index("#").loc[9, "nodes expanded"] is None or \
        pd.isna(table.set_index("#").loc[9, "nodes expanded"])
    lines = tp.narrative(_runs(rows))
    assert lines[0].startswith("idastar-pdb with Korf & Felner's 6-6-6-6 databases and their reflection "
                               "solved 2 of the 3 instances within 60 s each; 2 answers")
    assert any("(0.50×)" in line for line in lines)
    assert any("The other 1 ran into the limit (1 budget)" in line and "1,818,005,616,606" in line
               for line in lines)
