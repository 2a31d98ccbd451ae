"""The installable app's routes: the manifest, the service worker, the offline and help pages
(what they answer, with which type and cache rule); tests/browser/test_installable.py runs them."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import text


def test_the_manifest_is_json_with_the_home_page_as_its_start_and_is_asked_for_again(browser):
    answer = browser.get("/manifest.webmanifest", headers={"Accept-Language": "pl"})
    assert answer.content_type == "application/manifest+json"
    assert answer.headers["Cache-Control"] == "no-cache"
    manifest = json.loads(answer.data)
    assert (manifest["name"], manifest["start_url"], manifest["display"]) == ("Castellan", "/", "standalone")
    assert manifest["lang"] == "pl"
    assert manifest["description"] == "Castellan liczy punkty w grach na papierze."
    again = browser.get(
        "/manifest.webmanifest", headers={"If-None-Match": answer.headers["ETag"], "Accept-Language": "pl"}
    )
    assert again.status_code == 304


def test_the_icons_are_served_as_png_for_a_year_at_their_fingerprinted_address(browser):
    manifest = json.loads(browser.get("/manifest.webmanifest").data)
    for icon in manifest["icons"]:
        assert re.fullmatch(r"/static/icons/castellan-\d+\.png\?v=\w+", icon["src"])
        image = browser.get(icon["src"])
        assert image.content_type == "image/png"
        assert "max-age=31536000" in image.headers["Cache-Control"]


def _kept(worker: str) -> list[str]:
    return json.loads(re.search(r"var KEPT = (\[.*?\]);", worker).group(1))


def test_the_worker_is_script_for_the_whole_site_asked_for_again_at_each_visit(browser):
    answer = browser.get("/sw.js?lang=en")
    assert answer.content_type == "text/javascript; charset=utf-8"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]  # its fetches: same site only
    kept = _kept(answer.data.decode())
    assert {
        "/offline",
        "/help",
        "/castle/help",
        "/fort/help",
        "/forteresse/help",
        "/tactics/help",
        "/zamek/help",
    } <= set(kept)
    assert "/static/outbox.js" in {url.split("?")[0] for url in kept}
    assert all("?v=" in url for url in kept if url.startswith("/static/"))  # fingerprinted: kept for good


def test_the_worker_keeps_no_table_no_home_page_and_nothing_of_a_link(app, browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    worker = browser.get("/sw.js").data.decode()
    kept = _kept(worker)
    assert "/" not in kept and not [url for url in kept if url.startswith(("/t/", "/history", "/api/"))]
    assert token not in worker


def test_a_new_language_is_a_new_cache(browser):
    """Its kept pages are in the reader's language: another language, another cache, the old one deleted."""
    names = {
        lang: re.search(
            r'var CACHE = "([^"]+)"', browser.get("/sw.js", headers={"Accept-Language": lang}).data.decode()
        ).group(1)
        for lang in ("en", "fr", "pl")
    }
    assert len(set(names.values())) == 3


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Not connected", "What still works", "Try again", ">Square Tactics<"]),
        ("fr", ["Pas de connexion", "Ce qui marche encore", "Réessayer"]),
        ("pl", ["Brak połączenia", "Co nadal działa", "Spróbuj ponownie"]),
    ],
)
def test_the_offline_page_says_what_still_works_and_links_the_help_pages(browser, lang, words):
    page = text(browser.get("/offline", headers={"Accept-Language": lang}))
    assert [word for word in words if word not in page] == []
    for slug in ("castle", "fort", "forteresse", "tactics", "zamek"):
        assert f'href="/{slug}/help"' in page
    assert '<a class="button" href="">' in page  # "Try again": the address that could not be fetched


def test_the_help_page_says_what_happens_when_the_wi_fi_drops_and_how_to_install(browser):
    home = text(browser.get("/"))
    assert 'href="/help"' in home
    page = text(browser.get("/help", headers={"Accept-Language": "pl"}))
    for heading in ("Gdy zniknie Wi-Fi", "Ekran nie gaśnie", "Castellan jako aplikacja"):
        assert heading in page
    assert "HTTPS" in page and "docs/deploy.md" in page


def test_every_page_names_the_manifest(browser):
    page = browser.get("/castle/help").data.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest" data-worker="/sw.js">' in page
