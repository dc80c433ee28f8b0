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

from puzzlebench.records.record import RunRecord
from puzzlebench.solvers import fingerprint as code_fingerprint
from puzzlebench.solvers.fingerprint import closure, digest_of, fingerprint, library_versions


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
    versions = library_versions(closure("puzzlebench_baselines.constraint_backtracking"))
    names = {n.replace("-", "_").lower() for n in versions}
    assert "python_constraint2" in names and "constraint" not in names


def test_the_project_closure_reaches_what_the_issue_named() -> None:
    """astar-h1's key covers queens_keys, which search/queens_states uses (the old key
    hashed direct imports only and left it out); the registration machinery is left out."""
    from puzzlebench.solvers.registry import REGISTRY

    module = REGISTRY.load("astar-h1").module
    held = closure(module)
    assert "puzzlebench.search.queens.queens_states" in held and "puzzlebench.solvers.queens_keys" in held
    assert not held & code_fingerprint.REGISTRATION


def test_the_key_is_stable_and_cached(chain: Path) -> None:
    first = _key()
    assert fingerprint(importlib.import_module("fpchain.a").Solver) == first
    assert digest_of(["fpchain.a"]) == first
    assert (chain.parent / "cache" / "fingerprints").is_dir()  # the on-disk memo was written
    assert _key() == first  # read back from the memo


# -- the judge's version (issue 31 §2: "keep a judge version in each record and re-judge
# stored proposals when it changes") ---------------------------------------------------------

FAMILY = '''
"""A toy family whose validator the test edits: n numbers, all even."""

from dataclasses import dataclass
from typing import Any, ClassVar

from puzzlebench.problems.base import Instance, Problem, Verdict


@dataclass(frozen=True)
class EvenInstance(Instance):
    n: int
    problem: ClassVar[str] = "fp-even"

    @property
    def size(self) -> int:
        return self.n

    @property
    def instance_id(self) -> str:
        return f"fp-even-{self.n}"

    def describe(self) -> dict[str, Any]:
        return {"n": self.n}


class Even(Problem):
    id: ClassVar[str] = "fp-even"
    summary: ClassVar[str] = "n even numbers"

    def make(self, size: int, **options: Any) -> EvenInstance:
        return EvenInstance(size)

    def validate(self, instance: Any, answer: Any) -> Verdict:
        """Every number even."""
        ok = isinstance(answer, list) and len(answer) == instance.n \\
            and all(v % 2 == 0 for v in answer)
        return Verdict(ok, "" if ok else "a number is not even")

    def conflicts(self, instance: Any, answer: Any) -> int:
        return sum(v % 2 for v in answer)

    def parse_answer(self, instance: Any, text: str) -> Any:
        return [int(x) for x in text.split(",")]

    def answer_to_json(self, answer: Any) -> Any:
        return [int(v) for v in answer]

    def answer_from_json(self, data: Any) -> Any:
        return list(data)
'''


