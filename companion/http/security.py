"""Security for every response: headers, CSRF protection for every state change, and rate limits.

The Content-Security-Policy allows scripts and styles from Castellan itself only: no
inline script, no inline event handler, no inline style, nothing from another host.
Every POST (a plain form or an htmx request) carries a per-session token, in a hidden
``csrf_token`` field or an ``X-CSRF-Token`` header (Flask-WTF's ``CSRFProtect``); the
JSON API is stateless (it uses no cookie and needs ``application/json``, which a
cross-site form cannot send) and is exempt. A limit (the ``limits`` library's fixed window) caps
what one address can make the server do in a minute (tables created, PDFs built), counted in
the database that every worker shares (``companion.store.limits``).

A page gets every header below. An htmx answer (a fragment that script puts into a page
already loaded: a move's answer, a poll's table) gets ``nosniff`` only: the policy, the
framing, opener and permissions rules and the referrer rule apply to a document (and the
referrer rule to a redirect), and the document that asked for the fragment has them already.
Every phone at a table fetches the fragment after each move: the five headers were 360
bytes of each such answer.
"""

from __future__ import annotations

import copy
import functools
import math
import time

from flask import Flask, current_app, g, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect, generate_csrf
from itsdangerous import BadSignature, URLSafeTimedSerializer
from limits import RateLimitItemPerMinute
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.http import netinfo, sessions
from companion.http.bounded import Bounded
from companion.http.requests import add_vary, is_htmx
from companion.i18n import say
from companion.rules.sentences import NP_, Message

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

# What an htmx answer (a fragment, not a redirect) gets of HEADERS: see above.
FRAGMENT_HEADERS = {"X-Content-Type-Options": HEADERS["X-Content-Type-Options"]}

_HEADER_ITEMS = list(HEADERS.items())
_HEADER_NAMES = frozenset(name.lower() for name in HEADERS)
_FRAGMENT_ITEMS = list(FRAGMENT_HEADERS.items())


def headers_for(asked=None, status: int = 200) -> list[tuple[str, str]]:
    """The security headers of an answer with ``status`` to this request (or ``asked``, a request
    read before Flask, see ``views.tables.CachedPages``): an htmx fragment's, or a page's."""
    return _FRAGMENT_ITEMS if is_htmx(asked) and not 300 <= status < 400 else _HEADER_ITEMS


TABLES_MESSAGE = NP_(
    "This address has created %(count)s table in the last minute. Wait a minute, then try again.",
    "This address has created %(count)s tables in the last minute. Wait a minute, then try again.",
)
PDFS_MESSAGE = NP_(
    "This address has had %(count)s sheet made in the last minute. Wait a minute, then try again.",
    "This address has had %(count)s sheets made in the last minute. Wait a minute, then try again.",
)
IMPORTS_MESSAGE = NP_(
    "This address has imported %(count)s file of plays in the last minute. Wait a minute, then try again.",
    "This address has imported %(count)s files of plays in the last minute. Wait a minute, then try again.",
)

csrf = CSRFProtect()


def csrf_token() -> str:
    """This session's signed CSRF token for forms, the same on every page.

    Flask-WTF signs a token with the second it was made in; kept in the session, a page
    is the same from one second to the next (so its ETag and the tests' comparisons hold).
    Templates call ``companion.web.template_globals.csrf_token``, which gives a placeholder instead
    while a table page is drawn to be kept.
    """
    if "csrf_form_token" not in session:
        session["csrf_form_token"] = generate_csrf()
    return session["csrf_form_token"]


_LIMITS = {
    "tables": ("TABLES_PER_MINUTE", TABLES_MESSAGE),
    "pdfs": ("PDFS_PER_MINUTE", PDFS_MESSAGE),
    "imports": ("IMPORTS_PER_MINUTE", IMPORTS_MESSAGE),
}


def limited(kind: str):
    """Mark a view as limited per address and minute: ``"tables"`` (created) or ``"imports"`` (files
    of plays read). Sheets are counted when their build starts (``spend``), not before the view.

    ``apply_limits`` puts the limit on when the app is made: each app has its own limiter
    (and its own counts), so one app's tests cannot use up another's minute.
    """

    def mark(view):
        view.castellan_limit = kind
        return view

    return mark


def takes_upload(max_bytes: int):
    """Mark a view as taking a file larger than the app's ``MAX_CONTENT_LENGTH`` (a club's plays
    to import): up to ``max_bytes``, raised before anything reads the body (the CSRF check does)."""

    def mark(view):
        view.castellan_upload = max_bytes
        return view

    return mark


def count(kind: str) -> None:
    """Count this request against its view's limit: a table was created, a file of plays was read to
    be imported.

    A refused creation costs nothing and is not counted.
    """
    g.setdefault("castellan_counted", set()).add(kind)


