"""``puzzlebench check``: judge an answer made anywhere, or prove that an instance has no
solution (``--infeasible``), through the same pipeline that judges every run
(``harness.judging.pipeline``): an answer is a ``solved`` claim judged as ``solve`` judges it.

``--infeasible`` is an ``infeasible`` claim proved outright: the judge encodes the instance as
its own CNF, refutes it with CaDiCaL and checks the DRUP proof with an independent checker
(``harness.judging.proofs``); with ``--proof FILE`` it checks a DRUP/DRAT proof made anywhere
instead (of the judge's formula, or of ``--cnf FILE`` when every clause of that is one of the
judge's). The solvability rule is reported beside the proof, never instead of it.

Exit status: 0 valid (certified), 1 invalid or not certified (with the reason), 2 malformed
input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import CliInputError, check_limit, parse_int
from puzzlebench.cli.output import emit_json
from puzzlebench.cli.problem_options import ProblemArg, build_instance, problem_options
from puzzlebench.harness.judging.pipeline import RunContext, judge_proposal
from puzzlebench.harness.judging.proofs import LIMIT, PROOF_TIME_S, ProofResult
from puzzlebench.harness.judging.rules import Judgement
from puzzlebench.harness.run.protocol.payload import ProposalData
from puzzlebench.problems import problem_of
from puzzlebench.problems.base import Instance, PuzzlebenchError
from puzzlebench.problems.cnf import ENCODED, encodes
from puzzlebench.solvers.contract import Claim


@app.command("check")
@problem_options
def check_command(
    problem: ProblemArg,
    size: Annotated[str, typer.Argument(help="n, or 8/15 for sliding")],
    answer: Annotated[str | None, typer.Option(
        help="0,4,7,5,2,6,1,3 · Q:0:1,N:2:3 · UDLR moves")] = None,
    infeasible: Annotated[bool, typer.Option(
        "--infeasible", help="Prove that the instance has no solution (a checked DRUP proof).")
    ] = False,
    proof: Annotated[str | None, typer.Option(
        help="With --infeasible: a DRUP/DRAT proof file (text) to check instead of making one."
    )] = None,
    cnf: Annotated[str | None, typer.Option(
        help="With --proof: the DIMACS formula it refutes (default: the judge's encoding).")
    ] = None,
    time_limit: Annotated[float, typer.Option(
        help="With --infeasible: seconds the proof may take.")] = PROOF_TIME_S,
    show: Annotated[bool, typer.Option(help="Draw the answer.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the judgement as JSON.")] = False,
    problem_opts: dict[str, str] | None = None,
) -> int:
    """Check one answer and say why it is invalid; or prove an instance infeasible."""
    instance = build_instance(problem, parse_int(size, "size"), problem_opts or {})
    if infeasible:
        if answer is not None:
            raise CliInputError("give either --answer or --infeasible, not both")
        return _prove(instance, proof, cnf, check_limit(time_limit) or PROOF_TIME_S, as_json)
    if proof is not None or cnf is not None:
        raise CliInputError("--proof and --cnf go with --infeasible")
    if answer is None:
        raise CliInputError("give --answer ANSWER, or --infeasible")
    prob = problem_of(instance)
    parsed = prob.parse_answer(instance, answer)
    judgement = judge_answer(instance, parsed)
    valid = judgement.outcome.success
    if as_json:
        try:
            conflicts: int | None = prob.conflicts(instance, parsed)
        except PuzzlebenchError:  # e.g. a move off the board has no resulting state
            conflicts = None
        emit_json({"problem": instance.problem, "size": instance.size, "valid": valid,
                   "reason": judgement.reason, "conflicts": conflicts,
                   "outcome": judgement.outcome.value, "verified_by": judgement.verified_by})
    else:
        typer.echo("valid" if valid else f"invalid: {judgement.reason}")
        if show:
            typer.echo(prob.render(instance, parsed))
    return 0 if valid else 1


def judge_answer(instance: Instance, answer: object) -> Judgement:
    """An answer made anywhere, judged as a ``solve`` run's ``solved`` claim is (no time limit:
    it was made outside any run)."""
    return judge_proposal(problem_of(instance), instance,
                          ProposalData(claim=Claim.SOLVED, answer=answer),
                          RunContext(kind="solve", prove=False))


def _read(path: str | None, what: str) -> str | None:
    if path is None:
        return None
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliInputError(f"cannot read the {what} file {path!r}: "
                            f"{getattr(exc, 'strerror', None) or exc}") from None


def _prove(instance: Instance, proof_file: str | None, cnf_file: str | None,
             time_limit: float, as_json: bool) -> int:
    """``check --infeasible``: the claim proved outright by the pipeline, its proof printed,
    exit 0 when certified."""
    if not encodes(instance.problem):
        raise CliInputError(f"--infeasible proves {', '.join(ENCODED)}; "
                            f"{instance.problem} has no CNF encoding")
    if cnf_file is not None and proof_file is None:
        raise CliInputError("--cnf goes with --proof")
    rule = problem_of(instance).is_solvable(instance)
    judgement = judge_proposal(
        problem_of(instance), instance,
        ProposalData(claim=Claim.INFEASIBLE, proof=_read(proof_file, "proof"),
                     cnf=_read(cnf_file, "CNF")),
        RunContext(kind="solve", outright=True, proof_time_limit=time_limit))
    cert = judgement.proof or ProofResult(LIMIT, judgement.certificate or judgement.reason)
    ruled = {True: "solvable", False: "infeasible", None: "undecided"}[rule]
    if as_json:
        emit_json({"problem": instance.problem, "size": instance.size,
                   "instance_id": instance.instance_id, "certified": cert.certified,
                   "status": cert.status, "certificate": cert.text, "check_s": cert.check_s,
                   "solve_s": cert.solve_s, "answer": cert.answer, "rule": ruled,
                   "outcome": judgement.outcome.value})
    else:
        head = "infeasible (certified)" if cert.certified else f"not certified ({cert.status})"
        typer.echo(f"{instance.instance_id}: {head}: {cert.text}; the solvability rule, apart from "
                   f"the proof, says: {ruled}")
    return 0 if cert.certified else 1
