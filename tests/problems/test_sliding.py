"""The sliding puzzle: parsing, replay, the parity rule for any goal and shape."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebench.problems import InvalidAnswerError, InvalidInstanceError, get_problem
from puzzlebench.problems.sliding import SlidingInstance, apply_moves
from puzzlebench.problems.sliding_board import MOVES

SL = get_problem("sliding")


def test_replay_and_validate() -> None:
    inst = SL.make(8, start="123456708")
    assert SL.validate(inst, "R").valid
    assert not SL.validate(inst, "L").valid
    assert "off the board" in SL.validate(inst, "D").reason
    assert "moves are" in SL.validate(inst, "X").reason
    assert SL.conflicts(inst, "") == 1 and SL.conflicts(inst, "R") == 0
    assert SL.parse_answer(inst, "r") == "R"
    with pytest.raises(InvalidAnswerError):
        SL.parse_answer(inst, "RZ")


@pytest.mark.parametrize("start", ["12345678", "1234567800", "12345678a", "112345678", ""])
def test_malformed_states(start: str) -> None:
    with pytest.raises(InvalidInstanceError):
        SL.make(8, start=start)


def test_shapes_and_goals() -> None:
    inst = SL.make(15, start="1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15")
    assert (inst.rows, inst.cols) == (4, 4)
    assert SL.validate(inst, "R").valid
    with pytest.raises(InvalidInstanceError):
        SL.make(10, start="0123456789a")
    rect = SL.make(5, start="123405", shape="2x3")
    assert SL.validate(rect, "R").valid
    blank_first = SL.make(8, start="312045678", goal="012345678")
    assert SL.validate(blank_first, "U").valid


def reachable(inst: SlidingInstance) -> set[tuple[int, ...]]:
    seen = {inst.start}
    todo = deque([inst.start])
    while todo:
        s = todo.popleft()
        for m in MOVES:
            try:
                t = apply_moves(SlidingInstance(inst.rows, inst.cols, s, inst.goal), m)
            except InvalidAnswerError:
                continue
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 2)])
def test_parity_rule_matches_exhaustive_reachability(shape: tuple[int, int]) -> None:
    rows, cols = shape
    import itertools

    goal = tuple([*range(1, rows * cols), 0])
    base = SlidingInstance(rows, cols, goal, goal)
    reach = reachable(base)
    for perm in itertools.permutations(range(rows * cols)):
        inst = SlidingInstance(rows, cols, perm, goal)
        assert SL.is_solvable(inst) == (perm in reach)


@given(st.permutations(list(range(9))), st.permutations(list(range(9))))
@settings(max_examples=100, deadline=None)
def test_parity_rule_for_any_goal_is_symmetric(a: list[int], b: list[int]) -> None:
    ab = SlidingInstance(3, 3, tuple(a), tuple(b))
    ba = SlidingInstance(3, 3, tuple(b), tuple(a))
    assert SL.is_solvable(ab) == SL.is_solvable(ba)
