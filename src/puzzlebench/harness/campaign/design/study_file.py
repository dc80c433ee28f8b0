"""Study files: the TOML (or dict) schema of a study, validated completely before anything
runs; every error names the key at fault. The result is a ``harness.campaign.study.Study`` grid.

TOML format (see ``studies/example.toml``)::

    [study]
    name = "nqueens-small"      # required; part of every run key
    master_seed = 2026          # default 0
    repeats = 3                 # default 1
    time_limit = 10.0           # seconds, the budget handed to the solver (default 10)
    hard_limit = 20.0           # seconds, the run is killed after this (default 1.1×time_limit+0.5)
    memory_limit_mb = 2048      # per run (default: none)
    max_nodes = 1000000         # optional effort caps handed to the solver
    max_iterations = 100000
    max_evaluations = 1000000
    db = "nqueens-small.sqlite" # default store when --db is not given

    [[problems]]
    problem = "nqueens"         # a problem id (``puzzlebench problems`` lists them)
    sizes = "4..12"             # "4..12", "4,8,12" or a list of ints
    # generate = 10             # problems with a generator: 10 seeded random instances per size
    # task = "count"            # count the solutions rather than find one (unique = true: the
    #                           # unique count too); runs judged against the known counts
    # ...and the problem's own options, as it declares them (``problems.options``), e.g.
    # queens = [2, 4]           # queens-knights: A values (list → grid)
    # starts = ["125408367"]    # sliding: start states; goal = "123456780"; shape = "3x3"
    # placed = ["0:3,5:7"]      # nqueens-completion: pre-placed queens (list → grid)

    [[solvers]]
    name = "mod12"              # a registered name or module:attr / file.py:attr
    # params = { population = [50, 100] }   # a list makes a grid over that parameter
    # problems = ["nqueens"]                # restrict to some of the study's problems
    # min_size = 4, max_size = 64           # sizes; repeats = 20: own (default the study's)
    #                                       # (a counting table takes only counting solvers)
    # max_evaluations = 20000               # this entry's own budget: any of time_limit,
    #                                       # max_nodes, max_iterations, max_evaluations here
    #                                       # replaces the study's caps for its runs (the
    #                                       # time limit defaults to the study's), so one study
    #                                       # can hold blocks budgeted in different currencies
    # tuned = { tuner = "...", budget = 40, ... } # how ``puzzlebench tune`` found params (its
    #                                       # fragment writes it): kept for the report's manifest
    # tune = true                           # tune this solver first (see [study] tune), or a
    #                                       # table of its own (same keys as [study] tune)

    # [study] tune = { budget = 40, train = "8..12" }  # every solver that declares a
    # param_space is tuned first on the training sizes (disjoint from the study's), with
    # the same budget, and runs tuned beside its defaults (budget_unit, objective, repeats,
    # seed: as ``puzzlebench tune`` takes them)
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from puzzlebench.harness.campaign.design.study import (
    MAX_GENERATE,
    MAX_GRID,
    MAX_REPEATS,
    MAX_RUNS,
    Study,
    StudyError,
    expand_grid,
    grid_size,
)
from puzzlebench.harness.campaign.design.study_claims import study_claims
from puzzlebench.harness.campaign.design.study_mistakes import (
    Mistakes,
    check_keys,
    did_you_mean,
)
from puzzlebench.harness.campaign.design.study_tune import solver_tune, tune_table
from puzzlebench.harness.campaign.design.study_values import limit, number, parse_sizes
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems import PROBLEMS, get_problem
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.records.claims import AnyClaim
from puzzlebench.solvers.contract import SolverConfigError
from puzzlebench.solvers.locators import kind_of
from puzzlebench.solvers.registry import REGISTRY, RegistryError
from puzzlebench.solvers.spec import SolverSpec, check_distinct

STUDY_KEYS = {"name", "master_seed", "repeats", "time_limit", "hard_limit", "memory_limit_mb",
              "max_nodes", "max_iterations", "max_evaluations", "db", "description",
              "min_time", "pin", "sandbox", "startup_limit", "tune"}
#: Keys every [[problems]] table takes; each problem adds its own options' keys.
PROBLEM_KEYS = {"problem", "sizes", "generate", "task", "unique"}
#: What a [[problems]] table asks of its solvers: one solution (default) or the count.
TASKS = ("solve", "count")
BUDGET_KEYS = ("time_limit", "max_nodes", "max_iterations", "max_evaluations")
SOLVER_KEYS = {"name", "params", "problems", "min_size", "max_size", "tuned", "tune", "repeats",
               *BUDGET_KEYS}
TOP_KEYS = {"study", "problems", "solvers", "claims"}


def study_from_dict(data: Mapping[str, Any], source: str = "study") -> Study:
    """Validate a parsed study and build it. Every mistake is found before any is raised
    (``StudyMistakesError``, one line each, tables numbered from 1 as a reader counts); solver
    names are checked against the registry's index first, so a misspelled one is named
    without loading any solver."""
    mistakes = Mistakes()
    with mistakes.check():
        check_keys(data, TOP_KEYS, source)
    head = data.get("study")
    if not isinstance(head, dict):
        mistakes.lines.append(f"{source}: missing [study] table")
        head = {}
    with mistakes.check():
        check_keys(head, STUDY_KEYS, f"{source} [study]")
    name = head.get("name")
    if not isinstance(name, str) or not name.strip():
        mistakes.lines.append(f"{source} [study].name: a non-empty string is required")
    settings = _Settings()
    with mistakes.check():
        settings = _head(head, f"{source} [study]", mistakes)
    problems = _problems(data.get("problems"), source, mistakes)
    solvers_raw = data.get("solvers")
    if not isinstance(solvers_raw, list) or not solvers_raw:
        mistakes.lines.append(f"{source}: at least one [[solvers]] table is required")
        solvers_raw = []
    # names first, from the index: a misspelled name is reported before anything loads
    unknown = _unknown_names(solvers_raw, source)
    mistakes.lines.extend(unknown)
    solvers: list[dict[str, Any]] = []
    specs: list[SolverSpec] = []
    claims: list[AnyClaim] = []
    if not unknown:
        # every problem the file names, its own mistakes aside: one mistake is said once
        study_problems = {p["problem"] for p in problems} | _named_problems(data.get("problems"))
        #: problem → the tasks its tables ask: "solve", "count", "unique" (a unique count)
        tasks: dict[str, set[str]] = {p: set() for p in study_problems}
        for table in problems:
            tasks[table["problem"]].add("solve" if table.get("task") != "count"
                                        else "unique" if table["unique"] else "count")
        for named in study_problems:  # a table with mistakes of its own: taken as solve
            tasks[named] = tasks[named] or {"solve"}
        sizes: dict[str, set[int]] = {named: set() for named in study_problems}
        for table in problems:
            sizes[table["problem"]].update(table["sizes"])
        for i, entry in enumerate(solvers_raw):
            with mistakes.check():
                item, spec = _solver(entry, f"{source} [[solvers]] #{i + 1}", specs,
                                     tasks, sizes, settings)
                solvers.append(item)
                specs.append(spec)
        if len(solvers) == len(solvers_raw):
            with mistakes.check():
                claims = study_claims(data.get("claims", []), source, solvers, specs, sizes)
        if settings.tune and len(solvers) == len(solvers_raw) \
                and not any(s.get("tune") for s in solvers):
            mistakes.lines.append(f"{source} [study].tune: none of the study's solvers declares "
                                  "a param_space to tune")
    mistakes.raise_any()
    assert isinstance(name, str)
    study = Study(name=name.strip(), problems=problems, solvers=solvers, claims=claims,
                  master_seed=settings.master_seed, repeats=settings.repeats,
                  time_limit=settings.time_limit, hard_limit=settings.hard_limit,
                  memory_limit_mb=settings.memory, caps=settings.caps,
                  db=head.get("db"), description=str(head.get("description", "")),
                  min_time=settings.min_time, pin=settings.pin, sandbox=settings.sandbox,
                  startup_limit=settings.startup_limit)
    try:
        most = study.most_runs()
    except PuzzlebenchError as exc:
        raise StudyError(f"{source} [[problems]]: {exc}") from None
    if most > MAX_RUNS:
        raise StudyError(f"{source}: the grid makes up to {most:,} runs (instances × "
                         f"parameter combinations × repeats); at most {MAX_RUNS:,}")
    try:
        study.instances()
    except PuzzlebenchError as exc:
        raise StudyError(f"{source} [[problems]]: {exc}") from None
    return study


@dataclass
class _Settings:
    """The [study] table's settings (defaults when it has mistakes: reading goes on)."""

    master_seed: int = 0
    repeats: int = 1
    time_limit: float = 10.0
    hard_limit: float | None = None
    memory: int | None = None
    min_time: float | None = None
    pin: bool = False
    sandbox: str | None = None
    startup_limit: float | None = None
    caps: dict[str, Any] = field(default_factory=dict)
    tune: dict[str, Any] | None = None


