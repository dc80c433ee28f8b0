"""The errors puzzlebench raises on purpose: the floor every other module's errors stand on."""

from __future__ import annotations


class PuzzlebenchError(Exception):
    """Base of every error puzzlebench raises on purpose (bad input, bad configuration)."""


class InvalidInstanceError(PuzzlebenchError, ValueError):
    """An instance could not be built: a size out of range, a malformed start state, ..."""


class InvalidAnswerError(PuzzlebenchError, ValueError):
    """An answer is malformed (wrong type, wrong length, out of range) and cannot be judged."""
