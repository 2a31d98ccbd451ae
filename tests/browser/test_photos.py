"""A photo of the end on a 360 px phone, in English, French and Polish: the table's referee adds
photos to the finished play from the phone's files (the camera's input takes the same form), sees
them with their text alternative, and deletes one; the page stays axe-clean, with 44 px targets and
no sideways scroll, with photos on it."""

from __future__ import annotations

import io
import secrets

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.browser.accessibility import assert_accessible, assert_tap_targets
from tests.browser.test_narrow import assert_fits, narrow_phone

pytestmark = pytest.mark.browser

ADDED = {"en": "The photos are added.", "fr": "Les photos sont ajoutées.", "pl": "Zdjęcia zostały dodane."}
DELETED = {"en": "The photo is deleted.", "fr": "La photo est supprimée.", "pl": "Zdjęcie zostało usunięte."}


def _photo(size: tuple[int, int], kind: str = "JPEG") -> bytes:
    """A picture as a phone's camera would give it (a gradient, so that it is not empty)."""
    out = io.BytesIO()
    Image.linear_gradient("L").resize(size).convert("RGB").save(out, kind)
    return out.getvalue()


def _refereed_play(phone, server: str) -> str:
    """A score pad made through the API, opened on this phone as its referee, then finished: the play's
    id (the names unique to the test: the server's history is shared by the whole run)."""
    names = [f"Ola {secrets.token_hex(3)}", f"Kuba {secrets.token_hex(3)}"]
    created = phone.request.post(
        f"{server}/api/v1/tables", data={"game": "scorepad", "options": {"players": names}}
    )
    token = created.json()["links"]["referee"]["token"]
    phone.goto(f"{server}/t/{token}")  # this phone is the referee from now on
    assert phone.request.post(
        f"{server}/api/v1/tables/{token}/actions",
        data={"action": {"type": "round", "points": [5, 3]}, "version": 0},
    ).ok
    assert phone.request.post(f"{server}/api/v1/tables/{token}/finish", data={"version": 1}).ok
    return phone.request.get(f"{server}/api/v1/plays?player={names[0]}").json()["plays"][0]["id"]


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_the_referee_adds_photos_sees_them_and_deletes_one(server, chromium, lang):
    context = narrow_phone(chromium, locale=lang)
    context.set_default_timeout(10_000)
    phone = context.new_page()
    play_id = _refereed_play(phone, server)
    phone.goto(f"{server}/history/{play_id}")
    assert phone.locator("html").get_attribute("lang") == lang
    expect(phone.locator("#photo-camera")).to_have_attribute("capture", "environment")
    assert_fits(phone, f"play with its photos' form, {lang}")
    assert_accessible(phone, both_widths=False)

    phone.locator("#photo-files").set_input_files(
        [
            {"name": "board.jpg", "mimeType": "image/jpeg", "buffer": _photo((2400, 1800))},
            {"name": "sheet.png", "mimeType": "image/png", "buffer": _photo((600, 900), "PNG")},
        ]
    )
    phone.locator("#photo-alt").fill("Ola's castle, the last card laid")
    phone.locator("#photos form[enctype] button[type=submit]").click()
    expect(phone.get_by_text(ADDED[lang])).to_be_visible()
    pictures = phone.locator(".play-photos img")
    expect(pictures).to_have_count(2)
    expect(phone.get_by_role("img", name="Ola's castle, the last card laid")).to_have_count(2)
    for index in range(2):
        pictures.nth(index).scroll_into_view_if_needed()
        phone.wait_for_function(
            "image => image.complete && image.naturalWidth > 0", arg=pictures.nth(index).element_handle()
        )
        assert pictures.nth(index).bounding_box()["width"] <= 360 - 2 * 16 + 1  # inside the page's margins
    assert pictures.first.evaluate("image => image.naturalWidth") == 1600  # shrunk on the server
    assert_fits(phone, f"play with photos, {lang}")
    assert_accessible(phone, both_widths=False)
    assert_tap_targets(phone)

    phone.locator(".play-photos summary").first.click()
    phone.locator(".play-photos details[open] button").click()
    expect(phone.get_by_text(DELETED[lang])).to_be_visible()
    expect(pictures).to_have_count(1)
    assert_accessible(phone, both_widths=False)
    context.close()
