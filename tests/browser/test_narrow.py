"""At 360 px (issue 12.10): every game's table page scrolls only downwards (no table inside it
sideways either), no button label wraps onto a second line, and boxes of one kind (grid cells,
piles, picker keys) are one size."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
CASTLE = "4c 8d js 2s 2h 9h 5c 3s tc 6s 7d ah"

# Each visible button whose text runs onto more than one line, as "label: N lines". A button
# laid out in blocks (a Square Tactics card: edge numbers round a name) is checked per text, its
# own text included (every button is an inline-flex box: its text is its own, not a child's).
WRAPPED_BUTTONS = """() => {
  const lines = node => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
  };
  const inline = element => [...element.querySelectorAll('*')].every(
    e => getComputedStyle(e).display.startsWith('inline')) && !getComputedStyle(element).display.match(/flex|grid/);
  const wrapped = [];
  for (const button of document.querySelectorAll('button, input[type=submit], a.button, .key')) {
    const box = button.getBoundingClientRect();
    // A closed fold-out's content keeps a box in Chromium, laid out as it is never seen: left out.
    if (!box.width || !box.height || !button.checkVisibility({visibilityProperty: true})) continue;
    const text = (button.innerText || button.textContent || button.value || '').trim().replace(/\\s+/g, ' ');
    if (button.scrollWidth > button.clientWidth + 1) { wrapped.push(`${text}: cut`); continue; }
    if (button.tagName === 'INPUT') continue;
    const parts = inline(button) ? [button] : [button, ...button.querySelectorAll('*')].flatMap(
      e => [...e.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim()));
    const most = Math.max(0, ...parts.map(lines));
    if (most > 1) wrapped.push(`${text}: ${most} lines`);
  }
  return wrapped;
}"""


def _start(page, server, game):
    """Create a table of ``game`` through its start form, as a referee would."""
    page.goto(f"{server}/{game}/")
    if game == "scorepad":
        page.get_by_label("Players, one name per line").fill("Ola\\nKuba")
        page.get_by_role("button", name="Start").click()
    elif game == "fort":
        page.locator("fieldset", has_text="Players").locator("label", has_text=re.compile("^4$")).click()
        page.get_by_role("button", name="Start a Fort table").click()
    elif game == "castle":
        page.get_by_role("combobox", name="East").fill("Ewa")
        page.get_by_role("button", name="Start a Castle table").click()
        expect(page.get_by_text("You are the referee")).to_be_visible()
        assert_fits(page, "castle before the deal")
        page.get_by_label("Or all 12 in one line").fill(CASTLE)
        page.get_by_role("button", name="Lay out the castle").click()
    elif game == "zamek":
        page.get_by_label("1.").fill("Ola")
        page.get_by_label("2.").fill("Kuba")
        page.get_by_role("button", name="Start the table").click()
    elif game == "forteresse":
        page.get_by_role("combobox", name="Player A").fill("Ola")
        page.get_by_role("combobox", name="Player B").fill("Kuba")
        page.get_by_role("button", name="Start a Forteresse table").click()
    elif game == "tactics":
        page.get_by_role("button", name="Start a Square Tactics table").click()
    expect(page.get_by_text("You are the referee")).to_be_visible()


# Boxes of one kind: every visible one of each selector is the same size.
KINDS = [
    ".tboard .tcell",
    ".hand-cards .card-button:not(.tick)",
    ".tick-cards .tick",
    ".castle-grid .pile",
    ".pile",
    ".picker-ranks label",
    ".picker-suits label",
    ".board button, .board label.cell",
    ".fc",
]
SIZES = """kinds => kinds.flatMap(kind => {
  const boxes = [...document.querySelectorAll(kind)].filter(e => e.checkVisibility()).map(e => e.getBoundingClientRect()).filter(b => b.width);
  const spread = key => Math.max(0, ...boxes.map(b => b[key])) - Math.min(...boxes.map(b => b[key]));
  return boxes.length > 1 && (spread('width') > 1 || spread('height') > 1)
    ? [`${kind}: ${boxes.map(b => `${Math.round(b.width)}x${Math.round(b.height)}`).join(' ')}`] : [];
})"""


# Boxes of those kinds that stick out of the page's margins (a grid whose cells are wider than its
# columns): "kind: left-right px", against main's content box.
OUTSIDE = """kinds => {
  const main = document.querySelector('main'), style = getComputedStyle(main), box = main.getBoundingClientRect();
  const left = box.left + parseFloat(style.paddingLeft), right = box.right - parseFloat(style.paddingRight);
  return kinds.flatMap(kind => [...document.querySelectorAll(kind)].filter(e => e.checkVisibility()).map(e => [e, e.getBoundingClientRect()])
    .filter(([e, b]) => b.width && (b.left < left - 0.5 || b.right > right + 0.5))
    .map(([e, b]) => `${kind} ${e.dataset.cell || e.textContent.trim().slice(0, 10)}: ${b.left.toFixed(1)}-${b.right.toFixed(1)} px, not within ${left}-${right}`));
}"""


# What _capture reads and taps on a Square Tactics table, in English.
TACTICS_WORDS = {
    "edges": ("top", "right", "bottom", "left"),
    "play": "Play these numbers",
    "on": "on {cell}.",
    "captured": "Captured 1: C3, now empty.",
}


def _capture(page, check=lambda where: None, words=TACTICS_WORDS):
    """Square Tactics from its first turn to a capture on C3 (as tests/browser/test_tactics.py plays it),
    read and tapped in the page's language (``words``: TACTICS_WORDS in that language)."""
    page.locator('label.tcell:has(input[value="A1"])').click()
    page.locator(".hand .card-button").first.click()
    expect(page.locator("#last-play")).to_contain_text(words["on"].format(cell="A1"))
    check("tactics after a card from the hand")
    for cell, number in (("C3", 1), ("B3", 9)):
        page.locator(f'label.tcell:has(input[value="{cell}"])').click()
        for edge in words["edges"]:
            page.get_by_label(edge, exact=True).fill(str(number))
        page.get_by_role("button", name=words["play"]).click()
        expect(page.locator("#last-play")).to_contain_text(words["on"].format(cell=cell))
    expect(page.locator("#last-play")).to_contain_text(words["captured"])
    check("tactics after a capture")


