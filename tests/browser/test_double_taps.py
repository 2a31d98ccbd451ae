"""A double tap, or a bouncing thumb, records one move: the second tap lands on nothing the first one
put under the finger (castellan.js, docs/taps.md). Taps are real touches at 360 px, 150 and 300 ms apart,
on every game's most common move. A Forteresse shot refused because the other phone fired first keeps
nothing chosen for the next player's shot, and the end of a game is never under a pinned answer."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from companion.rules import castle
from tests.browser.conftest import own_phone, settled
from tests.browser.test_castle import _dealt_table, _tap_card
from tests.browser.test_every_page_fits import _api
from tests.browser.test_forteresse import KUBA, OLA
from tests.browser.test_tactics import start_tactics, tap_cell

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
GAPS = [150, 300]


@pytest.fixture
def narrow(chromium):
    """A 360x740 touch phone."""
    from tests.browser.conftest import _context

    yield from _context(chromium, viewport=NARROW)


def double_tap(page, control, gap_ms: int) -> tuple[float, float]:
    """Tap the middle of ``control`` twice, ``gap_ms`` apart, as a thumb does; the point tapped."""
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(gap_ms)  # the double tap's own gap, not a wait for the page
    page.touchscreen.tap(x, y)
    return x, y


def undo_under(page, x: float, y: float) -> bool:
    """True when an Undo (or a control marked destructive) covers the point ``(x, y)``."""
    return page.evaluate(
        """([x, y]) => [...document.querySelectorAll('#live .undo button, #live [data-guard]')].some(b => {
            const r = b.getBoundingClientRect();
            return r.width > 0 && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
        })""",
        [x, y],
    )


@pytest.mark.parametrize("gap", GAPS)
def test_score_pad_record_round_twice_records_one_round(server, narrow, gap):
    narrow.goto(server + "/scorepad/")
    narrow.get_by_label("Players, one name per line").fill("Ola\nKuba\nEla\nJan")
    narrow.get_by_role("button", name="Start").click()
    expect(narrow.get_by_text("You are the referee")).to_be_visible()
    narrow.get_by_label("Ola", exact=True).fill("12")
    x, y = double_tap(narrow, narrow.get_by_role("button", name="Record round"), gap)
    expect(narrow.get_by_text("Round 1: Ola 12")).to_be_visible()
    settled(narrow)
    assert not undo_under(narrow, x, y)
    expect(narrow.locator("tbody tr")).to_have_count(1)
    expect(narrow.locator("tfoot .total")).to_have_text(["12", "0", "0", "0"])
    expect(narrow.get_by_text("Undone")).to_have_count(0)


@pytest.mark.parametrize("gap", GAPS)
def test_fort_end_turn_twice_ends_one_turn_and_draws_nothing(server, narrow, gap):
    narrow.goto(server + "/fort/")
    csrf = narrow.locator("input[name=csrf_token]").first.get_attribute("value")
    created = narrow.request.post(
        server + "/tables/new/fort",
        form={"csrf_token": csrf, "players": "2", "name_1": "Ana", "name_2": "Ben"},
    )
    deal = {"type": "deal", "fort_p1": "2S 3S 4S 5S", "fort_p2": "9H 9C 6C 4D"}
    for version, form in enumerate([deal, {"type": "start"}, {"type": "draw"}]):
        narrow.request.post(created.url + "/act", form={"csrf_token": csrf, "version": str(version), **form})
    narrow.goto(created.url)
    x, y = double_tap(narrow, narrow.get_by_role("button", name="End Ana's turn"), gap)
    expect(narrow.get_by_role("button", name="Ben draws a card")).to_be_visible()
    settled(narrow)
    assert not undo_under(narrow, x, y)
    expect(narrow.locator("#live")).to_have_attribute("data-version", "4")  # one move: the end of Ana's turn
    expect(narrow.get_by_text("Ben drew a card")).to_have_count(0)


@pytest.mark.parametrize("gap", GAPS)
def test_zamek_choice_twice_records_one_turn(server, narrow, gap):
    narrow.goto(server + "/zamek/")
    narrow.get_by_label("1.").fill("Ola")
    narrow.get_by_label("2.").fill("Kuba")
    narrow.get_by_role("button", name="Start the table").click()
    narrow.locator("label.zk-place", has_text="12").first.click()
    narrow.get_by_label("Its number").fill("9")
    narrow.get_by_role("button", name="Turn over").click()
    expect(narrow.get_by_text("What does Ola do with 9?")).to_be_visible()
    settled(narrow)
    version = int(narrow.locator("#live").get_attribute("data-version"))
    x, y = double_tap(narrow, narrow.get_by_role("button", name="Put it back"), gap)
    expect(narrow.get_by_text("Kuba's turn: turn over a card.")).to_be_visible()
    settled(narrow)
    assert not undo_under(narrow, x, y)
    expect(narrow.locator("#live")).to_have_attribute("data-version", str(version + 1))
    expect(narrow.get_by_text("Undone")).to_have_count(0)


def _version(page) -> int:
    """The version of the table on ``page``'s screen."""
    return int(page.locator("#live").get_attribute("data-version"))


