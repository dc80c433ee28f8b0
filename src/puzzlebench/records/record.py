"""The record vocabulary: outcomes, their success and failure sets, and the run record — four
small records (key, verdict, figures, provenance) with one flat form for storage and tables.

The bottom floor of the house: both the harness (which makes records) and the reports (which
read them) import this module, and it imports nothing else of the project.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


class Outcome(StrEnum):
    """What a run is judged to be. Only SOLVED counts as solved; WRONG never does."""

    SOLVED = "solved"
    INFEASIBLE = "infeasible"
    WRONG = "wrong"
    BUDGET = "budget"
    #: The solver refused the instance without trying (``Claim.DECLINED``): neither a success
    #: nor a failure, and not a run out of budget either.
    DECLINED = "declined"
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    CRASH = "crash"

    @property
    def success(self) -> bool:
        """A solver's claim the harness accepted (solved, or infeasible); whether it was
        *verified* is the record's ``verified`` field."""
        return self in (Outcome.SOLVED, Outcome.INFEASIBLE)

    @property
    def failure(self) -> bool:
        """A run that went wrong rather than merely ran out of budget."""
        return self in (Outcome.WRONG, Outcome.TIMEOUT, Outcome.MEMOUT, Outcome.CRASH)


#: Below this a single (unrepeated) run's time is noise on a shared machine: the spread of the
#: same deterministic run repeated 30 times beside two CPU burners is about this large in
#: absolute terms (``python benchmarks/timing_stability.py``). Reports mark such times.
NOISE_FLOOR_S = 0.001

#: The outcome values whose claim the harness accepted (``Outcome.success``), for tables.
SUCCESS_VALUES: tuple[str, ...] = tuple(o.value for o in Outcome if o.success)
#: The outcome values of runs that went wrong (``Outcome.failure``).
FAILURE_VALUES: tuple[str, ...] = tuple(o.value for o in Outcome if o.failure)


#: Fields that differ between two otherwise identical runs (clocks, machine, stamps).
VOLATILE_FIELDS: frozenset[str] = frozenset(
    {"time_s", "cpu_s", "peak_rss_mb", "timestamp", "machine", "versions", "host", "warmup_s",
     "startup_s", "rss_base_mb", "span_s", "time_min_s", "repeats", "repeats_agree",
     "timed_by", "measured_by", "clock_resolution_s", "core", "sandbox", "certificate",
     "certify_s"}
)
#: Notes that say how the machine's timing went, not what the run did (a warm-up cut short,
#: a start-up that used its whole share of the time limit): volatile as the timings are.
TIMING_NOTES: tuple[str, ...] = ("warm-up cut short", "the time limit counts from the run's start",
                                "the first solve took", "the run used more than one core",
                                "killed before it said whether it was sealed",
                                "the run worked before go")

#: The ladder of verification, strongest first (``RunVerdict.verified_by``): the validator
#: checked a solution; a rule or a published fact decided it (solvability rules, known counts,
#: Korf's optima); a checked certificate (a proof of unsatisfiability accepted by an
#: independent checker); agreement of independent complete solvers. A record names the
#: strongest rung that verified it, and a stronger one replaces a weaker one.
RUNGS: tuple[str, ...] = ("validator", "rule", "certificate", "agreement")


def rung_rank(rung: str) -> int:
    """Higher is stronger: validator 4 … agreement 1, unverified ("") 0."""
    return len(RUNGS) - RUNGS.index(rung) if rung in RUNGS else 0


@dataclass(frozen=True, slots=True)
class RunKey:
    """What the run was: the instance, the solver and everything that changes its result — the
    parameters, the seed and repeat, the budget and limits, the solver's code fingerprint."""

    problem: str
    size: int
    instance_id: str
    solver: str
    params: dict[str, Any]
    seed: int
    task: str = "solve"  # "solve" or "count"
    budget: dict[str, Any] = field(default_factory=dict)
    #: The instance's own description (``Instance.describe``): enough to rebuild it.
    instance: dict[str, Any] = field(default_factory=dict)
    study: str = ""
    repeat: int = 0
    master_seed: int | None = None
    hard_limit: float | None = None
    memory_limit_mb: int | None = None
    fingerprint: str = ""
    #: ``min_time`` the run was repeated to (None: one solve).
    min_time: float | None = None


