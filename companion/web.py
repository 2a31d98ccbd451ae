"""Helpers every page view shares: page or fragment, and the player-facing messages."""

from __future__ import annotations

from flask import current_app, make_response, render_template, request

from companion import netinfo


def is_htmx() -> bool:
    """True for an htmx request that wants a fragment (not a history restore, which wants the page)."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def render(page: str, fragment: str, status: int = 200, **context):
    """Render the whole page, or only its fragment for htmx; the two vary by ``HX-Request``.

    The page ``{% include %}``s the fragment, so they cannot drift apart.
    """
    template = fragment if is_htmx() else page
    response = make_response(render_template(template, **context), status)
    response.vary.add("HX-Request")
    return response


def form_dict() -> dict:
    """The posted form as a dict; fields given several times (checkboxes) become lists."""
    return {key: (values if len(values) > 1 else values[0]) for key, values in request.form.lists()}


def public_base_url() -> str:
    """The address other phones use to reach this server, without a trailing slash.

    ``CASTELLAN_BASE_URL`` wins; otherwise the address this request came to, unless that
    is the machine's own loopback (a laptop at http://localhost), which phones cannot
    reach: then the LAN address on the same port.
    """
    configured = current_app.config.get("BASE_URL")
    if configured:
        return configured.rstrip("/")
    host = request.host
    if netinfo.is_loopback_host(host):
        port = host.rsplit(":", 1)[1] if ":" in host.rsplit("]", 1)[-1] else ""
        host = netinfo.lan_address() + (f":{port}" if port else "")
    return f"{request.scheme}://{host}"
