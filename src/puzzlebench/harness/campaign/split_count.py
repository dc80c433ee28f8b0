"""Split counts: an n-queens count run as many stored sub-problem runs, resumable, summed.

``count_split`` takes a split (``problems.count_splits``: ``constellations:K`` or ``rows:D``)
and runs each sub-problem as an ordinary count run of the harness — sealed, judged, one row
of the store each — on local workers or a Dask cluster (``harness.campaign.runner``). The
runs of one split count are the study ``count/nqueens-N/SPLIT/SOLVER``; run keys hold the
sub-problem, the solver's code and parameters, the budget and the attempt, so the same
command after an interruption runs only the sub-problems not stored yet.

What counts toward the total, decided here, never by the solver:

* a sub-problem is summed only when its run ended ``solved`` or ``infeasible`` (a count of
  zero is a count only when the run said so and finished);
* a run that crashed, timed out, ran out of memory or stopped on its budget is run again
  as a new attempt (``repeat`` in its key, so the failed run stays on record), up to
  ``retries`` more times in one call; what is still missing is reported, not guessed — the
  total is then incomplete and the call says which parts are missing. A lost Dask cluster
  stores nothing for the runs it took (``runner.InfrastructureError``: the same command
  resumes them);
* a sub-problem judged ``wrong`` (a count that contradicts what the judge knows about it,
  n ≤ 10) makes the total ``wrong``: running it again would not change a deterministic
  solver's mind.

Checking the total: against OEIS A000170 (and A002562 for unique counts) where the judge's
table has n; otherwise against the complete split counts of the same board stored in the
same file by *other code* — another solver name and another code fingerprint. Two splits by
one solver agreeing check nothing (a solver that makes its totals up makes them agree), so
beyond the known values a total is ``unverified`` until a different solver's count agrees:
``check_with`` (CLI ``count --check-with SOLVER``) runs that solver's split count of the same
board into the same store and compares. The outcome is kept in the store beside the runs (the
study's definition) and returned as a :class:`SplitCount`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from puzzlebench.harness.campaign.design.study import RunSpec, derive_seed
from puzzlebench.harness.campaign.progress import SplitProgress
from puzzlebench.harness.campaign.runner import run_specs
from puzzlebench.harness.campaign.storage.store import Store
from puzzlebench.harness.resolve import resolve_solver
from puzzlebench.harness.run.measure import default_hard_limit
from puzzlebench.problems import get_problem
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.problems.count_splits import Split, SubProblem, split_count
from puzzlebench.records.record import Outcome, RunRecord
from puzzlebench.solvers.contract import Budget
from puzzlebench.solvers.spec import SolverSpec

#: A split's sub-problem runs get this time limit each unless one is given (seconds).
PART_TIME_LIMIT = 3600.0
#: Extra attempts at a failed sub-problem in one call.
RETRIES = 2
#: Study names start with this, so a split count's runs are found again (``studies``).
PREFIX = "count/"

_COUNTED = (Outcome.SOLVED, Outcome.INFEASIBLE)


class SplitCountError(PuzzlebenchError, ValueError):
    """A split count that cannot run (a solver that cannot count its sub-problems)."""


@dataclass(frozen=True, slots=True)
class SplitCount:
    """What a split count found: the total (None while parts are missing), how it was
    checked, and what it took."""

    n: int
    split: str
    solver: str
    parts: int
    total: int | None
    unique: int | None
    #: ``verified``, ``unverified``, ``wrong`` or ``incomplete``
    status: str
    #: what checked the total: ``OEIS A000170``, ``split rows:2``, or why nothing could
    checked_by: str
    stored: int  #: sub-problems found stored (finished) before this call
    ran: int  #: sub-problem runs this call made (attempts included)
    missing: list[str] = field(default_factory=list)  #: instance ids with no count yet
    wrong: list[str] = field(default_factory=list)  #: instance ids judged wrong
    solver_time_s: float = 0.0  #: the summed time of the runs that counted
    wall_s: float = 0.0  #: this call's wall time
    db: str = ""
    #: the counting solver's code fingerprint: only a count by other code checks this one
    code: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def study_name(n: int, how: str, solver: str) -> str:
    """The study a split count's runs are stored under."""
    return f"{PREFIX}nqueens-{n}/{how}/{solver}"


