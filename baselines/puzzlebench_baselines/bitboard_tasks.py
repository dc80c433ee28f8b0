"""Run GIL-free bitboard counting tasks on every core, stopping at a wall-clock deadline.

Each thread takes the next task as soon as it is free (so uneven tasks balance themselves) and
no thread starts a task after the deadline. The result is ``None`` when any task was left
undone: a partial count is not a count.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_tasks(
    work: Callable[[T], R], tasks: Sequence[T], deadline: float = float("inf"),
    workers: int | None = None,
) -> list[R] | None:
    """``[work(t) for t in tasks]`` on up to ``workers`` threads (default: every core), or
    None when ``time.perf_counter()`` reached ``deadline`` before every task had started."""
    results: list[R | None] = [None] * len(tasks)
    errors: list[BaseException] = []
    lock = threading.Lock()
    state = {"next": 0, "stopped": False}

    def loop() -> None:
        while True:
            with lock:
                i = state["next"]
                if i >= len(tasks) or state["stopped"]:
                    return
                if time.perf_counter() >= deadline:
                    state["stopped"] = True
                    return
                state["next"] = i + 1
            try:
                results[i] = work(tasks[i])
            except BaseException as exc:  # re-raised in the calling thread
                with lock:
                    errors.append(exc)
                    state["stopped"] = True
                return

    count = max(1, min(workers or os.cpu_count() or 1, len(tasks)))
    threads = [threading.Thread(target=loop, daemon=True) for _ in range(count - 1)]
    for t in threads:
        t.start()
    loop()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    if state["stopped"]:
        return None
    return [r for r in results if r is not None]  # every task ran, so none is missing
