"""Bad input on every command: one clear line on stderr, exit status 2, never a traceback.

Each invocation below is malformed in one way; together they sweep every command. Checked
in-process (``puzzlebench.cli.main``): an uncaught exception would fail the test outright.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from puzzlebench.cli import main

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"
STUDY = """
[study]
name = "bad"
time_limit = 1.0
{extra}

[[problems]]
problem = "nqueens"
sizes = "4"

[[solvers]]
name = "mod12"
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("bad")
    (root / "folder").mkdir()
    (root / "binary.toml").write_bytes(bytes(range(256)) * 4)
    (root / "broken.toml").write_text("[study\nname = ", encoding="utf-8")
    (root / "ok.toml").write_text(STUDY.format(extra=""), encoding="utf-8")
    (root / "hard.toml").write_text(STUDY.format(extra="hard_limit = 0.5"), encoding="utf-8")
    (root / "empty.sqlite").write_bytes(b"")
    (root / "plain.txt").write_text("not a folder", encoding="utf-8")
    other = sqlite3.connect(root / "other.sqlite")
    other.execute("CREATE TABLE people (name TEXT)")
    other.commit()
    other.close()
    return {k: str(root / v) for k, v in {
        "dir": "folder", "binary": "binary.toml", "broken": "broken.toml", "ok": "ok.toml",
        "hard": "hard.toml", "empty": "empty.sqlite", "other": "other.sqlite",
        "file": "plain.txt", "missing": "missing.sqlite", "nodir": "no/such/dir/out.csv",
    }.items()}