@pytest.fixture
def family(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The toy family ``fpfamily.even``, registered for the test only."""
    from puzzlebench.problems import PROBLEMS

    pkg = tmp_path / "fpfamily"
    pkg.mkdir()
    # no bytecode cache: a .pyc records its source's size and mtime in whole seconds, and the
    # tests edit the source to one of the same size within the second, so a reload would run
    # the old bytecode (it did whenever the interpreter was allowed to write bytecode)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    (pkg / "__init__.py").write_text("")
    (pkg / "even.py").write_text(FAMILY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(tmp_path / "cache"))
    code_fingerprint.forget()
    module = importlib.import_module("fpfamily.even")
    monkeypatch.setitem(PROBLEMS, "fp-even", module.Even())
    yield pkg / "even.py"
    for name in [m for m in sys.modules if m == "fpfamily" or m.startswith("fpfamily.")]:
        del sys.modules[name]
    code_fingerprint.forget()


def _reload_family(monkeypatch: pytest.MonkeyPatch) -> object:
    """The family as a new process would load it after an edit."""
    from puzzlebench.problems import PROBLEMS

    code_fingerprint.forget()
    module = importlib.reload(sys.modules["fpfamily.even"])
    problem = module.Even()
    monkeypatch.setitem(PROBLEMS, "fp-even", problem)
    return problem


def _even_record(answer: list[int]) -> RunRecord:
    """A run of a solver answering ``answer`` to fp-even 3, made and judged by the harness."""
    from puzzlebench.contract import Claim, Proposal, Solver
    from puzzlebench.harness.execute import run_solve
    from puzzlebench.problems import get_problem
    from puzzlebench.solvers.registry import spec_of

    class Fixed(Solver):
        name = "fixed-even"
        problems = frozenset({"fp-even"})

        def solve(self, instance, budget, rng):  # type: ignore[no-untyped-def]
            return Proposal(answer=list(answer), claim=Claim.SOLVED)

    return run_solve(spec_of(Fixed), get_problem("fp-even").make(3), isolate=False)


def test_the_judge_version_follows_the_validator(family: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from puzzlebench.harness.judging.rules import judge_version
    from puzzlebench.problems import get_problem

    before = judge_version(get_problem("fp-even"))
    assert before == _even_record([2, 4, 6]).verdict.judge_version  # each record keeps it
    family.write_text(family.read_text().replace('"""Every number even."""',
                                                 '"""All of them even (reworded)."""'))
    assert judge_version(_reload_family(monkeypatch)) == before
    family.write_text(family.read_text().replace("v % 2 == 0", "v % 4 == 0"))
    assert judge_version(_reload_family(monkeypatch)) != before
    # another family's judge keeps its version: nqueens runs are not judged again
    assert judge_version(get_problem("nqueens")) == judge_version(get_problem("nqueens"))


def test_stored_proposals_are_judged_again_by_a_new_judge(
        family: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from puzzlebench.harness.campaign.storage.store import Store, load_records
    from puzzlebench.records.record import Outcome

    loose, strict = _even_record([2, 4, 6]), _even_record([4, 8, 12])
    assert loose.verdict.outcome is Outcome.SOLVED and strict.verdict.outcome is Outcome.SOLVED
    db = tmp_path / "runs.db"
    with Store(db) as store:
        store.add("loose", loose)
        store.add("strict", strict)
    # read by the same judge: nothing is judged again
    assert [r.verdict.outcome for r in load_records(db)] == [Outcome.SOLVED, Outcome.SOLVED]
    family.write_text(family.read_text().replace("v % 2 == 0", "v % 4 == 0"))
    _reload_family(monkeypatch)
    now_loose, now_strict = load_records(db)
    assert now_loose.verdict.outcome is Outcome.WRONG and now_loose.verdict.valid is False
    assert "not even" in now_loose.verdict.reason and "judged again" in now_loose.provenance.notes
    assert now_strict.verdict.outcome is Outcome.SOLVED and "judged again" not in now_strict.provenance.notes
    assert now_loose.verdict.judge_version == now_strict.verdict.judge_version != loose.verdict.judge_version
    stored = load_records(db, rejudged=False)  # the store itself is never rewritten
    assert [r.verdict.outcome for r in stored] == [Outcome.SOLVED, Outcome.SOLVED]


def test_records_made_before_judge_versions_are_judged_again() -> None:
    from puzzlebench.harness.judging.pipeline import judge_stored
    from puzzlebench.records.record import Outcome, RunRecord

    old = RunRecord.of(problem="nqueens", size=4, instance_id="nqueens-4", solver="old",
                    params={}, seed=0, outcome=Outcome.SOLVED, claim="solved", valid=True,
                    answer=[0, 1, 2, 3], answer_length=4, instance={"n": 4}, verified=True,
                    verified_by="validator")
    assert old.verdict.judge_version == ""
    judged = judge_stored(old)
    assert judged.verdict.outcome is Outcome.WRONG and judged.verdict.judge_version
    fine = judge_stored(old.with_(answer=[1, 3, 0, 2]))
    assert fine.verdict.outcome is Outcome.SOLVED and fine.verdict.judge_version
    assert fine.provenance.notes == ""


def test_a_certified_or_refuted_claim_keeps_its_verdict_when_judged_again() -> None:
    """A proof check is not redone on reading (its proof is not stored): a claim the judge
    certified, or refuted, stays so; a claim with no certificate is judged again."""
    from puzzlebench.harness.judging.pipeline import judge_stored
    from puzzlebench.records.record import Outcome, RunRecord

    claim = RunRecord.of(problem="queens-knights", size=3, instance_id="queens-knights-3-A2",
                      solver="old", params={}, seed=0, outcome=Outcome.INFEASIBLE,
                      claim="infeasible", valid=None, instance={"n": 3, "queens": 2},
                      verified=True, verified_by="certificate", certificate="certified (DRUP)")
    kept = judge_stored(claim)
    assert kept.verdict.outcome is Outcome.INFEASIBLE and kept.verdict.verified_by == "certificate"
    assert kept.verdict.judge_version and "judged again" not in kept.provenance.notes
    refuted = claim.with_(outcome=Outcome.WRONG, verified=None, verified_by="",
                          certificate="refuted: a solution", reason="claimed infeasible, but …")
    assert judge_stored(refuted).verdict.outcome is Outcome.WRONG
    bare = judge_stored(claim.with_(certificate=""))  # verified by nothing the record holds
    assert bare.verdict.outcome is Outcome.INFEASIBLE and bare.verdict.verified is False
    assert "judged again" in bare.provenance.notes
