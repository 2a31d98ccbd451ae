"""The answer to an idle table's poll, from the real server: a small 304 that keeps its connection."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import urllib.request

from tests.web.test_cli import ROOT, _free_port, _get_when_up

HEADER_BUDGET = 250  # bytes: the README says a 304 costs about 200


def _exchange(conn: socket.socket, port: int, path: str, extra: str = "") -> tuple[str, bytes]:
    """One request on an open connection: the answer's head, and its body."""
    conn.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Encoding: br, gzip\r\n{extra}\r\n".encode()
    )
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length: *(\d+)", head)
    while length and len(body) < int(length.group(1)):
        body += conn.recv(65536)
    return head.decode() + "\r\n\r\n", body


def test_an_idle_tables_304_is_small_and_keeps_the_connection(tmp_path):
    port = _free_port()
    env = {**os.environ, "CASTELLAN_DATABASE": str(tmp_path / "db.sqlite3"), "SECRET_KEY": "poll-test"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
        ],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _get_when_up(f"http://127.0.0.1:{port}/")
        created = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/v1/tables",
            data=json.dumps({"game": "scorepad", "options": {"players": ["Ola", "Kuba"]}}).encode(),
            headers={"Content-Type": "application/json"},
        )
        token = json.load(urllib.request.urlopen(created, timeout=10))["links"]["viewer"]["token"]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as phone:
            head, body = _exchange(phone, port, f"/t/{token}/live")
            assert head.startswith("HTTP/1.1 200") and body
            etag = re.search(r"(?im)^etag: *(.+?)\r$", head).group(1)
            for _poll in range(3):  # the same connection answers poll after poll
                head, body = _exchange(phone, port, f"/t/{token}/live", f"If-None-Match: {etag}\r\n")
                assert head.startswith("HTTP/1.1 304") and body == b""
                assert "connection: close" not in head.lower()
                assert len(head.encode()) <= HEADER_BUDGET, head
                assert "Content-Security-Policy" not in head and f"ETag: {etag}" in head
    finally:
        process.terminate()
        process.wait(timeout=10)
