"""A "counting" solver that counts nothing: it looks the answer up in the judge's published
counts, as installed with the package (the third hostile sweep: judged solved and verified in
8 ms, and agree agreed). In a sealed run the judge's data is an empty directory."""

from __future__ import annotations

from typing import Any, ClassVar

from puzzlebench.contract import Budget, Claim, Proposal, Solver


class ReadsTheJudge(Solver):
    name = "reads-the-judge"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    complete = True
    counts = True

    def solve(self, instance: Any, budget: Budget, rng: Any) -> Proposal:
        return Proposal(claim=Claim.UNKNOWN)

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        from puzzlebench.problems.nqueens import A000170  # the lookup itself

        return Proposal(claim=Claim.SOLVED, count=A000170[instance.n])


def _read_oeis(text: str) -> int | None:
    """n = 12's count from an oeis.json's text, or None."""
    import json

    try:
        return int(json.loads(text)["A000170"]["values"][12])
    except (ValueError, KeyError, IndexError, TypeError):
        return None


class LooksEverywhere(Solver):
    """The fourth hostile sweep's ways to the judge's answers outside the package's own data
    folder: the checkout's git history (``git show``), every copy of the package on the
    import path or under the checkouts' parent folder, and the suite's cache. Counts n = 12
    from the first table it reads; its counters say which ways worked (1) or not (0)."""

    name = "looks-everywhere"
    problems: ClassVar[frozenset[str]] = frozenset({"nqueens"})
    complete = True
    counts = True

    def solve(self, instance: Any, budget: Budget, rng: Any) -> Proposal:
        return Proposal(claim=Claim.UNKNOWN)

    def count(self, instance: Any, budget: Budget, *, unique: bool = False) -> Proposal:
        import glob
        import subprocess
        import sys
        from pathlib import Path

        import puzzlebench
        from puzzlebench.host.cache_dir import cache_dir

        package = Path(puzzlebench.__file__).resolve().parent
        found: dict[str, int | None] = {}
        judge = package / "problems" / "data" / "judge" / "oeis.json"
        found["package"] = _read_oeis(judge.read_text()) if judge.is_file() else None
        shown = subprocess.run(["git", "-C", str(package), "show",
                                "HEAD:src/puzzlebench/problems/data/judge/oeis.json"],
                               capture_output=True, text=True, check=False)
        found["git"] = _read_oeis(shown.stdout) if shown.returncode == 0 else None
        copies = {str(Path(e, "puzzlebench/problems/data/judge/oeis.json")) for e in sys.path if e}
        copies |= set(glob.glob(str(package.parents[2] / "*/src/puzzlebench/problems/data/judge/"
                                                         "oeis.json")))
        readable = [c for c in sorted(copies) if Path(c).is_file()]
        found["copies"] = _read_oeis(Path(readable[0]).read_text()) if readable else None
        cache = cache_dir()
        found["cache"] = 1 if cache.is_dir() and any(cache.iterdir()) else None
        counters = {f"read_{k}": int(v is not None) for k, v in found.items()}
        count = next((v for k, v in found.items() if k != "cache" and v is not None), None)
        if count is None:
            return Proposal(claim=Claim.UNKNOWN, counters=counters)
        return Proposal(claim=Claim.SOLVED, count=count, counters=counters)
