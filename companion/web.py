"""Helpers every page view shares: page or fragment, and the player-facing messages."""

from __future__ import annotations

import gzip

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
        _name, port = netinfo.host_and_port(host)
        host = netinfo.lan_address() + (f":{port}" if port else "")
    return f"{request.scheme}://{host}"


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


_COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml")


def init_compression(app) -> None:
    """Gzip text answers for phones on a weak Wi-Fi (waitress does not compress).

    Deterministic (no timestamp in the gzip header), so ETags stay meaningful; a
    compressed answer gets its own ETag and ``Vary: Accept-Encoding``.
    """

    @app.after_request
    def compress(response):
        if (
            response.status_code != 200
            or "gzip" not in request.headers.get("Accept-Encoding", "")
            or "Content-Encoding" in response.headers
            or not (response.mimetype or "").startswith(_COMPRESSIBLE)
        ):
            return response
        response.direct_passthrough = False
        body = response.get_data()
        if len(body) < 1024:
            return response
        response.set_data(gzip.compress(body, compresslevel=6, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        etag, weak = response.get_etag()
        if etag:
            response.set_etag(f"{etag}-gz", weak=weak)
        return response
