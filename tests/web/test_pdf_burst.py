"""Printed sheets under a burst: built in a helper process, one at a time, the requests waiting in a
short line (bounded per address and in all, for a while), the rest refused at once in words; a
sheet built once is served without waiting, and polls are answered throughout."""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.web.pdf_cache import BUILDER, NICENESS, Builder, Busy, Crowded, SheetCache
from tests.conftest import text
from tests.web.test_cli import _free_port

ROOT = Path(__file__).resolve().parents[2]
FULL = "Castellan is making other sheets just now. Try again in a few seconds."


@contextmanager
def _building(cache: SheetCache, key: str, address: str, results: list | None = None):
    """A build of ``key`` for ``address`` in progress (another thread's) until the block ends."""
    started, release = threading.Event(), threading.Event()

    def slow() -> bytes:
        started.set()
        release.wait(10)
        return f"%PDF-{key}".encode()

    sink = [] if results is None else results
    thread = threading.Thread(target=lambda: sink.append(cache.get(key, slow, address)))
    thread.start()
    assert started.wait(10)
    try:
        yield
    finally:
        release.set()
        thread.join(10)


@contextmanager
def _waiting(cache: SheetCache, key: str, address: str, results: list):
    """A request for ``key`` from ``address`` waiting in the line (another thread's); its answer
    goes to ``results`` once the block's builds are released."""
    before = cache.in_line
    thread = threading.Thread(
        target=lambda: results.append(cache.get(key, lambda: b"%PDF-" + key.encode(), address))
    )
    thread.start()
    while cache.in_line == before and thread.is_alive():
        time.sleep(0.01)  # until it holds its place: nothing is timed, it only ever takes a moment
    yield thread


def test_a_request_waits_for_the_build_ahead_and_finds_the_same_sheet_built():
    cache, answers = SheetCache(), []
    with _building(cache, "a", "10.0.0.1", answers), _waiting(cache, "a", "10.0.0.2", answers) as waiting:
        assert cache.in_line == 2
    waiting.join(10)
    assert sorted(answers) == [(b"%PDF-a", False), (b"%PDF-a", True)]
    assert cache.builds == 1 and cache.in_line == 0


def test_beyond_its_places_an_address_is_refused_at_once_and_another_address_still_gets_one():
    cache, answers = SheetCache(queue=3, per_address=2), []
    with _building(cache, "a", "10.0.0.1", answers), _waiting(cache, "b", "10.0.0.1", answers) as own:
        with pytest.raises(Crowded):
            cache.get("c", lambda: b"never", "10.0.0.1")
        with _waiting(cache, "d", "10.0.0.2", answers) as other:
            assert cache.in_line == 3
    own.join(10)
    other.join(10)
    assert sorted(answers) == [(b"%PDF-a", True), (b"%PDF-b", True), (b"%PDF-d", True)]


def test_a_full_line_refuses_at_once_and_a_sheet_built_before_is_still_served():
    cache, answers = SheetCache(queue=1, per_address=5), []
    assert cache.get("z", lambda: b"%PDF-z", "10.0.0.9") == (b"%PDF-z", True)
    with _building(cache, "a", "10.0.0.1", answers), _waiting(cache, "b", "10.0.0.2", answers) as waiting:
        with pytest.raises(Busy) as refused:
            cache.get("c", lambda: b"never", "10.0.0.3")
        assert not isinstance(refused.value, Crowded)
        assert cache.get("z", lambda: b"never", "10.0.0.3") == (b"%PDF-z", False)
    waiting.join(10)
    assert cache.in_line == 0


def test_a_turn_that_does_not_come_in_time_gives_its_place_back():
    cache = SheetCache(wait=0)
    with _building(cache, "a", "10.0.0.1"):
        with pytest.raises(Busy):
            cache.get("b", lambda: b"never", "10.0.0.2")
        assert cache.in_line == 1  # the build only
    assert cache.get("b", lambda: b"%PDF-b", "10.0.0.2") == (b"%PDF-b", True)


