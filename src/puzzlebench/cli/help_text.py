"""Every command's ``--help``, tidied at one place: a docstring's text without its markup
(``reStructuredText`` literals), one sentence a line so a terminal wraps a sentence and never
breaks between two, the first sentence as the command's summary, and one example.

:func:`polish` runs once over the application after its commands are loaded
(``puzzlebench.cli.load_commands``), so a new command gets the same treatment, and a command
without an example is caught by the tests (``EXAMPLES``).
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from rich.markup import escape

#: One example per command (path: "pdb build" for a sub-command).
EXAMPLES: dict[str, str] = {
    "agree": "puzzlebench agree nqueens --sizes 4..12 --solver examples/mysolver.py:MySolver",
    "certify": "puzzlebench certify examples/mysolver.py:MySolver",
    "check": "puzzlebench check nqueens 8 --answer 0,4,7,5,2,6,1,3",
    "compare": "puzzlebench compare nqueens --sizes 4..12 --solvers mod12,backtracking",
    "count": "puzzlebench count nqueens 12 --unique",
    "estimate": "puzzlebench estimate nqueens 20",
    "export": "puzzlebench export --db example.sqlite --out runs.csv",
    "problems": "puzzlebench problems",
    "report": "puzzlebench report --db example.sqlite --out report/",
    "run": "puzzlebench run studies/example.toml --db example.sqlite",
    "solve": "puzzlebench solve nqueens 8 --solver mod12 --show",
    "solvers": "puzzlebench solvers --problem sliding",
    "studies": "puzzlebench studies",
    "study": "puzzlebench study ga-seed002 --out study-reports/",
    "tune": ("puzzlebench tune first-choice-hc --problem queens-knights --queens 8 "
             "--train 16,20,24 --test 32,40,48 --budget 60"),
    "pdb": "puzzlebench pdb build --shape 4x4",
    "pdb build": "puzzlebench pdb build --shape 4x4",
}

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(`'\"-])")


def plain(text: str) -> str:
    """``text`` without reStructuredText markup: literals and roles become their words."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", text)  # :data:`x` → x
    return re.sub(r"``([^`]+)``", r"\1", text)


def sentences(paragraph: str) -> list[str]:
    """A paragraph split into its sentences (an abbreviation such as "e.g." stays)."""
    flat = " ".join(paragraph.split())
    out: list[str] = []
    for part in _SENTENCE_END.split(flat):
        if out and re.search(r"\b(e\.g|i\.e|cf|vs|etc)\.$", out[-1]):
            out[-1] += " " + part
        else:
            out.append(part)
    return [s for s in out if s]


def tidy(doc: str, example: str | None) -> tuple[str, str]:
    """(help, short help) of a command: the first sentence alone, then the others one a
    line, then the example; rich markup escaped (the help is printed as rich text)."""
    paragraphs = [p for p in inspect.cleandoc(plain(doc or "")).split("\n\n") if p.strip()]
    said = [sentences(p) for p in paragraphs]
    first = said[0][0] if said and said[0] else ""
    rest = [said[0][1:], *said[1:]] if said else []
    body = ["\n".join(s) for s in rest if s]
    if example:
        body.append(f"Example:  {example}")
    text = "\n\n".join([first, *body])
    return escape(text), escape(first)


def polish(app: Any, prefix: str = "") -> None:
    """Tidy the help of every command of ``app`` (a Typer application) and of its groups."""
    for info in app.registered_commands:
        name = prefix + (info.name or info.callback.__name__)
        info.help, info.short_help = tidy(info.help or info.callback.__doc__ or "",
                                          EXAMPLES.get(name))
    for group in app.registered_groups:
        sub = group.typer_instance
        name = prefix + (group.name or "")
        doc = group.help or sub.info.help or ""
        if isinstance(doc, str):
            group.help, group.short_help = tidy(doc, EXAMPLES.get(name))
        polish(sub, f"{name} ")
