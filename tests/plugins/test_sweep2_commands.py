"""Second adversarial sweep, §4: commands that broke on a hostile plugin or a bad file.

Every field of every frame a run sends is type-checked (a malformed frame is a ``crash`` of
that run only, never a traceback, and ``run`` goes on past it); solver names are checked
wherever they are declared and no path built from one leaves its folder; a store that is not
SQLite is one line on stderr and exit 2, the file untouched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.execute import run_solve
from puzzlebench.problems import get_problem
from puzzlebench.records.record import Outcome

HERE = Path(__file__).parent
FRAMES = str(HERE / "sweep2_frames.py") + ":ForgedFrames"
EIGHT = get_problem("nqueens").make(8)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


def _cases() -> list[str]:
    import importlib.util

    spec = importlib.util.spec_from_file_location("sweep2_frames_cases", HERE / "sweep2_frames.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.CASES)


# -- every field of every frame ---------------------------------------------------------------

@pytest.mark.parametrize("case", _cases())
def test_a_malformed_frame_is_a_crash_of_that_run_only(case: str) -> None:
    record = run_solve(FRAMES, EIGHT, params={"case": case})
    # never rewarded: a forged frame is a crash (or, where the frame is well formed but the
    # answer it carries is not, the answer's verdict); figures from a bad frame never stored
    assert record.verdict.outcome is not Outcome.SOLVED or not case.startswith(("ready-", "deep", "not-")), \
        (case, record.verdict.outcome, record.verdict.error)
    v = record.verdict
    assert v.outcome is Outcome.CRASH, (case, v.outcome, v.reason, v.error)
    assert record.verdict.error, case
    f = record.figures
    for figure in (f.warmup_s, f.rss_base_mb, f.peak_rss_mb, f.cpu_s):
        assert isinstance(figure, float) and 0 <= figure < 1e6, (case, figure)


def test_run_resumes_past_malformed_frames(capsys, tmp_path: Path) -> None:
    solvers = "".join(f'[[solvers]]\nname = "{FRAMES}"\nparams = {{ case = "{case}" }}\n\n'
                      for case in ("ready-warmup-list", "deep-frame", "done-int64-odd-bytes"))
    study = tmp_path / "frames.toml"
    study.write_text(f"""
[study]
name = "frames"
time_limit = 5.0

[[problems]]
problem = "nqueens"
sizes = "8"

[[solvers]]
name = "mod12"

{solvers}""", encoding="utf-8")
    db = str(tmp_path / "f.sqlite")
    code, out, _ = cli(capsys, "run", str(study), "--db", db, "--quiet")
    assert code == 1 and "4 runs made" in out, out
    code, out, _ = cli(capsys, "run", str(study), "--db", db, "--quiet")
    assert "0 runs made" in out, out


