"""A study file's ``[[claims]]``, each checked against the study before any run: the solvers
among its solvers, the problem among its problems and run by them, a measure they count, and
for a scaling claim enough sizes to fit and to hold out. A claim on a native counter is
refused when a solver it names declares its counters (``Solver.counter_names``) without it;
one that declares none is taken on trust (:func:`unchecked_counters` says so before the run)."""

from __future__ import annotations

from typing import Any

from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_mistakes import did_you_mean
from puzzlebench.records.claims import (
    SCALING_MIN_SIZES,
    AnyClaim,
    Claim,
    ClaimError,
    ScalingClaim,
    parse_claim,
)
from puzzlebench.solvers.spec import SolverSpec


def study_claims(raw: Any, source: str, solvers: list[dict[str, Any]], specs: list[SolverSpec],
            sizes: dict[str, set[int]]) -> list[AnyClaim]:
    """The study's ``[[claims]]``, each checked against the study before any run: both solvers
    among its solvers (by the name written in ``[[solvers]]`` or the solver's own name; stored
    as the latter, the name its records carry), the problem among its problems and handled by
    both, ``evaluations`` only between solvers that count them and ``counter:NAME`` only
    between solvers that record it (as far as they declare their counters). A scaling claim is
    checked by :func:`_scaling_claim`."""
    problems = set(sizes)
    if not isinstance(raw, list):
        raise StudyError(f"{source}: claims must be [[claims]] tables")
    by_name: dict[str, tuple[SolverSpec, set[str]]] = {}
    for entry, spec in zip(solvers, specs, strict=True):
        for name in (entry["name"], spec.name):
            by_name[name] = (spec, set(entry["problems"]))
    out: list[AnyClaim] = []
    for i, table in enumerate(raw):
        where = f"{source} [[claims]] #{i + 1}"
        try:
            parsed = parse_claim(table, where)
        except ClaimError as exc:
            raise StudyError(str(exc)) from None
        if isinstance(parsed, ScalingClaim):
            out.append(_scaling_claim(parsed, where, solvers, by_name, sizes))
            continue
        claim = parsed
        named = []
        for key in ("better", "than"):
            name = getattr(claim, key)
            if name not in by_name:
                raise StudyError(f"{where}.{key}: {name!r} is not one of the study's solvers"
                                 f"{did_you_mean(name, by_name)} "
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
        counter = claim.column.removeprefix("counter.")
        if claim.on.startswith("counter:"):
            for spec, _ in named:
                _check_counter(spec, counter, f"{where}.on")
        out.append(Claim(claim.says, named[0][0].name, named[1][0].name, claim.on,
                         claim.problem, claim.margin))
    return out


def _scaling_claim(claim: ScalingClaim, where: str, solvers: list[dict[str, Any]],
                   by_name: dict[str, tuple[SolverSpec, set[str]]],
                   sizes: dict[str, set[int]]) -> ScalingClaim:
    """A scaling claim checked against the study: the solver among its solvers, a measure the
    solver counts (time always; evaluations only where it counts them; another counter only
    where the solver declares it, or declares no counters at all), and at least
    ``SCALING_MIN_SIZES`` sizes of each problem the claim covers within the solver's size
    range (the fit needs three, the held-out check two)."""
    if claim.solver not in by_name:
        raise StudyError(f"{where}.solver: {claim.solver!r} is not one of the study's solvers "
                         f"({', '.join(sorted(e['name'] for e in solvers))})")
    spec, handled = by_name[claim.solver]
    if claim.measure == "evaluations" and not (spec.evaluation or spec.traces):
        raise StudyError(f"{where}.measure: {spec.name} does not count evaluations "
                         "(puzzlebench solvers --json: effort_unit)")
    if claim.measure not in ("time", "evaluations"):
        _check_counter(spec, claim.measure, f"{where}.measure")
    if claim.problem and claim.problem not in sizes:
        raise StudyError(f"{where}.problem: {claim.problem!r} is not one of the study's "
                         f"problems ({', '.join(sorted(sizes))})")
    if claim.problem and claim.problem not in handled:
        raise StudyError(f"{where}.problem: {claim.solver} does not run {claim.problem}")
    entries = [e for e in solvers if by_name.get(e["name"], (None,))[0] is spec]
    for problem in [claim.problem] if claim.problem else sorted(handled):
        run = {n for e in entries if problem in e["problems"] for n in sizes[problem]
               if e["min_size"] <= n <= e["max_size"]}
        if len(run) < SCALING_MIN_SIZES:
            key = "problem" if claim.problem else "solver"
            raise StudyError(f"{where}.{key}: {claim.solver} runs {len(run)} size"
                             f"{'s' if len(run) != 1 else ''} of {problem}; a scaling claim "
                             f"needs at least {SCALING_MIN_SIZES} (fit on the smaller, check on the "
                             "two largest)")
    return ScalingClaim(claim.says, spec.name, claim.measure, claim.model, claim.problem,
                        claim.at_most)


def _check_counter(spec: SolverSpec, counter: str, where: str) -> None:
    """StudyError when ``spec`` declares its counters and ``counter`` is not among them."""
    if spec.counter_names is None or counter in spec.counter_names:
        return
    records = ", ".join(sorted(spec.counter_names)) or "none"
    raise StudyError(f"{where}: {spec.name} records no counter {counter!r}"
                     f"{did_you_mean(counter, spec.counter_names)} (it records: {records}; "
                     "puzzlebench solvers --json: counters)")


def unchecked_counters(claims: list[AnyClaim], specs: dict[str, SolverSpec]) -> list[str]:
    """One line per claim on a native counter that a solver it names cannot be checked for
    before the run: the solver (a plugin) declares no ``counter_names``. ``specs`` maps the
    claims' solver names to their specs."""
    out = []
    for claim in claims:
        if isinstance(claim, ScalingClaim):
            names, counter = [claim.solver], claim.measure
        else:
            names, counter = [claim.better, claim.than], claim.column.removeprefix("counter.")
        if counter in ("time", "time_s", "success", "evaluations"):
            continue
        silent = [n for n in names if n in specs and specs[n].counter_names is None]
        if silent:
            out.append(f"claim {claim.says!r}: {' and '.join(silent)} declare"
                       f"{'s' if len(silent) == 1 else ''} no counter_names, so whether "
                       f"{'it records' if len(silent) == 1 else 'they record'} {counter!r} "
                       "cannot be checked before the run")
    return out
