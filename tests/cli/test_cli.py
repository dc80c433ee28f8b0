"""The command-line contract: outputs, JSON shapes, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from puzzlebench.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_count_unique(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "nqueens", "12", "--unique")
    assert code == 0 and "14200" in out and "1787" in out
    code, out, _ = run(capsys, "count", "nqueens", "8", "--json")
    data = json.loads(out)
    assert data["count"] == 92 and data["solver"] == "bitboard" and "time_s" in data


def test_solve_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "nqueens", "8", "--solver", "mod12", "--json")
    data = json.loads(out)
    assert code == 0
    for key in ("problem", "size", "solver", "params", "seed", "outcome", "answer", "valid",
                "counters", "time_s"):
        assert key in data
    assert data["outcome"] == "solved" and data["valid"] is True and len(data["answer"]) == 8


def test_solve_show_and_infeasible(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "nqueens", "6", "--solver", "backtracking", "--show")
    assert code == 0 and out.count("Q") == 6
    code, out, _ = run(capsys, "solve", "nqueens", "3", "--solver", "mod12")
    assert code == 0 and "infeasible" in out
    code, out, _ = run(capsys, "solve", "queens-knights", "6", "--queens", "2",
                       "--solver", "backtracking", "--json")
    assert json.loads(out)["answer"][0][0] in ("Q", "N")


def test_check(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "nqueens", "4", "--answer", "1,3,0,2")
    assert code == 0 and out.strip() == "valid"
    code, out, _ = run(capsys, "check", "nqueens", "4", "--answer", "0,1,2,3")
    assert code == 1 and "diagonal" in out
    code, out, _ = run(capsys, "check", "sliding", "8", "--start", "123456708", "--answer", "R")
    assert code == 0
    code, out, _ = run(capsys, "check", "queens-knights", "3", "--queens", "0",
                       "--answer", "N:0:0,N:0:1,N:0:2", "--json")
    assert code == 0 and json.loads(out)["valid"] is True


def test_solvers_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "solvers", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    names = {r["name"] for r in rows}
    assert {"mod12", "bitboard", "backtracking"} <= names
    for r in rows:
        assert set(r) >= {"name", "problems", "complete", "exact", "stochastic", "counts",
                          "params", "origin"}
    _, out, _ = run(capsys, "solvers", "--problem", "sliding", "--json")
    assert all("sliding" in json.loads(line)["problems"] for line in out.splitlines())


def test_compare_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "nqueens", "--sizes", "4..6",
                       "--solvers", "mod12,backtracking", "--details")
    details, summary = out.split("\nsummary")
    assert code == 0 and details.count("solved") == 6  # six runs
    assert summary.count("3/3 solved") == 2  # the summary folds each solver's outcomes


BAD_INPUTS = [
    ("solve", "nqueens", "0", "--solver", "mod12"),
    ("solve", "nqueens", "-4", "--solver", "mod12"),
    ("solve", "nqueens", "eight", "--solver", "mod12"),
    ("solve", "chess", "8", "--solver", "mod12"),
    ("solve", "nqueens", "8", "--solver", "no-such-solver"),
    ("solve", "queens-knights", "5", "--queens", "6", "--solver", "backtracking"),
    ("solve", "queens-knights", "5", "--solver", "backtracking"),
    ("solve", "sliding", "8", "--start", "12345678x", "--solver", "mod12"),
    ("solve", "sliding", "8", "--start", "1234", "--solver", "mod12"),
    ("solve", "nqueens", "8", "--solver", "mod12", "--time-limit", "-1"),
    ("solve", "nqueens", "8", "--solver", "mod12", "--param", "nope=1"),
    ("solve", "nqueens", "8", "--solver", "mod12", "--param", "novalue"),
    ("solve", "sliding", "8", "--start", "125408367", "--solver", "mod12"),
    ("check", "nqueens", "4", "--answer", "1,3,0"),
    ("check", "nqueens", "4", "--answer", "1,3,0,9"),
    ("check", "nqueens", "4", "--answer", "a,b,c,d"),
    ("check", "sliding", "8", "--start", "123456708", "--answer", "RX"),
    ("count", "nqueens", "0"),
    ("count", "nqueens", "8", "--solver", "mod12"),
    ("compare", "nqueens", "--sizes", "9..4"),
    ("compare", "nqueens", "--sizes", "0..4"),
    ("solvers", "--problem", "chess"),
    ("solve", "nqueens", "8"),
]


@pytest.mark.parametrize("args", BAD_INPUTS, ids=lambda a: " ".join(a))
def test_bad_input_one_line_exit_2(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2, (code, out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("puzzlebench: error:"), err
    assert "Traceback" not in err


def test_console_script_end_to_end() -> None:
    ok = subprocess.run([sys.executable, "-m", "puzzlebench", "check", "nqueens", "4",
                         "--answer", "1,3,0,2"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and ok.stdout.strip() == "valid"
    bad = subprocess.run([sys.executable, "-m", "puzzlebench", "solve", "nqueens", "0",
                          "--solver", "mod12"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)


def test_fast_exit_flushes_output_runs_atexit_and_keeps_the_status() -> None:
    proc = _python("import atexit; atexit.register(lambda: print('bye'));"
                   "from puzzlebench.cli import _exit; print('x' * 100000, end=''); _exit(3)")
    assert proc.returncode == 3 and proc.stdout == "x" * 100000 + "bye\n"


def test_fast_exit_waits_for_a_live_thread() -> None:
    proc = _python("import threading, time\n"
                   "t = threading.Thread(target=lambda: (time.sleep(0.3), print('done')))\n"
                   "t.start()\n"
                   "from puzzlebench.cli import _exit\n"
                   "_exit(4)")
    assert proc.returncode == 4 and proc.stdout == "done\n"


def test_console_script_output_is_whole_and_exit_codes_hold() -> None:
    cmd = [sys.executable, "-m", "puzzlebench"]
    proc = subprocess.run([*cmd, "solve", "nqueens", "20000", "--solver", "mod12", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and len(json.loads(proc.stdout)["answer"]) == 20000
    proc = subprocess.run([*cmd, "solve", "nqueens", "0", "--solver", "mod12"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_pdb_build_then_cached(capsys: pytest.CaptureFixture[str], tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(tmp_path))
    code, out, _ = run(capsys, "pdb", "build", "--shape", "3x3", "--json")
    first = json.loads(out)
    assert code == 0 and [d["built_now"] for d in first["databases"]] == [True, True]
    assert sum(len(d["cells"]) for d in first["databases"]) == 8
    code, out, _ = run(capsys, "pdb", "build", "--shape", "3x3", "--goal", "012345678")
    assert code == 0 and out.count("cached (built in") == 2  # a corner goal shares the tables
    assert all((tmp_path / "pdb" / p.split("/")[-1]).exists()
               for p in (d["path"] for d in first["databases"]))


def test_pdb_build_partition_7_8(capsys: pytest.CaptureFixture[str], tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(tmp_path))
    code, out, _ = run(capsys, "pdb", "build", "--shape", "3x3", "--partition", "7-8", "--json")
    first = json.loads(out)
    assert code == 0 and first["partition"] == "7-8" and first["databases"][0]["built_now"]
    assert first["databases"][0]["entries"] == 362_880  # 9!/1!: one byte per placement
    assert first["databases"][0]["path"].endswith(".compact.pdb")
    code, out, _ = run(capsys, "pdb", "build", "--shape", "3x3", "--partition", "7-8")
    assert code == 0 and "cached (built in" in out


@pytest.mark.slow  # slow tier: see docs/development.md
def test_solve_korf_instance_judged_against_the_published_length(capsys: pytest.CaptureFixture[str]) -> None:
    start = "0,1,9,7,11,13,5,3,14,12,4,2,8,6,10,15"  # Korf's #79, 42 moves
    code, out, _ = run(capsys, "solve", "sliding", "15", "--start", start, "--goal",
                       ",".join(map(str, range(16))), "--solver", "idastar-pdb", "--json")
    data = json.loads(out)
    assert code == 0 and data["outcome"] == "solved" and data["valid"] is True
    assert len(data["answer"]) == 42 and data["counters"]["pdb_bytes"] > 0
    code, out, _ = run(capsys, "solve", "sliding", "15", "--start", "korf:79", "--solver",
                       "idastar-pdb", "--json")
    assert json.loads(out)["answer"] == data["answer"]