def test_the_refusals_say_why_in_the_players_words_and_when_to_ask_again(app, browser):
    cache = app.extensions["castellan.sheets"] = SheetCache(queue=1, per_address=1)
    with _building(cache, "held", "127.0.0.1"):  # the test client's address
        crowded = browser.get("/print/score-pad.pdf")
        assert crowded.status_code == 429 and crowded.headers["Retry-After"] == "5"
        assert "This address already has 1 sheet waiting to be made. Wait for it, then try again." in text(
            crowded
        )
        polish = browser.get("/print/score-pad.pdf", headers={"Accept-Language": "pl"})
        assert "Dla tego adresu czeka już na przygotowanie 1 arkusz." in text(polish)
        with _waiting(cache, "other", "10.0.0.2", []):
            full = browser.client.get("/print/score-pad.pdf", environ_base={"REMOTE_ADDR": "10.0.0.3"})
            assert full.status_code == 503 and full.headers["Retry-After"] == "5"
            assert FULL in text(full)
    built = browser.get("/print/score-pad.pdf")
    assert built.status_code == 200 and built.data[:5] == b"%PDF-"


def test_sheets_are_built_in_a_helper_process_below_the_servers_priority():
    assert BUILDER.run(os.getpid) != os.getpid()
    assert BUILDER.run(os.nice, 0) == min(19, os.nice(0) + NICENESS)


def test_a_prestarted_helper_is_there_before_the_first_sheet_and_below_the_servers_priority():
    """``castellan serve`` starts each worker's helper with the worker (gunicorn's post_worker_init),
    so that its start is not paid during the first burst of sheets; the thread that starts it is
    of low priority, and so is the helper from its first instruction."""
    ours = os.nice(0)
    builder = Builder()
    before = {child.pid for child in multiprocessing.active_children()}
    builder.prestart().join(60)
    started = {child.pid for child in multiprocessing.active_children()} - before
    assert len(started) == 1  # there before any sheet was asked for
    assert builder.run(os.getpid) in started  # and it is the one that builds
    assert builder.run(os.nice, 0) == min(19, ours + NICENESS)  # lowered once, not twice
    assert os.nice(0) == ours  # only the starting thread was lowered


def test_a_helper_leaves_with_its_worker_even_one_killed_outright():
    """A worker killed with ``kill -9`` runs no hook: its helper sees it gone and ends too, rather
    than staying behind for good (one more after every server stopped that way)."""
    worker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os; from companion.web.pdf_cache import BUILDER; "
            "print(BUILDER.run(os.getpid), flush=True); import time; time.sleep(60)",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    helper = int(worker.stdout.readline())
    assert _running(helper)
    _kill_and_expect_gone(worker, helper, 15)


def test_a_helper_still_starting_when_its_worker_is_killed_leaves_too():
    """Killed while its helper imports the app, the worker leaves it to another parent before the
    helper looks: the helper knows its worker by pid, not by the parent it finds."""
    script = (
        "import multiprocessing, time\n"
        "from companion.web.pdf_cache import Builder\n"
        "Builder().prestart()\n"
        "while not multiprocessing.active_children():\n"
        "    time.sleep(0.001)\n"
        "print([p.pid for p in multiprocessing.active_children()], flush=True)\n"
        "time.sleep(60)\n"
    )
    worker = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    (helper,) = json.loads(worker.stdout.readline())
    _kill_and_expect_gone(worker, helper, 30)


