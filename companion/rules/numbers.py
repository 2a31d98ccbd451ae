"""Whole numbers as a person types them: ASCII digits only, and never more of them than asked.

Python's ``str.isdigit`` says yes to ``²`` and ``⑦``, which ``int()`` then cannot read (a 500),
and ``int()`` reads ``٣`` and ``１２``, which no form of Castellan offers. Every number read from a
request, a setting or a file goes through ``whole_number``, so that each is read the same way.
"""

from __future__ import annotations

MOST_DIGITS = 18  # far beyond any count, id or score; a bigger number is a mistake, never a 10^26 to format


def whole_number(text: object, most_digits: int = MOST_DIGITS) -> int | None:
    """The whole number ``text`` writes in 1 to ``most_digits`` ASCII digits (spaces around it
    allowed), or None for anything else: a sign, another script's digits, a non-string."""
    if not isinstance(text, str):
        return None
    text = text.strip(" ")
    if not (0 < len(text) <= most_digits and text.isascii() and text.isdigit()):
        return None
    return int(text)


LARGEST = 2**53  # the largest whole number every JSON reader keeps exactly; no score comes near it


def within_bounds(value: object) -> bool:
    """Whether every number in ``value`` (a JSON value, however nested) is smaller than ``LARGEST``
    in size and finite: a page formats what a file brought, and ``10**30`` cannot be formatted."""
    waiting = [value]
    while waiting:
        item = waiting.pop()
        if isinstance(item, dict):
            waiting.extend(item.values())
        elif isinstance(item, list):
            waiting.extend(item)
        elif isinstance(item, int | float) and not isinstance(item, bool) and not abs(item) < LARGEST:
            return False  # NaN and the infinities are not smaller either
    return True
