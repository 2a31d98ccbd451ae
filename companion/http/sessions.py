"""The session of a page's request, whose reads a rendering can note: what a kept page depends on.

A table page is kept whole (companion/web/pagecache.py) by the session values its rendering
read: a Square Tactics phone's chosen seat, a Zamek member's name. While ``noting`` is on,
the session notes each key read and what it held; a rendering that writes to the session,
or reads all of it, is noted as not to be kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from flask.sessions import SecureCookieSession

MISSING = "\x1bmissing"  # what a key the session lacks held: no value's ``repr``


class SessionReads:
    """What a rendering read of the session: ``read``, each key and what it held (its ``repr``, or
    ``MISSING``), and ``unkept`` if it changed the session or read all of it."""

    def __init__(self):
        self.read: dict[str, str] = {}
        self.unkept = False


_noting: ContextVar[SessionReads | None] = ContextVar("castellan_session_reads", default=None)


@contextmanager
def noting() -> Iterator[SessionReads]:
    """Note this context's reads of the session (its own: nested renderings are not told apart)."""
    reads = SessionReads()
    token = _noting.set(reads)
    try:
        yield reads
    finally:
        _noting.reset(token)


class Session(SecureCookieSession):
    """Flask's signed cookie session, telling ``noting`` what is read of it."""

    def __init__(self, initial=None):
        super().__init__(initial)
        changed = self.on_update

        def on_update(session) -> None:
            _whole()
            changed(session)

        self.on_update = on_update

    def _note(self, key) -> None:
        reads = _noting.get()
        if reads is not None:
            reads.read[key] = repr(dict.__getitem__(self, key)) if dict.__contains__(self, key) else MISSING

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        """The value of ``key``, or ``default``: noted."""
        self._note(key)
        return super().get(key, default)

    def __contains__(self, key) -> bool:
        self._note(key)
        return super().__contains__(key)

    def setdefault(self, key, default=None):
        """The value of ``key``, set to ``default`` if missing (a change): noted."""
        self._note(key)
        return super().setdefault(key, default)

    def pop(self, key, *default):
        """The value of ``key``, removed (a change), or ``default`` if missing: noted."""
        self._note(key)
        return super().pop(key, *default)

    def __iter__(self):
        _whole()
        return super().__iter__()

    def __len__(self) -> int:
        _whole()
        return super().__len__()

    def keys(self):
        """Every key: the whole session read."""
        _whole()
        return super().keys()

    def values(self):
        """Every value: the whole session read."""
        _whole()
        return super().values()

    def items(self):
        """Every key and value: the whole session read."""
        _whole()
        return super().items()

    def copy(self):
        """A copy: the whole session read."""
        _whole()
        return super().copy()


def _whole() -> None:
    """The session was changed, or read whole: a rendering noting its reads is not to be kept."""
    reads = _noting.get()
    if reads is not None:
        reads.unkept = True
