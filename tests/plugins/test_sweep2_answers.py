"""Second adversarial sweep, §3: the answer's type is part of the contract.

An nqueens answer given as digit strings, bytes, booleans or a one-shot iterator (a generator,
``iter(list)``) was judged ``solved``: the run's process turned it into ints on its way to the
judge. Such answers are ``wrong`` (or a ``crash``, "malformed proposal", when they are not
even data), for every queens family, queens-knights and sliding alike.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from puzzlebench.cli import main
from puzzlebench.problems import get_problem

PLUGINS = str(Path(__file__).with_name("sweep2.py"))


def ref(name: str) -> str:
    return f"{PLUGINS}:{name}"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, out + err
    return code, out, err


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# -- the answer's type ------------------------------------------------------------------------

@pytest.mark.parametrize("plugin", ["DigitStrings", "GeneratorAnswer", "IteratorAnswer",
                                    "BytesAnswer", "BoolAnswer"])
def test_an_answer_of_the_wrong_type_is_never_solved(capsys, plugin: str) -> None:
    code, out, _ = cli(capsys, "solve", "nqueens", "8", "--solver", ref(plugin), "--json")
    row = json_lines(out)[0]
    assert code == 1 and row["outcome"] in ("wrong", "crash"), row
    if row["outcome"] == "crash":
        assert "malformed" in row["error"], row
    assert json.dumps(row["answer"]) != json.dumps([0, 4, 7, 5, 2, 6, 1, 3])


def test_the_validator_refuses_text_and_iterators() -> None:
    nq = get_problem("nqueens")
    inst = nq.make(8)
    board = [0, 4, 7, 5, 2, 6, 1, 3]
    assert nq.validate(inst, board) and nq.validate(inst, tuple(board))
    for bad in ([str(c) for c in board], iter(board), (c for c in board), map(int, board),
                bytes(board), [True, *board[1:]], "04752613"):
        assert not nq.validate(inst, bad), bad
    with pytest.raises(ValueError):
        nq.answer_to_json([str(c) for c in board])
    gen = (c for c in board)
    with pytest.raises(ValueError):
        nq.answer_to_json(gen)
    assert next(gen) == 0  # refused without being consumed
    qk = get_problem("queens-knights")
    with pytest.raises(ValueError):
        qk.answer_to_json([("Q", "0", "1")])
    with pytest.raises(ValueError):
        qk.answer_to_json(iter([("Q", 0, 1)]))
    sl = get_problem("sliding")
    with pytest.raises(ValueError):
        sl.answer_to_json(["R", "D"])
