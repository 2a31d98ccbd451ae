"""Security for every response: headers, CSRF protection for every state change, and rate limits.

The Content-Security-Policy allows scripts and styles from Castellan itself only: no
inline script, no inline event handler, no inline style, nothing from another host.
Every POST (a plain form or an htmx request) carries a per-session token, in a hidden
``csrf_token`` field or an ``X-CSRF-Token`` header (Flask-WTF's ``CSRFProtect``); the
JSON API is stateless (it uses no cookie and needs ``application/json``, which a
cross-site form cannot send) and is exempt. Flask-Limiter caps what one address can
make the server do in a minute (tables created, PDFs built), in memory: Castellan runs
as one process.
"""

from __future__ import annotations

from flask import Flask, g, request, session
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect, generate_csrf
from werkzeug.middleware.proxy_fix import ProxyFix

from companion import netinfo

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

TABLES_MESSAGE = "This address has created {limit} tables in the last minute. Wait a minute, then try again."
PDFS_MESSAGE = "This address has had {limit} sheets made in the last minute. Wait a minute, then try again."

csrf = CSRFProtect()


def csrf_token() -> str:
    """This session's signed CSRF token for forms, the same on every page.

    Flask-WTF signs a token with the second it was made in; kept in the session, a page
    is the same from one second to the next (so its ETag and the tests' comparisons hold).
    """
    if "csrf_form_token" not in session:
        session["csrf_form_token"] = generate_csrf()
    return session["csrf_form_token"]


_LIMITS = {"tables": ("TABLES_PER_MINUTE", TABLES_MESSAGE), "pdfs": ("PDFS_PER_MINUTE", PDFS_MESSAGE)}


def limited(kind: str):
    """Mark a view as limited per address and minute: ``"tables"`` (created) or ``"pdfs"`` (built).

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
    """Count this request against its view's limit: a table was created, a PDF was built.

    A refused creation or a PDF served from the cache costs nothing and is not counted.
    """
    g.setdefault("castellan_counted", set()).add(kind)


def apply_limits(app: Flask) -> None:
    """Give this app a limiter (counting in its database, see companion.ratelimit) and put it on every view marked ``limited``."""
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=app.config["RATELIMIT_STORAGE_URI"],
        headers_enabled=False,
    )
    # Castellan has no default or application-wide limit: each limited view checks its own
    # limit when called (the decorator below), so the limiter's check before every request
    # found nothing to count, yet cost a tenth of an unchanged poll's answer.
    app.before_request_funcs[None].remove(limiter._check_request_limit)
    for endpoint, view in list(app.view_functions.items()):
        kind = getattr(view, "castellan_limit", None)
        if kind is None:
            continue
        setting, message = _LIMITS[kind]
        per_minute = app.config[setting]
        # One count per kind, shared by its views: the API and the pages create tables alike.
        app.view_functions[endpoint] = limiter.shared_limit(
            f"{per_minute} per minute",
            kind,
            error_message=message.format(limit=per_minute),
            deduct_when=lambda _response, kind=kind: kind in g.get("castellan_counted", ()),
        )(view)


class HostCheck:
    """WSGI middleware: a request whose ``Host`` no browser could send gets a plain 400, and no log line.

    Checked before Flask sees the request: Werkzeug cannot build a URL adapter for such a
    host, and without one no page (not even the error page) can be rendered.
    """

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
        if netinfo.valid_host(host):
            return self.wsgi_app(environ, start_response)
        body = b"Bad Request: the Host header is not a valid host name.\n"
        start_response(
            "400 Bad Request",
            [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
        )
        return [body]


class _SessionCookie(SecureCookieSessionInterface):
    """The signed session cookie, ``Secure`` whenever the request came over HTTPS (directly or via a trusted proxy)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure


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
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.context_processor(lambda: {"csrf_token": csrf_token})

    @app.before_request
    def check_csrf() -> None:
        upload = getattr(app.view_functions.get(request.endpoint), "castellan_upload", None)
        if upload:
            request.max_content_length = upload
        if app.config.get("WTF_CSRF_ENABLED", True) and not request.path.startswith("/api/"):
            csrf.protect()

    @app.after_request
    def add_headers(response):
        if response.status_code == 304:
            return response  # a 304 only revalidates: the cached answer keeps the headers it had
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
