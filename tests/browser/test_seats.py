"""Seats and rematches on real 360 px touch phones (issue 37, items 3 and 4): a seat the referee frees
leaves the wrong phone's open tab at its next poll and opens on the right phone; a rematch is offered
to every phone of the finished table at its next poll, a player's phone on the same player's seat,
still private to it, the viewer's on the viewer's link. No phone reloads or rescans."""

from __future__ import annotations

import html
import json
import random
import re
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from companion.rules import forteresse
from tests.browser.conftest import _context, invite_href, settled
from tests.browser.test_double_taps import forteresse_by_api
from tests.browser.test_every_page_fits import _api
from tests.browser.test_forteresse import KUBA, STANDING, _draw

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
LOST = "Kuba's seat is no longer open on this phone"


@pytest.fixture
def referee(chromium):
    """The referee's 360x740 touch phone."""
    yield from _context(chromium, viewport=NARROW)


@pytest.fixture
def phone_one(chromium):
    """Another 360x740 touch phone at the table."""
    yield from _context(chromium, viewport=NARROW)


@pytest.fixture
def phone_two(chromium):
    """A third 360x740 touch phone at the table."""
    yield from _context(chromium, viewport=NARROW)


def _polls(page) -> list[str]:
    """What this phone's script is answered to each of its polls from now on, in order (a 304: "")."""
    answers: list[str] = []

    def keep(response):
        if response.url.endswith("/live"):
            answers.append("" if response.status == 304 else html.unescape(response.text()))

    page.on("response", keep)
    return answers


def _within_one_poll(page, answers: list[str], said: str, since: int) -> None:
    """The first poll sent after the change at ``since`` brought ``said``: the poll already on its way
    then may have been answered as before, no other (a phone polls one request at a time). The
    screen may show it before Playwright has handed this script the poll's answer: wait for that."""
    deadline = time.monotonic() + 10
    while not any(said in body for body in answers[since:]) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    brought = [i for i, body in enumerate(answers[since:]) if said in body]
    assert brought and brought[0] <= 1, answers[since:]


def test_a_freed_seat_leaves_the_wrong_phone_at_its_next_poll_and_opens_on_the_right_one(
    server, referee, phone_one, phone_two
):
    wrong, right = phone_one, phone_two
    referee.goto(server + "/forteresse/")
    referee.get_by_role("combobox", name="Player A").fill("Ola")
    referee.get_by_role("combobox", name="Player B").fill("Kuba")
    referee.get_by_role("button", name="Start a Forteresse table").click()
    expect(referee.get_by_text("You are the referee")).to_be_visible()
    kuba = server + "/t/" + invite_href(referee, "Kuba").split("/t/", 1)[1]

    # Ola's phone scans Kuba's code by mistake and draws there: Kuba's secret is on its screen.
    wrong.goto(kuba)
    _draw(wrong, KUBA)
    expect(wrong.get_by_text("Your fortress is drawn")).to_be_visible()
    assert STANDING.search(wrong.content())
    right.goto(kuba)
    expect(right.get_by_text("Kuba's link is already open on another phone")).to_be_visible()

    # The referee's invitations followed by themselves: Kuba's seat is taken, with its Free button.
    freeing = referee.locator(".invite-card", has_text="Taken: this link is open on Kuba's phone")
    if not referee.locator("details.invites").evaluate("panel => panel.open"):
        referee.locator("details.invites summary").tap()
    polls = _polls(wrong)
    with referee.expect_response(lambda answer: answer.url.endswith("/release")):
        freeing.get_by_role("button", name="Free the seat (phone lost)").tap()
    seen = len(polls)  # the polls answered before the release was: none of them counts
    expect(
        referee.get_by_text("Kuba's seat is free: the next phone to open its link takes it.")
    ).to_be_visible()

    expect(wrong.get_by_text(LOST)).to_be_visible()
    _within_one_poll(wrong, polls, LOST, seen)
    assert not STANDING.search(wrong.content())  # nothing of Kuba's fortress is left on this phone
    expect(wrong.locator("#own-fortress")).to_have_count(0)
    expect(wrong.locator("#live form")).to_have_count(0)

    right.goto(kuba)
    expect(right.get_by_text("This is Kuba's private screen")).to_be_visible()
    expect(right.locator("#own-fortress")).to_be_visible()
    wrong.reload()  # and the wrong phone cannot take it back
    expect(wrong.get_by_text("Kuba's link is already open on another phone")).to_be_visible()


