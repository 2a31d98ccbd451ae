"""Every acknowledged move survives ``kill -9`` of the real server, exactly once.

The real server (``python -m companion.cli serve``) runs on a free port of 127.0.0.1 while
phones post moves to one table, each with its own Idempotency-Key, retrying the same move
with the same key whenever an answer is lost. The server is killed with SIGKILL at moments
spread over the phones' work and restarted; at the end every move a phone saw acknowledged is in the log once.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHONES = 4
MOVES_EACH = 12
KILLS = 3
DEADLINE = 120  # seconds for the whole test: a hung server must not hang the suite


class Server:
    """The real server in a child process, killed and restarted on demand."""

    def __init__(self, tmp_path: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.env = {
            **os.environ,
            "CASTELLAN_DATABASE": str(tmp_path / "castellan.sqlite3"),
            "SECRET_KEY": "kill-test",
            "CASTELLAN_BASE_URL": f"http://127.0.0.1:{self.port}",
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: the kill reaches every worker it starts
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/v1/openapi.json", timeout=1).read()
                return
            except (OSError, http.client.HTTPException):
                time.sleep(0.05)
        raise AssertionError("the server did not start within 30 seconds")

    def kill(self) -> None:
        """``kill -9`` of the server and every process it started, at once."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def call(
        self, method: str, path: str, body: dict | None = None, key: str | None = None
    ) -> tuple[int, dict]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/api/v1{path}",
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json", **({"Idempotency-Key": key} if key else {})},
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"{}")


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path)
    running.start()
    yield running
    if running.process.poll() is None:
        os.killpg(running.process.pid, signal.SIGTERM)
        running.process.wait(timeout=10)


def test_acknowledged_moves_survive_kill_9_exactly_once(server):
    status, created = server.call("POST", "/tables", {"game": "scorepad", "options": {"players": ["Ola"]}})
    assert status == 201
    token = created["links"]["referee"]["token"]
    acknowledged: list[int] = []
    lost_answers: list[int] = []
    stop_at = time.monotonic() + DEADLINE

    def phone(number: int) -> None:
        for move in range(MOVES_EACH):
            points = number * 1000 + move  # each move is told apart by its points
            while time.monotonic() < stop_at:
                try:
                    _status, table = server.call("GET", f"/tables/{token}")
                    status, _answer = server.call(
                        "POST",
                        f"/tables/{token}/actions",
                        {"action": {"type": "round", "points": [points]}, "version": table["version"]},
                        key=f"phone{number}-move{move}",
                    )
                except (OSError, http.client.HTTPException, ValueError, KeyError):
                    lost_answers.append(points)
                    time.sleep(0.05)  # no answer: the server is down; send the same move again
                    continue
                if status == 200:
                    acknowledged.append(points)
                    break
                assert status == 409, status  # stale: read the table again and resend

    phones = [threading.Thread(target=phone, args=(number,)) for number in range(1, PHONES + 1)]
    for thread in phones:
        thread.start()
    rng = random.Random(9)
    for kill in range(1, KILLS + 1):  # each kill falls while the phones are still posting
        while len(acknowledged) < kill * PHONES * MOVES_EACH // (KILLS + 1) and time.monotonic() < stop_at:
            time.sleep(0.005)
        time.sleep(rng.uniform(0, 0.05))
        server.kill()
        server.start()
    for thread in phones:
        thread.join(timeout=max(1, stop_at - time.monotonic()))
    assert not any(thread.is_alive() for thread in phones), "the phones did not finish in time"
    _status, log = server.call("GET", f"/tables/{token}/log")
    recorded = [int(entry["text"].split("Ola ")[1].rstrip(".")) for entry in log["actions"]]
    assert len(acknowledged) == PHONES * MOVES_EACH
    assert lost_answers, "no kill fell while the phones were posting: the test proved nothing"
    assert sorted(recorded) == sorted(acknowledged)  # every acknowledged move, each exactly once
    _status, table = server.call("GET", f"/tables/{token}")
    assert table["view"]["totals"] == [sum(acknowledged)]