@pytest.mark.parametrize("gap", GAPS)
def test_castle_a_pile_tapped_twice_plays_one_card(server, narrow, gap):
    _dealt_table(server, narrow)
    settled(narrow)
    version = _version(narrow)
    _tap_card(narrow, "Q", "hearts")
    expect(narrow.locator(".marks")).to_contain_text("may go on the piles marked ✓")
    x, y = double_tap(narrow, narrow.locator('button.pile[value="C2"]'), gap)
    expect(narrow.locator("#whose-turn")).to_have_text("South's turn (North & South, black)")
    settled(narrow)
    assert not undo_under(narrow, x, y)
    expect(narrow.locator("#live")).to_have_attribute("data-version", str(version + 1))
    expect(narrow.locator(".notice-error")).to_have_count(0)
    expect(narrow.locator(".notice-error")).to_have_count(0)


def forteresse_by_api(server: str) -> tuple[dict, dict[str, str]]:
    """A two-phone Forteresse table of Ola (who shoots first) and Kuba made through the API: the API's
    answer, and the tokens of the referee and of each seat (``a``: Ola, ``b``: Kuba)."""
    made = _api(
        server,
        "/api/v1/tables",
        {
            "game": "forteresse",
            "options": {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba"},
        },
    )
    tokens = {"referee": made["links"]["referee"]["token"]}
    return made, tokens | {seat["seat"]: seat["token"] for seat in made["links"]["seats"]}


def _forteresse_drawn(server: str) -> dict[str, str]:
    """``forteresse_by_api``'s table with both fortresses drawn; its tokens."""
    _made, tokens = forteresse_by_api(server)
    for version, (seat, fortress) in enumerate((("a", OLA), ("b", KUBA))):
        action = {"action": {"type": "setup", **fortress}, "version": version}
        _api(server, f"/api/v1/tables/{tokens[seat]}/actions", action)
    return tokens


def _aim(page, cell: str, weapon: str) -> None:
    """Pick a shot's firing cell and weapon, as the shooter says them (two taps)."""
    settled(page)
    page.get_by_role("button", name=cell, exact=True).tap()
    settled(page)
    page.locator("label", has_text=weapon).tap()


@pytest.mark.parametrize("gap", GAPS)
def test_forteresse_a_direction_tapped_twice_fires_one_shot(server, narrow, gap):
    tokens = _forteresse_drawn(server)
    narrow.goto(server + "/t/" + tokens["referee"])
    expect(narrow.locator("#whose-turn")).to_have_text("Ola's turn to shoot.")
    _aim(narrow, "A4", "Rifle")
    x, y = double_tap(narrow, narrow.get_by_role("button", name="→ E"), gap)
    expect(narrow.locator("#whose-turn")).to_have_text("Kuba's turn to shoot.")
    settled(narrow)
    assert not undo_under(narrow, x, y)
    expect(narrow.locator("#live")).to_have_attribute("data-version", "3")  # two fortresses, one shot
    expect(narrow.locator(".notice-error")).to_have_count(0)


@pytest.mark.parametrize("gap", GAPS)
def test_square_tactics_a_card_tapped_twice_plays_one_card(server, narrow, gap):
    start_tactics(narrow, server)
    settled(narrow)
    version = _version(narrow)
    tap_cell(narrow, "A1")
    x, y = double_tap(narrow, narrow.locator(".hand .card-button").first, gap)
    expect(narrow.locator("#last-play")).to_contain_text("on A1.")
    settled(narrow)
    assert not undo_under(narrow, x, y)
    expect(narrow.locator("#live")).to_have_attribute("data-version", str(version + 1))
    expect(narrow.get_by_text("Tap the cell the card was laid on first.")).to_have_count(0)


def test_forteresse_a_shot_refused_because_the_other_phone_fired_keeps_nothing_for_the_next(
    server, narrow, chromium
):
    tokens = _forteresse_drawn(server)
    context, ola = own_phone(chromium, viewport=NARROW)  # the referee's refused move is the point
    try:
        ola.goto(server + "/t/" + tokens["a"])
        narrow.goto(server + "/t/" + tokens["referee"])
        expect(ola.locator("#whose-turn")).to_have_text("Your turn to shoot.")
        # Both aim the same shot; Ola's phone fires first, while the referee is still choosing.
        _aim(narrow, "A4", "Rifle")
        _aim(ola, "A4", "Rifle")
        settled(ola)
        ola.get_by_role("button", name="→ E").tap()
        expect(ola.locator("#whose-turn")).to_have_text("Kuba's turn to shoot.")
        fire = narrow.get_by_role("button", name="→ E")
        box = fire.bounding_box()
        fire.tap()
        expect(narrow.locator("#live .notice-error")).to_have_text(
            "It is now Kuba's turn: your choices were cleared. Nothing was recorded."
        )
        expect(narrow.locator("#whose-turn")).to_have_text("Kuba's turn to shoot.")
        # Nothing is chosen for Kuba's shot: no weapon, no direction to tap.
        expect(narrow.locator("#live input[name=weapon]:checked")).to_have_count(0)
        expect(narrow.get_by_role("button", name="→ E")).to_have_count(0)
        settled(narrow)
        narrow.touchscreen.tap(
            box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        )  # the same spot, once
        settled(narrow)
        expect(narrow.locator("#live")).to_have_attribute("data-version", "3")  # Ola's shot alone
        log = narrow.request.get(server + f"/api/v1/tables/{tokens['referee']}/log").json()["actions"]
        fired = [entry["text"] for entry in log if "fired" in entry["text"]]
        assert len(fired) == 1 and fired[0].startswith("Ola fired a rifle from A4 toward E"), fired
    finally:
        context.close()


def _castle_one_move_from_the_end(server: str) -> tuple[str, dict]:
    """A 4-player Castle table played through the API to its last move (chosen by the rules' own
    random legal moves); its referee's token and that last move."""
    options = {
        "players": 4,
        "dealer": "E",
        "name_N": "Ola",
        "name_E": "Eric",
        "name_S": "Ada",
        "name_W": "West",
    }
    made = _api(server, "/api/v1/tables", {"game": "castle", "options": options})
    token, version = made["links"]["referee"]["token"], made["table"]["version"]
    state = castle.new_table({"players": 4, "dealer": "E"}, 0)
    rng = random.Random(37)
    while True:
        _actor, action = castle.random_legal_action(state, rng)
        after = castle.apply(state, action, "referee")
        if castle.final_score(after) is not None:
            return token, action
        version = _api(server, f"/api/v1/tables/{token}/actions", {"action": action, "version": version})[
            "version"
        ]
        state = after


def _uncovered(page, locator) -> bool:
    """Whether the middle of ``locator``, scrolled on screen, is free of any pinned answer."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return page.evaluate("([x, y]) => !document.elementFromPoint(x, y).closest('.answer')", [x, y])


def test_nothing_covers_castles_final_score_and_winners(server, narrow):
    token, last = _castle_one_move_from_the_end(server)
    narrow.goto(server + "/t/" + token)
    narrow.locator(".card-picker input[name=card]").fill(last.get("card") or last["taken"])
    narrow.get_by_role("button", name="Where may it go?").tap()
    expect(narrow.locator(".marks")).to_be_visible()
    settled(narrow)
    if last["type"] == "play":
        narrow.locator(f'button.pile[value="{last["pile"]}"]').tap()
    else:
        narrow.get_by_role("button", name="Pass: this card was taken").tap()
    expect(narrow.get_by_text("That was the last turn: the game is over.")).to_be_visible()
    settled(narrow)
    final = narrow.locator("#final-score")
    expect(final.locator(".leader")).to_have_text(re.compile(r"(win|wins|A draw)\.$"))
    for part in (final.locator(".leader"), *final.locator("td, th").all()):
        assert _uncovered(narrow, part), part.inner_text()


def test_nothing_covers_the_final_score(server, narrow):
    narrow.goto(server + "/scorepad/")
    narrow.get_by_label("Players, one name per line").fill("Ola\nKuba")
    narrow.get_by_role("button", name="Start").click()
    expect(narrow.get_by_text("You are the referee")).to_be_visible()
    narrow.get_by_label("Ola", exact=True).fill("12")
    narrow.get_by_role("button", name="Record round").click()
    expect(narrow.locator("tfoot .total")).to_have_text(["12", "0"])
    settled(narrow)
    narrow.get_by_role("button", name="Finish the table").click()
    expect(narrow.get_by_text("This table is finished.")).to_be_visible()
    settled(narrow)
    for total in narrow.locator("tfoot .total").all():
        total.scroll_into_view_if_needed()
        box = total.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert narrow.evaluate("([x, y]) => !document.elementFromPoint(x, y).closest('.answer')", [x, y])