@dataclass(frozen=True, slots=True)
class RunVerdict:
    """What the judge decided of the run's proposal, and the proposal it decided on.

    ``verified`` is True for a success the harness checked (a valid answer, a count equal to
    the known value, an infeasibility the rule confirms), False for a success nothing could
    check (reported apart), None for every other outcome; ``verified_by`` names the rung that
    verified it (``RUNGS``; "" when unverified), ``certificate`` what certification of an
    ``infeasible`` claim found (the checked proof, or why there is none) and ``certify_s`` the
    proof checker's seconds.
    """

    outcome: Outcome
    claim: str
    valid: bool | None
    reason: str = ""
    #: The problem's JSON encoding of the answer (list of ints, list of [kind,row,col], or a
    #: UDLR string).
    answer: Any = None
    answer_length: int | None = None
    optimum: int | None = None
    #: The run's answer was held to be optimal: its solver declared ``exact`` or the proposal
    #: said ``optimal`` (what the harness read when it judged the run; the re-judgement of
    #: stored runs compares such answers' lengths whoever reads them).
    exact: bool = False
    count: int | None = None
    unique: int | None = None
    error: str = ""
    verified: bool | None = None
    verified_by: str = ""
    certificate: str = ""
    certify_s: float | None = None
    #: The code fingerprint of the judge that decided the outcome (``harness.judging.rules``): a
    #: stored run judged by another version is judged again when read. Empty: made before.
    judge_version: str = ""
    #: What ended the run (``contract.STOPPED_BY``): ``answer`` (a solved or infeasible claim),
    #: ``time_limit``, ``max_evaluations``, ``max_iterations``, ``max_nodes``, ``param:<name>``
    #: (a solver parameter), ``declined``, ``killed`` (the hard limit) — or '' where nothing
    #: said (a plain solver that stopped without an answer; a crash; records made before).
    stopped_by: str = ""


@dataclass(frozen=True, slots=True)
class RunFigures:
    """What the run measured and how (docs/concepts/measurement.md): the solver's own effort
    counters, its time, CPU and memory, the untimed set-up around them, and its anytime trace."""

    #: The solver's native effort counters.
    counters: dict[str, Any] = field(default_factory=dict)
    #: The timed phase (the median solve when repeated), CPU seconds per solve, peak memory.
    time_s: float = 0.0
    cpu_s: float = 0.0
    peak_rss_mb: float = 0.0
    #: Untimed: the warm-up and the process's start before ``time_s``; memory before the solve.
    warmup_s: float = 0.0
    startup_s: float = 0.0
    rss_base_mb: float = 0.0
    #: The anytime trace ``[[evaluations, best, seconds], ...]`` of a tracing solver's run, as
    #: the harness accepted it (``puzzlebench.records.trace``); stored in the ``traces`` table, not in
    #: the record's JSON.
    trace: list[list[float]] | None = None
    #: The solver was handed a trace sink (its trace may still be empty, or dropped).
    traced: bool = False
    #: The harness's own window around the timed phase (go sent → done read), seconds.
    span_s: float = 0.0
    #: ``run``: ``time_s`` is from the run's own clock stamps, checked by the harness;
    #: ``harness``: the stamps were refused (``notes`` says why) and ``time_s`` is ``span_s``.
    timed_by: str = ""
    #: Where ``cpu_s`` and ``peak_rss_mb`` come from: ``cgroup-v1``/``cgroup-v2`` (the run's
    #: whole process tree, timed phase only), ``rusage`` (the run's process and its waited-for
    #: children) or ``process`` (an in-process run).
    measured_by: str = ""
    #: The resolution the kernel reports for the stamps' clock, seconds.
    clock_resolution_s: float = 0.0
    #: How many solves the run made (``min_time``) and the fastest one.
    repeats: int = 1
    time_min_s: float = 0.0
    #: Every repeat proposed what the first did (None: one solve).
    repeats_agree: bool | None = None
    #: The core the run was pinned to (None: not pinned).
    core: int | None = None