def _get(server: str, path: str) -> dict:
    with urllib.request.urlopen(server + path, timeout=10) as answer:
        return json.load(answer)


def _a_match_played_by_a_program(server: str) -> dict:
    """A Forteresse match on phones, made and played to its end through the JSON API (no phone has
    claimed a seat yet, so the program plays both); its links as the API gives them."""
    made, tokens = forteresse_by_api(server)
    table, rng = made["table"], random.Random(37)
    state = forteresse.new_table(
        {"mode": "phones", "first": "a", "names": {"a": "Ola", "b": "Kuba"}}, 0
    )  # the moves' own state: the program knows both fortresses, the API shows each seat its own
    while (move := forteresse.random_legal_action(state, rng)) is not None:
        actor, action = move
        table = _api(
            server, f"/api/v1/tables/{tokens[actor]}/actions", {"action": action, "version": table["version"]}
        )
        state = forteresse.apply(state, action, actor)
    assert _get(server, f"/api/v1/tables/{tokens['referee']}")["finished"]
    return made["links"]


def test_a_rematch_is_offered_at_the_next_poll_to_a_players_phone_and_a_viewers_in_their_roles(
    server, referee, phone_one, phone_two
):
    links = _a_match_played_by_a_program(server)
    ola, viewer = phone_one, phone_two
    ola_seat = next(seat["token"] for seat in links["seats"] if seat["seat"] == "a")
    ola.goto(server + "/t/" + ola_seat)
    expect(ola.get_by_text("This is Ola's private screen")).to_be_visible()
    viewer.goto(server + "/t/" + links["viewer"]["token"])
    expect(viewer.get_by_text("You are watching")).to_be_visible()
    for phone in (ola, viewer):
        expect(phone.get_by_text("This table is finished.")).to_be_visible()
        expect(phone.get_by_role("link", name="Join the rematch")).to_have_count(0)
    finished = server + "/t/" + links["referee"]["token"]
    referee.goto(finished)
    polls = {"Ola": _polls(ola), "viewer": _polls(viewer)}

    settled(referee)
    with referee.expect_response(lambda answer: answer.url.endswith("/rematch")):
        referee.get_by_role("button", name="Rematch").tap()
    seen = {who: len(answers) for who, answers in polls.items()}
    expect(referee).not_to_have_url(finished)
    rematch = _get(server, "/api/v1/tables/" + referee.url.rsplit("/t/", 1)[1])
    assert rematch["role"] == "referee" and not rematch["finished"]

    for who, phone in (("Ola", ola), ("viewer", viewer)):
        join = phone.get_by_role("link", name="Join the rematch")
        expect(join).to_be_visible()
        _within_one_poll(phone, polls[who], "Join the rematch", seen[who])
        box = join.bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= NARROW["width"], (who, box)
    expect(
        ola.get_by_text("The rematch is started: Ola's seat there, still private to this phone.")
    ).to_be_visible()
    expect(viewer.get_by_text("The rematch is started: watch it from here.")).to_be_visible()

    settled(ola)
    ola.get_by_role("link", name="Join the rematch").tap()
    expect(ola).not_to_have_url(server + "/t/" + ola_seat)
    expect(ola.get_by_text("This is Ola's private screen")).to_be_visible()
    expect(ola.get_by_role("button", name="This is my fortress")).to_be_visible()  # round 1 of the rematch
    settled(viewer)
    viewer.get_by_role("link", name="Join the rematch").tap()
    expect(viewer).not_to_have_url(server + "/t/" + links["viewer"]["token"])
    expect(viewer.get_by_text("You are watching")).to_be_visible()
    watched = viewer.url.rsplit("/t/", 1)[1]
    assert _get(server, f"/api/v1/tables/{watched}")["role"] == "viewer"
    seat = ola.url.rsplit("/t/", 1)[1]
    assert {watched, seat}.isdisjoint({links["viewer"]["token"], ola_seat})

    # Ola's new seat is still hers alone: any other phone opening its address is refused.
    referee.goto(ola.url)
    expect(referee.get_by_text(re.compile("Ola's link is already open on another phone"))).to_be_visible()
