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
    # ...and the problem's own options, as it declares them (``problems.options``), e.g.
    # queens = [2, 4]           # queens-knights: A values (list → grid)
    # starts = ["125408367"]    # sliding: start states; goal = "123456780"; shape = "3x3"
    # placed = ["0:3,5:7"]      # nqueens-completion: pre-placed queens (list → grid)

    [[solvers]]
    name = "mod12"              # a registered name or module:attr / file.py:attr
    # params = { population = [50, 100] }   # a list makes a grid over that parameter
    # problems = ["nqueens"]                # restrict to some of the study's problems
    # min_size = 4, max_size = 64           # restrict to a range of sizes
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

import difflib
import math
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from puzzlebench.claims import Claim, ClaimError, parse_claim
from puzzlebench.contract import SolverConfigError
from puzzlebench.harness.campaign.study import Study, StudyError, expand_grid
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.problems import PROBLEMS, get_problem
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.problems.size_lists import SizeListError, parse_size_list
from puzzlebench.registry import RegistryError
from puzzlebench.solver_spec import SolverSpec, check_distinct

STUDY_KEYS = {"name", "master_seed", "repeats", "time_limit", "hard_limit", "memory_limit_mb",
              "max_nodes", "max_iterations", "max_evaluations", "db", "description",
              "min_time", "pin", "sandbox", "startup_limit", "tune"}
#: Keys every [[problems]] table takes; each problem adds its own options' keys.
PROBLEM_KEYS = {"problem", "sizes", "generate"}
BUDGET_KEYS = ("time_limit", "max_nodes", "max_iterations", "max_evaluations")
SOLVER_KEYS = {"name", "params", "problems", "min_size", "max_size", "tuned", "tune",
               *BUDGET_KEYS}
#: ``tune = { ... }`` in [study] or [[solvers]]: what ``puzzlebench tune`` takes.
TUNE_KEYS = {"budget", "train", "budget_unit", "objective", "repeats", "seed"}
TUNE_OBJECTIVES = ("par2", "success", "evaluations")
TUNE_UNITS = ("runs", "cpu-seconds")
TOP_KEYS = {"study", "problems", "solvers", "claims"}


def parse_sizes(value: Any, where: str) -> list[int]:
    """A size list from "4..12", "4,8" or a list of ints; errors name ``where``."""
    try:
        return parse_size_list(value)
    except SizeListError as e:
        raise StudyError(f"{where}: {e}") from None


