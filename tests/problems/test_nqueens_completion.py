"""nqueens-completion: instances, the validator, the facts it knows and the generator."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from puzzlebench.problems import InvalidInstanceError, get_problem
from puzzlebench.problems.nqueens import A000170
from puzzlebench.problems.nqueens_completion import EXACT_UP_TO, PLACED_FRACTION, parse_placed

NQC = get_problem("nqueens-completion")


def brute_force(n: int, placed: tuple[tuple[int, int], ...]) -> int:
    """Completions by trying every permutation (independent of the module's search)."""
    total = 0
    for perm in itertools.permutations(range(n)):
        if all(perm[r] == c for r, c in placed) and \
                len({r + c for r, c in enumerate(perm)}) == n == len({r - c for r, c in enumerate(perm)}):
            total += 1
    return total


def test_placed_text_is_read_and_made_canonical() -> None:
    assert parse_placed("5:7, 0:3") == "0:3,5:7"
    assert parse_placed([[5, 7], [0, 3]]) == "0:3,5:7"
    inst = NQC.make(20, placed="5:7,0:3")
    assert inst.fixed == ((0, 3), (5, 7))
    assert inst.instance_id == "nqueens-completion-20-0:3,5:7"
    assert NQC.make(20, **NQC.options_of(inst)) == inst


@pytest.mark.parametrize(("placed", "message"), [
    ("0-3", "ROW:COL"), ("0:3,0:5", "row 0"), ("0:20", "off the 20×20 board"), ("x:1", "ROW:COL"),
    (3, "ROW:COL"),
])
def test_malformed_placements_are_refused(placed: object, message: str) -> None:
    with pytest.raises(InvalidInstanceError, match=message):
        NQC.make(20, placed=placed)


def test_missing_placement_and_unknown_option_are_refused() -> None:
    with pytest.raises(InvalidInstanceError, match="pre-placed"):
        NQC.make(8)
    with pytest.raises(InvalidInstanceError, match="options are 'placed'"):
        NQC.make(8, placed="0:0", queens=1)


def test_an_answer_must_keep_every_placed_queen() -> None:
    inst = NQC.make(8, placed="0:0,1:4")
    assert NQC.validate(inst, [0, 4, 7, 5, 2, 6, 1, 3])
    other = [3, 1, 6, 2, 5, 7, 4, 0]  # a valid 8-queens answer that moves both queens
    assert get_problem("nqueens").validate(get_problem("nqueens").make(8), other)
    verdict = NQC.validate(inst, other)
    assert not verdict and "placed at (row 0, col 0) was moved" in verdict.reason
    assert NQC.conflicts(inst, other) == 2
    assert not NQC.validate(inst, [0, 4, 7, 5, 2, 6, 3, 1])  # an attack is still an attack


@pytest.mark.parametrize("n", range(1, 8))
def test_known_counts_match_brute_force(n: int) -> None:
    rng = np.random.default_rng(n)
    for _ in range(4):
        k = int(rng.integers(0, min(n, 3) + 1))
        rows = sorted(rng.choice(n, size=k, replace=False).tolist())
        placed = tuple((r, int(rng.integers(n))) for r in rows)
        inst = NQC.make(n, placed=[list(p) for p in placed])
        truth = brute_force(n, placed)
        assert NQC.known_count(inst) == truth
        assert NQC.is_solvable(inst) is (truth > 0)


def test_counts_over_the_first_row_add_up_to_oeis() -> None:
    for n in range(4, EXACT_UP_TO + 1):
        per_column = [NQC.known_count(NQC.make(n, placed=f"0:{c}")) for c in range(n)]
        assert sum(c or 0 for c in per_column) == A000170[n]


def test_facts_beyond_the_enumerated_sizes() -> None:
    assert NQC.is_solvable(NQC.make(30, placed="0:0,1:1")) is False  # the rule: they attack
    assert NQC.known_count(NQC.make(30, placed="0:0,2:1")) is None
    assert NQC.is_solvable(NQC.make(30, placed="0:0,2:1")) is None  # no rule: unverified


def test_generator_is_seeded_and_places_non_attacking_queens() -> None:
    first = NQC.generate(24, 5, np.random.default_rng(7))
    again = NQC.generate(24, 5, np.random.default_rng(7))
    other = NQC.generate(24, 5, np.random.default_rng(8))
    assert first == again and first != other
    for inst in first:
        placed = inst.fixed
        assert len(placed) == round(PLACED_FRACTION * 24)
        for (r1, c1), (r2, c2) in itertools.combinations(placed, 2):
            assert r1 != r2 and c1 != c2 and abs(r1 - r2) != abs(c1 - c2)
        assert inst.instance_id.startswith("nqueens-completion-24-k")
        assert NQC.make(24, **NQC.options_of(inst)) == inst
