"""Guards on what Castellan copies or relies on of other libraries' behaviour, through their public API.

No private name of another library is used by companion/ (docs/architecture.md, "Borrowed
internals"); these tests fail first, and say which library changed, when a behaviour copied or
relied on no longer holds.
"""

from __future__ import annotations

import flask_compress.flask_compress as flask_compress

from companion.http import compression, sessions

HEADERS = [
    "",
    "gzip, deflate",
    "gzip, deflate, br, zstd",
    "br;q=0.5, gzip",
    "identity",
    "identity, gzip;q=0.5",
    "*",
    "*;q=0",
    "gzip;q=0",
    "gzip;q=abc",
    "BR, GZIP",
    "x, *;q=0.1",
]


def test_the_encoding_chosen_is_flask_compress_s():
    for algorithms in (("br", "gzip"), ("gzip",)):
        for header in HEADERS:
            theirs = flask_compress._choose_algorithm(algorithms, header)
            assert compression._encoding(algorithms, header) == theirs, (
                f"Flask-Compress changed how it chooses an encoding (for {header!r}): "
                "compression._encoding, which the gzip hook answers by, must follow it"
            )


def test_the_session_notes_reads_and_changes():
    session = sessions.Session({"member": "Ola"})
    with sessions.noting() as reads:
        assert session.get("member") == "Ola" and "seat" not in session
    assert reads.read == {"member": "'Ola'", "seat": sessions.MISSING} and not reads.unkept
    with sessions.noting() as reads:
        session["seat"] = "p1"
    assert reads.unkept, (
        "Werkzeug's CallbackDict no longer calls on_update on a change: sessions.Session relies on it"
    )
    assert session.modified
