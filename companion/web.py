"""Helpers every page view shares: page or fragment, and the player-facing messages."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qsl

import flask
from flask import current_app, make_response, render_template, request
from flask_compress import Compress
from flask_compress.flask_compress import _choose_algorithm
from markupsafe import Markup, escape

from companion import netinfo
from companion.rules.errors import N_, RuleError


def is_htmx(asked=None) -> bool:
    """True for an htmx request (this one, or ``asked``, a request read before Flask) that wants a
    fragment (not a history restore, which wants the page)."""
    environ = (request if asked is None else asked).environ  # a header a request lacks: no KeyError raised and caught
    return environ.get("HTTP_HX_REQUEST") == "true" and environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST") != "true"


def render(page: str, fragment: str, status: int = 200, **context):
    """Render the whole page, or only its fragment for htmx; the two vary by ``HX-Request``.

    The page ``{% include %}``s the fragment, so they cannot drift apart.
    """
    template = fragment if is_htmx() else page
    response = make_response(render_template(template, **context), status)
    add_vary(response, "HX-Request")
    return response


def add_vary(response, *names: str) -> None:
    """Name ``names`` in the answer's Vary header, each once: what ``response.vary.update(names)`` does,
    without reading the header into a set and writing it back for each hook that adds to it."""
    vary = response.headers.get("Vary")
    if vary:
        listed = {name.strip().lower() for name in vary.split(",")}
        names = tuple(name for name in names if name.lower() not in listed)
        if names:
            response.headers["Vary"] = ", ".join((vary, *names))
    else:
        response.headers["Vary"] = ", ".join(names)


class Request(flask.Request):
    """Flask's request, reading a posted form (every move, undo and finish) the short way.

    A form a page posts (``application/x-www-form-urlencoded``) is read from the same guarded
    stream and parsed by the same call as Werkzeug's form parser does, without making the parser
    first: that asks the application for three limits (``max_form_memory_size`` and
    ``max_form_parts`` apply to ``multipart/form-data`` only) through Flask's context proxies, and
    took half of the 50 us a move's form cost. Anything else (an upload, a body read before) goes
    Werkzeug's way.
    """

    def _load_form_data(self) -> None:
        if "form" in self.__dict__:
            return
        if self.mimetype != "application/x-www-form-urlencoded" or getattr(self, "_cached_data", None) is not None:
            super()._load_form_data()
            return
        stream = self.stream  # limited to Content-Length and MAX_CONTENT_LENGTH (a 413 past it)
        try:
            items = parse_qsl(stream.read().decode(), keep_blank_values=True, errors="werkzeug.url_quote")
        except ValueError:  # not UTF-8: an empty form, as Werkzeug's parser (silent) gives
            items = []
        self.__dict__.update(form=self.parameter_storage_class(items), files=self.parameter_storage_class())


FIELD_LIMIT = 10_000  # characters in one form field: far more than any name, deck or faction needs


def form_dict(lists: Iterable[str] = ()) -> dict[str, str | list[str]]:
    """The posted form, parsed in one place so that no view meets a value it did not ask for.

    Every field is one string, except the fields named in ``lists``, which are always
    lists. A field sent twice that is not a list, or a field longer than ``FIELD_LIMIT``,
    is refused with a ``RuleError``: no page sends either, and guessing could change the
    table in a way nobody chose.
    """
    wanted = frozenset(lists)
    form: dict[str, str | list[str]] = {}
    for key, values in request.form.lists():
        if len(values) > 1 and key not in wanted:
            raise RuleError(
                "repeated_field", N_("This form sent one of its fields twice. Reload the page and try again.")
            )
        if any(len(value) > FIELD_LIMIT for value in values):
            raise RuleError(
                "too_long",
                N_("A field of this form is longer than the %(most)s characters Castellan keeps."),
                most=FIELD_LIMIT,
            )
        form[key] = list(values) if key in wanted else values[0]
    return form


def public_base_url(asked=None, config=None) -> str:
    """The address other phones use to reach this server, without a trailing slash.

    ``CASTELLAN_BASE_URL`` wins; otherwise the address this request (or ``asked``, a request
    read before Flask, with its app's ``config``) came to, unless that is the machine's own
    loopback (a laptop at http://localhost), which phones cannot reach: then the LAN address
    on the same port.
    """
    asked = request if asked is None else asked
    configured = (current_app.config if config is None else config).get("BASE_URL")
    if configured:
        return configured.rstrip("/")
    host = asked.host
    if netinfo.is_loopback_host(host):
        _name, port = netinfo.host_and_port(host)
        host = netinfo.lan_address() + (f":{port}" if port else "")
    return f"{asked.scheme}://{host}"


def printed_base_url() -> str:
    """The address printed QR codes carry, without a trailing slash: paper lasts longer than
    a DHCP lease.

    ``CASTELLAN_BASE_URL`` wins; otherwise the scheme and port this request came to, with the
    machine's ``.local`` name in place of an IP address (or ``localhost``) when that name
    resolves here, else as ``public_base_url`` has it.
    """
    if current_app.config.get("BASE_URL"):
        return public_base_url()
    name, port = netinfo.host_and_port(request.host)
    local = netinfo.local_name()
    if local and (name == "localhost" or netinfo.is_ip_address(name)):
        return f"{request.scheme}://{local}" + (f":{port}" if port else "")
    return public_base_url()


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
    return _choose_algorithm(compress.enabled_algorithms, (request if asked is None else asked).headers.get("Accept-Encoding", ""))


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


_HEADING = re.compile(r'<h2(?: id="([\w-]+)")?>(.*?)</h2>', re.S)


def heading_id(title: str) -> str:
    """The in-page anchor of a help section: its title in lower case, words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"<[^>]+>", "", title).lower()).strip("-")


def with_contents(html: str) -> Markup:
    """A help page's body with a table of contents first: one in-page link per ``<h2>``.

    A heading keeps its own ``id``; one without gets ``heading_id`` of its title, so every
    section can be linked to (a table page links to the section for its phase).
    """
    sections = []

    def anchor(match: re.Match) -> str:
        key = match.group(1) or heading_id(match.group(2))
        sections.append((key, Markup(match.group(2)).striptags()))
        return f'<h2 id="{key}">{match.group(2)}</h2>'

    body = _HEADING.sub(anchor, str(html))
    links = "".join(f'<li><a href="#{key}">{escape(title)}</a></li>' for key, title in sections)
    return Markup(f'<nav class="contents" aria-label="Contents"><ol>{links}</ol></nav>\n{body}')
