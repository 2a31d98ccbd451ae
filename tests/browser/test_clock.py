"""The table clock on 360 px touch phones: two phones whose own clocks disagree by five minutes draw
the same turn timer (the server's time is the truth); a pause stops the clock on every phone and
resuming starts it again; a chess clock running out is said on every phone, and the referee's
"add time" brings it back on every phone; a timed play's thinking times pass axe-core and fit the
phone in three languages."""

from __future__ import annotations

import json
import re
import urllib.request
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import PHONE, _context, invite_href, serving
from tests.browser.test_narrow import NARROW, assert_fits, phone_in

pytestmark = pytest.mark.browser

FAST = timedelta(minutes=5)  # how far the watcher's own clock is ahead of the referee's (and the server's)
PAUSED = "The table is paused: its time does not count in the play's length until the referee resumes it."
RAN_OUT = "Ola's time has run out: the table decides what happens."


@pytest.fixture(scope="module")
def clock_app(tmp_path_factory):
    """A Castellan of this module's own, whose database the tests reach (a chess clock run down)."""
    from companion.app import create_app
    from companion.store import db

    app = create_app(
        {
            "DATABASE": str(tmp_path_factory.mktemp("clock") / "castellan.sqlite3"),
            "SECRET_KEY": "clock-tests",
            "POLL_SECONDS": 0.5,
            "TABLES_PER_MINUTE": 100_000,
        }
    )
    yield app
    db.dispose(app.config["DATABASE"])


@pytest.fixture(scope="module")
def clock_server(clock_app):
    yield from serving(clock_app)


@pytest.fixture
def referee(chromium):
    """The referee's phone: 360 px, touch, its clock right."""
    yield from _context(chromium, **{**PHONE, "viewport": NARROW})


@pytest.fixture
def watcher(chromium):
    """A second phone at the table: 360 px, touch, with its own cookies."""
    yield from _context(chromium, **{**PHONE, "viewport": NARROW})


def _start_zamek(page, server: str, clock: str, minutes: str = "10") -> str:
    """Start a basic Zamek table of Ola and Kuba with ``clock`` (the start form's radio's label);
    the viewer's address."""
    page.goto(server + "/zamek/")
    page.get_by_label("1.").fill("Ola")
    page.get_by_label("2.").fill("Kuba")
    page.get_by_label(clock).check()
    page.get_by_label("Minutes per player (chess clock)").fill(minutes)
    page.get_by_role("button", name="Start the table").click()
    expect(page.get_by_text("You are the referee")).to_be_visible()
    address = invite_href(page, "Viewer")
    return address.replace(address.split("/t/")[0], server)


def _ticking(page) -> None:
    """Wait until the page's clock is drawn and ticking from its offset to the server."""
    expect(page.locator("html")).to_have_attribute("data-clock-offset", re.compile(r"\d"))
    expect(page.locator(".clock-time[data-clock-dir]")).to_have_count(1)


def test_two_phones_whose_own_clocks_disagree_draw_the_same_time(clock_server, referee, watcher):
    referee.context.clock.install(time=datetime.now(UTC))
    watcher.context.clock.install(time=datetime.now(UTC) + FAST)  # its owner set it five minutes fast
    viewer = _start_zamek(
        referee, clock_server, "A turn timer: how long the player to move has been thinking"
    )
    watcher.goto(viewer)
    # Ola turns a card over and puts it back: both phones see Kuba's turn begin in a fragment of the
    # table, the way a phone learns most of its offsets to the server during a game.
    referee.locator(".zk-places input[value='1']").check()
    referee.get_by_label("Its number").fill("30")
    referee.get_by_role("button", name="Put it back").click()
    for page in (referee, watcher):
        expect(page.get_by_text("Kuba is thinking:")).to_be_visible(timeout=5_000)
        _ticking(page)
    # The same moment on both phones: half way between two of the server's seconds as the referee's
    # phone reckons them (its steady clock plus its offset to the server), a few seconds from now, so
    # two phones agreeing within half a second draw the same digits then.
    reckoned = referee.evaluate(
        """() => {
            const clock = document.querySelector('[data-clock-now]');
            const span = clock.querySelector('[data-clock-dir]');
            const offset = Number(document.documentElement.dataset.clockOffset);
            const now = Number(clock.dataset.clockNow), seconds = Number(span.dataset.clockSeconds);
            const serverNow = performance.now() + offset;
            const whole = Math.floor(seconds + (serverNow - now) / 1000) + 3;
            const then = now + (whole + 0.5 - seconds) * 1000;
            return {at: Math.round(Date.now() + (then - serverNow)), drawn: whole};
        }"""
    )
    at = datetime.fromtimestamp(reckoned["at"] / 1000, UTC)
    referee.context.clock.pause_at(at)
    watcher.context.clock.pause_at(at + FAST)
    ahead = watcher.evaluate("Date.now()") - referee.evaluate("Date.now()")
    assert abs(ahead - FAST.total_seconds() * 1000) <= 1, (
        "the two phones' own clocks disagree by five minutes"
    )
    drawn = [page.locator(".clock-time").text_content() for page in (referee, watcher)]
    minutes, seconds = divmod(reckoned["drawn"], 60)
    assert drawn == [f"{minutes}:{seconds:02}"] * 2, "the two phones disagree by half a second or more"


