"""One size-list grammar for the command line and study files."""

from __future__ import annotations

import re

import pytest

from puzzlebench.cli.options import CliInputError, parse_sizes
from puzzlebench.harness.campaign.design.study import StudyError
from puzzlebench.harness.campaign.design.study_file import parse_sizes as study_sizes
from puzzlebench.problems.size_lists import SizeListError, parse_integer, parse_size_list


@pytest.mark.parametrize(("text", "sizes"), [
    ("8", [8]), ("4..6", [4, 5, 6]), ("6,4,4", [4, 6]), ("4..5,10**3", [4, 5, 1000]),
    ("1e6", [10**6]), ("1_000", [1000]), (" 4 , 5 ", [4, 5]),
])
def test_cli_and_study_files_read_sizes_alike(text: str, sizes: list[int]) -> None:
    assert parse_sizes(text) == study_sizes(text, "s") == parse_size_list(text) == sizes


@pytest.mark.parametrize(("text", "message"), [
    ("0", "sizes must be at least 1, got 0"), ("6..4", "size range '6..4' is empty"),
    ("x", "size must be an integer, got 'x'"), ("", "no sizes in ''"),
    ("1..20000", "size range '1..20000' has 20000 values; at most 10000"),
    ("10**19", "size is too large"),
])
def test_the_same_message_from_both_callers(text: str, message: str) -> None:
    with pytest.raises(CliInputError, match="^" + re.escape(message)):
        parse_sizes(text)
    with pytest.raises(StudyError, match="^where: " + re.escape(message)):
        study_sizes(text, "where")


def test_lists_ints_and_counts() -> None:
    assert parse_size_list([8, 4, 8]) == [4, 8] and parse_size_list(12) == [12]
    assert parse_size_list("0..2", minimum=0, what="value") == [0, 1, 2]
    for bad in (True, [1, "2"], 2.5, None):
        with pytest.raises(SizeListError):
            parse_size_list(bad)
    assert parse_integer("10**6") == 10**6
