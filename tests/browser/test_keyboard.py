"""Keyboard alone: one move of each game with Tab, Space, Enter and the arrow keys, no pointer.

Every stop on the way shows a visible focus ring (an outline of at least 2 px on the focused
element or the label around it, of 3:1 contrast against what is behind it) and comes in reading
order: never above the stop before it. Two moves are played in dark mode as well.
After the move, the table page is read as a screen reader reads it (the pictures' text
alternatives say what the picture shows), checked by axe and its tap targets measured at both
widths, and its text enlarged.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible, assert_zoomable

pytestmark = pytest.mark.browser

# Where the focus is: is a focus ring drawn on it or on an element around it (a label around a
# hidden radio), its contrast against the background behind it, and how far down the page it lies.
FOCUS = """() => {
  const focused = document.activeElement;
  const luminance = colour => colour.match(/[\\d.]+/g).slice(0, 3).map(Number)
    .map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const backdrop = node => {
    for (; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      if (!/rgba\\(.*, 0\\)$|transparent/.test(colour)) return colour;
    }
    return 'rgb(255, 255, 255)';
  };
  let ring = false, contrast = 0;
  for (let node = focused; node && node !== document.documentElement; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) {
      const [a, b] = [luminance(style.outlineColor), luminance(backdrop(node.parentElement))];
      ring = true; contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      break;
    }
  }
  const box = (focused.closest('label') || focused).getBoundingClientRect();
  return {ring, contrast, top: box.top + window.scrollY, what: focused.outerHTML.slice(0, 120)};
}"""


def tab_to(page, target, limit: int = 150) -> int:
    """Press Tab until ``target`` (or an element inside it) has the focus; the number of presses.

    Fails if a stop on the way has no visible focus ring or lies above the stop before it. Past the
    last control the focus leaves the page (the body has it) and the next Tab starts at the top again.
    """
    last = {"top": 0.0, "what": "the top of the page"}
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS)
        if stop["what"].startswith("<body"):
            last = {"top": 0.0, "what": "the top of the page"}
            continue
        assert stop["ring"], f"no visible focus ring on {stop['what']}"
        assert stop["contrast"] >= 3, (
            f"the focus ring on {stop['what']} has a contrast of {stop['contrast']:.2f} (3:1 at least)"
        )
        assert stop["top"] >= last["top"] - 4, (
            f"the focus jumped back up the page from {last['what']} to {stop['what']}"
        )
        last = stop
        if target.evaluate("e => e.contains(document.activeElement)"):
            return presses
    raise AssertionError(f"{limit} presses of Tab never reached {target}")


def _measured(page) -> None:
    """The table page after the move: no WCAG violation and tap targets of 44 px at 390 and 360 px,
    light and dark, and nothing lost with text at 200 %."""
    assert_accessible(page)
    assert_zoomable(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_score_pad_round_by_keyboard(server, phone, scheme):
    phone.emulate_media(color_scheme=scheme)
    phone.goto(server + "/scorepad/")
    tab_to(phone, phone.get_by_label("Players, one name per line"))
    phone.keyboard.type("Ola\nKuba")
    tab_to(phone, phone.get_by_role("button", name="Start"))
    phone.keyboard.press("Enter")
    expect(phone.get_by_text("You are the referee")).to_be_visible()
    tab_to(phone, phone.get_by_label("Ola", exact=True))
    phone.keyboard.type("12")
    phone.keyboard.press("Tab")  # Kuba's sign, then Kuba's points
    phone.keyboard.press("Tab")
    phone.keyboard.type("5")
    phone.keyboard.press("Enter")
    expect(phone.locator("tfoot .total")).to_have_text(["12", "5"])
    _measured(phone)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_forteresse_drawn_and_fired_by_keyboard(server, phone, scheme):
    phone.emulate_media(color_scheme=scheme)
    phone.goto(server + "/forteresse/resolver")
    # Each cell is one stop; the arrow keys turn it empty -> wall -> besieged.
    tab_to(phone, phone.locator("#c-B2-empty"))
    walls, besieged = (
        set(["B2", "C2", "D2", "E2", "F2", "B3", "C3", "D3", "E3", "F3"]),
        set(["B4", "C4", "D4", "E4", "F4"]),
    )
    for row in range(2, 7):
        for column in "BCDEF":
            cell = f"{column}{row}"
            if cell in walls | besieged:
                phone.keyboard.press("ArrowRight")
            if cell in besieged:
                phone.keyboard.press("ArrowRight")
            expect(
                phone.locator(
                    f"#c-{cell}-{'wall' if cell in walls else 'besieged' if cell in besieged else 'empty'}"
                )
            ).to_be_checked()
            phone.keyboard.press("Tab")
    assert (phone.locator(".m-wall:checked").count(), phone.locator(".m-besieged:checked").count()) == (10, 5)
    tab_to(phone, phone.get_by_role("button", name="Start firing"))
    phone.keyboard.press("Enter")
    tab_to(phone, phone.get_by_role("button", name="A2", exact=True))
    phone.keyboard.press("Enter")
    tab_to(phone, phone.locator("label", has_text="Cannon"))
    phone.keyboard.press("Space")
    tab_to(phone, phone.get_by_role("button", name="→ E"))
    phone.keyboard.press("Enter")
    expect(phone.locator("#announcement")).to_contain_text("Wall destroyed at B2.")
    board = phone.locator(".fort-board").first.aria_snapshot()
    for said in ("A2 : cannon fired E", "B2 : wall, destroyed", "C2 : wall", "B4 : besieged"):
        assert said in board, board  # the cell name and its words are separate nodes
    _measured(phone)


def test_castle_card_played_by_keyboard(server, phone):
    phone.goto(server + "/castle/")
    phone.get_by_role("button", name="Start a Castle table").click()
    phone.get_by_label("Or all 12 in one line").fill("4c 8d js 2s 2h 9h 5c 3s tc 6s 7d ah")
    phone.get_by_role("button", name="Lay out the castle").click()
    phone.reload()  # the move starts from the top of the page, by keyboard alone
    tab_to(phone, phone.locator(".card-picker input[name=card]"))
    phone.keyboard.type("qh")
    phone.keyboard.press("Enter")
    pile = phone.locator('button.pile[value="C2"]')
    expect(pile.locator(".pile-mark")).to_have_text("✓may go here")
    tab_to(phone, pile)
    phone.keyboard.press("Enter")
    expect(phone.locator("#last-move")).to_contain_text("laid Q♥ on C2.")
    expect(phone.locator('button.pile[value="C2"]')).to_have_accessible_name(
        re.compile(r"C2 queen of hearts value \d+")
    )
    _measured(phone)


def test_fort_card_drawn_by_keyboard(server, phone):
    phone.goto(server + "/fort/")
    csrf = phone.locator("input[name=csrf_token]").first.get_attribute("value")
    created = phone.request.post(
        server + "/tables/new/fort",
        form={"csrf_token": csrf, "players": "2", "name_1": "Ann", "name_2": "Bob"},
    )
    for version, form in enumerate(
        [{"type": "deal", "fort_p1": "2S 3S 4S 5S", "fort_p2": "9H 9C 6C 4D"}, {"type": "start"}]
    ):
        answer = phone.request.post(
            created.url + "/act", form={"csrf_token": csrf, "version": str(version), **form}
        )
        assert answer.ok and "notice-error" not in answer.text(), answer.text()[:300]
    phone.goto(created.url)
    tab_to(phone, phone.get_by_role("button", name="Ann draws a card"))
    phone.keyboard.press("Enter")
    expect(phone.locator("#fort-status")).to_contain_text("Ann")
    expect(phone.get_by_role("button", name="Ann draws a card")).to_have_count(0)
    expect(phone.get_by_role("img", name="9 of hearts").first).to_be_visible()  # Bob's fort, read out
    _measured(phone)


def test_zamek_card_turned_over_by_keyboard(server, phone):
    phone.goto(server + "/zamek/")
    tab_to(phone, phone.get_by_label("1."))
    phone.keyboard.type("Ola")
    phone.keyboard.press("Tab")
    phone.keyboard.type("Kuba")
    tab_to(phone, phone.get_by_role("button", name="Start the table"))
    phone.keyboard.press("Enter")
    expect(phone.get_by_text("Ola's turn: turn over a card.")).to_be_visible()
    tab_to(phone, phone.locator(".zk-places input").first)
    phone.keyboard.press("ArrowRight")  # the arrow keys walk the places
    expect(phone.locator(".zk-places input:checked")).to_have_count(1)
    tab_to(phone, phone.get_by_label("Its number"))
    phone.keyboard.type("9")
    phone.keyboard.press("Enter")
    expect(phone.get_by_text("What does Ola do with 9?")).to_be_visible()
    # The swap replaced the field that had the focus: the keyboard keeps its place, not the page's top.
    expect(phone.locator(":focus:not(body)")).to_have_count(1, timeout=3_000)
    tab_to(phone, phone.get_by_role("button", name="Add to the castle"))
    phone.keyboard.press("Enter")
    expect(phone.get_by_text("Last turn (Ola): card 9 added.")).to_be_visible()
    _measured(phone)


def test_tactics_card_laid_by_keyboard(server, phone):
    phone.goto(server + "/tactics/")
    phone.get_by_label("Name", exact=True).first.fill("Ola")
    phone.get_by_label("Name", exact=True).nth(1).fill("Kuba")
    phone.get_by_role("button", name="Start a Square Tactics table").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()
    phone.reload()
    first = re.match(r"(\w+)'s turn", phone.locator("#whose-turn").inner_text()).group(1)
    tab_to(phone, phone.locator('label.tcell input[value="A1"]'))
    phone.keyboard.press("Space")
    card = phone.locator(".hand .card-button").first
    name = card.locator(".card-name").inner_text()
    tab_to(phone, card)
    phone.keyboard.press("Enter")
    expect(phone.locator("#last-play")).to_contain_text(f"{first} played {name} on A1.")
    laid = phone.get_by_role(
        "img", name=re.compile(rf"^{re.escape(name)}: top \d+, right \d+, bottom \d+, left \d+")
    )
    expect(laid.first).to_be_visible()
    # The next player's card by its typed numbers: below the hand, and Enter in a field plays them.
    second = "Kuba" if first == "Ola" else "Ola"
    tab_to(phone, phone.locator(".tboard"))  # the first free cell; the arrow keys walk the others
    c3 = phone.locator('label.tcell input[value="C3"]')
    for _ in range(8):
        if c3.is_checked():
            break
        phone.keyboard.press("ArrowRight")
    expect(c3).to_be_checked()
    tab_to(phone, phone.get_by_label("top", exact=True))
    for number in "1234":
        phone.keyboard.type(number)
        phone.keyboard.press("Tab")
    phone.keyboard.press("Shift+Tab")
    phone.keyboard.press("Enter")
    expect(phone.locator("#last-play")).to_contain_text(f"{second} played")
    expect(phone.locator("#last-play")).to_contain_text("on C3.")
    expect(phone.get_by_role("img", name=re.compile(r"top 1, right 2, bottom 3, left 4"))).to_have_count(1)
    _measured(phone)
