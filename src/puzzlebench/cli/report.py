"""``puzzlebench report --db FILE --out DIR``: the comparison report of a store."""

from __future__ import annotations

from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import CliInputError


@app.command("report")
def report_command(
    db: Annotated[str, typer.Option(help="The SQLite store.")],
    out: Annotated[str, typer.Option(help="Output folder.")],
    study: Annotated[str | None, typer.Option(help="Only this study's runs.")] = None,
    title: Annotated[str | None, typer.Option(
        help="Report title (default: the study's name).")] = None,
    force: Annotated[bool, typer.Option(
        help="Write into a non-empty folder puzzlebench did not write (its report files are "
             "replaced).")] = False,
) -> int:
    """Write report.md and report.html (self-contained) at the top of OUT, figures under
    OUT/figures and CSV tables under OUT/tables. The report opens with the answer generated
    from the runs (ranking, tied groups, best per problem, virtual best solver) and the tests
    of the claims the study file states. OUT must be new, empty or a folder puzzlebench
    wrote (it leaves a .puzzlebench-report file there); system and home folders are refused."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.harness.campaign.design.claim_revisions import labelled_claims, stated_claims
    from puzzlebench.harness.campaign.storage.store import load, load_traces, studies, study_definition
    from puzzlebench.records.claims import claim_from_dict
    from puzzlebench.report import write_report
    from puzzlebench.report.out_folder import prepare_report_folder
    held = studies(db)
    if study is None and len(held) > 1:
        raise CliInputError(f"{db} holds {len(held)} studies ({', '.join(held)}); "
                            "report one at a time with --study NAME")
    prepare_report_folder(out, force=force)
    frame = load(db, study)
    if frame.empty:
        raise CliInputError(f"no runs stored in {db}" + (f" for study {study!r}" if study else ""))
    name = study or (held[0] if held else None)
    kept = study_definition(db, name) if name else {}
    history = stated_claims(db, name) if name else []
    if history:  # every revision, each claim labelled with when it was stated
        claims, said = labelled_claims(history)
    else:  # a store made before revisions were kept
        claims = [claim_from_dict(c) for c in kept.get("claims", [])]  # type: ignore[attr-defined]
        said = []
    title = title or (f"Study '{name}'" if name else "puzzlebench report")
    tuned = list(kept.get("tuned", []))  # type: ignore[call-overload]
    paths = write_report(frame, out, title=title, traces=load_traces(db, study), claims=claims,
                         description=str(kept.get("description", "")), force=force,
                         narrative=said, lead=len(said), tuned=tuned)
    typer.echo(f"wrote {paths['markdown']} and {paths['html']}")
    return 0
