"""Where Castellan can be reached on the LAN, and QR codes of addresses."""

from __future__ import annotations

import contextlib
import functools
import html
import ipaddress
import re
import socket
import time
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from qrcode.constants import ERROR_CORRECT_M

LAN_ADDRESS_TTL = 10.0  # seconds a lan_address() answer is kept: every table page opened at localhost asks
_lan_address: list[tuple[float, str]] = []


def lan_address() -> str:
    """This machine's IPv4 address on the local network, or 127.0.0.1 when it has none.

    Kept ten seconds: a table page opened at http://localhost shows it in every link, and
    looking it up (the host name resolved, a socket opened) cost more than the rest of the
    links. A laptop moved to another network shows its new address ten seconds later.
    """
    if _lan_address and time.monotonic() - _lan_address[0][0] < LAN_ADDRESS_TTL:
        return _lan_address[0][1]
    address = _find_lan_address()
    _lan_address[:] = [(time.monotonic(), address)]
    return address


def _find_lan_address() -> str:
    """A UDP socket "connected" to a documentation address sends no packet; it only asks the
    kernel which local address would be used."""
    candidates = []
    with contextlib.suppress(OSError):
        candidates += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))
        candidates.append(probe.getsockname()[0])
    for address in candidates:
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return "127.0.0.1"


LOCAL_NAME_TTL = 60.0  # seconds a local_name() answer is kept: a failed lookup can take a moment
_local_name: dict[str, tuple[float, str | None]] = {}


def local_name() -> str | None:
    """This machine's name on the local network, ``<hostname>.local``, when it resolves to an
    address of this machine (mDNS, e.g. Avahi or Bonjour); None otherwise.

    Unlike an address handed out by the router, the name stays the same from one evening to
    the next, so it is what printed QR codes should carry. The answer is kept a minute.
    """
    name = socket.gethostname().split(".")[0].lower() + ".local"
    checked, answer = _local_name.get(name, (float("-inf"), None))
    if time.monotonic() - checked > LOCAL_NAME_TTL:
        answer = name if _resolves_here(name) else None
        _local_name[name] = (time.monotonic(), answer)
    return answer


def lan_base_url(port: int) -> str:
    """Where phones on the LAN reach a server of this machine on port: by its ``.local`` name
    when that resolves, else by its LAN address."""
    return f"http://{local_name() or lan_address()}:{port}"


def host_and_port(host: str) -> tuple[str, str]:
    """A Host header split into its name and its port ("" when it has none): "[::1]:8000" -> ("::1", "8000")."""
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name, rest.removeprefix(":")
    if host.count(":") == 1:
        name, port = host.split(":")
        return name, port
    return host, ""


def is_ip_address(name: str) -> bool:
    """True when name is an IPv4 or IPv6 address rather than a host name."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _resolves_here(name: str) -> bool:
    """True when name resolves to an address this machine owns (one a socket can bind), loopback aside."""
    try:
        infos = socket.getaddrinfo(name, None, socket.AF_INET)
    except OSError:
        return False
    for address in {info[4][0] for info in infos}:
        if ipaddress.ip_address(address).is_loopback:
            continue
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))
            return True
    return False


def is_loopback_host(host: str) -> bool:
    """True when a Host header names this machine only (localhost, 127.x, ::1)."""
    name = host.rsplit(":", 1)[0].strip("[]") if host.count(":") <= 1 or host.startswith("[") else host
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


BASE_URL_LENGTH = 100  # characters: longer, and a QR code of a table's link no longer fits its box
_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def valid_host(host: str) -> bool:
    """True for a ``Host`` header a browser can send: a DNS name, IPv4 or [IPv6], and an optional port.

    A DNS name has labels of 1 to 63 letters, digits and hyphens, 253 characters in all.
    """
    name, port = host, ""
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return False
        port = rest[1:]
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return False
    else:
        name, _, port = host.partition(":")
        labels = name.removesuffix(".").split(".")
        if not name or len(name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
            return False
    return not port or (port.isascii() and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65535)


def check_base_url(url: str) -> str:
    """``url`` without a trailing slash, or a ``ValueError`` saying in one sentence what is wrong with it.

    An address printed on paper must be one a phone can open: http or https, a valid host,
    and short enough for the QR code of a table's link to fit its box.
    """
    try:
        parts = urlsplit(url)
        scheme_valid = parts.scheme in ("http", "https")
        host_valid = valid_host(parts.netloc) and not (parts.query or parts.fragment)
    except ValueError:
        scheme_valid = host_valid = False
    if not scheme_valid:
        raise ValueError(
            f"The base address must be an http:// or https:// address, like http://192.168.1.20:5000, not {url[:60]!r}."
        )
    if not host_valid:
        raise ValueError(
            f"The base address {url[:60]!r} has no host name a phone can open, like http://192.168.1.20:5000."
        )
    if len(url) > BASE_URL_LENGTH:
        raise ValueError(
            f"The base address is {len(url)} characters long; a QR code has room for at most {BASE_URL_LENGTH}."
        )
    return url.rstrip("/")


def qr_svg(text: str, label: str | None = None) -> str:
    """A QR code of ``text`` as an inline SVG element (level M, full quiet zone), which a screen
    reader names ``label`` (said in the page's language by the caller; "QR code: <text>" if none)."""
    label = f"QR code: {text}" if label is None else label
    return _qr_drawing(text).replace(
        "<svg", f'<svg class="qr" role="img" aria-label="{html.escape(label)}"', 1
    )


@functools.lru_cache(maxsize=2048)
def _qr_drawing(text: str) -> str:
    """A QR code of ``text`` as an SVG element without its name.

    Cached: a link's address never changes, and drawing a code was 90 % of a table page's time.
    """
    code = qrcode.QRCode(
        error_correction=ERROR_CORRECT_M, border=4, image_factory=qrcode.image.svg.SvgPathImage
    )
    code.add_data(text)
    code.make(fit=True)
    svg = code.make_image().to_string(encoding="unicode")
    svg = re.sub(r'\s(width|height)="[^"]*"', "", svg[svg.index("<svg") :], count=2)
    return svg


def qr_terminal(text: str) -> str:
    """A QR code of ``text`` drawn with block characters, for the terminal."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=2)
    code.add_data(text)
    code.make(fit=True)
    lines = []
    matrix = code.get_matrix()
    for top, bottom in zip(matrix[0::2], matrix[1::2] + [[False] * len(matrix[0])], strict=False):
        lines.append("".join(_half_block(a, b) for a, b in zip(top, bottom, strict=True)))
    return "\n".join(lines)


def _half_block(top: bool, bottom: bool) -> str:
    # Dark modules print as spaces on a light background block, so the code scans in a dark terminal too.
    return {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}[(top, bottom)]
