"""MkDocs hook: the CLI reference page, generated from the Typer application at build time.

``docs/reference/cli.md`` holds the marker ``<!-- cli-reference -->``; this hook replaces it with
one section per command (usage, help, arguments and options), read from the Click command that
Typer builds from :data:`puzzlebench.cli.app.app` (``typer.main.get_command``). Nothing of the
reference is written by hand, so a new command or option appears on the next build.

Typer ships its own copy of Click, so commands are read by what they offer (``list_commands``,
``param_type_name``), not by ``isinstance`` against the ``click`` package.
"""

from __future__ import annotations

import html
from typing import Any

MARKER = "<!-- cli-reference -->"


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell (no HTML, no pipes, no line breaks)."""
    text = html.escape(" ".join(text.split()), quote=False)
    return text.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def _paragraphs(text: str) -> str:
    """A Click help text as Markdown paragraphs (``\\b`` blocks kept as written)."""
    out = []
    for block in text.strip().split("\n\n"):
        if block.startswith("\b"):
            out.append("```text\n" + block[1:].strip("\n") + "\n```")
        else:
            out.append(html.escape(" ".join(block.split()), quote=False))
    return "\n\n".join(out)


def _is_group(command: Any) -> bool:
    return hasattr(command, "list_commands")


def _is_argument(param: Any) -> bool:
    return getattr(param, "param_type_name", "") == "argument"


def _usage(command: Any, ctx: Any) -> str:
    pieces = ["[OPTIONS]"]
    for param in command.get_params(ctx):
        if _is_argument(param):
            name = (param.name or "ARG").upper()
            name += "..." if param.nargs != 1 else ""
            pieces.append(name if param.required else f"[{name}]")
    if _is_group(command):
        pieces.append("COMMAND [ARGS]...")
    return f"{ctx.command_path} {' '.join(pieces)}"


def _section(command: Any, ctx: Any, level: int) -> list[str]:
    lines = [f"{'#' * level} `{ctx.command_path}`", ""]
    if command.help:
        lines += [_paragraphs(command.help), ""]
    lines += ["```text", _usage(command, ctx), "```", ""]
    arguments, options = [], []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if _is_argument(param):
            name = (param.name or "").upper()
            help_text = record[1] if record else ""
            arguments.append(f"| `{name}` | {_cell(help_text)} |")
        elif record is not None:
            names, help_text = record
            options.append(f"| `{names}` | {_cell(help_text)} |")
    if arguments:
        lines += ["| Argument | Description |", "| --- | --- |", *arguments, ""]
    if options:
        lines += ["| Option | Description |", "| --- | --- |", *options, ""]
    if command.epilog:
        lines += [_paragraphs(command.epilog), ""]
    if _is_group(command):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                sub_ctx = sub.context_class(sub, info_name=name, parent=ctx)
                lines += _section(sub, sub_ctx, min(level + 1, 4))
    return lines


def cli_reference_markdown() -> str:
    """The whole CLI reference as Markdown, from the application the console script runs."""
    import typer

    from puzzlebench.cli import load_commands
    from puzzlebench.cli.app import app

    load_commands()
    root = typer.main.get_command(app)
    ctx = root.context_class(root, info_name="puzzlebench")
    lines = _section(root, ctx, 2)
    return "\n".join(lines).rstrip() + "\n"


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """Fill the marker of the CLI reference page (MkDocs event)."""
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference_markdown())
    return markdown