def narrow_phone(chromium, **extra):
    """A 360 px touch phone's browser context (``extra``: a locale, a colour scheme)."""
    return chromium.new_context(
        viewport=NARROW, device_scale_factor=2, is_mobile=True, has_touch=True, **extra
    )


def phone_in(chromium, lang: str, url: str):
    """A page at ``url`` on a 360 px phone set to ``lang`` (its Accept-Language), checked to be said
    in it (``<html lang>``); ``page.context.close()`` when done."""
    context = narrow_phone(chromium, locale=lang)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(url)
    assert page.locator("html").get_attribute("lang") == lang
    return page


# Open every closed fold-out (what it holds is not seen, and not checked, while it is closed); the ones it opened.
# A table in a scrolling region wider than the phone: its last columns hidden without a word.
SCROLLING = """() => [...document.querySelectorAll('.scroll')]
    .filter(region => region.checkVisibility() && region.scrollWidth > region.clientWidth + 1)
    .map(region => `${region.getAttribute('aria-label')}: ${region.scrollWidth} px in ${region.clientWidth}`)"""
OPEN_ALL = "() => [...document.querySelectorAll('details:not([open])')].map(d => (d.open = true, d))"
CLOSE = "opened => opened.forEach(d => { d.open = false; })"


def assert_fits(page, where):
    """No sideways scroll (of the page, or of a table inside its scrolling region: no page is
    exempt) and no wrapped button label on ``page``, with its fold-outs closed as they are and then
    all opened (and closed again after)."""
    for state in ("as it is", "every fold-out open"):
        opened = page.evaluate_handle(OPEN_ALL) if state != "as it is" else None
        said = f"{where}, {state}"
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"], said
        assert page.evaluate(WRAPPED_BUTTONS) == [], said
        assert page.evaluate(SIZES, KINDS) == [], said
        assert page.evaluate(OUTSIDE, KINDS) == [], said
        assert page.evaluate(SCROLLING) == [], said
    page.evaluate(CLOSE, opened)


