"""The installable app's committed icons are exactly what ``castellan draw-icons`` draws from
castellan.svg now: a changed SVG, or a changed drawing, without the icons drawn again fails here."""

from __future__ import annotations

import struct
import zlib

import pytest

from companion.web import app_icons

pytestmark = pytest.mark.browser


def _pixels(png: bytes) -> tuple[int, int, bytes]:
    """A PNG's width, height and raw scanlines (its IDAT chunks inflated): what it shows, whatever
    metadata or compression level the encoder chose."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, data, size = 8, b"", (0, 0)
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            data += body
        at += 12 + length
    return (*size, zlib.decompress(data))


@pytest.mark.parametrize("size", app_icons.SIZES)
def test_each_committed_icon_is_what_the_svg_draws_now(chromium, size):
    fresh = _pixels(app_icons.drawn(chromium, size))
    assert fresh[:2] == (size, size)
    assert _pixels(app_icons.icon_path(size).read_bytes()) == fresh, (
        f"{app_icons.icon_path(size).name} is not what castellan.svg draws now: run `make icons`"
    )
