"""Run keys follow the code a solver really uses (issue 31 §2): the transitive import closure
inside the project, normalised (docstrings and comments do not count), and the versions of the
libraries that closure imports."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from puzzlebench import code_fingerprint
from puzzlebench.code_fingerprint import closure, digest_of, fingerprint, library_versions


@pytest.fixture
def chain(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package ``fpchain`` outside every installed location: ``a`` imports ``b``, which
    imports ``c``; ``a`` defines the class that is fingerprinted. A private cache folder, so
    the on-disk memo starts empty."""
    pkg = tmp_path / "fpchain"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text(textwrap.dedent('''
        """Module a."""
        from fpchain import b


        class Solver:
            """The solver."""

            def go(self) -> int:
                return b.twice(3)
    '''))
    (pkg / "b.py").write_text(textwrap.dedent('''
        from fpchain.c import base


        def twice(x: int) -> int:
            return 2 * x + base()
    '''))
    (pkg / "c.py").write_text(textwrap.dedent('''
        """Module c: the constant the chain ends in."""

        import numpy


        def base() -> int:
            """The base value."""
            return 1  # one
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(tmp_path / "cache"))
    code_fingerprint.forget()
    yield pkg
    for name in [m for m in sys.modules if m == "fpchain" or m.startswith("fpchain.")]:
        del sys.modules[name]
    code_fingerprint.forget()


def _key() -> str:
    """The fingerprint of ``fpchain.a.Solver`` as a fresh process computes it."""
    code_fingerprint.forget()
    return fingerprint(importlib.import_module("fpchain.a").Solver)


def test_the_closure_is_transitive(chain: Path) -> None:
    assert {"fpchain.a", "fpchain.b", "fpchain.c"} <= closure("fpchain.a")


def test_an_edit_to_a_transitively_used_module_changes_the_key(chain: Path) -> None:
    before = _key()
    c = chain / "c.py"
    c.write_text(c.read_text().replace("return 1  # one", "return 2  # one"))
    assert _key() != before


def test_a_docstring_or_comment_edit_keeps_the_key(chain: Path) -> None:
    before = _key()
    c = chain / "c.py"
    c.write_text(c.read_text()
                 .replace('"""Module c: the constant the chain ends in."""',
                          '"""Module c, reworded entirely."""\n# a new comment line')
                 .replace('"""The base value."""', '"""The base value, reworded."""')
                 .replace("# one", "# the number one"))
    a = chain / "a.py"
    a.write_text(a.read_text().replace('"""The solver."""', '"""A solver, reworded."""'))
    assert _key() == before
    c.write_text(c.read_text().replace("return 1", "return 1 + 0"))  # code, not wording
    assert _key() != before


def test_a_library_version_change_changes_the_key(chain: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert library_versions(closure("fpchain.a")) == {
        "numpy": importlib.import_module("numpy").__version__}
    before = _key()
    real = code_fingerprint.metadata.version

    def bumped(dist: str) -> str:
        return "999.0" if dist == "numpy" else real(dist)

    monkeypatch.setattr(code_fingerprint.metadata, "version", bumped)
    assert _key() != before
    monkeypatch.setattr(code_fingerprint.metadata, "version", real)
    assert _key() == before


def test_a_module_named_otherwise_than_its_distribution_is_versioned() -> None:
    """``constraint`` is python-constraint2's module: found through the dist-info listing,
    not taken for an absent library."""
    pytest.importorskip("constraint")
    versions = library_versions(closure("puzzlebench.baselines.constraint_backtracking"))
    names = {n.replace("-", "_").lower() for n in versions}
    assert "python_constraint2" in names and "constraint" not in names


def test_the_project_closure_reaches_what_the_issue_named() -> None:
    """astar-h1's key covers queens_keys, which search/queens_states uses (the old key
    hashed direct imports only and left it out); the registration machinery is left out."""
    from puzzlebench.registry import REGISTRY

    module = REGISTRY.load("astar-h1").module
    held = closure(module)
    assert "puzzlebench.search.queens_states" in held and "puzzlebench.queens_keys" in held
    assert not held & code_fingerprint.REGISTRATION


def test_the_key_is_stable_and_cached(chain: Path) -> None:
    first = _key()
    assert fingerprint(importlib.import_module("fpchain.a").Solver) == first
    assert digest_of(["fpchain.a"]) == first
    assert (chain.parent / "cache" / "fingerprints").is_dir()  # the on-disk memo was written
    assert _key() == first  # read back from the memo