def count_split(
    solver: str,
    n: int,
    how: str,
    db: str | Path,
    *,
    unique: bool = False,
    params: dict[str, Any] | None = None,
    time_limit: float | None = PART_TIME_LIMIT,
    workers: int | None = None,
    scheduler: str | None = None,
    retries: int = RETRIES,
    quiet: bool = False,
    on_record: Callable[[RunRecord], None] | None = None,
    check_with: str | None = None,
) -> SplitCount:
    """Count the n-queens solutions of board n by the split ``how``, each sub-problem a
    stored run of ``solver`` in ``db``; resumes what ``db`` holds (see the module doc).
    ``check_with`` names another solver whose split count of the board (the same split when
    it counts its parts, else ``rows:2``) is run too and compared."""
    started = time.perf_counter()
    split = split_count(n, how)
    spec = resolve_solver(solver)
    checker = _checker(spec, n, split, check_with)
    kinds = {p.instance.problem for p in split.parts} or {"nqueens-split"}
    if not spec.counts or not kinds <= spec.problems:
        raise SplitCountError(f"solver {spec.name!r} cannot count the sub-problems of the "
                              f"{split.how} split ({', '.join(sorted(kinds))})")
    if unique and not (split.sums_unique and spec.counts_unique):
        raise SplitCountError(f"unique counts do not sum over the {split.how} split"
                              if not split.sums_unique else
                              f"solver {spec.name!r} does not count unique solutions")
    name = study_name(n, split.how, spec.name)
    budget = Budget(time_limit)
    full = spec.check_params(params or {})
    by_id = {p.instance.instance_id: p for p in split.parts}
    def spec_of(part: SubProblem, attempt: int) -> RunSpec:
        return _spec(name, part, spec.reference or spec.name, spec.name, spec.fingerprint, full,
                     budget, unique, attempt)

    done, attempts, wrong = _stored(db, name, by_id, unique, spec_of)
    stored = len(done)
    progress = SplitProgress(len(split.parts), done, quiet=quiet)
    progress.add_stored(sum(by_id[i].weight * int(r.verdict.count or 0) for i, r in done.items()))

    def finish(record: RunRecord) -> None:
        attempts[record.key.instance_id] = attempts.get(record.key.instance_id, 0) + 1
        if _counted(record, unique):
            done[record.key.instance_id] = record
        elif record.verdict.outcome is Outcome.WRONG:
            wrong[record.key.instance_id] = record
        progress.update(record, by_id[record.key.instance_id].weight)
        if on_record is not None:
            on_record(record)

    ran = 0
    try:
        for _ in range(retries + 1):
            todo = [p for i, p in by_id.items() if i not in done and i not in wrong]
            if not todo:
                break
            specs = [spec_of(p, attempts.get(p.instance.instance_id, 0)) for p in todo]
            ran += len(run_specs(name, specs, db, workers=workers, scheduler=scheduler,
                                 quiet=True, on_record=finish).new)
    finally:
        progress.close()
    decided = _total(split, spec.name, spec.fingerprint, done, wrong, unique, db)
    outcome = SplitCount(**{**decided, "stored": stored, "ran": ran,
                            "wall_s": time.perf_counter() - started, "db": str(db),
                            "code": spec.fingerprint})
    _keep(name, outcome)
    if checker is not None and outcome.total is not None:
        checker_spec, checker_split = checker
        count_split(checker_spec.reference or checker_spec.name, n, checker_split, db,
                    params=None, time_limit=time_limit, workers=workers, scheduler=scheduler,
                    retries=retries, quiet=quiet)
        status, checked_by = check_total(n, split.how, spec.name, outcome.total, outcome.unique,
                                         db, code=spec.fingerprint)
        outcome = replace(outcome, status=status, checked_by=checked_by,
                          wall_s=time.perf_counter() - started)
        _keep(name, outcome)
    return outcome


