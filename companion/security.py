"""Security for every response: headers, and CSRF protection for every state change.

The Content-Security-Policy allows scripts and styles from Castellan itself only: no
inline script, no inline event handler, no inline style, nothing from another host.
Every POST (a plain form or an htmx request) carries a per-session token, in a hidden
``csrf_token`` field or an ``X-CSRF-Token`` header; the JSON API is stateless (it uses no
cookie and needs ``application/json``, which a cross-site form cannot send) and is exempt.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, request, session

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
_UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def csrf_token() -> str:
    """This browser session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def init_app(app: Flask) -> None:
    """Check CSRF tokens before every state change and add the headers to every response."""
    app.jinja_env.globals["csrf_token"] = csrf_token

    @app.before_request
    def check_csrf() -> None:
        if request.method not in _UNSAFE_METHODS or request.path.startswith("/api/"):
            return
        sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
        expected = session.get("csrf", "")
        # Compared as bytes: compare_digest refuses str with non-ASCII characters.
        if not expected or not hmac.compare_digest(str(sent).encode(), str(expected).encode()):
            abort(400, description="This form has expired. Reload the page and try again.")

    @app.after_request
    def add_headers(response):
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
