"""An external puzzlebench solver as a plain script (no puzzlebench import): min-conflicts.

Reads the request (one JSON object) on stdin, writes the result as the last line of stdout.
"""

import json
import random
import sys
import time


def conflicts(cols, row, col, n, torus):
    hits = 0
    for r, c in enumerate(cols):
        if r == row:
            continue
        dr, dc = r - row, c - col
        if torus:
            same = c == col or (dr - dc) % n == 0 or (dr + dc) % n == 0
        else:
            same = c == col or abs(dr) == abs(dc)
        hits += same
    return hits


def main():
    request = json.load(sys.stdin)
    n, torus = request["size"], request["problem"] == "torus-queens"
    budget = request["budget"]
    limit = budget.get("time_limit") or float("inf")
    max_steps = request["params"].get("max_steps", 100_000)
    if budget.get("max_iterations") is not None:
        max_steps = min(max_steps, budget["max_iterations"])
    rng = random.Random(request["seed"])
    start = time.monotonic()
    cols = [rng.randrange(n) for _ in range(n)]
    print(f"python-min-conflicts: n={n}", file=sys.stderr)
    def out_of_time(i):  # looked at every 64 queens: one look at all of them is O(n²)
        return i % 64 == 0 and time.monotonic() - start > limit

    step = -1
    for step in range(max_steps):
        if step and step % (20 * n) == 0:  # stuck in a local minimum: restart
            cols = [rng.randrange(n) for _ in range(n)]
        bad = []
        for r in range(n):
            if out_of_time(r):
                break
            if conflicts(cols, r, cols[r], n, torus):
                bad.append(r)
        else:
            if not bad:
                print(json.dumps({"claim": "solved", "answer": cols,
                                  "counters": {"iterations": step}}))
                return
        if time.monotonic() - start > limit:
            break
        row = rng.choice(bad)
        scores = []
        for c in range(n):
            if out_of_time(c):
                break
            scores.append(conflicts(cols, row, c, n, torus))
        else:
            best = min(scores)
            cols[row] = rng.choice([c for c, s in enumerate(scores) if s == best])
            continue
        break
    print(json.dumps({"claim": "unknown", "counters": {"iterations": step + 1}}))


if __name__ == "__main__":
    main()
