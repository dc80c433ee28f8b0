"""Shared command-line option parsing: size ranges, instances, budgets, solver parameters."""

from __future__ import annotations

import math
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from puzzlebench.harness.run.measure import MAX_TIME_LIMIT_S
from puzzlebench.problems.base import PuzzlebenchError
from puzzlebench.problems.size_lists import (
    MAX_INT,
    SizeListError,
    parse_integer,
    parse_size_list,
)
from puzzlebench.solvers.contract import Budget


class CliInputError(PuzzlebenchError, ValueError):
    """A malformed command-line value."""


def check_limit(time_limit: float | None, what: str = "--time-limit") -> float | None:
    """A finite, positive time limit of at most ``MAX_TIME_LIMIT_S`` (or None)."""
    if time_limit is not None and (not math.isfinite(time_limit) or time_limit <= 0
                                   or time_limit > MAX_TIME_LIMIT_S):
        raise CliInputError(f"{what} must be a positive number of seconds, at most "
                            f"{MAX_TIME_LIMIT_S:,.0f}, got {time_limit}")
    return time_limit


#: ``--min-time T``: repeat each run in its own process until T seconds of timed work.
MinTimeOpt = Annotated[float | None, typer.Option(
    "--min-time", help="Repeat each run (same seed) until this many seconds of timed work; "
                       "time_s is the median solve.")]
#: ``--pin``: each worker keeps to its own core.
PinOpt = Annotated[bool | None, typer.Option(
    "--pin/--no-pin", help="Give each worker its own core (cpuset cgroup, else affinity).")]


#: ``--sandbox``: how each run is sealed off from the machine (``harness.run.sealed.sandbox``).
SandboxOpt = Annotated[str | None, typer.Option(
    "--sandbox", metavar="auto|required|off",
    help="Seal each run in namespaces of its own (no other process, read-only files, no "
         "network): auto where the machine allows, required to refuse to run without, off. "
         "Default: $PUZZLEBENCH_SANDBOX or auto.")]
#: ``--startup-limit``: seconds a run may take to start and warm up.
StartupLimitOpt = Annotated[float | None, typer.Option(
    "--startup-limit", help="Seconds a run may take to load and warm up its solver before its "
                            "timed phase (default 30; the project's own solvers at least 300); "
                            "past it the run is killed.")]


def check_sandbox(mode: str | None) -> str | None:
    """A ``--sandbox`` value; ``required`` where runs cannot be sealed is refused here, before
    any run is made."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.harness.run.sealed import sandbox

    if mode is None:
        mode = sandbox.default_mode() if sandbox.MODE_ENV in os.environ else None
        if mode is None:
            return None
    if mode not in sandbox.MODES:
        raise CliInputError(f"--sandbox must be one of {', '.join(sandbox.MODES)}, got {mode!r}")
    if mode == "required":
        ok, why = sandbox.available()
        if not ok:
            raise CliInputError(f"--sandbox required, but runs cannot be sealed here: {why}")
    return mode


def measurement_of(min_time: float | None, pin: bool | None, sandbox: str | None = None,
                   startup_limit: float | None = None) -> Any:
    """The ``Measurement`` of a command's flags (checked)."""
    # imported on use: a command loads only the code it runs (CLI start-up time)
    from puzzlebench.harness.run.measure import STARTUP_LIMIT, Measurement

    check_limit(min_time, "--min-time")
    check_limit(startup_limit, "--startup-limit")
    return Measurement(min_time, bool(pin), sandbox=check_sandbox(sandbox),
                       startup_limit=startup_limit or STARTUP_LIMIT)


def with_measurement(study: Any, min_time: float | None, pin: bool | None,
                     sandbox: str | None = None, startup_limit: float | None = None) -> Any:
    """The study with ``--min-time``/``--pin``/``--sandbox``/``--startup-limit`` applied over
    its own keys (when given)."""
    if min_time is not None:
        check_limit(min_time, "--min-time")
        study = replace(study, min_time=min_time)
    if pin is not None:
        study = replace(study, pin=pin)
    mode = check_sandbox(sandbox if sandbox is not None else study.sandbox)
    if mode is not None:
        study = replace(study, sandbox=mode)
    if startup_limit is not None:
        check_limit(startup_limit, "--startup-limit")
        study = replace(study, startup_limit=startup_limit)
    return study


def check_seed(seed: int) -> int:
    if not 0 <= seed < 2**63:
        raise CliInputError(f"--seed must be an integer in 0..2^63-1, got {seed}")
    return seed


def parse_int(text: str, what: str) -> int:
    """An integer from the command line (``1000000``, ``1_000_000`` or ``10**6``/``1e6``)."""
    try:
        return parse_integer(text, what)
    except SizeListError as e:
        raise CliInputError(str(e)) from None


def parse_sizes(text: str) -> list[int]:
    """``4..12``, ``4,6,8`` or ``8`` as a sorted list of distinct sizes (each ≥ 1)."""
    try:
        return parse_size_list(text)
    except SizeListError as e:
        raise CliInputError(str(e)) from None


#: Every command's default wall-clock budget per run, in seconds (shown in each --help).
DEFAULT_TIME_LIMIT = 60.0
#: What ``--time-limit`` bounds, as ``--help`` says it (``harness.run.measure.pre_go_allowance``).
TIME_LIMIT_HELP = ("Seconds a run may take from its start, warm-up included (start-up and "
                   "warm-up get at most max(1 s, 25 %)); killed at 1.1×+0.5 s.")


def warn_ignored_caps(spec: Any, budget: Budget) -> None:
    """One stderr line per effort cap the user set that the solver does not honour (a time
    limit is always enforced from outside, so it needs no warning)."""
    for name, value in budget.to_dict().items():  # the time limit is enforced from outside
        if value is not None and name != "time_limit" and name not in spec.honours:
            flag = "--" + name.replace("_", "-")
            honoured = ", ".join(sorted(spec.honours)) or "none"
            print(f"puzzlebench: warning: solver {spec.name!r} does not honour {flag} "
                  f"(it honours: {honoured})", file=sys.stderr)


def make_budget(
    time_limit: float | None,
    max_nodes: int | None = None,
    max_iterations: int | None = None,
    max_evaluations: int | None = None,
) -> Budget:
    """A Budget from CLI flags (negative, infinite or huge values are refused clearly)."""
    check_limit(time_limit)
    for flag, cap in (("--max-nodes", max_nodes), ("--max-iterations", max_iterations),
                      ("--max-evaluations", max_evaluations)):
        if cap is not None and not 0 <= cap <= MAX_INT:
            raise CliInputError(f"{flag} must be in 0..{MAX_INT:.1e}, got {cap}")
    return Budget(time_limit, max_nodes, max_evaluations, max_iterations)


def parse_params(pairs: list[str] | None) -> dict[str, Any]:
    """``--param key=value`` pairs (values stay strings; solvers coerce to their types)."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CliInputError(f"--param takes KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def check_out_dir(path: str) -> Path:
    """An output folder, made now if needed, that can be written (else CliInputError)."""
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise CliInputError(f"{path!r} is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise CliInputError(f"cannot write to folder {path!r}: {exc.strerror or exc}") from None
    return out


def check_out_file(path: str) -> Path:
    """An output file whose folder exists and is writable (else CliInputError)."""
    out = Path(path)
    if out.is_dir():
        raise CliInputError(f"{path!r} is a folder, not a file")
    folder = out.parent
    if not folder.is_dir():
        raise CliInputError(f"folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise CliInputError(f"cannot write to {path!r} (no permission)")
    return out
