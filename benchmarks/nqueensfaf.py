"""NQueensFAF's CPU solver, built from a local checkout and timed, for side-by-side benchmarks.

NQueensFAF (github.com/olepoeschl/NQueensFAF, GPL-3.0) is never part of this project: get it
yourself and point ``--nqueensfaf DIR`` (or the environment variable ``NQUEENSFAF``) at the
checkout. ``build`` compiles, with ``javac`` alone, the core module and the four CPU classes
of ``nqueensfaf-impl`` (``CpuSolver``, ``Constellation``, ``ConstellationUtils``,
``ConstellationsGenerator``) into ``DIR/puzzlebench-build``, plus two files of this module's
own: a small driver (``PuzzlebenchFaf``) and a stand-in for the three Kryo classes
``CpuSolver`` imports. Kryo only serves its save/load of a paused run, which the driver never
calls, so the stand-in throws if it ever is; with no Maven repository reachable, it spares
fetching Kryo and its dependencies. The timed path (constellation generation and the worker
threads) is NQueensFAF's code, untouched.

The driver runs one untimed warm-up count (n = 14, so the JIT has compiled the kernels), then
the count asked for, and prints ``solutions wall-ms cpu-ms``: ``System.nanoTime`` around
``CpuSolver.start()`` (it runs synchronously), and the process's CPU time over the same span
(its JIT and GC threads included; they are nearly idle once warm).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import time
from functools import partial
from pathlib import Path

#: The classes of nqueensfaf-impl the CPU solver needs (the GPU solver needs LWJGL).
IMPL = ("CpuSolver", "Constellation", "ConstellationUtils", "ConstellationsGenerator")

DRIVER = r"""
import de.nqueensfaf.impl.CpuSolver;

public class PuzzlebenchFaf {
    static long[] run(int n, int threads) {
        CpuSolver solver = new CpuSolver();
        solver.setN(n);
        solver.setThreadCount(threads);
        solver.setUpdateInterval(0);
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        solver.start();
        long ns = System.nanoTime() - start;
        return new long[] {solver.getSolutions(), ns, os.getProcessCpuTime() - cpu};
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int threads = Integer.parseInt(args[1]);
        run(14, threads);  // warm-up: the JIT compiles the search
        long[] out = run(n, threads);
        System.out.println(out[0] + " " + (out[1] / 1e6) + " " + (out[2] / 1e6));
    }
}
"""

KRYO_STANDIN = {
    "com/esotericsoftware/kryo/Kryo.java": r"""
package com.esotericsoftware.kryo;
/** Stand-in: CpuSolver registers classes here; only its save/load (never called) would use it. */
public class Kryo {
    public void register(Class<?> type) {}
    public void writeObject(com.esotericsoftware.kryo.io.Output out, Object o) {
        throw new UnsupportedOperationException("Kryo stand-in: save is not available");
    }
    public <T> T readObject(com.esotericsoftware.kryo.io.Input in, Class<T> type) {
        throw new UnsupportedOperationException("Kryo stand-in: load is not available");
    }
}
""",
    "com/esotericsoftware/kryo/io/Output.java": r"""
package com.esotericsoftware.kryo.io;
public class Output implements AutoCloseable {
    public Output(java.io.OutputStream out) {}
    public void flush() {}
    public void close() {}
}
""",
    "com/esotericsoftware/kryo/io/Input.java": r"""
package com.esotericsoftware.kryo.io;
public class Input implements AutoCloseable {
    public Input(java.io.InputStream in) {}
    public void close() {}
}
""",
}


class NQueensFafError(RuntimeError):
    """NQueensFAF could not be found, built or run."""


def locate(option: str | None) -> Path | None:
    """The checkout named by the option, else by ``$NQUEENSFAF``; None when neither is set."""
    named = option or os.environ.get("NQUEENSFAF")
    return Path(named).expanduser() if named else None


def build(checkout: Path) -> Path:
    """Compile the CPU solver and the driver (once; again when a source is newer) and return
    the class directory."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        raise NQueensFafError("java and javac are needed to build NQueensFAF")
    core = checkout / "nqueensfaf-core/src/main/java"
    impl = checkout / "nqueensfaf-impl/src/main/java/de/nqueensfaf/impl"
    sources = sorted(core.rglob("*.java")) + [impl / f"{name}.java" for name in IMPL]
    missing = [p for p in [core, *sources] if not p.exists()]
    if missing:
        raise NQueensFafError(f"{checkout} is not a NQueensFAF checkout (no {missing[0]})")
    out = checkout / "puzzlebench-build"
    stamp = out / "built-from"  # the driver's and stand-in's text: a change rebuilds
    ours = hashlib.sha256((DRIVER + "".join(KRYO_STANDIN.values())).encode()).hexdigest()
    if (stamp.is_file() and stamp.read_text() == ours
            and all(p.stat().st_mtime < stamp.stat().st_mtime for p in sources)):
        return out
    extra = out / "src"
    for rel, text in {**KRYO_STANDIN, "PuzzlebenchFaf.java": DRIVER}.items():
        (extra / rel).parent.mkdir(parents=True, exist_ok=True)
        (extra / rel).write_text(text)
    sources += sorted(extra.rglob("*.java"))
    done = subprocess.run(["javac", "-nowarn", "-d", str(out), *map(str, sources)],
                          capture_output=True, text=True)
    if done.returncode:
        raise NQueensFafError(f"javac failed: {done.stderr.strip()[-500:]}")
    stamp.write_text(ours)
    return out


def count(classes: Path, n: int, threads: int,
          nice: int | None = None) -> tuple[float, float, int]:
    """(wall seconds of the timed count, CPU seconds, solutions) of NQueensFAF's CPU solver,
    in a fresh JVM; ``nice``: the scheduling priority of it and its session (the harness
    gives a sealed run's session ``RUN_NICE`` for its timed phase: a side-by-side run asks
    for the same, or a busy machine favours the sealed runs many times over)."""
    start = time.perf_counter()
    done = subprocess.run(["java", "-cp", str(classes), "PuzzlebenchFaf", str(n), str(threads)],
                          capture_output=True, text=True,
                          preexec_fn=None if nice is None else partial(_set_nice, nice))
    if done.returncode:
        raise NQueensFafError(f"NQueensFAF n={n} failed after {time.perf_counter() - start:.1f} s: "
                              f"{done.stderr.strip()[-300:]}")
    solutions, wall_ms, cpu_ms = done.stdout.split()
    return float(wall_ms) / 1000, float(cpu_ms) / 1000, int(solutions)


def _set_nice(value: int) -> None:
    """In the child before ``exec``, as the harness treats a sealed run: a session of its own
    and its priority, for the process (the JVM's threads inherit it) and, where the kernel
    groups sessions for scheduling (autogroup), for the session, whose weight is what the
    machine's other sessions compete with."""
    os.setsid()
    os.setpriority(os.PRIO_PROCESS, 0, value)
    with contextlib.suppress(OSError), open("/proc/self/autogroup", "w", encoding="ascii") as fh:
        fh.write(str(value))
