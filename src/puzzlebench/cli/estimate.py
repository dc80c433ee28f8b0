"""``puzzlebench estimate nqueens N --probes K``: Knuth's estimate of the backtracking tree."""

from __future__ import annotations

from typing import Annotated

import numpy as np
import typer

from puzzlebench.cli.app import app
from puzzlebench.cli.options import CliInputError, check_seed, parse_int
from puzzlebench.cli.output import emit_json

EXACT_UP_TO = 14
#: The problems whose backtracking tree ``knuth_estimate`` models (row by row, no fixed queens).
TREES = ("nqueens",)
#: Most probes one command makes (about 10 s on one core at n = 30).
MAX_PROBES = 1_000_000


@app.command("estimate")
def estimate_command(
    problem: Annotated[str, typer.Argument(help="nqueens")],
    size: Annotated[str, typer.Argument(help="Board size n (1..30).")],
    probes: Annotated[int, typer.Option(help="Random probes.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the probes.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> int:
    """Estimate the classic backtracking tree's size; beside it the exact size for n ≤ 14."""
    if problem not in TREES:
        raise CliInputError(f"estimate knows the backtracking tree of {', '.join(TREES)}, "
                            f"not {problem!r}")
    n = parse_int(size, "size")
    if not 1 <= n <= 30:
        raise CliInputError(f"estimate takes 1 ≤ n ≤ 30, got {n}")
    if not 2 <= probes <= MAX_PROBES:
        raise CliInputError(f"--probes must be in 2..{MAX_PROBES}, got {probes}")
    check_seed(seed)
    # imported on use: `puzzlebench --help` loads every command, and this pulls in numba
    from puzzlebench.search.queens.knuth_estimate import estimate_tree

    est = estimate_tree(n, probes, np.random.default_rng(seed))
    exact = None
    if n <= EXACT_UP_TO:
        # imported on use: a command loads only the code it runs (CLI start-up time)
        from puzzlebench.search.queens.knuth_estimate import tree_nodes

        exact = tree_nodes(n)
    if as_json:
        emit_json({**est.to_json(), "exact": exact})
    else:
        typer.echo(f"nqueens n={n}: estimated backtracking tree {est.mean:,.0f} nodes "
                   f"(95% CI {est.ci_low:,.0f} .. {est.ci_high:,.0f}, {probes} probes)")
        if exact is not None:
            typer.echo(f"exact tree size: {exact:,} nodes (estimate / exact = {est.mean / exact:.3f})")
    return 0
