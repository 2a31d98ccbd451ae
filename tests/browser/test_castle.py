"""Castle as people do it on a phone: the pile-value calculator, and a tracked turn with a refusal."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import PHONE, invite_href, own_phone

pytestmark = pytest.mark.browser

ROW = "4c 8d js 2s 2h 9h 5c 3s tc 6s 7d ah"


def _pile(page, name):
    return page.locator("label.pile", has=page.locator(f'input[value="{name}"]'))


def _table_pile(page, name):
    """A pile of the tracked table: a button that plays the picked card there."""
    return page.locator(f'button.pile[value="{name}"]')


def _tap_card(page, rank, suit):
    picker = page.locator(".card-picker")
    picker.locator(".picker-ranks label", has_text=re.compile(f"^{rank}$")).click()
    picker.locator(".picker-suits label", has_text=suit).click()


def test_the_calculator_by_taps_then_by_typing(server, phone):
    phone.goto(server + "/castle/")
    phone.get_by_role("link", name=re.compile("Pile values")).click()
    expect(_pile(phone, "A1").locator("input")).to_be_checked()

    _tap_card(phone, "10", "hearts")
    phone.get_by_role("button", name="Put on the chosen pile").click()
    expect(_pile(phone, "A1")).to_contain_text("10♥")
    expect(_pile(phone, "B1").locator("input")).to_be_checked()  # it moved on by itself
    expect(phone.get_by_text("1 of 12 piles entered")).to_be_visible()

    phone.get_by_label(re.compile("Or type the whole castle")).fill(ROW)
    phone.get_by_role("button", name="Lay out these 12").click()
    expect(_pile(phone, "B2")).to_contain_text("value 9")
    expect(_pile(phone, "C2")).to_contain_text("value 5")

    phone.locator(".card-picker input[name=pick]").fill("9s")
    phone.get_by_role("button", name="Where may it go?").click()
    expect(phone.locator(".refusals")).to_have_text(
        re.compile("B2: A black 9 needs more than this pile's 9.")
    )
    expect(_pile(phone, "B2")).to_have_class(re.compile("illegal"))
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the calculator scrolls sideways: {width}px"


def _refused_without_javascript(chromium, address):
    context = chromium.new_context(**PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(address)
        _tap_card(page, "5", "hearts")
        page.get_by_role("button", name="Where may it go?").click()  # without JavaScript: a plain GET
        expect(_table_pile(page, "C2").locator(".pile-mark")).to_have_text("✗may not go here")
        _table_pile(page, "C2").click()
        expect(page.locator(".notice-error")).to_have_text("A red 5 needs more than this pile's 5.")
        expect(page.locator("input[name=card_rank][value='5']")).to_be_checked()  # the card is kept...
        expect(_table_pile(page, "C2").locator(".pile-mark")).to_have_text(
            "✗may not go here"
        )  # ...with its marks
        expect(page.locator("#whose-turn")).to_have_text("Ewa's turn (Ewa & West)")
    finally:
        context.close()


def test_a_tracked_turn_refused_then_played(server, chromium, phone, second_phone):
    phone.goto(server + "/castle/")
    phone.get_by_role("combobox", name="East").fill("Ewa")
    phone.get_by_role("button", name="Start a Castle table").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()
    assert_accessible(phone)  # before the deal
    phone.get_by_label("Or all 12 in one line").fill(ROW)
    phone.get_by_role("button", name="Lay out the castle").click()
    expect(phone.locator("#whose-turn")).to_have_text("Ewa's turn (Ewa & West)")

    viewer = invite_href(phone, "Viewer")
    second_phone.goto(server + "/t/" + viewer.split("/t/")[1])
    expect(second_phone.locator("#whose-turn")).to_have_text("Ewa's turn (Ewa & West)")
    assert_accessible(second_phone)  # a viewer, in play

    # The refusal, on the referee's link opened without JavaScript (a plain post, then the page again):
    # with htmx the 422 would be logged by Chromium as a failed load, which the phone fixture counts as an error.
    _refused_without_javascript(chromium, phone.url)

    phone.locator(".card-picker input[name=card]").fill("qh")
    _table_pile(
        phone, "C2"
    ).click()  # the check of the typed card (on leaving the field) goes first, then the play
    expect(phone.locator("#whose-turn")).to_have_text("South's turn (North & South, black)")
    expect(_table_pile(phone, "B2")).to_contain_text("value 11")
    expect(second_phone.locator(".pile", has_text="B2")).to_contain_text("value 11", timeout=3_000)
    assert_accessible(phone)  # a card played
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the table scrolls sideways: {width}px"


SIZES = [pytest.param((390, 844), id="390x844"), pytest.param((360, 740), id="360x740")]

# The contrast between an element's text and the background it sits on (WCAG's formula).
CONTRAST = """element => {
  const rgb = text => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let back = element;
  while (back && getComputedStyle(back).backgroundColor.match(/rgba\\(.*, 0\\)|transparent/)) back = back.parentElement;
  const [a, b] = [lum(rgb(getComputedStyle(element).color)), lum(rgb(getComputedStyle(back || document.body).backgroundColor))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def _refused_start(server, page):
    """A 2-player Castle start with East dealing (refused: North or South deals), its names typed."""
    page.goto(server + "/castle/")
    page.get_by_role("radio", name="2").check()
    page.locator('input[name="dealer"][value="E"]').check()
    page.get_by_role("combobox", name="North").fill("Ewa")
    page.get_by_role("combobox", name="South").fill("Jan")
    page.get_by_role("button", name="Start a Castle table").click()


def test_a_refused_start_says_why_on_screen_and_keeps_the_form_as_filled_in(server, sized_phone):
    _refused_start(server, sized_phone)
    refusal = sized_phone.locator("#new-table-answer [role=alert]")
    expect(refusal).to_have_text("The dealer sits at North or South.")
    expect(refusal).to_be_in_viewport()
    assert sized_phone.url.endswith("/castle/")  # still the game's page, nothing opened
    expect(sized_phone.get_by_role("combobox", name="North")).to_have_value("Ewa")
    expect(sized_phone.get_by_role("combobox", name="South")).to_have_value("Jan")
    expect(sized_phone.get_by_role("radio", name="2")).to_be_checked()
    sized_phone.locator('input[name="dealer"][value="S"]').check()
    sized_phone.get_by_role("button", name="Start a Castle table").click()
    expect(sized_phone.locator("#live")).to_contain_text("Jan deals 10 cards each")
    assert "/t/" in sized_phone.url


def test_a_start_form_that_expired_says_so_in_place_and_keeps_what_was_typed(server, chromium):
    # Its own phone: the expired form's 400 is logged by Chromium, which is the point here.
    context, phone = own_phone(chromium)
    phone.goto(server + "/castle/")
    context.clear_cookies()  # the session (and the form's token with it) is gone
    phone.get_by_role("combobox", name="East").fill("Ewa")
    phone.get_by_role("button", name="Start a Castle table").click()
    expect(phone.get_by_role("alert")).to_have_text(
        re.compile("This form has expired. Reload the page and try again.")
    )
    assert phone.url == server + "/castle/"  # the start page, not an error page
    expect(phone.get_by_role("combobox", name="East")).to_have_value("Ewa")
    phone.locator("#trouble").get_by_role("button", name="Reload the page").click()
    phone.get_by_role("combobox", name="East").fill("Ewa")
    phone.get_by_role("button", name="Start a Castle table").click()
    expect(phone.get_by_text("You are the referee")).to_be_visible()
    context.close()


def test_without_javascript_a_refused_start_opens_the_page_at_the_form_with_the_reason_on_screen(
    server, plain_phone
):
    _refused_start(server, plain_phone)
    refusal = plain_phone.locator("#new-table-answer [role=alert]")
    expect(refusal).to_have_text("The dealer sits at North or South.")
    expect(refusal).to_be_in_viewport()


def _dealt_table(server, phone):
    phone.goto(server + "/castle/")
    phone.get_by_role("combobox", name="East").fill("Ewa")
    phone.get_by_role("button", name="Start a Castle table").click()
    phone.get_by_label("Or all 12 in one line").fill(ROW)
    phone.get_by_role("button", name="Lay out the castle").click()
    expect(phone.locator("#whose-turn")).to_have_text("Ewa's turn (Ewa & West)")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_a_picked_card_marks_the_piles_then_a_tap_plays_it_and_every_screen_shows_the_move(
    server, phone, second_phone, size, scheme
):
    width, height = size
    for each in (phone, second_phone):
        each.set_viewport_size({"width": width, "height": height})
        each.emulate_media(color_scheme=scheme)
    _dealt_table(server, phone)
    viewer = invite_href(phone, "Viewer")
    second_phone.goto(server + "/t/" + viewer.split("/t/")[1])

    # Two taps pick the red 5: the piles are marked at once, by a symbol and words as well as colour.
    _tap_card(phone, "5", "hearts")
    expect(_table_pile(phone, "C2").locator(".pile-mark")).to_have_class(re.compile(r"\billegal\b"))
    assert "dashed" in _table_pile(phone, "C2").evaluate("pile => getComputedStyle(pile).borderStyle")
    expect(_table_pile(phone, "C2").locator(".pile-mark")).to_have_text("✗may not go here")
    expect(_table_pile(phone, "B2").locator(".pile-mark")).to_have_text("✓may go here")
    expect(phone.locator(".marks")).to_contain_text("may go on the piles marked ✓: A1, A2,")
    for pile in ("B2", "C2"):
        mark = _table_pile(phone, pile).locator(".pile-mark [aria-hidden]")
        assert mark.evaluate(CONTRAST) >= 3, f"the mark on {pile} is too faint in {scheme} mode"
    assert _table_pile(phone, "C2").locator(".pile-mark").is_visible()

    # Change the card: the marks follow (the queen takes C2).
    _tap_card(phone, "Q", "hearts")
    expect(_table_pile(phone, "C2").locator(".pile-mark")).to_have_text("✓may go here")

    # The third tap, on the pile, plays the card: the move is on every screen, its pile marked.
    _table_pile(phone, "C2").click()
    expect(phone.locator("#whose-turn")).to_have_text("South's turn (North & South, black)")
    for screen in (phone, second_phone):
        expect(screen.locator("#last-move")).to_have_text("↻ Last move: Ewa laid Q♥ on C2.", timeout=3_000)
        last = screen.locator(".pile.last")
        expect(last).to_have_count(1)
        expect(last).to_contain_text("C2")
        expect(last.locator(".pile-last")).to_have_text("last move")
        assert last.locator(".pile-last").evaluate(CONTRAST) >= 4.5
        assert screen.evaluate("document.documentElement.scrollWidth") <= width
    expect(phone.locator(".pile-mark [aria-hidden]")).to_have_count(0)  # a new turn: no card picked yet


def _post(page, token, **fields):
    """A plain form post on the table, as the page's own form would send it (fast set-up of many turns)."""
    csrf = page.locator("input[name=csrf_token]").first.get_attribute("value")
    version = page.locator("#live").get_attribute("data-version")
    response = page.request.post(
        f"{page.url.split('/t/')[0]}/t/{token}/act", form={"csrf_token": csrf, "version": version, **fields}
    )
    assert response.ok, response.text()[:300]
    page.reload()


@pytest.mark.parametrize("size", SIZES)
def test_the_final_score_shows_its_breakdown_on_a_phone(server, phone, size):
    from companion.rules import castle

    width, height = size
    phone.set_viewport_size({"width": width, "height": height})
    token = _two_player_table(phone, server)
    state = castle.apply(
        castle.new_table({"players": 2, "dealer": "S"}, 1),
        {
            "type": "deal",
            "castle": dict(
                zip([f"{c}{r}" for r in (1, 2, 3) for c in "ABCD"], ROW.upper().split(), strict=True)
            ),
        },
        "referee",
    )
    while state["phase"] == "play":
        name = castle.unseen_cards(state)[-1]
        legal = castle.legal_piles(castle.castle_tops(state), castle.parse(name))
        action = (
            {"type": "play", "card": name, "pile": legal[-1]} if legal else {"type": "pass", "taken": name}
        )
        fields = (
            {"type": "play", "card": name, "pile": legal[-1]} if legal else {"type": "pass", "card": name}
        )
        state = castle.apply(state, action, "referee")
        _post(phone, token, **fields)
    score = castle.final_score(state)
    table = phone.locator("table.breakdown")
    expect(table).to_be_visible()
    aces = [
        f"{score['breakdown'][team]['A']['cards']} × 9 = {score['breakdown'][team]['A']['points']}"
        for team in "NS"
    ]
    expect(table.locator("tr", has_text="Aces").locator("td")).to_have_text(aces)
    expect(table.locator("tr", has_text="Total").locator("td")).to_have_text(
        [str(score["teams"][t]) for t in "NS"]
    )
    assert_accessible(phone, both_widths=False)  # game over
    assert table.evaluate("t => t.getBoundingClientRect().right") <= width
    assert phone.evaluate("document.documentElement.scrollWidth") <= width


def _two_player_table(phone, server) -> str:
    """A two-player table (South deals), dealt ROW; the referee's token."""
    phone.goto(server + "/castle/")
    phone.locator("input[name=players][value='2']").check()
    phone.locator("input[name=dealer][value='S']").check()
    phone.get_by_role("button", name="Start a Castle table").click()
    phone.get_by_label("Or all 12 in one line").fill(ROW)
    phone.get_by_role("button", name="Lay out the castle").click()
    expect(phone.locator("#whose-turn")).to_be_visible()
    return phone.url.split("/t/")[1].split("?")[0]
