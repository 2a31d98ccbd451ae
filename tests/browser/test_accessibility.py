"""WCAG 2.2 A/AA by axe-core over every public page, light and dark, and its tap targets (44 px,
none overlapping), at 390 and 360 px; then its controls with text at 200 %.

The public tools are checked empty and again with their answer on screen. The table pages are
checked by the game flows themselves (``assert_accessible`` at each phase
they go through, and test_keyboard.py's moves); this sweep covers the pages anyone can open
without a table.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible, assert_tap_targets, assert_zoomable

pytestmark = pytest.mark.browser

PUBLIC_PAGES = [
    "/",
    "/print",
    "/scorepad/",
    "/history",
    "/players",
    "/castle/",
    "/castle/calculator",
    "/castle/score",
    "/castle/help",
    "/fort/",
    "/fort/battle",
    "/fort/showdown",
    "/fort/help",
    "/forteresse/",
    "/forteresse/resolver",
    "/forteresse/score",
    "/forteresse/help",
    "/tactics/",
    "/tactics/score",
    "/tactics/help",
    "/zamek/",
    "/zamek/score",
    "/zamek/help",
    "/history/files",
]


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_every_public_page_has_no_wcag_violation(server, phone, path):
    phone.goto(server + path)
    assert_accessible(phone)
    assert_zoomable(phone)


CASTLE = "4c 8d js 2s 2h 9h 5c 3s tc 6s 7d ah"
PILES = ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3"]
LAID = "&".join(
    f"{pile}={card}" for pile, card in zip(PILES, CASTLE.upper().replace("TC", "10C").split(), strict=True)
)
FORTRESS = "walls=B2+B3+B4+B5+B6+C2+C3+C4+C5+C6&besieged=D2+D3+D4+D5+D6"
# The public tools with their answer on screen (each is a GET form), and the words that show it:
# the one live region on the page says them.
ANSWERED = [
    (
        f"/castle/calculator?do=row&row={CASTLE.replace(' ', '+')}",
        "Every pile's total value is under its card.",
    ),
    ("/castle/calculator?do=check&pick=9s&" + LAID, "9♠ may go on"),
    ("/castle/score?red_A=2&red_K=1&red_2-10=3&black_Q=2&black_J=1", "The red team wins."),
    (
        "/fort/battle?a_army=5&a_fort=3&d_army=4&stake=card&target=9H&height=1&challenge=1&size=2&do=check",
        "Allowed. Each side lays 2 soldiers",
    ),
    (f"/forteresse/resolver?{FORTRESS}&do=pick&from=A2", "→ E"),  # a step, not an answer: said by no region
    (f"/forteresse/resolver?{FORTRESS}&do=fire&weapon=cannon&direction=E&from=A2", "Wall destroyed at B2."),
    ("/forteresse/score?r1_a_killed=1&r1_a_cannons=1&r1_b_rifles=1", "Player A wins."),
    ("/forteresse/score?r1_a_killed=1&r1_b_cannons=0", "needs at least as many shots"),
    ("/tactics/score?name_p1=Ola&name_p2=Kuba&g1_p1_captured=2&g1_p1_corners=2", "Ola leads with 4."),
    ("/zamek/score?name1=Ola&castle1=41&name2=Kuba&castle2=34", "Ola wins on a tie, holding the king."),
]


@pytest.mark.parametrize(
    ("path", "answer"), ANSWERED, ids=[path.split("?")[0] + f"-{n}" for n, (path, _) in enumerate(ANSWERED)]
)
def test_every_public_tool_with_its_answer_has_no_wcag_violation(server, phone, path, answer):
    phone.goto(server + path)
    expect(phone.locator("main")).to_contain_text(answer)
    # The answer is said once: one live region on the page holds it.
    regions = phone.locator("[role=status]:visible, [role=alert]:visible, [aria-live]:visible")
    if "do=pick" in path:
        expect(regions).to_have_count(0)
    else:
        expect(regions).to_have_count(1)
        expect(regions).to_contain_text(answer)
    assert_accessible(phone)
    assert_zoomable(phone)


def test_a_violation_fails_naming_the_rule_and_the_element(phone):
    phone.set_content('<html lang="en"><title>t</title><main><input id="nameless" type="text"></main></html>')
    with pytest.raises(AssertionError) as failure:
        assert_accessible(phone)
    assert "label (critical): #nameless" in str(failure.value)
    assert "360px light" in str(failure.value) and "390px light" in str(failure.value)


def test_small_overlapping_and_lost_controls_are_named(phone):
    phone.set_content(
        '<html lang="en"><title>t</title><main><button id="tiny" style="width:20px;height:20px">+</button>'
        '<div style="position:relative"><button id="under">Go</button>'
        '<div style="position:absolute;inset:0;background:#fff"></div></div></main></html>'
    )
    with pytest.raises(AssertionError, match='20x20 px: <button id="tiny"'):
        assert_tap_targets(phone)
    with pytest.raises(AssertionError, match='<button id="under">Go</button>'):
        assert_zoomable(phone)
    phone.set_content(
        '<html lang="en"><title>t</title><main style="display:grid;grid-template-columns:repeat(2,40px)">'
        '<button id="left" style="width:50px;height:50px">1</button><button id="right" style="height:50px">2</button>'
        "</main></html>"
    )
    with pytest.raises(AssertionError, match='50x50 px: <button id="left".* overlaps .*<button id="right"'):
        assert_tap_targets(phone)
    with pytest.raises(AssertionError, match='360px tap target: .*<button id="left"'):
        assert_accessible(phone)
