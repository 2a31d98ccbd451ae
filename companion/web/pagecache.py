"""Rendered table pages and live fragments cached whole, with their per-response tokens put in afterwards.

Every phone at a table fetches the same fragment after each move, and a table page is the
same from one view to the next until the table changes: rendering it (2 to 5 ms) was nearly
all of its cost. ``PageCache`` keeps the rendered text by everything it depends on (the
caller's key: the table and its version, page or fragment, the link, the language, the
address it was asked at...) and by the session values the rendering read, which it records
(``reading``): a Square Tactics phone's chosen seat, a Zamek member's name. Everything else
a rendering needs per response is a placeholder while it is cached:

- the session's CSRF token (``csrf_token()``), the same in every form of one session;
- each move form's idempotency key (``new_token()``), fresh for each form of each response,
  so that one form sent twice acts once and two forms never share a key.

``CachedPage.body`` and ``CachedPage.gzipped`` put them in. The placeholders carry a random word made per process, which no
player's text can know. One cache per app (``for_app``), per process: several workers each
keep their own, which is correct because every key names the table's version. It holds at
most ``PAGE_CACHE_ENTRIES`` renderings and ``PAGE_CACHE_BYTES`` bytes (app config),
dropping the least recently used first; ``PAGE_CACHE_ENTRIES = 0`` turns it off, and so does
Flask's ``TEMPLATES_AUTO_RELOAD`` (on in debug mode): the key names no template's version.
"""

from __future__ import annotations

import re
import secrets
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import NamedTuple

from flask import Flask

from companion.http import sessions
from companion.http.compression import deflating, gzip_level

ENTRIES = 2048
BYTES = 32_000_000  # bytes; a Square Tactics referee's page is about 80,000
VARIANTS = 16  # renderings cached of one key, told apart by the session values they read

_WORD = secrets.token_hex(8)
CSRF_SLOT = f"\x1bcsrf-{_WORD}\x1b"  # \x1b: escaped by nothing, typed by no one, in no template
KEY_SLOT = f"\x1bkey-{_WORD}\x1b"
_SLOTS = re.compile(f"({re.escape(CSRF_SLOT)}|{re.escape(KEY_SLOT)})")
_drawing: ContextVar[bool] = ContextVar("castellan_drawing_for_cache", default=False)


def placeholders() -> bool:
    """True while a rendering is being drawn to be cached: the tokens are placeholders then."""
    return _drawing.get()


def template_token(new_token: Callable[[], str]) -> Callable[[], str]:
    """``new_token`` for templates: a fresh key, or its placeholder while drawing to keep."""

    def token() -> str:
        return KEY_SLOT if _drawing.get() else new_token()

    return token


class PageKey(NamedTuple):
    """What a cached table page or live fragment depends on besides the session values it read
    (``views.tables._page_key`` makes it): hashed and compared as the plain tuple it is."""

    table_id: str
    version: int
    fragment: bool  # the live fragment (htmx, a poll), or the whole page
    link: object  # the ``store.Link`` it is drawn for: its role, seat and claim
    language: str
    scheme: str  # the address asked: scheme, host and script root
    host: str
    script_root: str
    query: bytes  # a Fort challenge's or a correction's choices, the language switch's way back
    links: tuple | None  # the referee's page: the table's links as they stand (the invitations)
    base_url: str | None  # the address those invitations give, when there are any


def _seen(session, key) -> str:
    """What a session held under ``key``, as text to compare (the same text, the same value)."""
    return repr(session[key]) if key in session else sessions.MISSING