def _head(head: Mapping[str, Any], where: str, mistakes: Mistakes) -> _Settings:
    """The [study] table's settings, each mistake collected."""
    out = _Settings()
    with mistakes.check():
        out.master_seed = number(head, "master_seed", int, where, default=0)
    with mistakes.check():
        out.repeats = number(head, "repeats", int, where, minimum=1, default=1,
                              maximum=MAX_REPEATS)
    with mistakes.check():
        out.time_limit = float(limit(head, "time_limit", where, default=10.0) or 0)
    with mistakes.check():
        out.hard_limit = limit(head, "hard_limit", where)
        if out.hard_limit is not None and out.hard_limit < out.time_limit:
            raise StudyError(f"{where}.hard_limit: {out.hard_limit} is below time_limit "
                             f"{out.time_limit}")
    with mistakes.check():
        out.memory = number(head, "memory_limit_mb", int, where, minimum=16)
    with mistakes.check():
        out.min_time = limit(head, "min_time", where)
    pin = head.get("pin", False)
    if not isinstance(pin, bool):
        mistakes.lines.append(f"{where}.pin: must be true or false, got {pin!r}")
    else:
        out.pin = pin
    sandbox = head.get("sandbox")
    if sandbox is not None and sandbox not in ("auto", "required", "off"):
        mistakes.lines.append(f"{where}.sandbox: must be auto, required or off, got {sandbox!r}")
    else:
        out.sandbox = sandbox
    with mistakes.check():
        out.startup_limit = limit(head, "startup_limit", where)
    for k in ("max_nodes", "max_iterations", "max_evaluations"):
        if k in head:
            with mistakes.check():
                out.caps[k] = number(head, k, int, where)
    if "tune" in head:
        with mistakes.check():
            out.tune = tune_table(head["tune"], f"{where}.tune")
    return out


