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


class Encoder:
    """Writes states as JSON text, reusing the text of the lists and dicts it wrote in its last
    ``kept`` writes."""

    def __init__(self, kept: int):
        self.kept, self.lock = kept, threading.Lock()
        self.known: dict[int, tuple[object, str, int]] = {}  # id -> (the list or dict, its text, its write)
        self.runs: dict[tuple, tuple[list, str, int]] = {}  # the ids of a run of items -> (them, their text, write)
        self.writes = 0

    def dumps(self, value: object) -> str:
        """The JSON text of ``value``."""
        with self.lock:
            self.writes += 1
            text = self._text(value)
            if len(self.known) + len(self.runs) > 1000 * self.kept:  # forget what the last ``kept`` writes did not meet
                oldest = self.writes - self.kept
                self.known = {key: known for key, known in self.known.items() if known[2] > oldest}
                self.runs = {key: known for key, known in self.runs.items() if known[2] > oldest}
            return text

    def _text(self, value: object) -> str:
        known = self.known.get(id(value))
        if known is not None and known[0] is value:
            text = known[1]  # kept again below, as met by this write
        elif type(value) is dict and any(type(item) in _CONTAINERS for item in value.values()):
            if not all(type(name) is str for name in value):
                raise TypeError("a state's keys are strings")
            text = "{" + ",".join([f"{_whole(name)}:{self._text(value[name])}" for name in sorted(value)]) + "}"
        elif type(value) is list and value and type(value[0]) in _CONTAINERS:  # a list of lists or dicts
            text = "[" + ",".join([self._run(value[start:start + RUN]) for start in range(0, len(value), RUN)]) + "]"
        else:
            text = _whole(value)  # a number, a string, or a list or dict of them: written whole
            if type(value) not in _CONTAINERS:
                return text
        self.known[id(value)] = (value, text, self.writes)
        return text

    def _run(self, items: list) -> str:
        """The text of up to ``RUN`` items of a list, kept by the items' identities: a list that
        grows at its end (a log of rounds, of shots) reuses the text of its full runs."""
        key = tuple(map(id, items))
        known = self.runs.get(key)
        if known is not None and all(map(is_, known[0], items)):
            self.runs[key] = (known[0], known[1], self.writes)
            return known[1]
        text = ",".join([self._text(item) for item in items])
        if len(items) == RUN:
            self.runs[key] = (items, text, self.writes)
        return text
