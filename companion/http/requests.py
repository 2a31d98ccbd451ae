"""What every door (the pages and the JSON API) reads from a request: htmx or not, its form, its base address."""

from __future__ import annotations

from collections.abc import Iterable

from flask import current_app, request

from companion.http import netinfo
from companion.rules.errors import RuleError
from companion.rules.sentences import N_


def is_htmx(asked=None) -> bool:
    """True for an htmx request (this one, or ``asked``, a request read before Flask) that wants a
    fragment (not a history restore, which wants the page)."""
    environ = (
        request if asked is None else asked
    ).environ  # a header a request lacks: no KeyError raised and caught
    return (
        environ.get("HTTP_HX_REQUEST") == "true" and environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST") != "true"
    )


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
