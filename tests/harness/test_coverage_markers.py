"""A ``covers`` marker counts only for a test that runs (issue 31 §4; the hook is in
``tests/conftest.py``): a covering test skipped while its solver could run here fails."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNNER = textwrap.dedent("""
    import importlib.util, sys
    import pytest
    spec = importlib.util.spec_from_file_location("suite_conftest", sys.argv[1])
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    sys.exit(pytest.main([sys.argv[2], "-q", "-rA", "-p", "no:cacheprovider",
                          "--rootdir", sys.argv[3]], plugins=[conftest]))
""")


def run_with_suite_hooks(tmp_path: Path, body: str) -> str:
    """Run a test file with the suite's conftest hooks; its report lines."""
    (tmp_path / "test_marked.py").write_text(textwrap.dedent(body))
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    covers(*names): test\n")
    done = subprocess.run([sys.executable, "-c", RUNNER, str(ROOT / "tests" / "conftest.py"),
                           str(tmp_path / "test_marked.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    return done.stdout + done.stderr


def test_a_skipped_covering_test_fails_unless_its_solver_is_unavailable(tmp_path: Path) -> None:
    plugin = tmp_path / "gone.py"
    plugin.write_text(textwrap.dedent("""
        from puzzlebench.contract import Solver

        class Gone(Solver):
            name = "gone-here"
            problems = frozenset({"nqueens"})
            unavailable = "its library is not installed here"

            def solve(self, instance, budget, rng):
                raise AssertionError("never run")
    """))
    out = run_with_suite_hooks(tmp_path, f"""
        import pytest

        @pytest.mark.covers("mod12")
        def test_skips_an_available_solver():
            pytest.skip("skipped for no good reason")

        @pytest.mark.covers("mod12", "bitboard")
        @pytest.mark.parametrize("solver", ["mod12", "bitboard"])
        def test_parametrized(solver):
            if solver == "bitboard":
                pytest.skip("bitboard skipped")

        @pytest.mark.covers("no-such-solver")
        @pytest.mark.skip(reason="a marker skip")
        def test_names_an_unknown_solver():
            pass

        @pytest.mark.covers("{plugin}:Gone")
        def test_skips_an_unavailable_solver():
            pytest.skip("unavailable here")

        def test_unmarked_skip():
            pytest.skip("not a covering test")
    """)
    assert "FAILED" in out and "test_skips_an_available_solver" in out
    assert "covering test of mod12 (available here)" in out
    assert "test_parametrized[bitboard]" in out and "covering test of bitboard " in out
    assert re.search(r"PASSED \S*test_marked.py::test_parametrized\[mod12\]", out), out
    assert "no-such-solver (no such solver)" in out  # a marker skip fails in set-up: an error
    assert "SKIPPED" in out and "unavailable here" in out and "not a covering test" in out
    assert "2 failed, 1 passed, 2 skipped, 1 error" in out, out
