"""Several Castellan processes sharing one database, as behind a load balancer: real servers
(``castellan serve``: one with 2 workers, one with 1), a phone's requests alternating between
them. Sessions and CSRF tokens, polling, Idempotency-Keys and rate limits work across
processes, on SQLite and on PostgreSQL."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.web.test_cli import _free_port, _get_when_up

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.both_backends


@pytest.fixture
def servers(database, tmp_path):
    """Two servers on one database and one secret key: the first with 2 workers, the second with 1."""
    env = {
        **os.environ,
        "CASTELLAN_DATABASE": database,
        "SECRET_KEY": "shared-by-every-worker",
        "CASTELLAN_TABLES_PER_MINUTE": "3",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("CASTELLAN_RATELIMIT_STORAGE", None)
    started, addresses = [], []
    for workers in (2, 1):
        port = _free_port()
        started.append(
            subprocess.Popen(
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
                    str(workers),
                    "--threads",
                    "2",
                ],
                cwd=tmp_path,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        addresses.append(f"http://127.0.0.1:{port}")
    try:
        for address in addresses:
            _get_when_up(address + "/")
        yield addresses
    finally:
        for process in started:
            process.terminate()
        for process in started:
            process.communicate(timeout=15)


class Phone:
    """One phone: its cookies, sent to whichever server the balancer picks."""

    def __init__(self):
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def request(self, url, data=None, headers=None, method=None):
        """(status, headers, body) of one request; errors are answers too."""
        body = urllib.parse.urlencode(data, doseq=True).encode() if isinstance(data, dict) else data
        try:
            with self.opener.open(
                urllib.request.Request(url, body, headers or {}, method=method), timeout=20
            ) as answer:
                return answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def api(self, url, payload, headers=None):
        status, head, body = self.request(
            url, json.dumps(payload).encode(), {"Content-Type": "application/json", **(headers or {})}, "POST"
        )
        return status, head, json.loads(body)


def test_a_session_made_on_one_server_posts_a_form_on_the_other(servers):
    first, second = servers
    phone = Phone()
    _status, _headers, page = phone.request(first + "/")
    csrf = re.search(rb'"X-CSRF-Token": "([^"]+)"', page).group(1).decode()
    status, headers, page = phone.request(
        second + "/tables/new/scorepad", {"csrf_token": csrf, "players": "Ola\nKuba"}
    )
    assert status == 200 and b"Ola" in page and b"Kuba" in page  # followed the redirect to the new table
    # Without the token made on the first server, the second refuses the form.
    stranger = Phone()
    refused, _headers, _page = stranger.request(
        second + "/tables/new/scorepad", {"csrf_token": csrf, "players": "Ada"}
    )
    assert refused == 400


def test_a_move_posted_to_one_server_is_polled_from_the_other_and_a_repeat_lands_once(servers):
    first, second = servers
    phone = Phone()
    status, _headers, created = phone.api(
        first + "/api/v1/tables", {"game": "scorepad", "options": {"players": ["Ola", "Kuba"]}}
    )
    assert status == 201, created
    token = created["links"]["referee"]["token"]
    phone.request(f"{first}/t/{token}")  # the page gives the phone its session (the poll's ETag names it)
    _status, headers, _body = phone.request(f"{second}/t/{token}/live")
    unchanged, _headers, _body = phone.request(
        f"{first}/t/{token}/live", headers={"If-None-Match": headers["ETag"]}
    )
    assert unchanged == 304
    etag = headers["ETag"]

    move = {"action": {"type": "round", "points": [4, 2]}, "version": 0}
    status, headers, answer = phone.api(
        f"{first}/api/v1/tables/{token}/actions", move, {"Idempotency-Key": "k-1"}
    )
    assert status == 200 and answer["version"] == 1
    status, headers, again = phone.api(
        f"{second}/api/v1/tables/{token}/actions", move, {"Idempotency-Key": "k-1"}
    )
    assert status == 200 and headers["Idempotent-Replayed"] == "true" and again == answer

    status, _headers, live = phone.request(f"{second}/t/{token}/live", headers={"If-None-Match": etag})
    assert status == 200 and b'data-version="1"' in live
    _status, _headers, log = phone.request(f"{second}/api/v1/tables/{token}/log")
    assert [entry["text"] for entry in json.loads(log)["actions"]] == ["Round 1: Ola 4, Kuba 2."]


def test_the_rate_limit_counts_every_server_together(servers):
    first, second = servers
    phone = Phone()
    pad = {"game": "scorepad", "options": {"players": ["Ola"]}}
    made = [phone.api(server + "/api/v1/tables", pad)[0] for server in (first, second, first)]
    assert made == [201, 201, 201]
    refused, _headers, answer = phone.api(second + "/api/v1/tables", pad)
    assert refused == 429, answer
