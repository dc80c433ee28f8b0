"""The documentation's examples run, so they cannot rot.

Every fenced block of ``docs/**/*.md`` is one test, in page order, each page in a fresh
folder of its own (with ``examples/`` and ``studies/`` of the repository linked in):

- a block whose first line is a comment naming a file (``# mysolver.py``, ``% queens.mzn``) is
  written to that file — Python files must compile, TOML files must parse;
- any other ``python`` block runs as a script of its own, in a fresh interpreter in that folder;
- ``bash``/``console`` blocks: every command must be a ``puzzlebench`` command, and each is run
  through the console script and must exit 0;
- ``toml`` and ``json`` blocks must parse.

A block that cannot run here says so just above it, in the page: ``<!-- docs-test: skip (the
reason) -->`` (the test is skipped with that reason), ``<!-- docs-test: requires PROGRAM -->``
(skipped, with the reason, where PROGRAM is not installed), ``<!-- docs-test: exit N -->``
(the commands are expected to exit N) or ``<!-- docs-test: slow (the reason) -->`` (the slow
tier, ``pytest -m slow``; such a block must not be needed by a later block of its page, and
may add ``, exit N``). Nothing is skipped by name or silently.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LINKED = ("examples", "studies")  # repository folders the examples name, linked into each workdir

MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(?P<directive>.*?)\s*-->\s*$")
OPEN_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w+-]*)")
FILE_LINE = re.compile(r"^(?:#|%|//)\s*(?P<name>[\w][\w.-]*\.[A-Za-z0-9]+)\s*$")
SHELL = {"bash", "sh", "shell", "console"}
PYTHON = {"python", "py"}
COMMAND_TIMEOUT_S = 180


@dataclass
class Block:
    page: str            # relative to docs/
    line: int            # 1-based line of the opening fence
    lang: str
    text: str
    directive: str = ""

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def file_name(self) -> str | None:
        first = self.text.split("\n", 1)[0]
        match = FILE_LINE.match(first)
        return match.group("name") if match else None


def parse_page(path: Path) -> tuple[list[Block], list[str]]:
    """The fenced blocks of one page, each with the directive written just above it, and the
    problems found (a directive attached to no block, an unclosed fence)."""
    page = path.relative_to(DOCS).as_posix()
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks: list[Block] = []
    problems: list[str] = []
    pending: tuple[int, str] | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        marker = MARKER.match(line)
        fence = OPEN_FENCE.match(line)
        if marker:
            if pending is not None:
                problems.append(f"{page}:{pending[0]}: docs-test directive attached to no block")
            pending = (i + 1, marker.group("directive"))
        elif fence:
            closing = fence.group("fence")
            end = next((j for j in range(i + 1, len(lines))
                        if lines[j].strip().startswith(closing) and not lines[j].strip().strip(closing[0])),
                       None)
            if end is None:
                problems.append(f"{page}:{i + 1}: unclosed code fence")
                break
            directive = pending[1] if pending else ""
            blocks.append(Block(page, i + 1, fence.group("lang").lower(), "\n".join(lines[i + 1:end]) + "\n",
                                directive))
            pending = None
            i = end
        elif line.strip() and pending is not None:
            problems.append(f"{page}:{pending[0]}: docs-test directive not right above a code block")
            pending = None
        i += 1
    if pending is not None:
        problems.append(f"{page}:{pending[0]}: docs-test directive attached to no block")
    return blocks, problems


def all_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md"))


def collect() -> tuple[list[Block], list[str]]:
    blocks: list[Block] = []
    problems: list[str] = []
    for path in all_pages():
        found, bad = parse_page(path)
        blocks += found
        problems += bad
    for block in blocks:
        if block.directive and not re.fullmatch(
                r"skip \(.+\)|requires [\w.+-]+|exit \d+|slow \(.+\)(?:, exit \d+)?",
                block.directive):
            problems.append(f"{block.id}: unknown docs-test directive {block.directive!r}")
    return blocks, problems


BLOCKS, PROBLEMS = collect()


def shell_commands(block: Block) -> list[str]:
    """The commands of a shell block: comments and blank lines dropped, continuations joined,
    ``$ `` prompts stripped (in a console block, lines without a prompt are output)."""
    commands: list[str] = []
    current = ""
    for raw in block.text.split("\n"):
        line = raw.rstrip()
        if block.lang == "console" and not current:
            if not line.startswith("$ "):
                continue
            line = line[2:]
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        commands.append(current + line)
        current = ""
    return commands


def console_script() -> list[str]:
    beside = Path(sys.executable).with_name("puzzlebench")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("puzzlebench")
    return [found] if found else [sys.executable, "-m", "puzzlebench"]


@dataclass
class PageRun:
    """The state one page's blocks share: its folder and how far it got."""

    workdir: Path
    done: set[int] = field(default_factory=set)
    failed: dict[int, str] = field(default_factory=dict)


def runnable(block: Block) -> bool:
    if block.directive.startswith("skip"):
        return False
    if block.directive.startswith("requires "):
        return shutil.which(block.directive.split(" ", 1)[1]) is not None
    return True


