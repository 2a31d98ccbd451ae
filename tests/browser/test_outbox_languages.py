"""The outbox's and the Wi-Fi banner's states on a 360 px phone in English, French and Polish, as a
person sees them: two moves waiting offline, a refusal with "Send anyway" and "Drop", "Connected
again", and "Sent". In each, nothing is cut off or runs off the side, every control is a 44 px
target that nothing covers, axe-core finds nothing, and the sentence is said in the phone's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible
from tests.browser.conftest import own_phone
from tests.browser.test_narrow import assert_fits, narrow_phone

pytestmark = pytest.mark.browser

# The English sentences of each state: in French and Polish, the phone shows none of them.
ENGLISH = {
    "waiting": "Not connected: 2 moves wait on this phone.",
    "stopped": "These moves were not sent: send each one anyway, or drop it.",
    "connected": "Connected again.",
    "sent": "Sent: the table shows your moves.",
}
# Each visible control of the outbox and the banner that another element covers at its centre.
COVERED = """() => [...document.querySelectorAll('a, button, input, select, [role=status], [role=alert]')]
  .filter(element => element.checkVisibility())
  .filter(element => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (y < 0 || y > innerHeight) return false;  // off screen: scrolled to, not covered
    const top = document.elementFromPoint(x, y);
    return top && !element.contains(top) && !top.contains(element);
  })
  .map(element => element.textContent.trim())"""


def _round(page, ola: int) -> None:
    page.get_by_label("Ola", exact=True).fill(str(ola))
    page.locator("#live form button[type=submit]").first.click()


def _looked_at(page, state: str, lang: str) -> None:
    """The checks of one state: said in ``lang``, fitting, accessible, nothing covered."""
    said = page.locator("#trouble .trouble-text" if state == "connected" else "#outbox .outbox-status")
    expect(said).to_be_visible()
    if lang == "en":
        expect(said).to_have_text(ENGLISH[state])
    else:
        expect(said).not_to_have_text(ENGLISH[state])
        assert said.inner_text().strip(), state
    assert page.evaluate(COVERED) == [], state  # first: "Connected again" goes after 4 s
    # "Send now" only while moves wait to go by themselves: refused or sent, it would do nothing.
    expect(page.locator("#outbox .outbox-send")).to_be_visible(visible=state == "waiting")
    assert_fits(page, f"{lang}, {state}")
    assert_accessible(page, both_widths=False)


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_the_outbox_states_fit_a_360_px_phone_in_every_language(server, chromium, lang):
    starter, start = own_phone(chromium)
    start.goto(server + "/scorepad/")
    start.get_by_label("Players, one name per line").fill("Ola\nKuba")
    start.get_by_role("button", name="Start").click()
    expect(start.get_by_role("button", name="Record round")).to_be_visible()
    context = narrow_phone(chromium, locale=lang)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(start.url)
    assert page.locator("html").get_attribute("lang") == lang

    context.set_offline(True)
    _round(page, 1)
    _round(page, 2)
    expect(page.locator("#outbox li")).to_have_count(2)
    _looked_at(page, "waiting", lang)

    start.get_by_label("Ola", exact=True).fill("9")
    start.get_by_role("button", name="Record round").click()
    expect(start.locator("#live tfoot .total")).to_have_text(["9", "0"])
    context.set_offline(False)
    expect(page.locator("#live .notice-error")).to_be_visible()  # the first round refused, said in place
    expect(page.locator("#outbox li button")).to_have_count(2)  # the second: Send anyway, Drop
    _looked_at(page, "stopped", lang)

    page.locator("#outbox li button").first.click()  # Send anyway
    expect(page.locator("#live tfoot .total")).to_have_text(["11", "0"])
    _looked_at(page, "sent", lang)

    page.route("**/t/*", lambda route: route.abort("internetdisconnected"))
    page.locator("#live table a").first.click()  # a look, not a move: "could not be reached"
    expect(page.locator("#trouble")).to_have_attribute("role", "alert")
    page.unroute("**/t/*")
    expect(page.locator("#trouble")).to_have_attribute("role", "status")  # the next poll got through
    _looked_at(page, "connected", lang)
    context.close()
    starter.close()
