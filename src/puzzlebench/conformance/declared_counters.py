"""The conformance suite's hold on a solver's declared counters (``Solver.counter_names``):
study files refuse a claim on a counter a solver does not declare, so every run a check makes
must report only declared counters."""

from __future__ import annotations

from puzzlebench.records.record import RunRecord
from puzzlebench.solvers.spec import SolverSpec


def undeclared_counters(spec: SolverSpec, runs: list[RunRecord]) -> str:
    """Why ``runs`` break ``spec``'s declared counters ('' when they do not, or when it
    declares none): the counters they report that ``counter_names`` does not name."""
    if spec.counter_names is None:
        return ""
    extra = sorted({str(name) for record in runs for name in record.figures.counters}
                   - spec.counter_names)
    if not extra:
        return ""
    return (f"reported counter{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))} "
            f"not in its counter_names ({', '.join(sorted(spec.counter_names)) or 'none'})")