@pytest.mark.parametrize("game", ["scorepad", "fort", "castle", "zamek", "forteresse", "tactics"])
def test_every_table_page_fits_360_px(server, chromium, game):
    context = narrow_phone(chromium)
    page = context.new_page()
    _start(page, server, game)
    assert_fits(page, game)
    if game == "tactics":
        _capture(page, lambda where: assert_fits(page, where))
    context.close()


def _scheme_phone(chromium, scheme):
    return chromium.new_context(viewport=NARROW, device_scale_factor=2, is_mobile=True, color_scheme=scheme)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_captured_card_is_marked_by_a_symbol_and_a_pattern(server, chromium, scheme):
    context = _scheme_phone(chromium, scheme)
    page = context.new_page()
    _start(page, server, "tactics")
    _capture(page)
    freed = page.locator('label.tcell:has(input[value="C3"])')
    expect(freed.locator(".freed-mark")).to_have_text("↺")
    assert freed.evaluate("e => getComputedStyle(e).borderTopStyle") == "dashed"
    other = page.locator('label.tcell:has(input[value="A2"])')
    expect(other.locator(".freed-mark")).to_have_count(0)
    assert other.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    context.close()


def test_the_forteresse_board_keeps_44_px_cells_within_the_page(server, chromium):
    # 1 px gaps and narrow row numbers: seven 44 px columns fit a 360 px phone's page, where the
    # cells used to be wider than their columns and stuck out past the margin.
    context = narrow_phone(chromium)
    page = context.new_page()
    walls, besieged = "B2 B3 B4 B5 B6 C2 C3 C4 C5 C6", "D2 D3 D4 D5 D6"
    page.goto(
        f"{server}/forteresse/resolver?walls={walls}&besieged={besieged}&do=fire&weapon=cannon&direction=E&from=A2"
    )
    assert page.locator(".fort-board .fc").count() == 49
    assert_fits(page, "the resolver, firing")
    columns = page.locator(".fort-board").evaluate(
        "e => getComputedStyle(e).gridTemplateColumns.split(' ').slice(1)"
    )
    assert len(columns) == 7 and all(float(width.removesuffix("px")) >= 44 for width in columns), columns
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_used_firing_cell_is_marked_by_a_symbol_and_a_pattern(server, chromium, scheme):
    context = _scheme_phone(chromium, scheme)
    page = context.new_page()
    walls, besieged = "B2 B3 B4 B5 B6 C2 C3 C4 C5 C6", "D2 D3 D4 D5 D6"
    page.goto(
        f"{server}/forteresse/resolver?walls={walls}&besieged={besieged}&do=fire&weapon=cannon&direction=E&from=A2"
    )
    used = page.locator('.fc.used[data-cell="A2"]')
    expect(used.locator(".shot-mark")).to_have_text("C→")  # the weapon and the way it fired
    assert used.evaluate("e => e.tagName") == "SPAN"  # no longer offered
    free = page.locator('.fc.free[data-cell="A3"]')
    expect(free).to_have_text("A3")
    expect(free.locator(".shot-mark")).to_have_count(0)
    context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_the_header_stays_one_row_at_360_px_in_every_language(server, chromium, lang):
    """The site's name and its three links (Games, History, Print: "Historique" and "Imprimer" in
    French) share one row on a 360 px phone, each link still a 44 px target: a second row would
    push every page down by the height of a button."""
    context = narrow_phone(chromium)
    context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    page = context.new_page()
    page.goto(f"{server}/")
    boxes = page.eval_on_selector_all(
        "header.site a", "links => links.map(link => link.getBoundingClientRect().toJSON())"
    )
    assert len(boxes) == 4
    assert {round(box["top"]) for box in boxes} == {round(boxes[0]["top"])}, boxes
    assert all(box["width"] >= 44 and box["height"] >= 44 for box in boxes[1:]), boxes
    assert max(box["right"] for box in boxes) <= 360
    context.close()