class CachedPage:
    """One rendering cached: its parts (text in UTF-8 between the placeholders, and the placeholders),
    the session values it read, and once a phone asked for gzip, its texts deflated."""

    __slots__ = ("parts", "read", "size", "deflated", "cache", "has_csrf")

    def __init__(self, parts: list[bytes], read: tuple = (), cache: PageCache | None = None):
        self.parts, self.read, self.cache = parts, read, cache
        self.has_csrf = _CSRF_BYTES in parts[1::2]  # a form: the session's CSRF token goes in
        self.size = sum(len(part) for part in parts[::2])
        self.deflated: tuple[int, list[bytes]] | None = None

    def body(self, csrf: Callable[[], str], new_token: Callable[[], str]) -> bytes:
        """The page with this response's tokens: the session's CSRF token (``csrf()``, asked only if
        the page has a form: a watcher's page makes none), a fresh key per form (``new_token()``)."""
        parts = self.parts
        return parts[0] if len(parts) == 1 else b"".join(_filled(parts, csrf, new_token))

    def gzipped(self, csrf: Callable[[], str], new_token: Callable[[], str], level: int) -> bytes:
        """``body``, gzipped, without compressing the page again.

        Each text between two tokens is deflated once on its own (raw deflate ended by a sync
        flush: on a byte boundary, not the last block) and cached; an answer is those pieces with
        each token between them in a stored block, an empty last block, and gzip's trailer, the
        CRC-32 and length of the whole text (RFC 1951 and 1952).
        """
        if self.deflated is None or self.deflated[0] != level:
            pieces = []
            for text in self.parts[::2]:
                compressor = deflating.compressobj(gzip_level(level), deflating.DEFLATED, -15)
                pieces.append(compressor.compress(text) + compressor.flush(deflating.Z_SYNC_FLUSH))
            self.deflated = (level, pieces)
            if self.cache is not None:
                self.cache.grew(self, sum(len(piece) for piece in pieces))
        pieces = self.deflated[1]
        out = [_GZIP_HEADER]
        crc = length = 0
        for index, part in enumerate(_filled(self.parts, csrf, new_token)):
            crc = zlib.crc32(part, crc)
            length += len(part)
            out.append(_stored(part) if index % 2 else pieces[index // 2])
        out.append(_LAST_BLOCK)
        out.append(struct.pack("<II", crc, length & 0xFFFFFFFF))
        return b"".join(out)


_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time, unknown system
_LAST_BLOCK = b"\x01\x00\x00\xff\xff"  # an empty stored block, marked last


def _stored(data: bytes) -> bytes:
    """``data`` (a token: under 64 kB) as a stored deflate block, not the last, from a byte boundary."""
    return b"\x00" + struct.pack("<HH", len(data), len(data) ^ 0xFFFF) + data


class PageCache:
    """Renderings by key and by the session values they read, least recently used dropped first."""

    def __init__(self, entries: int = ENTRIES, most_bytes: int = BYTES):
        self.entries, self.most_bytes = entries, most_bytes
        self._pages: OrderedDict = OrderedDict()  # key -> [CachedPage], the newest first
        self._count = 0
        self._size = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._count

    @property
    def size(self) -> int:
        """Bytes cached: the pages' text, and their deflated pieces once made."""
        return self._size

    def get(self, key, session) -> CachedPage | None:
        """The rendering cached for ``key`` whose session values read are this session's, or None."""
        variants = self._pages.get(key)
        if not variants:
            return None
        for page in variants:
            if all(_seen(session, name) == value for name, value in page.read):
                with suppress(KeyError):  # dropped meanwhile by another thread
                    self._pages.move_to_end(key)
                return page
        return None

    def put(self, key, read: dict[str, str], text: str) -> CachedPage:
        """Keep ``text`` (drawn with placeholders) for ``key`` and the session values it read."""
        page = CachedPage(split(text), tuple(sorted(read.items())), self)
        if not self.entries or page.size > self.most_bytes:
            page.cache = None
            return page
        with self._lock:
            variants = self._pages.setdefault(key, [])
            self._pages.move_to_end(key)
            variants.insert(0, page)
            self._count += 1
            self._size += page.size
            while len(variants) > VARIANTS:
                self._forget(variants.pop())
            self._within_bounds()
        return page

    def grew(self, page: CachedPage, size: int) -> None:
        """``page`` holds ``size`` bytes more (its deflated pieces)."""
        with self._lock:
            if page.cache is self:
                page.size += size
                self._size += size
                self._within_bounds()

    def _within_bounds(self) -> None:
        while self._count > self.entries or self._size > self.most_bytes:
            _key, oldest = self._pages.popitem(last=False)
            for page in oldest:
                self._forget(page)

    def _forget(self, page: CachedPage) -> None:
        page.cache = None
        self._count -= 1
        self._size -= page.size

    def clear(self) -> None:
        with self._lock:
            for variants in self._pages.values():
                for page in variants:
                    page.cache = None
            self._pages.clear()
            self._count = self._size = 0


def for_app(app: Flask) -> PageCache | None:
    """This app's cache in this process (None when ``PAGE_CACHE_ENTRIES`` is 0, or while Jinja reloads
    a template that changed: a page's key names no template, so a page kept would outlive it)."""
    if not app.config.get("PAGE_CACHE_ENTRIES", ENTRIES) or app.jinja_env.auto_reload:
        return None
    cache = app.extensions.get("castellan.pages")
    if cache is None:
        cache = app.extensions.setdefault(
            "castellan.pages",
            PageCache(
                app.config.get("PAGE_CACHE_ENTRIES", ENTRIES), app.config.get("PAGE_CACHE_BYTES", BYTES)
            ),
        )
    return cache


@contextmanager
def reading():
    """Draw with placeholders for the tokens and the session's reads noted: yields what was read
    (``sessions.SessionReads``: its ``read``, and ``unkept`` if the rendering must not be kept)."""
    drawing = _drawing.set(True)
    try:
        with sessions.noting() as reads:
            yield reads
    finally:
        _drawing.reset(drawing)


_CSRF_BYTES = CSRF_SLOT.encode()


def split(text: str) -> list[bytes]:
    """A rendering drawn with placeholders as parts: its text between the placeholders in UTF-8 (what
    the response sends), and the placeholders."""
    return [part.encode() for part in _SLOTS.split(text)]


def _filled(parts: list[bytes], csrf: Callable[[], str], new_token: Callable[[], str]) -> list[bytes]:
    """The parts with this response's tokens in place of the placeholders."""
    out = parts[:]
    csrf_bytes = None
    for index in range(1, len(out), 2):
        if out[index] == _CSRF_BYTES:
            csrf_bytes = csrf_bytes or csrf().encode()
            out[index] = csrf_bytes
        else:
            out[index] = new_token().encode()
    return out