def apply_limits(app: Flask) -> None:
    """Put each view marked ``limited`` under its limit, counted in the app's storage (its database by
    default, see companion.store.limits: every worker shares it); keep every limit for ``spend``.

    Only a limited view looks at a count: no hook runs before or after any other request (a move, a
    poll, a page), which Flask-Limiter's own check before every request did, for a tenth of an
    unchanged poll's answer.
    """
    counter = FixedWindowRateLimiter(storage_from_string(app.config["RATELIMIT_STORAGE_URI"]))
    app.extensions["castellan.limits"] = {
        kind: _Limit(counter, kind, message, app.config[setting])
        for kind, (setting, message) in _LIMITS.items()
    }
    for endpoint, view in list(app.view_functions.items()):
        kind = getattr(view, "castellan_limit", None)
        if kind is not None:
            app.view_functions[endpoint] = _limited(view, app.extensions["castellan.limits"][kind])


def spend(kind: str) -> None:
    """Count one against this address's limit of ``kind`` now, just before the work (a sheet's build,
    once its turn has come: a request refused before it, or served from the cache, touches no count);
    a 429 with the limit's reason when the address has used up its minute."""
    current_app.extensions["castellan.limits"][kind].take()


class _Limit:
    """One kind's limit a minute per address, counted in one step of the storage (the database's row
    lock), so that requests arriving together cannot all find room: the one that takes the count
    past the limit is refused, and gives its count back."""

    def __init__(self, counter: FixedWindowRateLimiter, kind: str, message, per_minute: int):
        self.counter, self.kind, self.message, self.per_minute = counter, kind, message, per_minute
        self.limit = RateLimitItemPerMinute(per_minute)

    def take(self) -> None:
        """One count for this request's address; ``TooManyRequests`` (given back) past the limit."""
        address = request.remote_addr or "127.0.0.1"
        if not self.counter.hit(self.limit, self.kind, address):
            self.give_back()
            reset_at = self.counter.get_window_stats(self.limit, self.kind, address).reset_time
            raise TooManyRequests(
                say(Message(self.message, count=self.per_minute)),
                retry_after=max(1, math.ceil(reset_at - time.time())),
            )

    def give_back(self) -> None:
        """The count this request took, returned: it did not do the work."""
        address = request.remote_addr or "127.0.0.1"
        self.counter.storage.incr(self.limit.key_for(self.kind, address), self.limit.get_expiry(), amount=-1)


def _limited(view, limit: _Limit):
    """``view`` refused (429) once this address used up its limit in this minute's window: one count
    per kind, shared by its views (the API and the pages create tables alike).

    The count is taken before the view runs (``_Limit.take``). A view that did not say it did the
    work (``count``) gives its count back.
    """

    @functools.wraps(view)
    def limited_view(*args, **kwargs):
        limit.take()
        try:
            return view(*args, **kwargs)
        finally:
            if limit.kind not in g.get("castellan_counted", ()):
                limit.give_back()

    return limited_view


class HostCheck:
    """WSGI middleware: a request whose ``Host`` no browser could send gets a plain 400, and no log line.

    Checked before Flask sees the request: Werkzeug cannot build a URL adapter for such a
    host, and without one no page (not even the error page) can be rendered.
    """

    HOSTS_REMEMBERED = 64  # the few names a server is reached by, checked once each

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app
        self.valid: set[str] = set()

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
        if host in self.valid:
            return self.wsgi_app(environ, start_response)
        if netinfo.valid_host(host):
            if len(self.valid) < self.HOSTS_REMEMBERED:
                self.valid.add(host)
            return self.wsgi_app(environ, start_response)
        body = b"Bad Request: the Host header is not a valid host name.\n"
        start_response(
            "400 Bad Request",
            [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", str(len(body))),
                *FRAGMENT_HEADERS.items(),  # nosniff: the text is read as text only
            ],
        )
        return [body]


class _SessionCookie(SecureCookieSessionInterface):
    """The signed session cookie, ``Secure`` whenever the request came over HTTPS (directly or via a trusted proxy).

    A phone sends the same cookie with every poll and every page until its session changes,
    and checking its signature and decoding it cost a quarter of an unchanged poll's answer:
    a cookie once checked is remembered (``session_data``), and only its age is checked again.
    """

    session_class = sessions.Session

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def save_session(self, app: Flask, session, response) -> None:
        if request.path.startswith("/api/"):
            return  # the API has no session (see ``open_session``): a program's or a phone's cookie stays as it is
        if session.accessed:
            # What Flask's own ``response.vary.add("Cookie")`` does, without reading the Vary header
            # into a set and writing it back (about a thousand Python steps on every request).
            add_vary(response, "Cookie")
            session.accessed = False
        super().save_session(app, session, response)

    def open_session(self, app: Flask, request):
        if not app.secret_key:
            return None
        if request.path.startswith("/api/"):
            # The JSON API is a program's, reached by the table's link alone: it never reads a session,
            # so a cookie sent along (a browser's) is not checked, and nothing is saved (``save_session``).
            return self.session_class()
        return self.session_class(session_data(app, request.cookies.get(self.get_cookie_name(app))))


