"""The ``puzzlebench`` console script: a head start for one-run commands, then the CLI.

The fork server a `solve` or `count` needs is started first (``harness.run.early_server``), so
that it loads Python and numba while the command line loads; then ``puzzlebench.cli.main``
runs the command as always.

Ctrl-C before the command begins (while Python and the command line load, up to 1.6 s for
``count``) ends the process with one line and status 130: SIGINT is caught (``interrupted``)
as soon as the console script loads this module (the script pip writes compiles a regular
expression before it calls ``main``) and by ``main`` itself (``python -m puzzlebench``), and
the command line takes it back only once its command runs (``puzzlebench.cli.main``). Before
Python runs any code at all, Ctrl-C ends the process by the signal itself (no output; a shell
reports status 130 for it too).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from types import FrameType

#: What Ctrl-C says outside a command: before it has begun (nothing was run or stored), then
#: while the process exits (``puzzlebench.cli.main`` says so through ``catch_interrupts``).
SAYS = ["puzzlebench: interrupted before the command began — nothing was run"]


def interrupted(signum: int, frame: FrameType | None) -> None:
    """SIGINT outside a command: one line, status 130, at once (no traceback, whatever was
    loading). Nothing is running then: a fork server started early exits with its socket."""
    os.write(2, (SAYS[-1] + "\n").encode())
    os._exit(130)


def catch_interrupts(says: str | None = None) -> None:
    """From now on Ctrl-C ends the process with one line (``interrupted``): ``says``, or what
    it said before."""
    if says is not None:
        SAYS.append(says)
    with contextlib.suppress(ValueError):  # not the main thread: not an entry point
        signal.signal(signal.SIGINT, interrupted)


if os.path.basename(sys.argv[0] if sys.argv else "") == "puzzlebench":  # the console script
    catch_interrupts()


def main() -> None:
    """Entry point of the installed ``puzzlebench`` command."""
    catch_interrupts()  # before anything heavy loads
    if sys.argv[1:2] in (["solve"], ["count"], ["compare"]):  # a head start (early_server)
        # imported on use: the server starts before the command line's code loads, and no
        # other command pays for this import
        from puzzlebench.harness.run.forking.early_server import start_for

        start_for(sys.argv[1:])
    # imported on use: only now, while the server starts (the point of this module)
    from puzzlebench.cli import main as cli_main

    cli_main(ctrl_c=catch_interrupts)
