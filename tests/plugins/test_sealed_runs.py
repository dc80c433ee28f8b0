"""Sealed runs (issue 32 §2): each way out of a run, tried by a plugin, has no effect when the
run is sealed — and, to show that the test tests something, has its effect with ``--sandbox
off`` (the mode is set through ``$PUZZLEBENCH_SANDBOX``, which the CLI's ``--sandbox`` wins
over). Escapes that cgroups alone also stop (the survivor, the pipe forger) are tried with
cgroups off, so the sandbox alone is what is tested.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from puzzlebench.cli import main
from puzzlebench.harness.campaign.storage.store import load_records
from puzzlebench.harness.execute import run_solve
from puzzlebench.harness.run.sealed import sandbox
from puzzlebench.problems import get_problem, sliding_distances
from puzzlebench.records.record import Outcome

PLUGINS = str(Path(__file__).with_name("sealed_runs.py"))
AVAILABLE, WHY = sandbox.available()
needs_sandbox = pytest.mark.skipif(not AVAILABLE, reason=f"no sandbox here: {WHY}")
pytestmark = needs_sandbox
MODES = ["auto", "off"]


def ref(name: str) -> str:
    return f"{PLUGINS}:{name}"


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def command(*args: str, mode: str, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
    """The installed command in a process of its own (its stdout and its signals are real),
    in a session of its own: an attack an unsealed run is let through on purpose (a signal to
    its command's process group) never reaches the test process (issue 53, item 21)."""
    full = {**os.environ, "PUZZLEBENCH_SANDBOX": mode, **(env or {})}
    return subprocess.run([sys.executable, "-m", "puzzlebench", *args], capture_output=True,
                          text=True, env=full, timeout=120, start_new_session=True)


@pytest.fixture
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("PUZZLEBENCH_SANDBOX", request.param)
    return str(request.param)


def by_tag(tag: str) -> list[int]:
    """Processes whose command line starts with ``tag``."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as fh:
                    if fh.read().startswith(tag.encode()):
                        out.append(int(name))
            except OSError:
                pass
    return out


@pytest.mark.parametrize("mode", MODES, indirect=True)
def test_a_sealed_run_sees_and_writes_nothing_of_the_machine(mode: str, tmp_path: Path,
                                                             monkeypatch) -> None:
    target = tmp_path / "outside.txt"
    monkeypatch.setenv("PUZZLEBENCH_HOSTILE_FILE", str(target))
    rec = run_solve(ref("Inspector"), get_problem("nqueens").make(8))
    c = rec.figures.counters
    sealed = mode == "auto"
    assert rec.verdict.outcome is Outcome.SOLVED and c["private_tmp"] == 1
    assert (c["pid"] == 2, c["processes"] == 2) == (sealed, sealed)  # init and itself
    assert (c["wrote_file"], target.exists()) == ((0, False) if sealed else (1, True))
    assert (c["interfaces"] == 1) == sealed  # loopback only
    assert c["capabilities"] == (0 if sealed else 1)
    assert rec.provenance.sandbox == ("namespaces" if sealed else "none")


@pytest.mark.parametrize("mode", MODES)
def test_no_line_is_forged_into_the_commands_output(mode: str) -> None:
    done = command("solve", "nqueens", "8", "--solver", ref("ForgeParentStdout"), "--json",
                   mode=mode)
    rows = json_lines(done.stdout)
    if mode == "off":  # what the sandbox stops: a second, forged "solved" line
        assert len(rows) == 2 and rows[0].get("forged")
        return
    assert len(rows) == 1 and rows[0]["outcome"] == "wrong", done.stdout + done.stderr
    assert rows[0]["counters"]["forged"] == 0 and rows[0]["sandbox"] == "namespaces"


@pytest.mark.parametrize("mode", MODES, indirect=True)
def test_a_run_cannot_kill_its_siblings(mode: str, capsys) -> None:
    code = main(["compare", "nqueens", "--sizes", "8", "--workers", "2", "--json",
                 "--solvers", f"{ref('SlowHonest')},{ref('KillSiblings')}"])
    rows = {r["solver"]: r for r in json_lines(capsys.readouterr().out)}
    honest, killer = rows["sealed-slow-honest"], rows["sealed-kill-siblings"]
    if mode == "off":
        assert killer["counters"]["killed"] >= 1 and honest["outcome"] == "crash"
        return
    assert code == 0 and killer["counters"]["killed"] == 0
    assert honest["outcome"] == "solved"


@pytest.mark.parametrize("mode", MODES, indirect=True)
def test_a_daemon_cannot_forge_frames_into_later_runs(mode: str, capsys, monkeypatch,
                                                      tmp_path: Path) -> None:
    monkeypatch.setenv("PUZZLEBENCH_CGROUP_ROOT", "off")  # the sandbox alone
    pids = tmp_path / "daemons"
    monkeypatch.setenv("PUZZLEBENCH_HOSTILE_PIDS", str(pids))
    try:
        main(["compare", "nqueens", "--sizes", "6..9", "--workers", "1", "--json",
              "--solvers", f"{ref('PipeForger')},{ref('BriefHonest')}"])
    finally:
        for line in pids.read_text().split() if pids.exists() else []:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(line), signal.SIGKILL)
    # The victims sleep 0.3 s: a run as fast as mod12 (a few ms) can end before the
    # daemon's next look at /proc on a loaded machine, and the unsealed case would pass or
    # fail by chance.
    rows = [r for r in json_lines(capsys.readouterr().out)
            if r["solver"] == "sealed-brief-honest"]
    assert len(rows) == 4
    outcomes = {r["outcome"] for r in rows}
    if mode == "off":
        assert outcomes != {"solved"}  # forged frames judged: "claimed infeasible", garbage
        return
    assert outcomes == {"solved"}


@pytest.mark.parametrize("mode", MODES)
def test_a_run_cannot_interrupt_the_harness(mode: str, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    args = ("compare", "nqueens", "--sizes", "6..8", "--workers", "1", "--db", str(db),
            "--solvers", f"{ref('SigintHarness')},mod12")
    done = command(*args, mode=mode)
    if mode == "off":
        assert done.returncode == 130
        return
    assert done.returncode == 0, done.stderr
    assert len(load_records(db)) == 6
    again = command(*args, mode=mode)  # resuming adds nothing and aborts nowhere
    assert again.returncode == 0 and len(load_records(db)) == 6


SENTINEL = """
import os, signal, subprocess, sys
hit = []
signal.signal(signal.SIGINT, lambda *_: hit.append(1))
done = subprocess.run([sys.executable, "-m", "puzzlebench", *sys.argv[1:]], capture_output=True,
                      env={**os.environ, "PUZZLEBENCH_SANDBOX": "off"}, start_new_session=True)
print(done.returncode, len(hit))
"""


def test_an_interrupt_let_through_never_reaches_the_test_process(tmp_path: Path) -> None:
    """Issue 53, item 21: the unsealed run's SIGINT to its command once took down the pytest
    worker that ran the command (its interpreter lived in a folder named puzzlebench, as in a
    fresh clone). A stand-in for that worker — an interpreter reached through such a folder,
    running the command as ``command`` does — sees no SIGINT, while the command is
    interrupted (the attack works: ``--sandbox off``)."""
    home = Path(tempfile.mkdtemp(prefix="clone-"))  # not under pytest's tmp_path: a plain path
    try:
        venv = home / "puzzlebench" / "venv"
        venv.parent.mkdir()
        venv.symlink_to(sys.prefix)
        python = venv / "bin" / Path(sys.executable).name
        args = ["compare", "nqueens", "--sizes", "6..8", "--workers", "1", "--db",
                str(tmp_path / "runs.db"), "--solvers", f"{ref('SigintHarness')},mod12"]
        sentinel = home / "sentinel.py"
        sentinel.write_text(SENTINEL, encoding="utf-8")
        done = subprocess.run([str(python), str(sentinel), *args], capture_output=True,
                              text=True, timeout=180, start_new_session=True)
    finally:
        shutil.rmtree(home)
    assert done.stdout.split() == ["130", "0"], (done.stdout, done.stderr)


@pytest.mark.parametrize("mode", MODES, indirect=True)
def test_no_process_outlives_its_run(mode: str, monkeypatch) -> None:
    monkeypatch.setenv("PUZZLEBENCH_CGROUP_ROOT", "off")  # the sandbox alone
    tag = f"puzzlebench-survivor-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("PUZZLEBENCH_HOSTILE_TAG", tag)
    rec = run_solve(ref("DoubleForkSurvivor"), get_problem("nqueens").make(8))
    assert rec.verdict.outcome is Outcome.SOLVED
    deadline = time.monotonic() + 2.0
    while by_tag(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = by_tag(tag)
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert bool(survivors) == (mode == "off")


@pytest.mark.parametrize("mode", MODES, indirect=True)
def test_a_run_cannot_rewrite_the_store(mode: str, capsys, monkeypatch, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    main(["compare", "nqueens", "--sizes", "6..8", "--solvers", "mod12", "--db", str(db)])
    monkeypatch.setenv("PUZZLEBENCH_HOSTILE_DB", str(db))  # the run is even told where it is
    main(["compare", "nqueens", "--sizes", "8", "--solvers", ref("StoreRewriter"),
          "--db", str(db)])
    capsys.readouterr()
    records = load_records(db)
    honest = [r for r in records if r.key.solver == "mod12"]
    mine = [r for r in records if r.key.solver == "sealed-store-rewriter"]
    assert len(mine) == 1
    assert mine[0].figures.counters["rewritten"] == (3 if mode == "off" else 0)
    if mode == "off":  # rewritten, unsealed: each edited row fails its digest and is refused
        assert honest == []
    else:  # sealed: the store was never reachable
        assert len(honest) == 3 and {r.verdict.outcome for r in honest} == {Outcome.SOLVED}


@pytest.mark.parametrize("mode", MODES, indirect=True)
def test_a_poisoned_bfs_table_changes_no_verdict(mode: str, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(tmp_path / "cache"))
    sliding_distances.table.cache_clear()
    instance = get_problem("sliding").make(8, start="125408367")
    try:
        poisoner = run_solve(ref("TablePoisoner"), instance)
        sliding_distances.table.cache_clear()  # the judge reads the cache anew
        honest = run_solve("astar-manhattan", instance)
        # sealed, the cache cannot be written (the judge rewrites what it finds poisoned)
        assert poisoner.figures.counters["poisoned"] == (3 if mode == "off" else 0)
        assert ("failed its digest check" in poisoner.provenance.notes) == (mode == "off")  # detected
        # either way the judge's table is the true one: checked against the package's digest
        assert poisoner.verdict.outcome is Outcome.WRONG and "optimum is" in poisoner.verdict.reason
        assert honest.verdict.outcome is Outcome.SOLVED and honest.verdict.verified
    finally:
        sliding_distances.table.cache_clear()


@pytest.mark.parametrize("mode", MODES, indirect=True)
def test_a_sealed_run_finds_the_judges_answers_nowhere(mode: str, monkeypatch,
                                                      tmp_path: Path) -> None:
    """Issue 53 §1: the package's data folder, the checkout's git history (``git show``),
    other copies of the package on the import path or beside the checkout, the suite's cache:
    sealed, a counting plugin reads none of them and its "count" is not verified; unsealed,
    the package's own table is there to read (what sealing hides, shown by its absence)."""
    from puzzlebench.harness.execute import make_request, run_judged
    from puzzlebench.harness.resolve import resolve_solver

    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "eight_puzzle_bfs_v2_blank8.npz").write_bytes(b"a table")
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(cache))
    spec = resolve_solver(str(Path(__file__).with_name("reads_the_judge.py")) + ":LooksEverywhere")
    task = make_request(spec, get_problem("nqueens").make(12), "count")
    rec = run_judged(spec, task)
    c = rec.figures.counters
    if mode == "off":
        assert c["read_package"] == 1 and c["read_cache"] == 1
        assert rec.verdict.outcome is Outcome.SOLVED and rec.verdict.count == 14200
        return
    assert rec.provenance.sandbox == "namespaces"
    assert (c["read_package"], c["read_git"], c["read_copies"], c["read_cache"]) == (0, 0, 0, 0)
    assert rec.verdict.outcome is not Outcome.SOLVED and rec.verdict.count is None