SESSIONS_REMEMBERED = 4096  # cookies checked once per process: a hall of phones, each with its own


def session_data(app: Flask, cookie: str | None) -> dict:
    """The content of a session cookie whose signature holds (empty for none, a forged or an expired one).

    The same answer as Flask's own ``open_session``; a copy, so that a view may change it.
    """
    if not cookie:
        return {}
    lifetime = int(app.permanent_session_lifetime.total_seconds())
    found = _checked(
        app.session_interface, app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()), cookie
    )
    if found is None or time.time() - found[1] > lifetime:
        return {}
    data = found[0]
    if all(isinstance(value, str | int | float | bool | None) for value in data.values()):
        return dict(data)
    return copy.deepcopy(data)  # flashed messages are a list: a view appends to it


@functools.lru_cache(maxsize=SESSIONS_REMEMBERED)
def _checked(interface: SecureCookieSessionInterface, secret_key, fallbacks: tuple, cookie: str):
    """A cookie's content and when it was signed (seconds), or None when its signature does not hold."""
    serializer = URLSafeTimedSerializer(
        [*fallbacks, secret_key],
        salt=interface.salt,
        serializer=interface.serializer,
        signer_kwargs={"key_derivation": interface.key_derivation, "digest_method": interface.digest_method},
    )
    try:
        data, signed = serializer.loads(cookie, return_timestamp=True)
    except BadSignature:
        return None
    return data, signed.timestamp()


def init_app(app: Flask) -> None:
    """Refuse bad hosts, check CSRF tokens before every state change outside the API, limit, add the headers.

    Behind a reverse proxy (``TRUSTED_PROXIES`` > 0, opt-in), Werkzeug's ``ProxyFix`` takes
    the client's address, the scheme and the host from that many ``X-Forwarded-*`` hops, so
    the cookie is ``Secure`` and links use the address the phones used. Without it those
    headers are ignored: anyone could send them.
    """
    # A phone stays at a table all evening: its form must not expire after an hour. The
    # Referer check for HTTPS is off because every page is sent with Referrer-Policy:
    # no-referrer (a table's link must not leak to other sites); the token and the
    # SameSite cookie are the protection.
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    app.config.setdefault("WTF_CSRF_SSL_STRICT", False)
    app.config["WTF_CSRF_CHECK_DEFAULT"] = False
    csrf.init_app(app)

    app.wsgi_app = HostCheck(app.wsgi_app)
    proxies = app.config.get("TRUSTED_PROXIES", 0)
    if proxies:
        # Outside the host check, so that a forwarded host is checked too.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies)
    app.session_interface = _SessionCookie()
    # Flask-WTF gives every rendering its own csrf_token (and csrf_meta_tag, a global as well) through
    # a context processor, which would hide the app's own (web.template_globals): without it, every template finds
    # Castellan's, and each rendering (a move answer makes three) calls one function fewer.
    processors = app.template_context_processors[None]
    processors[:] = [func for func in processors if getattr(func, "__module__", None) != "flask_wtf.csrf"]

    checked = Bounded(SESSIONS_REMEMBERED)  # (form token, session's token...): pairs whose signature held

    @app.before_request
    def check_csrf() -> None:
        if request.routing_exception is not None:
            return  # no view will run: its 404 or 405 (PUT /) says what is wrong, not a missing token
        upload = getattr(app.view_functions.get(request.endpoint), "castellan_upload", None)
        if upload:
            request.max_content_length = upload
        if not app.config.get("WTF_CSRF_ENABLED", True) or request.path.startswith("/api/"):
            return
        # A phone posts the same token with every move. Without a time limit (or the Referer check),
        # whether a token holds depends only on it, the session's token and the secret key:
        # a pair once checked is not checked (signature, HMAC) again.
        lasting = (
            request.method in app.config["WTF_CSRF_METHODS"]
            and app.config["WTF_CSRF_TIME_LIMIT"] is None
            and not (request.is_secure and app.config["WTF_CSRF_SSL_STRICT"])
        )
        pair = (
            request.form.get("csrf_token"),
            session.get("csrf_token"),
            app.secret_key,
            app.config.get("WTF_CSRF_SECRET_KEY"),
        )
        if lasting and pair[0] and checked.get(pair):
            g.csrf_valid = True
            return
        csrf.protect()  # aborts with 400 when the token does not hold
        if lasting and pair[0] and pair[1]:
            checked.put(pair, True)

    @app.after_request
    def add_headers(response):
        if response.status_code == 304:
            return response  # a 304 only revalidates: the cached answer keeps the headers it had
        items = headers_for(status=response.status_code)
        present = {name.lower() for name, _value in response.headers}
        response.headers.extend(
            items
            if _HEADER_NAMES.isdisjoint(present)
            else [(name, value) for name, value in items if name.lower() not in present]
        )
        return response
