"""README stays one screen for a newcomer, and its links lead into the documentation."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_two_set_up_commands_are_there_as_written() -> None:
    assert "pip install . && puzzlebench compare nqueens --sizes 4..10\n" in README
    assert 'pip install -e ".[test]" && pytest\n' in README


def test_every_relative_link_resolves_and_every_section_of_the_docs_is_linked() -> None:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if "://" not in link]
    assert [link for link in local if not (ROOT / link).exists()] == []
    linked = {link for link in local if link.startswith("docs/")}
    for section in ("tutorial", "how-to", "concepts", "reference"):
        pages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs" / section).glob("*.md")}
        assert pages & linked, f"README links no page of docs/{section}/"


def test_readme_is_about_one_screen_and_says_how_to_build_the_docs() -> None:
    assert len(README.splitlines()) <= 90
    assert "mkdocs build --strict" in README and "mkdocs serve" in README
