"""Answers compressed for phones on a weak Wi-Fi: brotli and gzip (Flask-Compress, ISA-L's gzip)."""

from __future__ import annotations

import contextlib
import functools

from flask import request
from flask_compress import Compress

compress = Compress()

try:  # ISA-L (Intel's, x86-64 and ARM64): gzip at a tenth of zlib's time, the same size at its level 1
    from isal import igzip as _gzip
    from isal import isal_zlib as deflating

    GZIP_LEVELS = deflating.ISAL_BEST_COMPRESSION  # its levels are 0 to 3
except ImportError:  # pragma: no cover - a platform without its wheel: zlib, as Flask-Compress
    import gzip as _gzip
    import zlib as deflating

    GZIP_LEVELS = 9


def gzip_level(level: int) -> int:
    """``COMPRESS_LEVEL`` (zlib's 1 to 9) as the gzip in use takes it."""
    return min(level, GZIP_LEVELS)


def gzipped(data: bytes, level: int) -> bytes:
    """``data`` gzipped at ``COMPRESS_LEVEL`` ``level``, with no time in its header."""
    return _gzip.compress(data, gzip_level(level), mtime=0)


def chosen_encoding(asked=None) -> str | None:
    """The encoding Flask-Compress would answer this request (or ``asked``) with (``"br"``, ``"gzip"``), or None."""
    return _encoding(
        compress.enabled_algorithms, (request if asked is None else asked).headers.get("Accept-Encoding", "")
    )


@functools.lru_cache(maxsize=256)
def _encoding(algorithms: tuple[str, ...], accept_encoding: str) -> str | None:
    """Flask-Compress's choice in its ``after_request`` (which it offers no public call for): of the
    ``algorithms`` asked for, the one of highest quality, a tie going to the first of ``algorithms``;
    ``identity`` asks for none, ``*`` for the first. A hall's phones send a handful of headers."""
    asked: dict[float, set[str | None]] = {}
    anything = False
    for part in accept_encoding.lower().split(","):
        name, quality = part.strip(), 1.0
        if ";q=" in name:
            name, value = name.split(";")[0].strip(), name.split("=")[1].strip()
            with contextlib.suppress(ValueError):  # an unreadable quality: the default
                quality = float(value)
        if name == "*":
            anything = anything or quality > 0
        elif name == "identity" or name in algorithms:
            asked.setdefault(quality, set()).add(None if name == "identity" else name)
    for _quality, names in sorted(asked.items(), reverse=True):
        if len(names) == 1:
            return next(iter(names))
        for name in algorithms:
            if name in names:
                return name
    return algorithms[0] if anything else None


def init_compression(app) -> None:
    """Brotli or gzip text answers for phones on a weak Wi-Fi (the WSGI server does not compress).

    Flask-Compress adds the algorithm to a strong ETag (``"7":br``); the live poll's ETag
    is weak, which names the table's content whatever the encoding, so the browser's
    ``If-None-Match`` still matches and an idle table answers 304.
    """
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Measured on a 22 kB table page (2-core machine, loaded): gzip level 6 took 1.6 ms for
    # 7.2 kB, level 1 0.8 ms for 8.4 kB; brotli quality 4 took 0.9 ms for 6.0 kB, quality 2
    # 0.5 ms for 6.4 kB. A kilobyte is nothing on a Wi-Fi; the server's time is every phone's.
    # (A browser asks for brotli over HTTPS only: on a LAN's http:// it is gzip.)
    app.config.setdefault("COMPRESS_LEVEL", 1)
    app.config.setdefault("COMPRESS_BR_LEVEL", 2)
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 1024)
    app.config.setdefault(
        "COMPRESS_MIMETYPES",
        ["text/html", "text/css", "text/plain", "text/javascript", "application/json", "image/svg+xml"],
    )
    compress.init_app(app)
    mimetypes = frozenset(app.config["COMPRESS_MIMETYPES"])

    @app.after_request  # before Flask-Compress's (hooks run last first), which then finds it encoded
    def gzip_answer(response):
        """A text answer for a phone that takes gzip (every browser on a LAN's http://), gzipped as
        Flask-Compress would, with ISA-L: a Square Tactics move answer (27 kB) took zlib 0.33 ms,
        a tenth of a move. Brotli, a stream, a strong ETag (which Flask-Compress marks with the
        encoding), a file passed through and everything it leaves uncompressed are left to Flask-Compress."""
        if (
            response.is_streamed
            or response.direct_passthrough
            or not 200 <= response.status_code < 300
            or "Content-Encoding" in response.headers
            or response.mimetype not in mimetypes
            or chosen_encoding() != "gzip"
        ):
            return response
        etag, weak = response.get_etag()
        data = response.get_data()
        if (etag and not weak) or len(data) < app.config["COMPRESS_MIN_SIZE"]:
            return response
        response.set_data(gzipped(data, app.config["COMPRESS_LEVEL"]))
        response.headers["Content-Encoding"] = "gzip"
        if request.method in ("GET", "HEAD") and app.config["COMPRESS_EVALUATE_CONDITIONAL_REQUEST"]:
            response.make_conditional(request)
        return response