def test_cgroups_alone_kill_a_double_forked_survivor(monkeypatch) -> None:
    """Without the sandbox, the run's cgroup is what ends its setsid daemons (v1: frozen,
    killed, thawed; v2: cgroup.kill)."""
    from puzzlebench.harness.run.sealed import cgroups

    if cgroups.detect()[0] is None:
        pytest.skip(f"no usable cgroups here: {cgroups.detect()[1]}")
    monkeypatch.setenv("PUZZLEBENCH_SANDBOX", "off")
    tag = f"puzzlebench-survivor-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("PUZZLEBENCH_HOSTILE_TAG", tag)
    rec = run_solve(ref("DoubleForkSurvivor"), get_problem("nqueens").make(8))
    assert rec.verdict.outcome is Outcome.SOLVED and rec.provenance.sandbox == "none"
    survivors = by_tag(tag)
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert not survivors


def test_the_spawned_run_of_a_dask_worker_is_sealed_too(monkeypatch) -> None:
    from puzzlebench.harness.execute import make_request
    from puzzlebench.harness.judging.run_record import make_record
    from puzzlebench.harness.resolve import resolve_solver
    from puzzlebench.harness.run.isolation import run_request

    monkeypatch.setenv("PUZZLEBENCH_SANDBOX", "auto")
    spec = resolve_solver(ref("Inspector"))
    task = make_request(spec, get_problem("nqueens").make(8), "solve")
    rec = make_record(spec, task, run_request(task, spawn=True))
    assert rec.verdict.outcome is Outcome.SOLVED and rec.provenance.sandbox == "namespaces"
    c = rec.figures.counters
    assert (c["pid"], c["processes"], c["interfaces"]) == (2, 2, 1)