def _check_keys(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(key, sorted(allowed), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise StudyError(f"{where}: unknown key {key!r}{hint}")


def _number(table: Mapping[str, Any], key: str, kind: type, where: str, minimum: float = 0,
            default: Any = None) -> Any:
    value = table.get(key, default)
    if value is None:
        return None
    ok = isinstance(value, kind) or (kind is float and isinstance(value, int))
    if not ok or isinstance(value, bool) or not math.isfinite(value) or value < minimum \
            or abs(value) > 2**62:
        raise StudyError(f"{where}.{key}: expected a {kind.__name__} ≥ {minimum}, got {value!r}")
    return kind(value)


def study_from_dict(data: Mapping[str, Any], source: str = "study") -> Study:
    """Validate a parsed study and build it (raises StudyError naming the key)."""
    _check_keys(data, TOP_KEYS, source)
    head = data.get("study")
    if not isinstance(head, dict):
        raise StudyError(f"{source}: missing [study] table")
    _check_keys(head, STUDY_KEYS, f"{source} [study]")
    name = head.get("name")
    if not isinstance(name, str) or not name.strip():
        raise StudyError(f"{source} [study].name: a non-empty string is required")
    where = f"{source} [study]"
    master_seed = _number(head, "master_seed", int, where, default=0)
    repeats = _number(head, "repeats", int, where, minimum=1, default=1)
    time_limit = _number(head, "time_limit", float, where, default=10.0)
    hard_limit = _number(head, "hard_limit", float, where)
    if time_limit <= 0:
        raise StudyError(f"{where}.time_limit: must be positive, got {time_limit}")
    if hard_limit is not None and hard_limit < time_limit:
        raise StudyError(f"{where}.hard_limit: {hard_limit} is below time_limit {time_limit}")
    memory = _number(head, "memory_limit_mb", int, where, minimum=16)
    min_time = _number(head, "min_time", float, where)
    if min_time is not None and min_time <= 0:
        raise StudyError(f"{where}.min_time: must be positive, got {min_time}")
    pin = head.get("pin", False)
    if not isinstance(pin, bool):
        raise StudyError(f"{where}.pin: must be true or false, got {pin!r}")
    sandbox = head.get("sandbox")
    if sandbox is not None and sandbox not in ("auto", "required", "off"):
        raise StudyError(f"{where}.sandbox: must be auto, required or off, got {sandbox!r}")
    startup_limit = _number(head, "startup_limit", float, where)
    if startup_limit is not None and startup_limit <= 0:
        raise StudyError(f"{where}.startup_limit: must be positive, got {startup_limit}")
    caps = {k: _number(head, k, int, where) for k in ("max_nodes", "max_iterations",
                                                      "max_evaluations") if k in head}
    study_tune = _tune_table(head["tune"], f"{where}.tune") if "tune" in head else None
    problems_raw = data.get("problems")
    if not isinstance(problems_raw, list) or not problems_raw:
        raise StudyError(f"{source}: at least one [[problems]] table is required")
    problems = []
    for i, entry in enumerate(problems_raw):
        w = f"{source} [[problems]][{i}]"
        if not isinstance(entry, dict):
            raise StudyError(f"{w}: must be a table")
        problem = entry.get("problem")
        try:
            prob = get_problem(problem) if isinstance(problem, str) else None
        except PuzzlebenchError:
            prob = None
        if prob is None:
            raise StudyError(f"{w}.problem: unknown problem {problem!r}; known: {', '.join(PROBLEMS)}")
        _check_keys(entry, PROBLEM_KEYS | {o.key for o in prob.options}, w)
        item: dict[str, Any] = {"problem": prob.id, "sizes": parse_sizes(entry.get("sizes"),
                                                                          f"{w}.sizes")}
        if "generate" in entry:
            if not prob.generates:
                raise StudyError(f"{w}.generate: {prob.id} has no instance generator")
            item["generate"] = _number(entry, "generate", int, w, minimum=1)
        try:
            item.update(prob.study_entry(entry, w, require="generate" not in entry))
        except PuzzlebenchError as exc:
            raise StudyError(str(exc)) from None
        problems.append(item)
    solvers_raw = data.get("solvers")
    if not isinstance(solvers_raw, list) or not solvers_raw:
        raise StudyError(f"{source}: at least one [[solvers]] table is required")
    study_problems = {p["problem"] for p in problems}
    solvers = []
    specs: list[SolverSpec] = []
    for i, entry in enumerate(solvers_raw):
        w = f"{source} [[solvers]][{i}]"
        if not isinstance(entry, dict):
            raise StudyError(f"{w}: must be a table")
        _check_keys(entry, SOLVER_KEYS, w)
        try:
            spec = resolve_solver(str(entry.get("name")))
        except RegistryError as exc:
            raise StudyError(f"{w}.name: {exc}") from None
        try:
            check_distinct([*specs, spec])
        except RegistryError as exc:
            raise StudyError(f"{w}.name: {exc}") from None
        specs.append(spec)
        params = entry.get("params", {})
        if not isinstance(params, dict):
            raise StudyError(f"{w}.params: must be a table")
        empty = sorted(k for k, v in params.items() if isinstance(v, list) and not v)
        if empty:
            raise StudyError(f"{w}.params.{empty[0]}: an empty list makes an empty grid")
        for combo in expand_grid(params):
            try:
                spec.check_params(combo)
            except SolverConfigError as exc:
                raise StudyError(f"{w}.params: {exc}") from None
        wanted = entry.get("problems", sorted(study_problems))
        if not isinstance(wanted, list):
            raise StudyError(f"{w}.problems: must be a list of problem ids")
        handled = sorted(set(wanted) & study_problems & spec.problems)
        if not handled:
            raise StudyError(f"{w}: solver {spec.name!r} handles none of the study's problems")
        min_size = _number(entry, "min_size", int, w, minimum=1, default=1)
        max_size = _number(entry, "max_size", int, w, minimum=1, default=2**62)
        item = {"name": str(entry["name"]), "params": params, "problems": handled,
                "min_size": min_size, "max_size": max_size}
        if any(k in entry for k in BUDGET_KEYS):
            item["budget"] = _entry_budget(entry, w, time_limit, hard_limit)
        tune = _solver_tune(entry, w, study_tune, spec, study_sizes=[
            n for p in problems if p["problem"] in handled for n in p["sizes"]])
        if tune:
            item["tune"] = tune
        if "tuned" in entry:
            if not isinstance(entry["tuned"], dict):
                raise StudyError(f"{w}.tuned: must be a table (as puzzlebench tune writes it)")
            item["tuned"] = dict(entry["tuned"])
        solvers.append(item)
    claims = _claims(data.get("claims", []), source, solvers, specs, study_problems)
    if study_tune and not any(s.get("tune") for s in solvers):
        raise StudyError(f"{where}.tune: none of the study's solvers declares a param_space "
                         "to tune")
    study = Study(name=name.strip(), problems=problems, solvers=solvers, claims=claims,
                  master_seed=master_seed, repeats=repeats, time_limit=time_limit,
                  hard_limit=hard_limit, memory_limit_mb=memory, caps=caps,
                  db=head.get("db"), description=str(head.get("description", "")),
                  min_time=min_time, pin=pin, sandbox=sandbox, startup_limit=startup_limit)
    try:
        study.instances()
    except PuzzlebenchError as exc:
        raise StudyError(f"{source} [[problems]]: {exc}") from None
    return study


def _claims(raw: Any, source: str, solvers: list[dict[str, Any]], specs: list[SolverSpec],
            problems: set[str]) -> list[Claim]:
    """The study's ``[[claims]]``, each checked against the study before any run: both solvers
    among its solvers (by the name written in ``[[solvers]]`` or the solver's own name; stored
    as the latter, the name its records carry), the problem among its problems and handled by
    both, and ``evaluations`` only between solvers that count them."""
    if not isinstance(raw, list):
        raise StudyError(f"{source}: claims must be [[claims]] tables")
    by_name: dict[str, tuple[SolverSpec, set[str]]] = {}
    for entry, spec in zip(solvers, specs, strict=True):
        for name in (entry["name"], spec.name):
            by_name[name] = (spec, set(entry["problems"]))
    out = []
    for i, table in enumerate(raw):
        where = f"{source} [[claims]][{i}]"
        try:
            claim = parse_claim(table, where)
        except ClaimError as exc:
            raise StudyError(str(exc)) from None
        named = []
        for key in ("better", "than"):
            name = getattr(claim, key)
            if name not in by_name:
                raise StudyError(f"{where}.{key}: {name!r} is not one of the study's solvers "
                                 f"({', '.join(sorted(e['name'] for e in solvers))})")
            named.append(by_name[name])
        if claim.problem and claim.problem not in problems:
            raise StudyError(f"{where}.problem: {claim.problem!r} is not one of the study's "
                             f"problems ({', '.join(sorted(problems))})")
        shared = named[0][1] & named[1][1]
        if claim.problem and claim.problem not in shared:
            raise StudyError(f"{where}.problem: {claim.better} and {claim.than} do not both "
                             f"run {claim.problem}")
        if not shared:
            raise StudyError(f"{where}: {claim.better} and {claim.than} share no problem")
        if claim.on == "evaluations":
            silent = [spec.name for spec, _ in named if not (spec.evaluation or spec.traces)]
            if silent:
                raise StudyError(f"{where}.on: {silent[0]} does not count evaluations "
                                 "(puzzlebench solvers --json: effort_unit)")
        out.append(Claim(claim.says, named[0][0].name, named[1][0].name, claim.on,
                         claim.problem, claim.margin))
    return out


def _tune_table(raw: Any, where: str) -> dict[str, Any]:
    """A ``tune`` table: a budget, training sizes, and optionally the unit, objective, repeats
    and seed."""
    if not isinstance(raw, dict):
        raise StudyError(f"{where}: must be a table {{ budget = N, train = SIZES }}")
    _check_keys(raw, TUNE_KEYS, where)
    for key in ("budget", "train"):
        if key not in raw:
            raise StudyError(f"{where}: {key} is required")
    out: dict[str, Any] = {"budget": _number(raw, "budget", float, where),
                           "train": parse_sizes(raw["train"], f"{where}.train")}
    if out["budget"] <= 0:
        raise StudyError(f"{where}.budget: must be positive")
    for key, allowed in (("budget_unit", TUNE_UNITS), ("objective", TUNE_OBJECTIVES)):
        if key in raw:
            if raw[key] not in allowed:
                raise StudyError(f"{where}.{key}: one of {', '.join(allowed)}, got {raw[key]!r}")
            out[key] = raw[key]
    if "repeats" in raw:
        out["repeats"] = _number(raw, "repeats", int, where, minimum=1)
    if "seed" in raw:
        out["seed"] = _number(raw, "seed", int, where)
    return out


def _solver_tune(entry: Mapping[str, Any], where: str, study_tune: dict[str, Any] | None,
                 spec: SolverSpec, study_sizes: list[int]) -> dict[str, Any] | None:
    """What tuning a solver entry asks: its own ``tune`` table, ``tune = true`` (the study's),
    or the study's for every solver that declares a param_space; None for none."""
    raw = entry.get("tune", None if study_tune is None else bool(spec.param_space))
    if raw is False or raw is None:
        return None
    if raw is True:
        if study_tune is None:
            raise StudyError(f"{where}.tune: true needs [study] tune = {{ budget = N, "
                             "train = SIZES }} (or give this solver its own table)")
        tune = dict(study_tune)
    else:
        if not isinstance(raw, dict):
            raise StudyError(f"{where}.tune: true, false or a table")
        tune = _tune_table({**(study_tune or {}), **raw}, f"{where}.tune")
    if not spec.param_space:
        raise StudyError(f"{where}.tune: solver {spec.name!r} declares no param_space")
    if entry.get("params"):
        raise StudyError(f"{where}.tune: a tuned solver's params come from the tuner; give "
                         "them in another [[solvers]] entry")
    shared = sorted(set(tune["train"]) & set(study_sizes))
    if shared:
        raise StudyError(f"{where}.tune.train: sizes {shared} are also the study's: a tuned "
                         "configuration is compared on sizes it was not tuned on")
    return tune


def _entry_budget(entry: Mapping[str, Any], where: str, time_limit: float,
                  hard_limit: float | None) -> dict[str, Any]:
    """A solver entry's own budget (its caps replace the study's; the time limit defaults to
    the study's)."""
    tl = _number(entry, "time_limit", float, where, default=time_limit)
    if tl <= 0:
        raise StudyError(f"{where}.time_limit: must be positive, got {tl}")
    if hard_limit is not None and hard_limit < tl:
        raise StudyError(f"{where}.time_limit: {tl} is above the study's hard_limit {hard_limit}")
    out: dict[str, Any] = {"time_limit": tl}
    for key in BUDGET_KEYS[1:]:
        if key in entry:
            out[key] = _number(entry, key, int, where)
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
