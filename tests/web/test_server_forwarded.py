"""The real server believes ``X-Forwarded-*`` headers only when CASTELLAN_TRUSTED_PROXIES says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request

import pytest

from tests.web.test_cli import ROOT, _free_port, _get_when_up


@pytest.mark.parametrize("trusted", [False, True], ids=["no proxy trusted", "one proxy trusted"])
def test_forwarded_headers_count_only_from_a_trusted_proxy(tmp_path, trusted):
    port = _free_port()
    env = {**os.environ, "CASTELLAN_DATABASE": str(tmp_path / "db.sqlite3"), "SECRET_KEY": "forwarded-test"}
    env.pop("CASTELLAN_BASE_URL", None)
    env.pop("CASTELLAN_TRUSTED_PROXIES", None)
    if trusted:
        env["CASTELLAN_TRUSTED_PROXIES"] = "1"
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
    forged = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "elsewhere.example"}
    try:
        _get_when_up(f"http://127.0.0.1:{port}/")
        page = urllib.request.urlopen(
            urllib.request.Request(f"http://127.0.0.1:{port}/castle/", headers=forged), timeout=10
        )
        cookie = page.headers["Set-Cookie"]
        assert cookie.startswith("session=") and ("; Secure" in cookie) == trusted, cookie
        created = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/v1/tables",
            data=json.dumps({"game": "scorepad", "options": {"players": ["Ola", "Kuba"]}}).encode(),
            headers={"Content-Type": "application/json", **forged},
        )
        link = json.load(urllib.request.urlopen(created, timeout=10))["links"]["referee"]["url"]
        if trusted:
            assert link.startswith("https://elsewhere.example/t/"), link
        else:
            assert link.startswith("http://") and "elsewhere.example" not in link, link
    finally:
        process.terminate()
        process.wait(timeout=10)
