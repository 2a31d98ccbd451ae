"""Functions templates call on every table page: URLs remembered, a move form's start."""

from __future__ import annotations

import functools

from flask import Flask, current_app, has_request_context, request, url_for
from markupsafe import Markup

from companion import store
from companion.http import security
from companion.service import tables as service
from companion.web import pagecache, templating


def csrf_token() -> str:
    """The session's CSRF token for a form (``security.csrf_token``), or its placeholder while a table
    page is drawn to be kept (``pagecache``), filled in per answer."""
    if pagecache.placeholders():
        return pagecache.CSRF_SLOT
    return security.csrf_token()


def template_url_for(endpoint: str, **values) -> str:
    """``url_for`` for templates, remembering what it built: a table page builds about twenty URLs,
    the same on every view of it, and building one cost about as much as rendering its line.

    A URL is the same for the same endpoint, values and script root (Castellan has no URL
    defaults or subdomains); relative endpoints, ``_external`` and the like, values that are
    not text or numbers, and calls outside a routed request are built as ``url_for`` does.
    """
    if (
        endpoint[:1] == "."
        or not all(type(value) in (str, int) and name[:1] != "_" for name, value in values.items())
        or not has_request_context()
    ):
        return url_for(endpoint, **values)
    return _built_url(current_app._get_current_object(), request.script_root, endpoint, tuple(values.items()))


_new_key = pagecache.template_token(store.new_token)


def table_form_start(token: str, table, action: str, cls: str) -> Markup:
    """What ``table_form`` (templates/_macros.html) writes before its fields: the form posting to the
    table's ``action`` (plain and htmx), the session's CSRF token, the version and the moment
    (``service.moment``) the form was drawn for and a fresh idempotency key, each escaped as
    ``{{ }}`` would.

    A move answer draws three of them or more; in the macro each cost a dozen Jinja calls, for text
    that only its address and class decide (kept, ``_form_start``) but for the tokens.
    """
    return Markup(
        _form_start(template_url_for("tables." + action, token=token), cls)
        + templating.escape_text(csrf_token())
        + '">\n  <input type="hidden" name="version" value="'
        + str(templating.escape_output(table.version))
        + '">\n  <input type="hidden" name="moment" value="'
        + service.moment(table.state)
        + '">\n  <input type="hidden" name="idempotency_key" value="'
        + templating.escape_text(_new_key())
        + '">'
    )


@functools.lru_cache(maxsize=4096)
def _form_start(url: str, cls: str) -> str:
    url, cls = templating.escape_text(url), templating.escape_text(cls)
    return (
        f'<form method="post" action="{url}" class="{cls}"\n      hx-post="{url}" hx-target="#live" hx-swap="outerHTML">'
        '\n  <input type="hidden" name="csrf_token" value="'
    )


@functools.lru_cache(maxsize=8192)
def _built_url(_app: Flask, _script_root: str, endpoint: str, values: tuple) -> str:
    return url_for(endpoint, **dict(values))