def test_a_pause_stops_the_clock_on_every_phone_and_resuming_starts_it(clock_server, referee, watcher):
    for page in (referee, watcher):
        page.context.clock.install(time=datetime.now(UTC))
    viewer = _start_zamek(referee, clock_server, "A chess clock: a time bank per player")
    watcher.goto(viewer)
    for page in (referee, watcher):
        _ticking(page)
        before = page.locator(".clock-time").first.text_content()
        page.context.clock.run_for(3_000)
        assert page.locator(".clock-time").first.text_content() != before, "a running clock ticks"

    referee.get_by_role("button", name="Pause the table").click()
    for page in (referee, watcher):
        expect(page.get_by_text(PAUSED)).to_be_visible(timeout=5_000)
        expect(page.locator(".clock-time[data-clock-dir]")).to_have_count(0)
        stopped = page.locator(".clock-time").all_text_contents()
        page.context.clock.run_for(10_000)
        assert page.locator(".clock-time").all_text_contents() == stopped, "a paused clock stands still"
        assert_accessible(page)

    referee.get_by_role("button", name="Resume the table").click()
    for page in (referee, watcher):
        expect(page.get_by_text(PAUSED)).to_have_count(0, timeout=5_000)
        _ticking(page)


def _run_down(app, seconds_left: float) -> None:
    """Charge Ola, to move on the newest table, so that her bank holds ``seconds_left`` seconds."""
    from companion import store
    from companion.http.context import get_db
    from companion.rules import clock

    with app.app_context():
        conn = get_db()
        table_id = (
            conn.execute(store.db.tables.select().order_by(store.db.tables.c.created_at.desc()).limit(1))
            .first()
            .id
        )
        kept = store.table_clock(conn, table_id)
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        spent = clock.left(kept, "p1", now) - seconds_left
        with store.base.write(conn):
            conn.execute(
                store.db.table_clocks.update()
                .where(store.db.table_clocks.c.table_id == table_id)
                .values(clock=store.base.dump({**kept, "used": {"p1": spent}}))
            )


def test_a_chess_clock_running_out_is_said_on_every_phone_and_added_time_brings_it_back(
    clock_app, clock_server, referee, watcher
):
    viewer = _start_zamek(referee, clock_server, "A chess clock: a time bank per player", minutes="1")
    _run_down(clock_app, 2)  # Ola has thought for almost her whole minute already
    referee.reload()
    watcher.goto(viewer)
    for page in (referee, watcher):
        # Each phone counts down by itself, without asking the server, and says it when it runs out.
        expect(page.get_by_text(RAN_OUT)).to_be_visible(timeout=6_000)
        expect(page.locator(".clock-time").first).to_have_text("0:00")
    assert_accessible(watcher)

    referee.get_by_label("Minutes to add").fill("2")
    referee.get_by_role("button", name="Add time").click()
    for page in (referee, watcher):
        expect(page.get_by_text(RAN_OUT)).to_be_hidden(timeout=5_000)
        expect(page.locator(".clock-time").first).to_have_text(re.compile(r"^1:[0-5]\d$"))


def _timed_play(server: str) -> str:
    """A Zamek play with each player's thinking time, imported as another server's export; its page."""
    play = {
        "id": "timed-zamek-0001",
        "game": "zamek",
        "started": "2026-11-20T19:00:00Z",
        "finished": "2026-11-20T20:00:00Z",
        "players": [
            {"name": "Konstancja", "team": None, "score": 7, "winner": True, "thinking_seconds": 1925},
            {"name": "Kuba", "team": None, "score": 5, "winner": False, "thinking_seconds": 48},
        ],
        "details": {},
    }
    body = json.dumps({"format": "castellan-plays", "version": 1, "plays": [play]}).encode()
    request = urllib.request.Request(
        server + "/api/v1/plays/import", body, {"Content-Type": "application/json"}, method="POST"
    )
    urllib.request.urlopen(request, timeout=10).close()
    return f"{server}/history/{play['id']}"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["Thinking time", "32 min 05 s", "48 s"]),
        ("fr", ["Temps de réflexion", "32 min 05 s", "48 s"]),
        ("pl", ["Czas do namysłu", "32 min 05 s", "48 s"]),
    ],
)
def test_a_timed_plays_thinking_times_fit_a_phone_and_pass_axe_in_every_language(
    clock_server, chromium, lang, said
):
    page = phone_in(chromium, lang, _timed_play(clock_server))
    try:
        block = page.locator("main").inner_text()
        assert [words for words in said if words not in block] == []
        assert_fits(page, f"a timed play in {lang}")
        assert_accessible(page)
    finally:
        page.context.close()
