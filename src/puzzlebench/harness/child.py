"""``python -m puzzlebench.harness.child WORKERS``: run one RunSpec (JSON on stdin) under its
hard limits and print the record as one JSON line. Exit status 3 means the hard wall-clock
limit fired (SIGALRM), anything else non-zero a crash."""

from __future__ import annotations

import json
import os
import signal
import sys

from puzzlebench.harness.outcome import _json_default
from puzzlebench.harness.study import RunSpec
from puzzlebench.harness.supervisor import apply_memory_limit, execute_spec
from puzzlebench.registry import REGISTRY


def main() -> None:
    spec = RunSpec.from_json(sys.stdin.read())
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    REGISTRY.discover()
    apply_memory_limit(spec.memory_limit_mb)

    def alarm(*_: object) -> None:
        os._exit(3)

    signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, spec.hard_limit)
    record = execute_spec(spec, workers)
    signal.setitimer(signal.ITIMER_REAL, 0)
    sys.stdout.write(json.dumps(record.to_dict(), default=_json_default) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
