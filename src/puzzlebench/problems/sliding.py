"""The sliding-tile puzzle on a rows × cols board (3×3 = 8-puzzle, 4×4 = 15-puzzle, 5×5 =
24-puzzle: Korf's 100 as ``korf:N``, Korf & Felner's 50 24-puzzles as ``korf24:N``).

States are tuples in row-major order with 0 for the blank. An answer is a string of blank
moves: ``U`` moves the blank up one row, ``D`` down, ``L`` left, ``R`` right.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from puzzlebench.problems.base import (
    ConformanceCases,
    Instance,
    InvalidAnswerError,
    InvalidInstanceError,
    Problem,
    Verdict,
)
from puzzlebench.problems.korf_instances import KORF24_GOAL, KORF_GOAL, published_optimum
from puzzlebench.problems.options import ProblemOption, text
from puzzlebench.problems.sliding_board import (
    MOVES,
    board_shape,
    default_goal,
    korf24_start,
    korf_start,
    parse_shape,
    parse_state,
    permutation_parity,
)


@dataclass(frozen=True, slots=True)
class SlidingInstance(Instance):
    """A start and a goal state on a rows × cols board."""

    rows: int
    cols: int
    start: tuple[int, ...]
    goal: tuple[int, ...] = field(default=())
    problem: ClassVar[str] = "sliding"

    def __post_init__(self) -> None:
        for name, v in (("rows", self.rows), ("cols", self.cols)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise InvalidInstanceError(f"{name} must be a positive integer, got {v!r}")
        if self.rows * self.cols < 2:
            raise InvalidInstanceError("a sliding board needs at least two cells")
        cells = self.rows * self.cols
        object.__setattr__(self, "start", tuple(self.start))
        object.__setattr__(self, "goal", tuple(self.goal) or default_goal(self.rows, self.cols))
        for name, s in (("start", self.start), ("goal", self.goal)):
            if len(s) != cells:
                raise InvalidInstanceError(f"{name} state has {len(s)} cells, the board has {cells}")
            if sorted(s) != list(range(cells)):
                raise InvalidInstanceError(
                    f"{name} state must hold each of 0..{cells - 1} exactly once (0 is the blank)"
                )

    @property
    def size(self) -> int:
        return self.rows * self.cols - 1

    @property
    def instance_id(self) -> str:
        def enc(s: tuple[int, ...]) -> str:
            return "".join(map(str, s)) if self.size < 10 else ",".join(map(str, s))

        return f"{self.problem}-{self.rows}x{self.cols}-{enc(self.start)}-{enc(self.goal)}"

    def describe(self) -> dict[str, Any]:
        return {"rows": self.rows, "cols": self.cols, "start": list(self.start),
                "goal": list(self.goal)}


def apply_moves(instance: SlidingInstance, moves: str) -> tuple[int, ...]:
    """Replay blank moves from the start; raises InvalidAnswerError on a move off the board."""
    state = list(instance.start)
    blank = state.index(0)
    rows, cols = instance.rows, instance.cols
    for i, m in enumerate(moves):
        if m not in MOVES:
            raise InvalidAnswerError(f"move {i} is {m!r}; moves are U, D, L, R")
        dr, dc = MOVES[m]
        r, c = divmod(blank, cols)
        nr, nc = r + dr, c + dc
        if not (0 <= nr < rows and 0 <= nc < cols):
            raise InvalidAnswerError(
                f"move {i} ({m}) takes the blank off the board from row {r}, column {c}"
            )
        target = nr * cols + nc
        state[blank], state[target] = state[target], 0
        blank = target
    return tuple(state)


class Sliding(Problem):
    """Facts: the parity rule decides solvability for any goal and board; optimal lengths
    for every 3×3 instance come from the exact BFS table (sliding_distances)."""

    id: ClassVar[str] = "sliding"
    summary: ClassVar[str] = "rows×cols sliding-tile puzzle; answers are blank moves UDLR"
    ioh_function: ClassVar[int | None] = 3
    objective: ClassVar[str | None] = "answer_length"
    options: ClassVar[tuple[ProblemOption, ...]] = (
        ProblemOption("start", "sliding: start state, e.g. 125408367, korf:1 or korf24:1 "
                      "(compare: several, ';'-separated)", text, study_key="starts",
                      many=True, separator=";", required=True),
        ProblemOption("goal", "sliding: goal state (default: blank last)", text),
        ProblemOption("shape", "sliding: board ROWSxCOLS (default: square)", text),
    )
    agree_sizes: ClassVar[str] = "8"

    def make(self, size: int, **options: Any) -> SlidingInstance:
        unknown = set(options) - {"start", "goal", "shape"}
        if unknown:
            raise InvalidInstanceError(
                f"{self.id} options are start, goal, shape; got {sorted(unknown)}"
            )
        shape = options.get("shape")
        if shape is not None:
            rows, cols = parse_shape(shape)
            if rows * cols - 1 != size:
                raise InvalidInstanceError(f"a {rows}x{cols} board holds {rows * cols - 1} tiles, not {size}")
        else:
            if isinstance(size, bool) or not isinstance(size, int) or size < 1:
                raise InvalidInstanceError(f"sliding size must be a positive integer, got {size!r}")
            rows, cols = board_shape(size)
        start = options.get("start")
        if start is None:
            raise InvalidInstanceError("a sliding instance needs a start state (--start)")
        goal = options.get("goal")
        if isinstance(start, str) and start.strip().lower().startswith("korf24"):
            if (rows, cols) != (5, 5):
                raise InvalidInstanceError(
                    f"Korf & Felner's instances are 24-puzzles (5x5), not {rows}x{cols}")
            start, goal = korf24_start(start), goal or KORF24_GOAL
        elif isinstance(start, str) and start.strip().lower().startswith("korf"):
            if (rows, cols) != (4, 4):
                raise InvalidInstanceError(f"Korf's instances are 15-puzzles (4x4), not {rows}x{cols}")
            start, goal = korf_start(start), goal or KORF_GOAL
        cells = rows * cols
        start_t = parse_state(start, cells) if isinstance(start, str) else tuple(start)
        goal_t = (parse_state(goal, cells) if isinstance(goal, str) else tuple(goal)) if goal else ()
        return SlidingInstance(rows, cols, start_t, goal_t)

    def from_description(self, description: Mapping[str, Any]) -> SlidingInstance:
        """The instance ``describe`` gave ``description`` (rows, cols, start, goal)."""
        return SlidingInstance(int(description["rows"]), int(description["cols"]),
                               tuple(description["start"]), tuple(description["goal"]))

    def default_sizes(self, entry: Mapping[str, Any], purpose: str = "compare") -> str:
        """The starts' own sizes (tile counts) when starts are given."""
        starts = entry.get("starts")
        if not starts:
            return super().default_sizes(entry, purpose)
        cells = {25 if s.lower().startswith("korf24") else 16 if s.lower().startswith("korf")
                 else len(s.split(",")) if "," in s
                 else len(s) for s in starts}
        return ",".join(str(c - 1) for c in sorted(cells))

    def agreement_instances(self, size: int, entry: Mapping[str, Any]) -> list[Instance]:
        """Three fixed scrambles of the default goal (seeded random walks of 12, 20 and 28
        blank moves), the same on every machine; given ``starts`` replace them."""
        if entry.get("starts"):
            return super().agreement_instances(size, entry)
        rows, cols = board_shape(size)
        goal = SlidingInstance(rows, cols, default_goal(rows, cols), ())
        rng = random.Random(size)  # a local generator: no global random state
        out: list[Instance] = []
        for length in (12, 20, 28):
            moves = ""
            state = goal
            while len(moves) < length:
                m = rng.choice("UDLR")
                try:
                    state = SlidingInstance(rows, cols, apply_moves(state, m), ())
                except InvalidAnswerError:
                    continue
                moves += m
            out.append(self.make(size, start=state.start))
        return out

    def warmup_instance(self) -> SlidingInstance:
        return self.make(8, start="125408367")

    def conformance_cases(self) -> ConformanceCases:
        # Korf's 15-puzzle instance 1 (57 moves optimal; his goal puts the blank first).
        korf1 = self.make(15, start="14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3",
                          goal=",".join(str(t) for t in range(16)))
        return ConformanceCases(
            solvable=[self.make(8, start=s) for s in ("123456708", "125408367", "102643785")],
            infeasible=[self.make(8, start="123456870")],
            hard=korf1, capped=korf1, reproducible=self.make(8, start="125408367"),
        )

    def warmup_like(self, instance: SlidingInstance) -> SlidingInstance:
        """The run's board and goal, started two blank moves from the goal: what a solver's
        tables depend on (the goal), never the run's own start."""
        goal = SlidingInstance(instance.rows, instance.cols, instance.goal, instance.goal)
        for first in "UDLR":
            for second in "UDLR":
                try:
                    start = apply_moves(goal, first + second)
                except InvalidAnswerError:
                    continue
                if start not in (instance.goal, instance.start):
                    return SlidingInstance(instance.rows, instance.cols, start, instance.goal)
        return goal

    def validate(self, instance: SlidingInstance, answer: Any) -> Verdict:
        if not isinstance(answer, str):
            return Verdict(False, "a sliding answer is a string of moves U, D, L, R")
        try:
            end = apply_moves(instance, answer)
        except InvalidAnswerError as exc:
            return Verdict(False, str(exc))
        if end != instance.goal:
            misplaced = sum(1 for a, b in zip(end, instance.goal, strict=True) if a != b and a)
            return Verdict(False, f"after {len(answer)} moves {misplaced} tiles are not at their goal")
        return Verdict(True)

    def conflicts(self, instance: SlidingInstance, answer: Any) -> int:
        """Manhattan distance to the goal of the state the moves reach."""
        end = apply_moves(instance, str(answer))
        where = {t: divmod(i, instance.cols) for i, t in enumerate(instance.goal)}
        total = 0
        for i, t in enumerate(end):
            if t:
                r, c = divmod(i, instance.cols)
                gr, gc = where[t]
                total += abs(r - gr) + abs(c - gc)
        return total

    def parse_answer(self, instance: SlidingInstance, text: str) -> str:
        moves = text.strip().upper().replace(",", "").replace(" ", "")
        bad = [m for m in moves if m not in MOVES]
        if bad:
            raise InvalidAnswerError(f"moves are U, D, L, R; got {bad[0]!r}")
        return moves

    def answer_to_json(self, answer: Any) -> str:
        """The moves as they are: a sliding answer is text (nothing else is turned into text,
        so an object cannot pass for moves by what it prints)."""
        if not isinstance(answer, str):
            raise InvalidAnswerError(f"a sliding answer is a string of moves, not "
                                     f"{type(answer).__name__}")
        return answer

    def answer_from_json(self, data: Any) -> str:
        return str(data)

    def is_solvable(self, instance: SlidingInstance) -> bool:
        """Parity of the start→goal permutation (blank included) equals the parity of the
        blank's taxicab distance; holds for every board shape and goal."""
        pos_in_goal = {t: i for i, t in enumerate(instance.goal)}
        perm = [pos_in_goal[t] for t in instance.start]
        b0, b1 = instance.start.index(0), instance.goal.index(0)
        dist = abs(b0 // instance.cols - b1 // instance.cols) + abs(
            b0 % instance.cols - b1 % instance.cols
        )
        if instance.rows == 1 or instance.cols == 1:
            # A single line only slides the blank: the tiles' order never changes.
            tiles = [t for t in instance.start if t]
            return tiles == [t for t in instance.goal if t]
        return permutation_parity(perm) == dist % 2

    def known_optimum(self, instance: SlidingInstance) -> int | None:
        """Exact for 3×3 boards (the BFS table), for Korf's 100 15-puzzles and Korf & Felner's 50
        24-puzzles (the published lengths); unknown elsewhere."""
        if (instance.rows, instance.cols) == (3, 3):
            # imported on use: the 8-puzzle's distance table loads only when an optimum is asked for
            from puzzlebench.problems.sliding_distances import optimal_length

            return optimal_length(instance.start, instance.goal)
        if (instance.rows, instance.cols) in ((4, 4), (5, 5)):
            return published_optimum(instance.start, instance.goal)
        return None

    def answer_text(self, data: Any) -> tuple[str, list[str]]:
        moves = str(data)
        return f"moves={len(moves)}", [f"moves: {moves or '(none: the start is the goal)'}"]

    def render(self, instance: SlidingInstance, answer: Any) -> str:
        end = apply_moves(instance, str(answer))
        width = len(str(instance.size))
        lines = []
        for r in range(instance.rows):
            row = end[r * instance.cols : (r + 1) * instance.cols]
            lines.append(" ".join(str(t).rjust(width) if t else " " * width for t in row))
        return "\n".join(lines)