def _problems(raw: Any, source: str, mistakes: Mistakes) -> list[dict[str, Any]]:
    """The [[problems]] tables, each one's mistakes collected."""
    if not isinstance(raw, list) or not raw:
        mistakes.lines.append(f"{source}: at least one [[problems]] table is required")
        return []
    problems = []
    for i, entry in enumerate(raw):
        with mistakes.check():
            problems.append(_problem(entry, f"{source} [[problems]] #{i + 1}", mistakes))
    return problems


def _problem(entry: Any, w: str, mistakes: Mistakes) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise StudyError(f"{w}: must be a table")
    problem = entry.get("problem")
    try:
        prob = get_problem(problem) if isinstance(problem, str) else None
    except PuzzlebenchError:
        prob = None
    if prob is None:
        raise StudyError(f"{w}.problem: unknown problem {problem!r}"
                         f"{did_you_mean(problem, PROBLEMS)}; known: {', '.join(PROBLEMS)}")
    with mistakes.check():
        check_keys(entry, PROBLEM_KEYS | {o.key for o in prob.options}, w)
    item: dict[str, Any] = {"problem": prob.id, "sizes": parse_sizes(entry.get("sizes"),
                                                                      f"{w}.sizes")}
    if "generate" in entry:
        if not prob.generates:
            raise StudyError(f"{w}.generate: {prob.id} has no instance generator")
        item["generate"] = number(entry, "generate", int, w, minimum=1,
                                   maximum=MAX_GENERATE)
    try:
        item.update(prob.study_entry(entry, w, require="generate" not in entry))
    except PuzzlebenchError as exc:
        raise StudyError(str(exc)) from None
    item.update(_task(entry, w))
    return item


