"""The documentation site builds with warnings as errors, and its generated pages are complete.

``mkdocs build --strict`` fails on a broken link or anchor, a page left out of the navigation, a
docstring mkdocstrings cannot render or a module that no longer exists (a module renamed under
the API pages). The CLI reference must hold every command of the application the console
script runs, and the API pages the public objects of their modules.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=300, check=False)
    assert done.returncode == 0, (
        f"mkdocs build --strict failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    return out


def command_paths() -> list[str]:
    import typer

    from puzzlebench.cli import load_commands
    from puzzlebench.cli.app import app

    load_commands()
    root = typer.main.get_command(app)
    paths: list[str] = []

    def walk(command: object, path: str, ctx: object) -> None:
        paths.append(path)
        if hasattr(command, "list_commands"):
            for name in command.list_commands(ctx):  # type: ignore[attr-defined]
                sub = command.get_command(ctx, name)  # type: ignore[attr-defined]
                if sub is not None and not sub.hidden:
                    walk(sub, f"{path} {name}", sub.context_class(sub, info_name=name, parent=ctx))

    walk(root, "puzzlebench", root.context_class(root, info_name="puzzlebench"))
    return paths


def test_the_site_builds_strictly_and_the_cli_reference_lists_every_command(site: Path) -> None:
    page = (site / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    paths = command_paths()
    assert len(paths) > 10
    missing = [p for p in paths if f"<code>{p}</code>" not in page]
    assert missing == []
    assert "--time-limit" in page and "--solver" in page


def test_the_api_pages_are_rendered_from_the_docstrings(site: Path) -> None:
    api = site / "reference" / "api"
    expected = {
        "contract": ["puzzlebench.contract.Solver", "puzzlebench.contract.Budget",
                     "puzzlebench.contract.Proposal"],
        "record": ["puzzlebench.records.record.Outcome", "puzzlebench.records.record.RunRecord"],
        "store": ["puzzlebench.harness.campaign.storage.store.load"],
        "runner": ["puzzlebench.harness.campaign.runner.run_study"],
        "report": ["puzzlebench.report.write_report"],
        "tune": ["puzzlebench.tune.tune", "puzzlebench.tune.TuneResult",
                 "puzzlebench.solvers.param_space.IntRange"],
        "registry": ["puzzlebench.solvers.registry.register"],
        "solver_locators": ["puzzlebench.solvers.locators.load_solver"],
        "problems": ["puzzlebench.problems.Instance", "puzzlebench.problems.get_problem"],
        "puzzlebench": ["puzzlebench.solve", "puzzlebench.load"],
        "conformance": ["puzzlebench.conformance.card.certify", "puzzlebench.testing.check_solver",
                        "puzzlebench.conformance.checks.cases_for"],
    }
    for page, objects in expected.items():
        html = (api / page / "index.html").read_text(encoding="utf-8")
        for obj in objects:
            assert f'id="{obj}"' in html, (page, obj)
