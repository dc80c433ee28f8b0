"""The ``puzzlebench`` command line.

Every module in this package adds its commands to :data:`puzzlebench.cli.app.app` when
imported, so a new command is one new file. ``main`` turns every bad-input error into one
line on stderr (a study's mistakes: one line each) and exit status 2 — never a traceback.

As the console script, ``main`` ends the process without the interpreter's module teardown:
once numba has loaded, that teardown (llvmlite disposing every compiled module, then every
object freed one by one) costs about 0.2 s — a fifth of a whole ``solve`` at n = 10^6. Output
is flushed and ``atexit`` handlers run first; if a non-daemon thread is still alive, or a
stream cannot be flushed, the normal exit is used instead.
"""

from __future__ import annotations

import atexit
import importlib
import os
import pkgutil
import sys
import threading
from typing import NoReturn

import typer

from puzzlebench.cli.app import app
from puzzlebench.problems.base import PuzzlebenchError

_loaded = False


def load_commands() -> None:
    """Import every command module of this package once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in pkgutil.iter_modules(__path__, prefix=f"{__name__}."):
        if not info.name.rsplit(".", 1)[1].startswith("_"):
            importlib.import_module(info.name)
    # every command's --help: plain text, one sentence a line, an example (``help_text``)
    from puzzlebench.cli.help_text import polish

    polish(app)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns (and exits with) the command's status."""
    load_commands()
    command = typer.main.get_command(app)
    try:
        result = command.main(args=argv, prog_name="puzzlebench", standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        print("puzzlebench: interrupted — finished runs are stored; run the same command to "
              "resume", file=sys.stderr)
        code = 130
    except typer.TyperException as exc:  # Typer's usage errors (bad option, bad value)
        text = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        print(f"puzzlebench: error: {_one_line(text)}", file=sys.stderr)
        code = 2
    except PuzzlebenchError as exc:
        lines = getattr(exc, "lines", None) or [str(exc)]  # every mistake of a study at once
        for line in lines:
            print(f"puzzlebench: error: {_one_line(line)}", file=sys.stderr)
        if len(lines) > 1:
            print(f"puzzlebench: {len(lines)} mistakes, nothing run", file=sys.stderr)
        code = getattr(exc, "exit_code", 2)  # 2: bad input; a machine fault says its own
    else:
        code = result if isinstance(result, int) else 0
    if argv is None:
        _exit(code)
    return code


def _exit(code: int) -> NoReturn:
    """Exit the console script, skipping module teardown when that is safe (see above)."""
    main_thread = threading.main_thread()
    if any(t is not main_thread and not t.daemon and t.is_alive() for t in threading.enumerate()):
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)
    atexit._run_exitfuncs()
    os._exit(code)


def _one_line(text: str) -> str:
    return " ".join(text.split())
