"""``puzzlebench report --db FILE --out DIR``: the comparison report of a store."""

from __future__ import annotations

from typing import Annotated

import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import CliInputError, check_out_dir


@app.command("report")
def report_command(
    db: Annotated[str, typer.Option(help="The SQLite store.")],
    out: Annotated[str, typer.Option(help="Output folder.")],
    study: Annotated[str | None, typer.Option(help="Only this study's runs.")] = None,
    title: Annotated[str | None, typer.Option(
        help="Report title (default: the study's name).")] = None,
) -> int:
    """Write report.md and report.html (self-contained) at the top of OUT, figures under
    OUT/figures and CSV tables under OUT/tables. The report opens with the answer generated
    from the runs (ranking, tied groups, best per problem, virtual best solver) and the tests
    of the claims the study file states."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.claims import Claim
    from puzzlebench.harness.campaign.store import load, load_traces, studies, study_definition
    from puzzlebench.report import write_report
    held = studies(db)
    if study is None and len(held) > 1:
        raise CliInputError(f"{db} holds {len(held)} studies ({', '.join(held)}); "
                            "report one at a time with --study NAME")
    check_out_dir(out)
    frame = load(db, study)
    if frame.empty:
        raise CliInputError(f"no runs stored in {db}" + (f" for study {study!r}" if study else ""))
    name = study or (held[0] if held else None)
    kept = study_definition(db, name) if name else {}
    claims = [Claim(**c) for c in kept.get("claims", [])]  # type: ignore[attr-defined]
    title = title or (f"Study '{name}'" if name else "puzzlebench report")
    tuned = list(kept.get("tuned", []))  # type: ignore[call-overload]
    paths = write_report(frame, out, title=title, traces=load_traces(db, study), claims=claims,
                         description=str(kept.get("description", "")), tuned=tuned)
    typer.echo(f"wrote {paths['markdown']} and {paths['html']}")
    return 0