@dataclass(frozen=True, slots=True)
class RunProvenance:
    """Where and how the run was made: the solver's origin, the libraries and the machine, the
    time, how it was isolated, what it printed and what the harness noticed."""

    origin: str = ""
    versions: dict[str, str] = field(default_factory=dict)
    machine: dict[str, Any] = field(default_factory=dict)
    timestamp: str = ""
    #: The solver ran in a process of its own (False: in the harness's, for debugging).
    isolated: bool = True
    #: How the run was sealed off from the machine (``harness.run.sealed.sandbox``): ``namespaces`` (its
    #: own PID, mount and network namespaces, a read-only file system, no capabilities) or
    #: ``none`` (an ordinary process of the harness's user; ``notes`` says why). Records made
    #: before the field say ``none``: they were not sealed.
    sandbox: str = "none"
    #: The tail of what the solver printed.
    log: str = ""
    #: What the harness noticed, as sentences joined by "; ".
    notes: str = ""


#: The parts of a record, by attribute name, and the type of each.
PARTS: dict[str, Any] = {"key": RunKey, "verdict": RunVerdict, "figures": RunFigures,
                          "provenance": RunProvenance}
#: Every field of every part, in the order of a record's flat form (its JSON and its columns:
#: the order of the flat record these parts were cut from, so stored and printed JSON stay as
#: they were).
FLAT_FIELDS: tuple[str, ...] = (
    "problem", "size", "instance_id", "solver", "params", "seed", "outcome", "claim", "valid",
    "reason", "task", "answer", "answer_length", "optimum", "exact", "count", "unique",
    "counters", "time_s", "cpu_s", "peak_rss_mb", "budget", "instance", "origin", "study",
    "repeat", "master_seed", "versions", "machine", "timestamp", "error", "verified",
    "verified_by", "certificate", "certify_s", "isolated", "warmup_s", "startup_s",
    "rss_base_mb", "hard_limit", "memory_limit_mb", "fingerprint", "judge_version", "log",
    "notes", "stopped_by", "trace", "traced", "span_s", "timed_by", "measured_by",
    "clock_resolution_s", "min_time", "repeats", "time_min_s", "repeats_agree", "core",
    "sandbox")
#: Which part holds each flat field.
PART_OF: dict[str, str] = {name: part for part, kind in PARTS.items()
                           for name in kind.__dataclass_fields__}


@dataclass(frozen=True, slots=True)
class RunRecord:
    """One run, everything needed to judge, compare and reproduce it, as four small records:
    its ``key`` (what was run), its ``verdict`` (what the judge decided), its ``figures`` (what
    was measured) and its ``provenance`` (where and how).

    Code reads a field in its part (``record.figures.time_s``, ``record.verdict.outcome``), so
    mypy checks every name. The flat form (every part's fields side by side) is the record's
    stored and tabular form only: ``to_dict``, the store's JSON, the DataFrame's columns;
    ``RunRecord.of(**fields)`` and ``with_(**changes)`` take flat names, and ``flat_field(name)``
    reads one by its name. A new field is added to its part alone.
    """

    key: RunKey
    verdict: RunVerdict
    figures: RunFigures = field(default_factory=RunFigures)
    provenance: RunProvenance = field(default_factory=RunProvenance)

    @classmethod
    def of(cls, **fields: Any) -> RunRecord:
        """A record from its flat fields (unknown names are a TypeError)."""
        _known(fields)
        parts = {part: kind(**{k: v for k, v in fields.items() if PART_OF[k] == part})
                 for part, kind in PARTS.items()}
        return cls(**parts)

    def flat_field(self, name: str) -> Any:
        """One flat field by its name, read in its part (for code that walks the flat form:
        tables, stable comparisons); typed code reads the part (``record.figures.time_s``)."""
        part = PART_OF.get(name)
        if part is None:
            raise KeyError(f"RunRecord has no field {name!r}")
        return getattr(getattr(self, part), name)

    @property
    def solved(self) -> bool:
        return self.verdict.outcome is Outcome.SOLVED

    @property
    def verified_success(self) -> bool:
        """The one definition of success every report uses: accepted and checked."""
        return self.verdict.outcome.success and self.verdict.verified is True

    def to_dict(self) -> dict[str, Any]:
        """The flat form, JSON-compatible (outcome as its string value; the trace is stored
        apart)."""
        d = {name: self.flat_field(name) for name in FLAT_FIELDS if name != "trace"}
        for name in ("params", "counters", "budget", "instance", "versions", "machine"):
            d[name] = dict(d[name])
        d["outcome"] = self.verdict.outcome.value
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, default=json_default)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunRecord:
        """A record from its flat form as stored (older stores included: fields added since
        take their defaults; the verification of a record stored before the ladder is the
        judge's to say, ``harness.judging.pipeline.as_judged_then``, applied on reading)."""
        d = {k: v for k, v in data.items() if k in PART_OF}
        d["outcome"] = Outcome(d["outcome"])
        return cls.of(**d)

    def stable(self) -> dict[str, Any]:
        """The record without volatile fields: equal for two runs of the same seed. Counters
        named ``*_s`` are seconds a solver measured itself (e.g. ``first_solution_s``,
        ``pdb_load_s``) and are volatile too."""
        out = {k: v for k, v in self.to_dict().items() if k not in VOLATILE_FIELDS}
        out["counters"] = {k: v for k, v in self.figures.counters.items()
                           if not k.endswith("_s")}
        out["notes"] = "; ".join(part for part in self.provenance.notes.split("; ")
                                 if part and not part.startswith(TIMING_NOTES))
        return out

    def with_(self, **changes: Any) -> RunRecord:
        """A copy with some flat fields changed (records themselves never change)."""
        _known(changes)
        parts = {part: replace(getattr(self, part),
                               **{k: v for k, v in changes.items() if PART_OF[k] == part})
                 for part in PARTS if any(PART_OF[k] == part for k in changes)}
        return replace(self, **parts)