def _keep(name: str, outcome: SplitCount) -> None:
    """Store a split count's outcome as its study's definition."""
    with Store(outcome.db) as store:
        store.save_study(name, {"description": describe(outcome),
                                "split_count": outcome.to_dict()})


def _checker(spec: SolverSpec, n: int, split: Split, check_with: str | None
             ) -> tuple[SolverSpec, str] | None:
    """(the checking solver, the split it counts) for ``check_with``; refuses a checker that
    is the counting solver's own code or that counts no split of the board."""
    if check_with is None:
        return None
    other = resolve_solver(check_with)
    if other.name == spec.name or (other.fingerprint and other.fingerprint == spec.fingerprint):
        raise SplitCountError(f"--check-with {other.name!r} is the counting solver's own code: "
                              "a count checks another only when other code makes it")
    for how in (split.how, "rows:2"):
        kinds = {p.instance.problem for p in split_count(n, how).parts} or {"nqueens-split"}
        if other.counts and kinds <= other.problems:
            return other, how
    raise SplitCountError(f"solver {other.name!r} cannot count the sub-problems of the "
                          f"{split.how} split nor of rows:2")


def describe(outcome: SplitCount) -> str:
    """What a split count found, in words: the description its study's report opens with
    (the report's own answer reads the parts as runs, each unverified above n = 10)."""
    what = (f"nqueens {outcome.n} counted by {outcome.solver}, split {outcome.split} into "
            f"{outcome.parts} sub-problems (each a run below)")
    if outcome.total is None:
        return f"{what}: no total — {outcome.status}, {outcome.checked_by}."
    unique = f" ({outcome.unique:,} unique)" if outcome.unique is not None else ""
    return (f"{what}: {outcome.total:,} solutions{unique}, {outcome.status} "
            f"({outcome.checked_by}). A sub-problem's own count is unverified above n = 10; "
            "the total is what is checked.")


def _spec(study: str, part: SubProblem, reference: str, solver: str, fingerprint: str,
          params: dict[str, Any], budget: Budget, unique: bool, attempt: int) -> RunSpec:
    inst = part.instance
    problem = get_problem(inst.problem)
    return RunSpec(
        study=study, problem=inst.problem, size=inst.size, options=problem.options_of(inst),
        instance_id=inst.instance_id, solver=reference, params=params, repeat=attempt,
        seed=derive_seed(0, study, inst.instance_id, attempt), master_seed=0,
        budget=budget.to_dict(), hard_limit=float(default_hard_limit(budget.time_limit) or 0.0),
        memory_limit_mb=None, name=solver, fingerprint=fingerprint, kind="count",
        unique=unique)


def _counted(record: RunRecord, unique: bool) -> bool:
    """Whether a sub-problem's run counts toward the total: it finished with a count (and
    the unique count, when one is asked for)."""
    return (record.verdict.outcome in _COUNTED and record.verdict.count is not None
            and (not unique or record.verdict.unique is not None))


def _stored(db: str | Path, study: str, parts: dict[str, SubProblem], unique: bool,
            spec_of: Callable[[SubProblem, int], RunSpec]
            ) -> tuple[dict[str, RunRecord], dict[str, int], dict[str, RunRecord]]:
    """(finished runs by instance id, attempts by instance id, runs judged wrong) of the
    split's sub-problems already in the store — only runs whose key is the one this call
    would make (the same code, parameters and budget: a run made otherwise is another run)."""
    done: dict[str, RunRecord] = {}
    attempts: dict[str, int] = {}
    wrong: dict[str, RunRecord] = {}
    if not Path(db).exists():
        return done, attempts, wrong
    with Store(db) as store:
        kept = store.keyed_records(study)
    for key, record in kept:
        part = parts.get(record.key.instance_id)
        if part is None or key != spec_of(part, record.key.repeat).key:
            continue
        attempts[record.key.instance_id] = max(attempts.get(record.key.instance_id, 0), record.key.repeat + 1)
        if _counted(record, unique):
            done[record.key.instance_id] = record
        elif record.verdict.outcome is Outcome.WRONG:
            wrong[record.key.instance_id] = record
    return done, attempts, wrong


