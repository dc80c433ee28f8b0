"""``puzzlebench run STUDY.toml``: run a study into its SQLite store (resumable)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from puzzlebench.cli.app import CommandInterruptedError, app
from puzzlebench.cli.first_run import say_if_first_run
from puzzlebench.cli.options import (
    CliInputError,
    MinTimeOpt,
    PinOpt,
    SandboxOpt,
    StartupLimitOpt,
    with_measurement,
)

# the annotation only: the study module loads numpy and the registry (CLI start-up time)
if TYPE_CHECKING:
    from puzzlebench.harness.campaign.design.study import Study  # for annotations only

#: The most local worker processes a command may ask for (each has a slot made at once).
MAX_WORKERS = 1024


def check_workers(workers: int | None) -> None:
    """``--workers``: 1..``MAX_WORKERS`` (``--workers 1000000000`` made a slot per worker)."""
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise CliInputError(f"--workers must be in 1..{MAX_WORKERS}, got {workers}")


def check_scheduler(address: str) -> None:
    """A Dask scheduler address that parses and answers within a few seconds."""
    # only when a scheduler is named: start-up time
    import re
    import socket

    match = re.fullmatch(r"(?:tcp://)?([^:/\s]+):(\d{1,5})", address.strip())
    if match is None:
        raise CliInputError(f"--scheduler takes tcp://HOST:PORT, got {address!r}")
    host, port = match.group(1), int(match.group(2))
    try:
        with socket.create_connection((host, port), timeout=5):
            pass
    except OSError as exc:
        raise CliInputError(f"cannot reach the Dask scheduler at {address}: "
                            f"{exc.strerror or exc}") from None


def skipped_pairs(study: Study) -> list[str]:
    """One line per solver that skips some of the study's problems or sizes, and why: nothing
    a study leaves out is left out silently."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.harness.resolve import resolve_solver
    out = []
    for i, entry in enumerate(study.solvers, start=1):
        spec = resolve_solver(entry["name"])
        reasons = []
        for problem in sorted({p["problem"] for p in study.problems} - set(entry["problems"])):
            counting = any(p["problem"] == problem and p.get("task") == "count"
                           for p in study.problems)
            why = ("it does not handle it" if problem not in spec.problems
                   else "it does not count its solutions" if counting and not spec.counts
                   else "it does not count unique solutions" if counting and not
                   spec.counts_unique and any(p["problem"] == problem and p.get("unique")
                                              for p in study.problems)
                   else "its entry's problems leave it out")
            reasons.append(f"{problem} ({why})")
        sizes = sorted({n for p in study.problems if p["problem"] in entry["problems"]
                        for n in p["sizes"]
                        if not entry["min_size"] <= n <= entry["max_size"]})
        if sizes:
            reasons.append(f"sizes {', '.join(map(str, sizes))} (outside its min_size..max_size)")
        if reasons:
            out.append(f"solver {i} ({spec.name}) skips {'; '.join(reasons)}")
    return out


def unchecked_counter_claims(study: Study) -> list[str]:
    """One line per claim on a counter of a solver that declares none (a plugin without
    ``counter_names``): accepted, but not checked before the run."""
    if not study.claims:
        return []
    # imported on use: only a study with claims needs them
    from puzzlebench.harness.campaign.design.study_claims import unchecked_counters
    from puzzlebench.harness.resolve import resolve_solver
    specs = {}
    for entry in study.solvers:
        spec = resolve_solver(entry["name"])
        specs[spec.name] = spec
    return unchecked_counters(study.claims, specs)


def claim_reach(study: Study) -> list[str]:
    """One line per claim the study's design cannot confirm, whatever its runs show
    (``report.claim_power``)."""
    from puzzlebench.records.claims import Claim  # on use: the claims module only when checked
    # a scaling claim's verdict rests on the held-out sizes, not on a rank test's p
    pair_claims = [c for c in study.claims if isinstance(c, Claim)]
    if not pair_claims:
        return []
    # imported on use: only a study with claims needs the statistics
    from puzzlebench.harness.resolve import resolve_solver
    from puzzlebench.report.statistics.claim_power import ClaimDesign, reach_lines
    specs = study.runs()
    stochastic = {s.name: resolve_solver(s.solver).stochastic for s in specs}
    designs = []
    for claim in pair_claims:
        counts: dict[str, list[int]] = {}
        for s in specs:
            if claim.problem and s.problem != claim.problem:
                continue
            side = 0 if s.name == claim.better else 1 if s.name == claim.than else None
            if side is not None:
                counts.setdefault(s.instance_id, [0, 0])[side] += 1
        replicated = tuple(claim.on in ("time", "par2") or stochastic.get(name, True)
                           for name in (claim.better, claim.than))
        strata = [(m if replicated[0] else min(m, 1), k if replicated[1] else min(k, 1))
                  for m, k in counts.values()]
        designs.append(ClaimDesign(claim, strata, (replicated[0], replicated[1])))
    return reach_lines(designs)


