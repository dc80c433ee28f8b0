"""Benchmark: the independent queens validator on 10^6..10^7 queens (goal: well under 1 s).

    python benchmarks/validator_speed.py
"""

from __future__ import annotations

import time

import numpy as np

from puzzlebench.problems import get_problem


def main() -> None:
    nq = get_problem("nqueens")
    for n in (10**6, 10**7):
        m = n + 1 if n % 2 == 0 else n
        while np.gcd(m, 6) != 1:
            m += 1
        cols = (2 * np.arange(m, dtype=np.int64)) % m  # valid: 2r mod m with gcd(m, 6) = 1
        inst = nq.make(m)
        t0 = time.perf_counter()
        verdict = nq.validate(inst, cols)
        t1 = time.perf_counter()
        assert verdict.valid
        print(f"validate n={m:>9,}: {t1 - t0:.3f} s")


if __name__ == "__main__":
    main()