def _task(entry: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A [[problems]] table's task: nothing for ``solve`` (the stored form of a solving study
    is unchanged), ``task`` and ``unique`` for ``count``."""
    task = entry.get("task", "solve")
    if task not in TASKS:
        raise StudyError(f"{where}.task: one of {', '.join(TASKS)}, got {task!r}")
    unique = entry.get("unique", False)
    if not isinstance(unique, bool):
        raise StudyError(f"{where}.unique: must be true or false, got {unique!r}")
    if unique and task != "count":
        raise StudyError(f"{where}.unique: only a counting table (task = \"count\") takes it")
    return {"task": "count", "unique": unique} if task == "count" else {}


def _named_problems(raw: Any) -> set[str]:
    """The problem ids the [[problems]] tables name, whatever else is wrong with them."""
    out = set()
    for entry in raw if isinstance(raw, list) else []:
        name = entry.get("problem") if isinstance(entry, dict) else None
        if isinstance(name, str) and name in PROBLEMS:
            out.add(name)
    return out


def _unknown_names(entries: list[Any], source: str) -> list[str]:
    """The [[solvers]] names the registry's index says are not registered — checked before
    any solver module loads (a reference such as file.py:Class is left to loading)."""
    out = []
    for i, entry in enumerate(entries):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str) or kind_of(name) is not None:
            continue
        why = REGISTRY.unknown(name)
        if why:
            out.append(f"{source} [[solvers]] #{i + 1}.name: {why}")
    return out


def _solver(entry: Any, w: str, specs: list[SolverSpec], tasks: dict[str, set[str]],
            sizes: dict[str, set[int]], settings: _Settings) -> tuple[dict[str, Any], SolverSpec]:
    """One [[solvers]] table, checked against the study (its first mistake raised)."""
    if not isinstance(entry, dict):
        raise StudyError(f"{w}: must be a table")
    check_keys(entry, SOLVER_KEYS, w)
    try:
        spec = resolve_solver(str(entry.get("name")))
    except RegistryError as exc:
        raise StudyError(f"{w}.name: {exc}") from None
    try:
        check_distinct([*specs, spec])
    except RegistryError as exc:
        raise StudyError(f"{w}.name: {exc}") from None
    params = entry.get("params", {})
    if not isinstance(params, dict):
        raise StudyError(f"{w}.params: must be a table")
    empty = sorted(k for k, v in params.items() if isinstance(v, list) and not v)
    if empty:
        raise StudyError(f"{w}.params.{empty[0]}: an empty list makes an empty grid")
    if grid_size(params) > MAX_GRID:
        raise StudyError(f"{w}.params: {grid_size(params):,} combinations; at most "
                         f"{MAX_GRID:,} per solver entry")
    for combo in expand_grid(params):
        try:
            spec.check_params(combo)
        except SolverConfigError as exc:
            raise StudyError(f"{w}.params: {exc}") from None
    study_problems = set(tasks)
    wanted = entry.get("problems", sorted(study_problems))
    if not isinstance(wanted, list):
        raise StudyError(f"{w}.problems: must be a list of problem ids")
    handled = sorted(p for p in set(wanted) & study_problems & spec.problems
                     if "solve" in tasks[p] or ("count" in tasks[p] and spec.counts)
                     or (spec.counts and spec.counts_unique))
    if not handled:
        raise StudyError(f"{w}: solver {spec.name!r} handles none of the study's problems")
    min_size = number(entry, "min_size", int, w, minimum=1, default=1)
    max_size = number(entry, "max_size", int, w, minimum=1, default=2**62)
    item = {"name": str(entry["name"]), "params": params, "problems": handled,
            "min_size": min_size, "max_size": max_size}
    if "repeats" in entry:  # absent, the study's (a study's stored form stays as it was)
        item["repeats"] = number(entry, "repeats", int, w, minimum=1, maximum=MAX_REPEATS)
    if any(k in entry for k in BUDGET_KEYS):
        item["budget"] = _entry_budget(entry, w, settings.time_limit, settings.hard_limit)
    tune = solver_tune(entry, w, settings.tune, spec,
                       study_sizes=sorted({n for p in handled for n in sizes[p]}))
    if tune:
        item["tune"] = tune
    if "tuned" in entry:
        if not isinstance(entry["tuned"], dict):
            raise StudyError(f"{w}.tuned: must be a table (as puzzlebench tune writes it)")
        item["tuned"] = dict(entry["tuned"])
    return item, spec


def _entry_budget(entry: Mapping[str, Any], where: str, time_limit: float,
                  hard_limit: float | None) -> dict[str, Any]:
    """A solver entry's own budget (its caps replace the study's; the time limit defaults to
    the study's)."""
    tl = float(limit(entry, "time_limit", where, default=time_limit) or 0)
    if hard_limit is not None and hard_limit < tl:
        raise StudyError(f"{where}.time_limit: {tl} is above the study's hard_limit {hard_limit}")
    out: dict[str, Any] = {"time_limit": tl}
    for key in BUDGET_KEYS[1:]:
        if key in entry:
            out[key] = number(entry, key, int, where)
    return out


def load_study(path: str | Path) -> Study:
    """Read and validate a study TOML file."""
    p = Path(path)
    if p.is_dir():
        raise StudyError(f"{str(p)!r} is a folder, not a study file")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StudyError(f"study file {str(p)!r} does not exist") from None
    except UnicodeDecodeError:
        raise StudyError(f"{p.name}: not a text file (a study is TOML)") from None
    except OSError as exc:
        raise StudyError(f"cannot read {str(p)!r}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"{p.name}: not valid TOML ({exc})") from None
    return study_from_dict(data, p.name)