@app.command("run")
def run_command(
    study_file: Annotated[Path, typer.Argument(help="The study TOML file.")],
    db: Annotated[str | None, typer.Option(help="SQLite store (default: the study's db).")] = None,
    workers: Annotated[int | None, typer.Option(help="Local worker processes (default: cores).")] = None,
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler, tcp://HOST:PORT.")] = None,
    min_time: MinTimeOpt = None,
    pin: PinOpt = None,
    sandbox: SandboxOpt = None,
    startup_limit: StartupLimitOpt = None,
    quiet: Annotated[bool, typer.Option(help="No progress output.")] = False,
    check: Annotated[bool, typer.Option(
        "--check", help="Read the study and say what it would run and whether its design can "
                        "reach a verdict on each claim; run nothing.")] = False,
    wide: Annotated[bool, typer.Option(
        help="Every column at full width (one per outcome), whatever the terminal.")] = False,
) -> int:
    """Run every not-yet-stored run of a study; exit 1 if any run is wrong, crashed or was
    killed (judged against the study's other runs too)."""
    say_if_first_run()
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.cli.summary import print_summary, print_verdict
    from puzzlebench.cli.tables import say
    from puzzlebench.harness.campaign.design.study_file import load_study
    from puzzlebench.harness.campaign.runner import run_study
    from puzzlebench.harness.campaign.storage.store import load_records
    check_workers(workers)
    if scheduler is not None:
        check_scheduler(scheduler)
    study = with_measurement(load_study(study_file), min_time, pin, sandbox,
                             startup_limit)
    target = db or study.db or f"{study.name}.sqlite"
    if any(entry.get("tune") for entry in study.solvers):
        # imported on use: Optuna loads only for a study that tunes its solvers
        from puzzlebench.tune.study_tuning import planned, tuned_study
        for line in planned(study):
            typer.echo(f"puzzlebench: note: {line}", err=True)
        if not check:
            study = tuned_study(study, target, workers=workers, scheduler=scheduler,
                                progress=None if quiet else lambda line: typer.echo(line, err=True))
    for line in skipped_pairs(study):
        typer.echo(f"puzzlebench: note: {line}", err=True)
    for line in unchecked_counter_claims(study):
        typer.echo(f"puzzlebench: warning: {line}", err=True)
    weak = claim_reach(study)
    for line in weak:
        typer.echo(f"puzzlebench: warning: {line}", err=True)
    if check:
        specs = study.runs()
        typer.echo(f"{study.name}: {len(specs)} runs over {len(study.instances())} instances; "
                   f"{len(study.claims)} claim{'s' if len(study.claims) != 1 else ''}, "
                   f"{len(study.claims) - len(weak)} within reach of this design")
        return 0
    try:
        result = run_study(study, target, workers=workers, scheduler=scheduler, quiet=quiet)
    except KeyboardInterrupt:  # what is stored, and how to go on: the same command resumes
        keys = [s.key for s in study.runs()]
        stored = len(load_records(target, keys=keys)) if Path(target).exists() else 0
        raise CommandInterruptedError(f"puzzlebench: interrupted — {stored} of the study's "
                                 f"{len(keys)} runs are stored in {target}; run the same "
                                 f"command to resume") from None
    # this definition's runs (not earlier ones under other limits), judged against each other
    records = load_records(target, keys=[s.key for s in study.runs()])
    print_summary(records, wide=wide)
    print_verdict(records, wide=wide)
    say(f"{len(result.new)} runs made, {result.skipped} already stored, in the store:",
        wide=wide)
    typer.echo(f"  {target}")  # a path and a command are printed whole, to be copied
    say("Its report (the ranking, each claim with its verdict), written by:", wide=wide)
    typer.echo(f"  puzzlebench report --db {target} --out {Path(target).stem}-report/")
    return 1 if any(r.verdict.outcome.failure for r in records) else 0
