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

import _thread
import atexit
import importlib
import os
import pkgutil
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, NoReturn

import typer

from puzzlebench.cli.app import CommandInterruptedError, app
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


def main(argv: list[str] | None = None, *, ctrl_c: Callable[[str], None] | None = None) -> int:
    """Run the CLI; returns (and exits with) the command's status.

    Ctrl-C while the command runs raises KeyboardInterrupt (``run`` and ``count --split`` say
    what is stored); before it runs, while the commands load, and while the process exits, the
    console script's handler ends the process with one line (``ctrl_c``:
    ``puzzlebench.console.catch_interrupts``, which says the line it is given). Every way
    prints one line and exits 130."""
    script = argv is None and ctrl_c is not None
    said = False  # the command printed its own line for Ctrl-C
    try:
        load_commands()
        command = typer.main.get_command(app)
        if script:  # from here Ctrl-C raises KeyboardInterrupt, handled below
            signal.signal(signal.SIGINT, signal.default_int_handler)
            sys.unraisablehook = _unraisable
        result = command.main(args=argv, prog_name="puzzlebench", standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        code = 130
    except CommandInterruptedError as exc:  # the command's own line
        print(exc, file=sys.stderr)
        code, said = 130, True
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
    if ctrl_c is not None and argv is None:  # Ctrl-C from now on, while exiting: one line
        ctrl_c("puzzlebench: interrupted while exiting")
    if code == 130 and not said:  # Typer returns Ctrl-C in a command as a bare status 130
        print(_interrupted(argv), file=sys.stderr)
    if argv is None:
        _exit(code)
    return code


def _unraisable(info: Any) -> None:
    """Ctrl-C that landed in a finalizer (``__del__``: Python only prints it, "Exception
    ignored", and goes on) is raised again in the main thread; other errors as Python says."""
    if info.exc_type is not None and issubclass(info.exc_type, KeyboardInterrupt):
        _thread.interrupt_main()
        return
    sys.__unraisablehook__(info)


#: The commands whose finished runs are stored as they end (a study's store: resumable).
STORING = ("compare", "run", "study")


def _interrupted(argv: list[str] | None) -> str:
    """The one line Ctrl-C in a command prints (``run`` and ``count --split`` say more)."""
    words = sys.argv[1:] if argv is None else argv
    if words[:1] and words[0] in STORING:
        return "puzzlebench: interrupted — finished runs are stored; run the same command to resume"
    return "puzzlebench: interrupted"


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
