"""The queens-and-knights validator: every attack rule, malformed answers, facts."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebench.problems import InvalidAnswerError, InvalidInstanceError, get_problem

QK = get_problem("queens-knights")


def brute_pairs(pieces: list[tuple[str, int, int]]) -> int:
    total = 0
    for (k1, r1, c1), (k2, r2, c2) in itertools.combinations(pieces, 2):
        dr, dc = abs(r1 - r2), abs(c1 - c2)
        line = dr == 0 or dc == 0 or dr == dc
        knight = (dr, dc) in ((1, 2), (2, 1))
        bad = (dr == dc == 0) or (line and "Q" in (k1, k2)) or (knight and "N" in (k1, k2))
        total += bad
    return total


def test_rules() -> None:
    inst = QK.make(4, queens=1)
    ok = [("Q", 0, 0), ("N", 1, 2), ("N", 2, 1), ("N", 3, 3)]
    # (1,2) and (2,1) share an anti-diagonal with nothing that is a queen; knights (1,2)-(2,1)
    # are not a knight's move apart; the queen at (0,0) sees (3,3) on the diagonal, though.
    v = QK.validate(inst, ok)
    assert not v.valid and "queen at (0, 0)" in v.reason
    good = [("Q", 0, 1), ("N", 2, 0), ("N", 3, 0), ("N", 2, 3)]
    assert QK.conflicts(inst, good) == brute_pairs(good)
    assert QK.validate(inst, good).valid == (brute_pairs(good) == 0)


def test_knight_attack_and_same_square() -> None:
    inst = QK.make(3, queens=0)
    v = QK.validate(inst, [("N", 0, 0), ("N", 1, 2), ("N", 2, 2)])
    assert not v.valid and "knight" in v.reason
    v = QK.validate(inst, [("N", 0, 0), ("N", 0, 0), ("N", 2, 2)])
    assert not v.valid and "same square" in v.reason
    assert QK.validate(inst, [("N", 0, 0), ("N", 0, 1), ("N", 0, 2)]).valid


def test_malformed() -> None:
    inst = QK.make(3, queens=1)
    assert "expected 1 queens" in QK.validate(inst, [("N", 0, 0), ("N", 0, 1), ("N", 0, 2)]).reason
    assert "off the" in QK.validate(inst, [("Q", 0, 0), ("N", 0, 1), ("N", 5, 2)]).reason
    assert "kind" in QK.validate(inst, [("K", 0, 0), ("N", 0, 1), ("N", 0, 2)]).reason
    assert "expected 3 pieces" in QK.validate(inst, [("Q", 0, 0)]).reason
    with pytest.raises(InvalidAnswerError):
        QK.parse_answer(inst, "Q:0:0,N:0:x,N:1:1")
    assert QK.parse_answer(inst, "Q:0:0,N:2:1,N:2:2") == [("Q", 0, 0), ("N", 2, 1), ("N", 2, 2)]


def test_instances() -> None:
    with pytest.raises(InvalidInstanceError):
        QK.make(4, queens=5)
    with pytest.raises(InvalidInstanceError):
        QK.make(4, queens=-1)
    with pytest.raises(InvalidInstanceError):
        QK.make(4)
    assert QK.is_solvable(QK.make(8, queens=8)) is True
    assert QK.is_solvable(QK.make(3, queens=3)) is False
    assert QK.is_solvable(QK.make(9, queens=0)) is True
    assert QK.is_solvable(QK.make(9, queens=4)) is None
    assert QK.known_count(QK.make(8, queens=8)) == 92


@given(st.lists(st.tuples(st.sampled_from("QN"), st.integers(0, 5), st.integers(0, 5)),
                min_size=6, max_size=6))
@settings(max_examples=100, deadline=None)
def test_conflicts_match_brute_force(pieces: list[tuple[str, int, int]]) -> None:
    inst = QK.make(6, queens=sum(p[0] == "Q" for p in pieces))
    assert QK.conflicts(inst, pieces) == brute_pairs(pieces)
    assert QK.validate(inst, pieces).valid == (brute_pairs(pieces) == 0)
    assert QK.pieces_in_conflict(inst, pieces) <= 2 * QK.conflicts(inst, pieces)
