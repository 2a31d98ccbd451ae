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

from flask import Flask, current_app, g, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect, generate_csrf

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
limiter = Limiter(key_func=get_remote_address, storage_uri="memory://", headers_enabled=False)


def tables_limit() -> str:
    """How many tables one address may create in a minute (``CASTELLAN_TABLES_PER_MINUTE``)."""
    return f"{current_app.config['TABLES_PER_MINUTE']} per minute"


def pdf_limit() -> str:
    """How many PDFs one address may have built in a minute (``CASTELLAN_PDFS_PER_MINUTE``)."""
    return f"{current_app.config['PDFS_PER_MINUTE']} per minute"


def csrf_token() -> str:
    """This session's signed CSRF token for forms, the same on every page.

    Flask-WTF signs a token with the second it was made in; kept in the session, a page
    is the same from one second to the next (so its ETag and the tests' comparisons hold).
    """
    if "csrf_form_token" not in session:
        session["csrf_form_token"] = generate_csrf()
    return session["csrf_form_token"]


def limit_tables():
    """Decorate a view that creates a table: at most ``TABLES_PER_MINUTE`` from one address."""
    return limiter.limit(
        tables_limit,
        error_message=lambda: TABLES_MESSAGE.format(limit=current_app.config["TABLES_PER_MINUTE"]),
    )


def limit_pdf_builds():
    """Decorate a view that builds PDFs: at most ``PDFS_PER_MINUTE`` builds (cached answers are free)."""
    return limiter.limit(
        pdf_limit,
        error_message=lambda: PDFS_MESSAGE.format(limit=current_app.config["PDFS_PER_MINUTE"]),
        deduct_when=lambda _response: bool(g.get("pdf_built")),
    )


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


def init_app(app: Flask) -> None:
    """Refuse bad hosts, check CSRF tokens before every state change outside the API, limit, add the headers."""
    # A phone stays at a table all evening: its form must not expire after an hour. The
    # Referer check for HTTPS is off because every page is sent with Referrer-Policy:
    # no-referrer (a table's link must not leak to other sites); the token and the
    # SameSite cookie are the protection.
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)
    app.config.setdefault("WTF_CSRF_SSL_STRICT", False)
    app.config["WTF_CSRF_CHECK_DEFAULT"] = False
    csrf.init_app(app)
    # Said for every app: the limiter is one object, and would carry the last app's choice to the next.
    app.config.setdefault("RATELIMIT_ENABLED", True)
    limiter.init_app(app)

    app.wsgi_app = HostCheck(app.wsgi_app)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.context_processor(lambda: {"csrf_token": csrf_token})

    @app.before_request
    def check_csrf() -> None:
        if app.config.get("WTF_CSRF_ENABLED", True) and not request.path.startswith("/api/"):
            csrf.protect()

    @app.after_request
    def add_headers(response):
        if response.status_code == 304:
            return response  # a 304 only revalidates: the cached answer keeps the headers it had
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
