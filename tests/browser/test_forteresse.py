"""Forteresse on real phones: two players draw and shoot on their own phones, and a
player's fortress never reaches the other phone; the resolver works without JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import invite_href

pytestmark = pytest.mark.browser

OLA = {
    "walls": ["B2", "B3", "B4", "B5", "B6", "C2", "C3", "C4", "C5", "C6"],
    "besieged": ["D2", "D3", "D4", "D5", "D6"],
}
KUBA = {
    "walls": ["F2", "F3", "F4", "F5", "F6", "E2", "E3", "E4", "E5", "E6"],
    "besieged": ["B2", "C3", "D4", "B5", "C6"],
}
# What one phone's page may show as a standing wall or besieged: its own fortress only.
STANDING = re.compile(r'class="fc inner (wall|besieged)[^"]*" data-cell="([A-G][1-7])"')


def _draw(page, fortress, button="This is my fortress"):
    """Tap each cell of the drawing grid: once for a wall, twice for a besieged; then send it."""
    for taps, cells in ((1, fortress["walls"]), (2, fortress["besieged"])):
        for cell in cells:
            for _ in range(taps):
                page.locator(f"#c-{cell}-empty").locator("xpath=..").click()
    assert (page.locator(".m-wall:checked").count(), page.locator(".m-besieged:checked").count()) == (10, 5)
    page.get_by_role("button", name=button).click()


def _address(page, server, label):
    href = invite_href(page, label)
    return server + "/t/" + href.split("/t/", 1)[1]


def _start(phone, server) -> tuple[str, str]:
    """A two-phone table of Ola (Player A, who shoots first) and Kuba; their two addresses."""
    phone.goto(server + "/forteresse/")
    phone.get_by_role("combobox", name="Player A").fill("Ola")
    phone.get_by_role("combobox", name="Player B").fill("Kuba")
    phone.locator(".choices label", has_text="Player A").click()
    phone.get_by_role("button", name="Start a Forteresse table").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()
    return _address(phone, server, "Ola"), _address(phone, server, "Kuba")


def _watch_bodies(page) -> list[str]:
    """Every page and fragment this phone receives from a table."""
    bodies: list[str] = []

    def keep(response):
        if "/t/" in response.url and response.status == 200:
            bodies.append(response.text())

    page.on("response", keep)
    return bodies


def test_two_phones_play_and_neither_ever_receives_the_other_fortress(server, phone, second_phone):
    ola, kuba = _start(phone, server)

    kuba_bodies = _watch_bodies(second_phone)
    # Both open their links and draw at the same time: neither drawing waits for the other.
    phone.goto(ola)
    second_phone.goto(kuba)
    expect(second_phone.get_by_text("This is Kuba's private screen")).to_be_visible()
    assert_accessible(second_phone)  # drawing
    _draw(phone, OLA)
    expect(phone.get_by_text("Your fortress is drawn")).to_be_visible()
    _draw(second_phone, KUBA)
    expect(second_phone.locator("#whose-turn")).to_have_text("Ola's turn to shoot.")
    expect(phone.locator("#whose-turn")).to_have_text("Your turn to shoot.", timeout=3_000)
    assert_accessible(phone)  # firing

    # Ola fires a rifle from A4 toward E: in Kuba's fortress B4 and C4 are empty, D4 holds a besieged.
    phone.get_by_role("button", name="A4", exact=True).click()
    expect(phone.get_by_role("button", name="→ E")).to_be_visible()
    assert_accessible(phone)  # a firing cell picked
    assert phone.get_by_role("button", name="↖ NW").count() == 0  # only the legal directions
    phone.locator("label", has_text="Rifle").click()
    phone.get_by_role("button", name="→ E").click()
    expect(phone.locator("#last-shot")).to_contain_text("Besieged killed at D4.")
    expect(second_phone.locator("#last-shot")).to_contain_text("Besieged killed at D4.", timeout=3_000)
    expect(second_phone.locator("#own-fortress [data-cell=D4]")).to_have_class(re.compile("killed"))
    assert_accessible(second_phone)  # hit

    # Kuba fires a cannon from G2 toward W: in Ola's fortress F2 and E2 are empty, D2 holds a besieged.
    second_phone.get_by_role("button", name="G2", exact=True).click()
    second_phone.locator("label", has_text="Cannon").click()
    second_phone.get_by_role("button", name="← W").click()
    expect(second_phone.locator("#last-shot")).to_contain_text("Besieged killed at D2.")
    expect(phone.locator("#own-fortress [data-cell=D2]")).to_have_class(re.compile("killed"), timeout=3_000)

    kuba_cells = {cell for kind in KUBA.values() for cell in kind}
    assert len(kuba_bodies) >= 3
    for body in kuba_bodies:
        shown = {cell for _kind, cell in STANDING.findall(body)}
        assert shown <= kuba_cells, (
            f"Kuba's phone received someone else's fortress: {sorted(shown - kuba_cells)}"
        )
    width = second_phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table scrolls sideways: {width}px"


def test_the_resolver_works_without_javascript(server, chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/forteresse/resolver")
    for taps, cells in ((1, OLA["walls"]), (2, OLA["besieged"])):
        for cell in cells:
            for _ in range(taps):
                page.locator(f"#c-{cell}-empty").locator("xpath=..").click()
    assert (page.locator(".m-wall:checked").count(), page.locator(".m-besieged:checked").count()) == (10, 5)
    page.get_by_role("button", name="Start firing").click()
    page.get_by_role("button", name="A2", exact=True).click()
    assert [b.inner_text() for b in page.locator("button[name=direction]").all()] == ["→ E", "↘ SE"]
    page.locator("label", has_text="Cannon").click()
    page.get_by_role("button", name="→ E").click()
    expect(page.locator("#announcement")).to_contain_text("Wall destroyed at B2.")
    expect(page.locator("[data-cell=A2]")).to_contain_text("C→")
    page.get_by_role("button", name="A3", exact=True).click()
    page.locator("label", has_text="Rifle").click()
    page.get_by_role("button", name="→ E").click()
    expect(page.locator("#announcement")).to_contain_text("Wall.")
    context.close()


def _act(page, address, form) -> None:
    """Post one move from ``page``'s phone as its page would, with its page's token and version."""
    html = page.request.get(address).text()
    start = page.request.get(
        address.split("/t/")[0] + "/forteresse/"
    ).text()  # a form with this phone's token
    fields = {
        "csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', start).group(1),
        "version": re.search(r'data-version="(\d+)"', html).group(1),
    }
    answer = page.request.post(address + "/act", form={**fields, **form})
    assert answer.ok and "notice-error" not in answer.text(), answer.text()[:300]


def test_the_phases_after_a_round_on_two_phones(server, phone, second_phone):
    """A round over (the next drawing), then the game over with every fortress shown: checked by axe."""
    from companion.rules import forteresse

    ola, kuba = _start(phone, server)
    seats = {"a": (phone, ola), "b": (second_phone, kuba)}
    for page, address in seats.values():
        page.goto(address)
    state = forteresse.new_table({"mode": "phones", "first": "a", "names": {"a": "Ola", "b": "Kuba"}}, 0)
    for number, fortresses in enumerate(((OLA, KUBA), (KUBA, OLA)), start=1):
        for seat, fortress in zip(forteresse.SEATS, fortresses, strict=True):
            state = forteresse.apply(state, {"type": "setup", **fortress}, seat)
            marks = {
                **{f"c_{c}": "wall" for c in fortress["walls"]},
                **{f"c_{c}": "besieged" for c in fortress["besieged"]},
            }
            _act(*seats[seat], {"type": "setup", **marks})
        while len(state["rounds"]) == number and state["phase"] == "shooting":
            seat = state["turn"]
            cell = forteresse.view(state, seat)["free_firing_cells"][seat][0]
            action = {
                "type": "shot",
                "from": cell,
                "direction": forteresse.legal_directions(cell)[-1],
                "weapon": "cannon",
            }
            state = forteresse.apply(state, action, seat)
            _act(*seats[seat], action)
        if number == 1:
            phone.goto(seats["a"][1])
            expect(phone.locator("main")).to_contain_text("Your fortress for round 2")
            assert_accessible(phone)  # round 1 over, round 2's drawing
    phone.goto(seats["a"][1])
    expect(phone.locator("main")).to_contain_text("The game is over")
    assert phone.locator(".fort-board").count() >= 4  # every fortress of both rounds, revealed
    assert_accessible(phone)  # the game over


def test_on_paper_a_rifle_is_not_offered_a_wall_destroyed(server, phone):
    """The rules refuse a wall destroyed by a rifle: with the rifle tapped, that answer is not there to tap."""
    phone.goto(server + "/forteresse/")
    phone.get_by_text("On paper", exact=True).click()
    phone.get_by_role("button", name="Start a Forteresse table").click()
    phone.locator("#aim-board button").last.click()
    phone.locator("#live [data-step] button[name=direction]").first.click()
    destroyed = phone.locator("label", has_text="Wall destroyed at")
    expect(destroyed).to_be_visible()
    phone.locator("label", has_text="Rifle").click()
    expect(destroyed).to_be_hidden()
    expect(phone.locator("label", has_text="Besieged killed at")).to_be_visible()
    phone.locator("label", has_text="Cannon").click()
    expect(destroyed).to_be_visible()