def run_block(block: Block, run: PageRun) -> None:
    name = block.file_name
    if name is not None:
        target = run.workdir / name
        target.write_text(block.text, encoding="utf-8")
        if block.lang in PYTHON:
            compile(block.text, block.id, "exec")
        elif block.lang == "toml":
            tomllib.loads(block.text)
        return
    if block.lang in PYTHON:
        script = run.workdir / f"docs_block_{block.line}.py"
        script.write_text(block.text, encoding="utf-8")
        done = subprocess.run([sys.executable, script.name], cwd=run.workdir, capture_output=True,
                              text=True, timeout=COMMAND_TIMEOUT_S, check=False)
        assert done.returncode == 0, (
            f"{block.id}: the block exited {done.returncode}\n"
            f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}")
    elif block.lang == "toml":
        tomllib.loads(block.text)
    elif block.lang == "json":
        for chunk in re.split(r"\n(?=[{\[])", block.text.strip()):  # several objects, one a line
            json.loads(chunk)
    elif block.lang in SHELL:
        code = re.search(r"(?:^|, )exit (\d+)", block.directive)
        expected = int(code.group(1)) if code else 0
        commands = shell_commands(block)
        assert commands, f"{block.id}: a shell block with no command"
        for command in commands:
            argv = shlex.split(command, comments=True)
            assert argv and argv[0] == "puzzlebench", (
                f"{block.id}: {command!r} is not a puzzlebench command; run it or mark the block "
                "<!-- docs-test: skip (reason) -->")
            done = subprocess.run([*console_script(), *argv[1:]], cwd=run.workdir, capture_output=True,
                                  text=True, timeout=COMMAND_TIMEOUT_S, check=False)
            assert done.returncode == expected, (
                f"{block.id}: `{command}` exited {done.returncode}, not {expected}\n"
                f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}")


@dataclass
class Pages:
    """Every page's run in this session, each in a folder of its own under ``top``."""

    top: Path
    runs: dict[str, PageRun] = field(default_factory=dict)

    def run(self, page: str) -> PageRun:
        if page not in self.runs:
            workdir = self.top / re.sub(r"\W+", "-", page)
            workdir.mkdir()
            for name in LINKED:
                (workdir / name).symlink_to(ROOT / name, target_is_directory=True)
            self.runs[page] = PageRun(workdir)
        return self.runs[page]


@pytest.fixture(scope="session")
def pages() -> Iterator[Pages]:
    """The folders live under the repository's ``test-artifacts/`` (ignored by git), not the
    system's temporary folder: a reader follows the pages in a project folder, and a sealed
    run's process has a private ``/tmp`` of its own, where a solver file made in the caller's
    ``/tmp`` is not to be found."""
    base = ROOT / "test-artifacts"
    base.mkdir(exist_ok=True)
    top = Path(tempfile.mkdtemp(prefix="docs-", dir=base))
    yield Pages(top)
    shutil.rmtree(top, ignore_errors=True)


def params() -> list[Any]:
    out = []
    for block in BLOCKS:
        marks: list[Any] = []
        if block.directive.startswith("slow"):
            marks.append(pytest.mark.slow)
        if block.directive.startswith("skip"):
            marks.append(pytest.mark.skip(reason=f"{block.id}: docs-test: {block.directive}"))
        elif block.directive.startswith("requires "):
            program = block.directive.split(" ", 1)[1]
            marks.append(pytest.mark.skipif(shutil.which(program) is None,
                                            reason=f"{block.id}: needs {program}, not installed"))
        out.append(pytest.param(block, id=block.id, marks=marks))
    return out


@pytest.mark.parametrize("block", params())
def test_block(block: Block, pages: Pages) -> None:
    run = pages.run(block.page)
    # Earlier blocks of the page first (files they write, stores they fill), even when this
    # block is selected alone.
    for index, earlier in enumerate(BLOCKS):
        if earlier.page != block.page or earlier.line >= block.line or not runnable(earlier) \
                or earlier.directive.startswith("slow"):  # a slow block stands alone
            continue
        if index in run.failed:
            pytest.fail(f"an earlier block of the page failed: {run.failed[index]}")
        if index not in run.done:
            try:
                run_block(earlier, run)
            except BaseException as exc:
                run.failed[index] = f"{earlier.id}: {exc}"
                raise
            run.done.add(index)
    index = BLOCKS.index(block)
    if index not in run.done:
        try:
            run_block(block, run)
        except BaseException as exc:
            run.failed[index] = f"{block.id}: {exc}"
            raise
        run.done.add(index)


def test_directives_are_well_formed() -> None:
    assert PROBLEMS == []


def test_the_examples_are_really_checked() -> None:
    """Guards against a parser that finds nothing (and so passes everything)."""
    live = [b for b in BLOCKS if not b.directive.startswith("skip")]
    commands = [c for b in live if b.lang in SHELL for c in shell_commands(b)]
    python = [b for b in live if b.lang in PYTHON]
    assert len(commands) >= 15, commands
    assert len(python) >= 4, [b.id for b in python]
    assert {b.page for b in live} >= {"tutorial/first-comparison.md", "tutorial/your-own-solver.md",
                                      "tutorial/study-and-report.md", "how-to/problem-family.md"}
    # every shell block that runs has puzzlebench commands only (checked again when it runs)
    for block in live:
        if block.lang in SHELL:
            for command in shell_commands(block):
                assert shlex.split(command, comments=True)[0] == "puzzlebench", (block.id, command)


def test_every_skip_gives_a_reason() -> None:
    for block in BLOCKS:
        if block.directive.startswith("skip"):
            reason = block.directive[len("skip"):].strip()
            assert reason.startswith("(") and reason.endswith(")") and len(reason) > 10, block.id