def _known(fields: dict[str, Any]) -> None:
    """TypeError naming every field no part of a record has."""
    unknown = sorted(set(fields) - set(PART_OF))
    if unknown:
        raise TypeError(f"RunRecord has no field {', '.join(map(repr, unknown))}")


#: Budget caps and the counters that measure them, in the order a stop is attributed.
CAP_COUNTER_NAMES: tuple[tuple[str, str], ...] = (
    ("max_evaluations", "evaluations"), ("max_iterations", "iterations"),
    ("max_iterations", "generations"), ("max_nodes", "nodes"), ("max_nodes", "nodes_expanded"),
    ("max_nodes", "nodes_generated"), ("max_nodes", "nodes_examined"))


def infer_stopped_by(counters: Any, budget: Any, time_s: float) -> str:
    """What stopped a run that ended without an answer, read from its counters and budget
    (for solvers that do not say, and records made before ``stopped_by``): the first cap its
    counter reached, else ``time_limit`` when its time came within 5 % of the limit, else ''."""
    counters, budget = dict(counters or {}), dict(budget or {})
    for cap, counter in CAP_COUNTER_NAMES:
        if budget.get(cap) is not None and counter in counters and counters[counter] >= budget[cap]:
            return cap
    limit = budget.get("time_limit")
    if limit is not None and time_s >= 0.95 * float(limit):
        return "time_limit"
    return ""


def json_default(obj: Any) -> Any:
    """``json.dumps`` default for records: numpy arrays and scalars as plain values; anything
    else is an error (a record must not hold what JSON cannot say)."""
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if hasattr(obj, "item"):
        return obj.item()
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


#: What makes a spreadsheet read a cell as a formula (OWASP, CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def inert_cell(value: Any) -> Any:
    """A table cell as written to CSV: text a spreadsheet would run as a formula (it starts
    with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return, after any spaces) gets a leading
    ``'``; numbers, text that is a plain number (``-0.5``) and a lone ``-`` stay as they are."""
    if not isinstance(value, str) or value == "-" or _NUMBER.fullmatch(value.strip()):
        return value
    return "'" + value if value.lstrip(" ").startswith(FORMULA_START) else value


def inert_table(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` for CSV: every text cell and column name through :func:`inert_cell`
    (numeric and boolean columns untouched). Every CSV the suite writes goes through it."""
    out = frame.copy()
    for col in out.columns:
        if out[col].dtype.kind not in "biufc":
            out[col] = out[col].map(inert_cell)
    out.columns = [inert_cell(c) for c in out.columns]
    return out
