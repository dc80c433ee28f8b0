"""The ``puzzlebench`` console script: a head start for one-run commands, then the CLI.

The fork server a `solve` or `count` needs is started first (``harness.run.early_server``), so
that it loads Python and numba while the command line loads; then ``puzzlebench.cli.main``
runs the command as always.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Entry point of the installed ``puzzlebench`` command."""
    if sys.argv[1:2] in (["solve"], ["count"]):  # the one-run commands (early_server)
        # imported on use: the server starts before the command line's code loads, and no
        # other command pays for this import
        from puzzlebench.harness.run.early_server import start_for

        start_for(sys.argv[1:])
    # imported on use: only now, while the server starts (the point of this module)
    from puzzlebench.cli import main as cli_main

    cli_main()
