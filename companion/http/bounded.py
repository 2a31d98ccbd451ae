"""The one policy of Castellan's caches: at most a given number of entries, the least recently used
forgotten first.

``functools.lru_cache`` is that policy for a function whose arguments are its key. ``Bounded`` is
the same policy for a cache the caller fills itself: when the key is not everything the value is
made from (a piece drawn by a macro that is passed in, not part of the key), or when the value is
noted, not made (a table's game, seen when the table was opened). It lives in the lowest layer that
needs it (``http.security``'s checked CSRF pairs); the rules use ``functools`` only.
"""

from __future__ import annotations

from collections import OrderedDict


class Bounded(OrderedDict):
    """A mapping of at most ``size`` entries: ``get`` marks an entry used, ``put`` forgets the least
    recently used past ``size``. Shared by a worker's threads: each step is one of OrderedDict's
    own (atomic under the GIL), and an entry another thread forgot in between is only a miss."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def get(self, key, default=None):
        """The value kept for ``key`` (now the most recently used), or ``default``."""
        try:
            value = self[key]
            self.move_to_end(key)
        except KeyError:
            return default
        return value

    def put(self, key, value):
        """Keep ``value`` for ``key`` (nothing when ``size`` is 0), and give it back."""
        if self.size:
            self.pop(key, None)  # a key put again is the most recently used
            self[key] = value
            while len(self) > self.size:
                try:
                    self.popitem(last=False)
                except KeyError:  # emptied by another thread meanwhile
                    break
        return value
