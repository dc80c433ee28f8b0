"""Judging runs against each other: what no single run can know on its own.

Applied to every set of records before it is reported or turned into an exit status (a
report, ``compare``, ``agree``), so the verdict does not depend on the order runs finished in:

* an ``infeasible`` claim on an instance some run solved with a valid answer is ``wrong``;
* an ``infeasible`` claim no rule could check (``verified`` False) becomes verified when at
  least two different *built-in* complete solvers make it and no run solved the instance —
  agreement is the only evidence there is where the problem has no rule (nqueens-completion
  above the sizes its validator enumerates). ``complete`` is self-declared: a plugin's claim
  (``origin`` plugin, as the harness recorded it) is never verified by agreement, its own or
  with anyone else's — only by a rule or a checked certificate (``harness.judging.proof_runs``,
  applied when each run is judged; a certified claim is verified already and agreement, a
  weaker rung, never replaces it);
* a count that differs from a verified count of the same instance is ``wrong``; two
  unverified counts that differ are both marked ``wrong`` (nothing decides between them);
  unique counts (solutions up to symmetry) likewise, on their own;
* an exact solver's answer longer than another exact solver's answer on the same instance is
  ``wrong`` (not optimal), even where no optimum is known. Which runs were exact is recorded
  in each run (``exact``), so every reader of the same runs gives the same verdict; the
  ``exact_solvers`` names serve stores made before that field.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from puzzlebench.records.record import Outcome, RunRecord

#: Origins of the project's own solvers: the only ones whose ``complete`` is taken on trust.
BUILT_IN = ("handwritten", "baseline")


def _wrong(record: RunRecord, reason: str) -> RunRecord:
    return record.with_(outcome=Outcome.WRONG, verified=None, verified_by="", reason=reason)


def judge_across(records: Iterable[RunRecord], exact_solvers: Iterable[str] = (),
            complete_solvers: Iterable[str] = ()) -> list[RunRecord]:
    """The records, with claims contradicted by other runs turned ``wrong`` and unverified
    infeasibility claims agreed by two complete solvers verified (same order)."""
    records = list(records)
    exact = set(exact_solvers)
    complete = set(complete_solvers)
    by_instance: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, r in enumerate(records):
        by_instance[(r.key.problem, r.key.instance_id)].append(i)
    out = list(records)
    for (_, iid), idx in by_instance.items():
        group = [records[i] for i in idx]
        solved = [r for r in group
                  if r.key.task == "solve" and r.verdict.outcome is Outcome.SOLVED and r.verdict.valid]
        for i in idx:
            r = records[i]
            if r.key.task == "solve" and r.verdict.outcome is Outcome.INFEASIBLE and solved:
                out[i] = _wrong(r, f"claimed infeasible, but {solved[0].key.solver} found a valid "
                                   f"answer to {iid}")
        unproved = [i for i in idx if records[i].key.task == "solve" and records[i].verdict.outcome is
                    Outcome.INFEASIBLE and records[i].verdict.verified is False
                    and records[i].key.solver in complete and records[i].provenance.origin in BUILT_IN]
        agreeing = sorted({records[i].key.solver for i in unproved})
        if not solved and len(agreeing) >= 2:
            for i in unproved:
                out[i] = records[i].with_(
                    verified=True, verified_by="agreement",
                    reason="infeasibility agreed by complete solvers "
                           f"{', '.join(agreeing)} (no rule decides it)")
        counted = [(i, records[i]) for i in idx
                   if records[i].key.task == "count" and records[i].verdict.outcome is Outcome.SOLVED]
        verified = {r.verdict.count for _, r in counted if r.verdict.verified and r.verdict.count is not None}
        values = {r.verdict.count for _, r in counted if r.verdict.count is not None}
        for i, r in counted:
            if verified and r.verdict.count not in verified:
                out[i] = _wrong(r, f"counted {r.verdict.count}; a verified count is {min(verified)}")
            elif not verified and len(values) > 1:
                others = sorted(v for v in values if v != r.verdict.count)
                out[i] = _wrong(r, f"counted {r.verdict.count}; other counters say {others}")
            elif solved and r.verdict.count == 0:
                out[i] = _wrong(r, f"counted 0, but {solved[0].key.solver} found a valid answer")
        uniques = [(i, r, r.verdict.unique) for i, r in counted if r.verdict.unique is not None
                   and out[i].verdict.outcome is Outcome.SOLVED]
        sure = {u for _, r, u in uniques if r.verdict.verified}
        said = {u for _, _, u in uniques}
        for i, r, u in uniques:
            if sure and u not in sure:
                out[i] = _wrong(r, f"counted {u} unique solutions; a verified unique count is "
                                   f"{min(sure)}")
            elif not sure and len(said) > 1:
                out[i] = _wrong(r, f"counted {u} unique solutions; other counters say "
                                   f"{sorted(v for v in said if v != u)}")
        lengths = [(i, records[i]) for i in idx
                   if (records[i].verdict.exact or records[i].key.solver in exact)
                   and records[i].verdict.outcome is Outcome.SOLVED
                   and records[i].verdict.answer_length is not None]
        if lengths:
            best = min(r.verdict.answer_length or 0 for _, r in lengths)
            shortest = next(r for _, r in lengths if r.verdict.answer_length == best)
            for i, r in lengths:
                if (r.verdict.answer_length or 0) > best:
                    out[i] = _wrong(r, f"claimed optimal with {r.verdict.answer_length} moves; "
                                       f"{shortest.key.solver} found {best}")
    return out