def test_a_leaving_worker_ends_its_helper_at_once_even_one_still_starting():
    """gunicorn's worker_exit hook (``Builder.stop``): the helper is ended, not waited for, so that
    ``castellan serve`` ends as soon as its workers do, even when a helper is still importing."""
    script = (
        "import multiprocessing, time; from companion.web.pdf_cache import Builder; "
        "b = Builder(); b.prestart(); time.sleep(0.3); "
        "helpers = [p.pid for p in multiprocessing.active_children()]; b.stop(); print(helpers, flush=True)"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    helpers = json.loads(done.stdout)
    assert len(helpers) == 1 and not _running(helpers[0])
    assert time.monotonic() - started < 10  # output closed: the helper held it no longer


def _kill_and_expect_gone(worker: subprocess.Popen, helper: int, seconds: float) -> None:
    """``kill -9`` the worker; its helper must be gone within ``seconds`` (else it is killed too)."""
    worker.kill()
    worker.wait()
    deadline = time.monotonic() + seconds
    while _running(helper) and time.monotonic() < deadline:
        time.sleep(0.1)
    if _running(helper):
        os.kill(helper, signal.SIGKILL)
        pytest.fail("the helper outlived its worker")


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs (an ended one not yet reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_helper_that_died_is_a_busy_refusal_and_the_next_build_starts_another():
    builder = Builder()
    helper = builder.run(os.getpid)
    os.kill(helper, signal.SIGKILL)
    with pytest.raises(Busy):
        builder.run(os.getpid)
    assert builder.run(os.getpid) not in (helper, os.getpid())


def _sheet_urls(count: int) -> list[str]:
    """``count`` different sheets to ask for (sheets, papers, languages)."""
    import printables

    return [
        f"/print/{sheet.slug}.pdf?paper={paper}&lang={lang}"
        for lang in ("en", "fr", "pl")
        for paper in ("a4", "letter")
        for sheet in printables.all_sheets()
    ][:count]


@pytest.fixture
def server(tmp_path):
    """``castellan serve`` with one worker of 8 threads, sheets limited by the line alone."""
    port = _free_port()
    env = {
        **os.environ,
        "CASTELLAN_DATABASE": str(tmp_path / "c.sqlite3"),
        "SECRET_KEY": "burst",
        "CASTELLAN_PDFS_PER_MINUTE": "1000",
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--workers", "1", "--threads", "8"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _when_up(port)
        yield port
    finally:
        process.terminate()
        process.communicate(timeout=15)


def _when_up(port: int) -> None:
    """Once the server answers (a loaded machine may take a minute to start it)."""
    deadline = time.monotonic() + 120
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_a_burst_of_sheets_is_answered_in_words_while_the_polls_go_on(server):
    made = http.client.HTTPConnection("127.0.0.1", server, timeout=30)
    made.request(
        "POST",
        "/api/v1/tables",
        json.dumps({"game": "scorepad", "options": {"players": ["Ola"]}}),
        {"Content-Type": "application/json"},
    )
    token = json.loads(made.getresponse().read())["links"]["referee"]["token"]
    urls = _sheet_urls(60)
    pending, answers, polls, lock = [len(urls)], [], [], threading.Lock()

    def ask(url: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server, timeout=60)
        conn.request("GET", url)
        response = conn.getresponse()
        body = response.read()
        with lock:
            answers.append((url, response.status, response.getheader("Retry-After"), body))
            pending[0] -= 1

    def poll() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server, timeout=60)
        while pending[0]:
            conn.request("GET", f"/t/{token}/live")
            response = conn.getresponse()
            response.read()
            polls.append((response.status, pending[0]))

    poller = threading.Thread(target=poll)
    poller.start()
    burst = [threading.Thread(target=ask, args=(url,)) for url in urls]
    for thread in burst:
        thread.start()
    for thread in [*burst, poller]:
        thread.join(120)
    assert len(answers) == len(urls)
    built = [url for url, status, _retry, body in answers if status == 200 and body[:5] == b"%PDF-"]
    crowded = [body for _url, status, retry, body in answers if status == 429 and retry == "5"]
    full = [body for _url, status, retry, body in answers if status == 503 and retry == "5"]
    assert len(built) + len(crowded) + len(full) == len(urls), [a[:3] for a in answers]
    assert built  # the first ones in the line were built
    assert all(b"sheets waiting to be made" in body for body in crowded)
    assert all(FULL.encode() in body.replace(b"\n", b" ") for body in full)
    assert [status for status, _pending in polls if status not in (200, 304)] == []
    # Polls answered after the first sheet's answer and before the last one's.
    assert [pending for _status, pending in polls if 0 < pending < len(urls)] != []
