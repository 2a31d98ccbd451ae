"""JSON text of table states that costs what changed, not what the state holds.

A rules module's ``apply`` returns a new state that shares with the state it was given
every part the action did not change (the rounds before, the shots fired, the cards dealt),
and never changes a state it was given. So the text of a part met before is the text it
had then: ``Encoder`` keeps the text of the lists and dicts it wrote (holding each one, so
that no other object takes its identity) and writes only the new ones. The text is what
``json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)`` writes.
"""

from __future__ import annotations

import json
import threading
from operator import is_

_whole = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode
_CONTAINERS = (dict, list)
RUN = 32  # a long list's items are written in runs of this many, each run's text kept whole
STARTS = 3  # lists kept by their first item (see Encoder._items)
CHARS = 8_000_000  # the most text an Encoder holds before it forgets early


def same_items(start: list, value: list, count: int) -> bool:
    """Whether the first ``count`` items of two lists are the same objects (``value`` holds at
    least ``count``): 36 us for 1,000 items, against the 300 us of writing a score pad of 1,000
    rounds afresh."""
    return all(map(is_, start[:count], value))


_NAMES: dict[
    str, str
] = {}  # a key's text: a state's dicts use the same few hundred keys (cells, players) again and again
NAMES_MAX = 4096


def _name(name: str) -> str:
    """The JSON text of a dict's key, kept in ``_NAMES`` (emptied when it holds ``NAMES_MAX``)."""
    if len(_NAMES) >= NAMES_MAX:
        _NAMES.clear()
    text = _NAMES[name] = _whole(name)
    return text


class Encoder:
    """Writes states as JSON text, reusing the text of the lists and dicts it wrote in its last
    ``kept`` writes.

    What it holds is bounded: every ``kept`` writes (or sooner, once the texts it holds pass
    ``CHARS`` characters) it forgets what the last ``kept`` writes did not meet, and if that is
    still too much, everything. A state's own text (new at every move) is never kept.
    """

    def __init__(self, kept: int):
        self.kept, self.lock = kept, threading.Lock()
        self.known: dict[int, tuple[object, str, int]] = {}  # id -> (the list or dict, its text, its write)
        self.runs: dict[
            tuple, tuple[list, str, int]
        ] = {}  # the ids of a run of items -> (them, their text, write)
        self.starts: dict[
            int, list[tuple[list, str, int]]
        ] = {}  # a list's first item's id -> [(the list, its items' text, write)]
        self.writes = self.chars = 0

    def dumps(self, value: object) -> str:
        """The JSON text of ``value``."""
        with self.lock:
            self.writes += 1
            text = self._text(value, keep=False)
            if self.writes % self.kept == 0 or self.chars > CHARS:
                self._forget()
            return text

    def _forget(self) -> None:
        """Forget what the last ``kept`` writes did not meet (everything, if the rest is too long)."""
        oldest = self.writes - self.kept
        self.known = {key: known for key, known in self.known.items() if known[2] > oldest}
        self.runs = {key: known for key, known in self.runs.items() if known[2] > oldest}
        self.starts = {
            key: kept
            for key, kept in (
                (key, [start for start in starts if start[2] > oldest]) for key, starts in self.starts.items()
            )
            if kept
        }
        self.chars = sum(len(known[1]) for kept in (self.known, self.runs) for known in kept.values())
        self.chars += sum(len(start[1]) for starts in self.starts.values() for start in starts)
        if self.chars > CHARS // 2:
            self.known, self.runs, self.starts, self.chars = {}, {}, {}, 0

    def _text(self, value: object, keep: bool = True) -> str:
        known = self.known.get(id(value))
        if known is not None and known[0] is value:
            self.known[id(value)] = (value, known[1], self.writes)  # met by this write
            return known[1]
        if type(value) is dict and any(type(item) in _CONTAINERS for item in value.values()):
            if not all(type(name) is str for name in value):
                raise TypeError("a state's keys are strings")
            text = (
                "{"
                + ",".join(
                    [f"{_NAMES.get(name) or _name(name)}:{self._text(value[name])}" for name in sorted(value)]
                )
                + "}"
            )
        elif type(value) is list and value and type(value[0]) in _CONTAINERS:  # a list of lists or dicts
            text = "[" + self._items(value) + "]"
        else:
            text = _whole(value)  # a number, a string, or a list or dict of them: written whole
            if type(value) not in _CONTAINERS:
                return text
        if keep:
            self.known[id(value)] = (value, text, self.writes)
            self.chars += len(text)
        return text

    def _items(self, value: list) -> str:
        """The text of a list's items. A list that begins with every item of a list written before
        (the same objects: a log of rounds, of shots, one longer) reuses that list's text whole and
        writes only the new items; else its items are written in runs of ``RUN``. The last
        ``STARTS`` lists written with the same first item (one of each length) are tried, longest
        first: a move after an undo extends the list before the undone move, not the undone move's."""
        starts = self.starts.get(id(value[0]), [])
        for start, start_text, _write in sorted(starts, key=lambda start: -len(start[0])):
            known = len(start)
            if known <= len(value) and start[-1] is value[known - 1] and same_items(start, value, known):
                text = start_text + "".join(["," + self._text(item) for item in value[known:]])
                break
        else:
            start = None
            text = ",".join([self._run(value[first : first + RUN]) for first in range(0, len(value), RUN)])
        # The newest first, one a length, the one met again as new: the list before an undone
        # move stays while moves are undone and made again.
        kept = [(value, text, self.writes)] + [
            (known[0], known[1], self.writes) if known[0] is start else known
            for known in starts
            if len(known[0]) != len(value)
        ]
        self.starts[id(value[0])] = kept[:STARTS]
        self.chars += len(text)
        return text

    def _run(self, items: list) -> str:
        """The text of up to ``RUN`` items of a list, kept by the items' identities: a list that
        grows at its end (a log of rounds, of shots) reuses the text of its full runs."""
        key = tuple(map(id, items))
        known = self.runs.get(key)
        if known is not None and all(map(is_, known[0], items)):
            self.runs[key] = (known[0], known[1], self.writes)
            return known[1]
        if len(items) == RUN and not any([id(item) in self.known for item in items]):
            text = _whole(items)[
                1:-1
            ]  # a whole run, all new (a state decoded afresh): as fast as json.dumps, kept as a run
        else:  # item by item, each one's text kept: a short run is a list's end, which the next write may extend
            text = ",".join([self._text(item) for item in items])
        if len(items) == RUN:
            self.runs[key] = (items, text, self.writes)
            self.chars += len(text)
        return text