def test_required_refuses_to_run_where_runs_cannot_be_sealed(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sandbox, "available", lambda: (False, "unshare: Operation not permitted"))
    for args in (["solve", "nqueens", "8", "--solver", "mod12"],
                 ["compare", "nqueens", "--sizes", "8", "--solvers", "mod12"],
                 ["agree", "nqueens", "--sizes", "8"]):
        code = main([*args, "--sandbox", "required"])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (args, err)
        assert "cannot be sealed" in err and "Operation not permitted" in err


def test_a_project_solver_keeps_its_pattern_database_cache(monkeypatch, tmp_path: Path) -> None:
    """Sealed, a project solver still fills the pattern-database cache (trusted code, the one
    writable place besides its private /tmp, even when the cache lies under /tmp)."""
    monkeypatch.setenv("PUZZLEBENCH_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PUZZLEBENCH_SANDBOX", "required")
    rec = run_solve("idastar-pdb", get_problem("sliding").make(8, start="125408367"))
    assert rec.verdict.outcome is Outcome.SOLVED and rec.provenance.sandbox == "namespaces"
    assert list((tmp_path / "cache" / "pdb").glob("*.pdb"))


def test_an_unprivileged_harness_seals_its_runs_too() -> None:
    """As an ordinary user (nobody), the run gets a user namespace as well: sealed all the same
    (the sandbox module alone, on a Python that user can run)."""
    import shutil
    import tempfile

    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv to become another user")
    with tempfile.TemporaryDirectory(dir="/tmp") as name:
        folder = Path(name)
        folder.chmod(0o755)
        shutil.copy(sandbox.__file__, folder / "sandbox.py")
        probe = folder / "probe.py"
        probe.write_text(f"import sys\nsys.path.insert(0, {name!r})\nimport sandbox\n"
                         "print(sandbox.available())\n")
        for python in ("/usr/bin/python3", "/usr/local/bin/python3", sys.executable):
            if not os.path.exists(python):
                continue
            done = subprocess.run([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
                                   python, str(probe)], capture_output=True, text=True,
                                  timeout=60)
            if done.returncode == 0:
                break
        else:
            pytest.skip("no Python that another user can run")
    assert done.stdout.strip() == "(True, '')", done.stdout + done.stderr


@pytest.mark.parametrize("mode", MODES, indirect=True)
def test_what_a_run_leaves_running_is_named(mode: str, monkeypatch) -> None:
    from puzzlebench.harness.run.sealed import cgroups

    if cgroups.detect()[0] is None:
        pytest.skip(f"no usable cgroups here: {cgroups.detect()[1]}")
    tag = f"puzzlebench-survivor-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("PUZZLEBENCH_HOSTILE_TAG", tag)
    rec = run_solve(ref("DoubleForkSurvivor"), get_problem("nqueens").make(8))
    assert "1 process of the run still running at its end (killed with it)" in rec.provenance.notes
    assert not by_tag(tag)


def test_a_plugin_reached_through_a_symlinked_folder_runs_sealed(monkeypatch, tmp_path: Path,
                                                                 capsys) -> None:
    """The sealed view keeps the plugin's folder where its relative reference reaches it, a
    symlink from the working folder included (the docs' examples run that way)."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    (tmp_path / "examples").symlink_to(examples, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    code = main(["solve", "nqueens", "8", "--solver", "examples/mysolver.py:MySolver", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert json.loads(out.out)["outcome"] == "solved"