def _total(split: Split, solver: str, code: str, done: dict[str, RunRecord],
           wrong: dict[str, RunRecord], unique: bool, db: str | Path) -> dict[str, Any]:
    """The split's total and its check (the fields of SplitCount this call decides)."""
    base: dict[str, Any] = {"n": split.n, "split": split.how, "solver": solver,
                            "parts": len(split.parts), "total": None, "unique": None,
                            "wrong": sorted(wrong)}
    missing = [p.instance.instance_id for p in split.parts
               if p.instance.instance_id not in done and p.instance.instance_id not in wrong]
    base["missing"] = missing
    base["solver_time_s"] = sum(r.figures.time_s for r in done.values())
    if wrong:
        return {**base, "status": "wrong",
                "checked_by": f"{len(wrong)} sub-problems judged wrong: {sorted(wrong)[0]}"}
    if missing:
        return {**base, "status": "incomplete",
                "checked_by": f"{len(missing)} of {len(split.parts)} sub-problems not counted"}
    weights = {p.instance.instance_id: p.weight for p in split.parts}
    total = sum(weights[i] * int(r.verdict.count or 0) for i, r in done.items())
    classes = sum(int(r.verdict.unique or 0) for r in done.values()) if unique else None
    base.update(total=total, unique=classes)
    status, checked_by = check_total(split.n, split.how, solver, total, classes, db, code=code)
    return {**base, "status": status, "checked_by": checked_by}


def check_total(n: int, how: str, solver: str, total: int, unique: int | None,
                db: str | Path, *, code: str = "") -> tuple[str, str]:
    """(status, what checked it) of a split's total: the judge's OEIS tables where they
    reach n, else the complete split counts of the same board stored in ``db`` by other code
    (another solver name and another code fingerprint than ``solver``'s ``code``; a stored
    count that names no fingerprint is nobody's check). Splits by the same code agreeing
    check nothing."""
    board = get_problem("nqueens").make(n)
    known = get_problem("nqueens").known_count(board)
    if known is not None:
        known_unique = get_problem("nqueens").known_count(board, unique=True)
        if total != known or (unique is not None and unique != known_unique):
            return "wrong", f"OEIS A000170 gives {known}" + (
                f" and A002562 {known_unique}" if unique is not None else "")
        return "verified", "OEIS A000170" + (" and A002562" if unique is not None else "")
    stored = [d for d in other_splits(db, n)
              if (d["split"], d["solver"]) != (how, solver) and d["total"] is not None]
    others = [(f"split {d['split']} by {d['solver']}", d["total"]) for d in stored
              if d["solver"] != solver and d.get("code") and d.get("code") != code]
    if not others:
        same = " (the splits by the same solver stored check nothing)" if stored else ""
        return "unverified", (f"OEIS lists no count for n = {n}; no split count of this board "
                              f"by another solver is stored to compare with{same}: "
                              "count --check-with SOLVER runs one")
    disagree = [f"{s} ({t})" for s, t in others if t != total]
    if disagree:
        return "wrong", f"{disagree[0]} disagrees"
    return "verified", ", ".join(sorted({s for s, _ in others})) + " agrees"


def other_splits(db: str | Path, n: int) -> list[dict[str, Any]]:
    """The outcomes of every split count of board n kept in ``db`` (any split, any solver)."""
    if not Path(db).exists():
        return []
    with Store(db) as store:
        kept = store.definitions(f"{PREFIX}nqueens-{n}/")
    return [dict(d["split_count"]) for d in kept.values()  # type: ignore[call-overload]
            if isinstance(d.get("split_count"), dict)]