S = ["solve", "nqueens", "8", "--solver"]
BAD: list[list[str]] = [
    ["solve", "nqueens", "0", "--solver", "mod12"],
    ["solve", "nqueens", "-3", "--solver", "mod12"],
    ["solve", "nqueens", "1e400", "--solver", "mod12"],
    ["solve", "nqueens", "10**400", "--solver", "mod12"],
    ["solve", "nqueens", "abc", "--solver", "mod12"],
    [*S, "nope"],
    [*S, "mod12", "--seed", "-1"],
    [*S, "mod12", "--time-limit", "nan"],
    [*S, "mod12", "--time-limit", "-1"],
    [*S, "mod12", "--time-limit", "inf"],
    [*S, "mod12", "--time-limit", "0"],
    [*S, "qs4", "--param", "tail=-5"],
    [*S, "qs4", "--param", "tail=1e400"],
    [*S, "ga-permutation", "--param", "population_size=-5"],
    [*S, "ga-permutation", "--param", "mutation_rate=nan"],
    [*S, "ga-seed002", "--param", "k=0"],
    [*S, "deap-ga", "--param", "cxpb=2.5"],
    [*S, "deap-ga", "--param", "tournsize=0"],
    [*S, "cpsat", "--param", "num_workers=-3"],
    [*S, "mod12", "--param", "nope=1"],
    [*S, "mod12", "--param", "noequals"],
    [*S, "min-conflicts", "--param", "neighbourhood=any"],
    [*S, "bitboard", "--param", "symmetry=rotations"],
    [*S, "stochastic-hc", "--param", "max_iter=lots"],
    [*S, "mod12", "--max-nodes", "-1"],
    [*S, "mod12", "--queens", "3"],
    [*S, "astar-manhattan"],
    [*S, "nofile.py:X"],
    [*S, f"{PLUGINS / 'exit_at_import.py'}:X"],
    [*S, f"{PLUGINS / 'hostile.py'}:NoSuchClass"],
    ["solve", "nope", "8", "--solver", "mod12"],
    ["solve", "queens-knights", "8", "--queens", "9", "--solver", "backtracking"],
    ["solve", "queens-knights", "8", "--solver", "backtracking"],
    ["solve", "sliding", "8", "--start", "12345678", "--solver", "astar-manhattan"],
    ["solve", "sliding", "8", "--start", "123456789", "--solver", "astar-manhattan"],
    ["solve", "sliding", "8", "--start", "1234567800", "--solver", "astar-manhattan"],
    ["solve", "sliding", "8", "--solver", "astar-manhattan"],
    ["solve", "sliding", "15", "--start", "korf:0", "--solver", "idastar-pdb"],
    ["solve", "sliding", "15", "--start", "korf:101", "--solver", "idastar-pdb"],
    ["solve", "sliding", "8", "--start", "korf:1", "--solver", "idastar-pdb"],
    ["solve", "sliding", "24", "--start", "korf24:51", "--solver", "idastar-pdb"],
    ["solve", "sliding", "15", "--start", "korf24:1", "--solver", "idastar-pdb"],
    ["solve", "sliding", "24", "--start", "korf24:one", "--solver", "idastar-pdb"],
    ["solve", "sliding", "15", "--start", "korf:1", "--solver", "idastar-pdb", "--param", "reflect=maybe"],
    ["pdb", "build", "--shape", "6x6"],
    ["pdb", "build", "--shape", "4"],
    ["pdb", "build", "--shape", "1x1"],
    ["pdb", "build", "--partition", "5-5"],
    ["solve", "sliding", "15", "--start", "korf:1", "--solver", "idastar-pdb", "--param", "partition=8-7"],
    ["pdb", "build", "--goal", "1,2,3"],
    ["pdb", "build", "--shape", "3x3", "--goal", "012345677"],
    ["pdb", "nope"],
    ["solve", "nqueens", "8"],
    ["count", "nqueens", "40"],
    ["count", "nqueens", "8", "--solver", "mod12"],
    ["count", "nqueens", "8", "--solver", "cpsat", "--unique"],
    ["count", "nqueens", "0"],
    ["count", "nqueens", "8", "--time-limit", "0"],
    ["count", "nqueens", "8", "--solver", "nope"],
    ["count", "nqueens", "8", "--split", "rows:3"],
    ["count", "nqueens", "8", "--split", "halves:2"],
    ["count", "nqueens", "8", "--split", "constellations:0"],
    ["count", "nqueens", "40", "--split", "constellations:4"],
    ["count", "torus-queens", "8", "--split", "rows:1"],
    ["count", "nqueens", "8", "--split", "rows:1", "--unique"],
    ["count", "nqueens", "8", "--split", "constellations:4", "--solver", "bitboard"],
    ["count", "nqueens", "8", "--workers", "2"],
    ["count", "nqueens", "8", "--split", "rows:1", "--workers", "0"],
    ["check", "nqueens", "8", "--answer", "0,1,2"],
    ["check", "nqueens", "8", "--answer", "a,b"],
    ["check", "nqueens", "8", "--answer", "0,4,7,5,2,6,1,99"],
    ["check", "nqueens", "0", "--answer", "0"],
    ["compare", "nqueens", "--sizes", "1..10**9"],
    ["compare", "nqueens", "--sizes", "10..4"],
    ["compare", "nqueens", "--sizes", "0..3"],
    ["compare", "nqueens", "--sizes", "4", "--repeats", "0"],
    ["compare", "nqueens", "--sizes", "4", "--workers", "0"],
    ["compare", "nqueens", "--sizes", "4", "--seed", "-5"],
    ["compare", "nqueens", "--sizes", "4", "--time-limit", "nan"],
    ["compare", "nqueens", "--sizes", "4", "--solvers", "nope"],
    ["compare", "nqueens", "--sizes", "4", "--solvers", "astar-manhattan"],
    ["compare", "queens-knights", "--sizes", "4", "--queens", "99"],
    ["compare", "queens-knights", "--sizes", "4"],
    ["compare", "sliding"],
    ["compare", "nqueens", "--sizes", "4", "--queens", "2"],
    ["compare", "nqueens", "--sizes", "4", "--report", "{file}"],
    ["compare", "nqueens", "--sizes", "4", "--report", "/proc/puzzlebench-report"],
    ["compare", "nqueens", "--sizes", "4", "--db", "{dir}"],
    ["compare", "nqueens", "--sizes", "4", "--db", "{other}"],
    ["compare", "nqueens", "--sizes", "4", "--db", "{empty}"],
    ["run", "{dir}"],
    ["run", "{missing}"],
    ["run", "{binary}"],
    ["run", "{broken}"],
    ["run", "{hard}"],
    ["run", "{ok}", "--scheduler", "garbage"],
    ["run", "{ok}", "--workers", "0"],
    ["export", "--db", "{missing}"],
    ["export", "--db", "{empty}"],
    ["export", "--db", "{other}"],
    ["export", "--db", "{dir}"],
    ["export", "--db", "{other}", "--format", "xml"],
    ["report", "--db", "{missing}", "--out", "{dir}"],
    ["report", "--db", "{other}", "--out", "{dir}"],
    ["study", "nope"],
    ["study", "heuristics", "--quick", "--out", "{file}"],
    ["estimate", "nqueens", "0"],
    ["estimate", "nqueens", "8", "--probes", "1"],
    ["estimate", "torus-queens", "8"],
    ["estimate", "nqueens", "8", "--seed", "-1"],
    ["agree", "nqueens", "--sizes", "0"],
    ["agree", "nqueens", "--queens", "3"],
    ["agree", "nqueens", "--solver", "nope"],
    ["agree", "nqueens", "--time-limit", "-1"],
    ["agree", "nqueens", "--start", "125408367"],
    ["solvers", "--problem", "nope"],
    ["nope"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a)[:60] for a in BAD])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], files: dict[str, str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    args = [a.format(**files) for a in argv]
    code = main(args)
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, (code, out, err)
    assert len(lines) == 1 and lines[0].startswith("puzzlebench: error: "), err
    assert "Traceback" not in out + err


def test_the_sweep_is_wide() -> None:
    commands = {a[0] for a in BAD}
    assert len(BAD) >= 60
    assert commands >= {"solve", "count", "check", "compare", "run", "export", "report", "study",
                        "estimate", "agree", "solvers"}


def test_foreign_files_are_left_untouched(files: dict[str, str],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    before = Path(files["other"]).read_bytes()
    main(["compare", "nqueens", "--sizes", "4", "--db", files["other"]])
    main(["export", "--db", files["empty"]])
    capsys.readouterr()
    assert Path(files["other"]).read_bytes() == before
    assert Path(files["empty"]).read_bytes() == b""
