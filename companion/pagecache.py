"""Rendered table pages and live fragments kept whole, with their per-response tokens put in afterwards.

Every phone at a table fetches the same fragment after each move, and a table page is the
same from one view to the next until the table changes: rendering it (2 to 5 ms) was nearly
all of its cost. ``PageCache`` keeps the rendered text by everything it depends on (the
caller's key: the table and its version, page or fragment, the link, the language, the
address it was asked at...) and by the session values the rendering read, which it records
(``reading``): a Square Tactics phone's chosen seat, a Zamek member's name. Everything else
a rendering needs per response is a placeholder while it is kept:

- the session's CSRF token (``csrf_token()``), the same in every form of one session;
- each move form's idempotency key (``new_token()``), fresh for each form of each response,
  so that one form sent twice acts once and two forms never share a key.

``fill`` puts them in. The placeholders carry a random word made per process, which no
player's text can know. One cache per app (``for_app``), per process: several workers each
keep their own, which is correct because every key names the table's version. It holds at
most ``PAGE_CACHE_ENTRIES`` renderings and ``PAGE_CACHE_CHARS`` characters (app config),
dropping the least recently used first; ``PAGE_CACHE_ENTRIES = 0`` turns it off.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from contextlib import contextmanager, suppress
from contextvars import ContextVar

from flask import Flask
from flask.globals import _cv_request

ENTRIES = 2048
CHARS = 64_000_000  # a Square Tactics referee's page is about 80,000 characters
VARIANTS = 16  # renderings kept of one key, told apart by the session values they read

_WORD = secrets.token_hex(8)
CSRF_SLOT = f"\x1bcsrf-{_WORD}\x1b"  # \x1b: escaped by nothing, typed by no one, in no template
KEY_SLOT = f"\x1bkey-{_WORD}\x1b"
_SLOTS = re.compile(f"({re.escape(CSRF_SLOT)}|{re.escape(KEY_SLOT)})")
_drawing: ContextVar[bool] = ContextVar("castellan_drawing_for_cache", default=False)


def placeholders() -> bool:
    """True while a rendering is being drawn to be kept: the tokens are placeholders then."""
    return _drawing.get()


def template_token(new_token: Callable[[], str]) -> Callable[[], str]:
    """``new_token`` for templates: a fresh key, or its placeholder while drawing to keep."""

    def token() -> str:
        return KEY_SLOT if _drawing.get() else new_token()

    return token


_MISSING = "\x1bmissing"


class _ReadSession:
    """The request's session, noting each key a rendering reads and what it held; a rendering
    that writes to the session, or reads all of it, is not kept."""

    def __init__(self, session):
        self._session = session
        self.read: dict[str, str] = {}
        self.unkept = False

    def _note(self, key):
        self.read[key] = _seen(self._session, key)

    def get(self, key, default=None):
        self._note(key)
        return self._session.get(key, default)

    def __getitem__(self, key):
        self._note(key)
        return self._session[key]

    def __contains__(self, key):
        self._note(key)
        return key in self._session

    def __setitem__(self, key, value):
        self.unkept = True
        self._session[key] = value

    def __delitem__(self, key):
        self.unkept = True
        del self._session[key]

    def __iter__(self):
        self.unkept = True
        return iter(self._session)

    def __len__(self):
        self.unkept = True
        return len(self._session)

    def __getattr__(self, name):  # keys(), items(), setdefault(), pop(), modified...: not kept
        self.unkept = True
        return getattr(self._session, name)


def _seen(session, key) -> str:
    """What a session held under ``key``, as text to compare (the same text, the same value)."""
    return repr(session[key]) if key in session else _MISSING


class PageCache:
    """Renderings by key and by the session values they read, least recently used dropped first."""

    def __init__(self, entries: int = ENTRIES, chars: int = CHARS):
        self.entries, self.chars = entries, chars
        self._kept: OrderedDict = OrderedDict()  # key -> [(session values read, parts, characters)]
        self._count = 0
        self._size = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._count

    @property
    def size(self) -> int:
        """Characters kept."""
        return self._size

    def get(self, key, session) -> list[bytes] | None:
        """The kept parts for ``key`` whose session values read are this session's, or None."""
        variants = self._kept.get(key)
        if not variants:
            return None
        for read, parts, _size in variants:
            if all(_seen(session, name) == value for name, value in read):
                with suppress(KeyError):  # dropped meanwhile by another thread
                    self._kept.move_to_end(key)
                return parts
        return None

    def put(self, key, read: dict[str, str], text: str) -> list[bytes]:
        """Keep ``text`` (drawn with placeholders) for ``key`` and the session values it read; its parts."""
        parts = split(text)
        size = len(text)
        if not self.entries or size > self.chars:
            return parts
        with self._lock:
            variants = self._kept.setdefault(key, [])
            self._kept.move_to_end(key)
            variants.insert(0, (tuple(sorted(read.items())), parts, size))
            self._count += 1
            self._size += size
            while len(variants) > VARIANTS:
                self._forget(variants.pop())
            while self._count > self.entries or self._size > self.chars:
                _key, oldest = self._kept.popitem(last=False)
                for variant in oldest:
                    self._forget(variant)
        return parts

    def _forget(self, variant) -> None:
        self._count -= 1
        self._size -= variant[2]

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._count = self._size = 0


def for_app(app: Flask) -> PageCache | None:
    """This app's cache in this process (None when ``PAGE_CACHE_ENTRIES`` is 0)."""
    if not app.config.get("PAGE_CACHE_ENTRIES", ENTRIES):
        return None
    cache = app.extensions.get("castellan.pages")
    if cache is None:
        cache = app.extensions.setdefault(
            "castellan.pages",
            PageCache(app.config.get("PAGE_CACHE_ENTRIES", ENTRIES), app.config.get("PAGE_CACHE_CHARS", CHARS)),
        )
    return cache


@contextmanager
def reading():
    """Draw with placeholders for the tokens and the session's reads noted: yields the noting
    session (its ``read``, and ``unkept`` if the rendering must not be kept)."""
    request_ctx = _cv_request.get()
    real = request_ctx.session
    noting = _ReadSession(real)
    request_ctx._session = noting  # what ``flask.session`` and the templates' ``session`` give (Flask 3.1)
    drawing = _drawing.set(True)
    try:
        yield noting
    finally:
        _drawing.reset(drawing)
        request_ctx._session = real


_CSRF_BYTES = CSRF_SLOT.encode()


def split(text: str) -> list[bytes]:
    """A rendering drawn with placeholders, as the parts ``fill`` takes (for one not kept): its text
    between the placeholders in UTF-8 (what the response sends), and the placeholders."""
    return [part.encode() for part in _SLOTS.split(text)]


def fill(parts: list[bytes], csrf: Callable[[], str], new_token: Callable[[], str]) -> bytes:
    """The kept parts with this response's tokens: the session's CSRF token (``csrf()``, asked only
    if the page has a form: a watcher's page makes none), a fresh key per form (``new_token()``)."""
    if len(parts) == 1:
        return parts[0]
    out = parts[:]
    csrf_bytes = None
    for index in range(1, len(out), 2):
        if out[index] == _CSRF_BYTES:
            csrf_bytes = csrf_bytes or csrf().encode()
            out[index] = csrf_bytes
        else:
            out[index] = new_token().encode()
    return b"".join(out)
