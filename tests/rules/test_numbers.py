"""Whole numbers typed: ASCII digits only, bounded in length."""

from __future__ import annotations

import pytest

from companion.rules.numbers import whole_number


@pytest.mark.parametrize("text, number", [("7", 7), (" 42 ", 42), ("007", 7), ("9" * 18, int("9" * 18))])
def test_ascii_digits_are_a_whole_number(text, number):
    assert whole_number(text) == number


@pytest.mark.parametrize(
    "text", ["²", "⑦", "٣", "１２", "-1", "+1", "1.5", "", " ", "9" * 19, "1e3", "\t7", None, 7, ["1"]]
)
def test_anything_else_is_none(text):
    assert whole_number(text) is None


def test_the_digits_allowed_are_the_callers():
    assert whole_number("123", most_digits=2) is None and whole_number("12", most_digits=2) == 12


def test_numbers_nested_anywhere_in_a_file_are_bounded():
    from companion.rules.numbers import LARGEST, within_bounds

    assert within_bounds({"rounds": [[3, 9], [-4, 2.5]], "lowest_wins": True, "name": "1" * 40})
    for huge in (10**30, -(10**30), LARGEST, float("nan"), float("inf"), 1e300):
        assert not within_bounds({"rounds": [[3, [huge]]]})
