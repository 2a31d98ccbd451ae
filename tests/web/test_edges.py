"""The edges probing found, each closed: wrong JSON types, digits that are not ASCII, numbers too big
to format, a ``next`` that leaves the site, settings that make no sense, and the low items."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest

from tests.conftest import text

PAD_PLAY = {
    "id": "pad-play-000001",
    "game": "scorepad",
    "started": "2026-11-20T19:00:00Z",
    "finished": "2026-11-20T19:30:00Z",
    "details": {"rounds": [[3, 9]], "lowest_wins": False},
    "players": [
        {"name": "Ola", "score": 3, "winner": False, "team": None},
        {"name": "Kuba", "score": 9, "winner": True, "team": None},
    ],
}


def _import(client, *plays):
    return client.post(
        "/api/v1/plays/import", json={"format": "castellan-plays", "version": 1, "plays": list(plays)}
    )


@pytest.mark.parametrize("game", [[1], {"slug": "castle"}, 7, None, True])
def test_a_game_of_the_wrong_json_type_is_a_422_naming_the_field(client, game):
    answer = client.post("/api/v1/tables", json={"game": game})
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error["code"] == "unknown_game" and error["field"] == "game"
    assert error["message"].startswith("The game must be one of: castle")


@pytest.mark.parametrize("digits", ["²", "⑦", "٣", "１２"])
def test_digits_that_are_not_ascii_are_a_name_or_a_refusal_never_a_500(client, browser, digits):
    assert _import(client, PAD_PLAY).status_code == 200
    for path in (
        f"/history?player={digits}",
        f"/api/v1/plays?player={digits}",
        f"/api/v1/plays.csv?player={digits}",
        f"/api/v1/plays/bgstats.json?player={digits}",
        f"/history/files?imported={digits}&skipped={digits}",
    ):
        assert client.get(path).status_code == 200, path
    refused = client.get(f"/api/v1/plays?limit={digits}")
    assert refused.status_code == 422 and refused.get_json()["error"]["field"] == "limit"
    browser.get("/players")
    merged = browser.post("/players/1/merge", {"other": digits})
    assert merged.status_code == 422
    assert "Choose from the list the player to merge into this one." in text(merged)


def test_a_score_pad_round_too_big_to_format_is_refused_at_import(client):
    huge = {**PAD_PLAY, "details": {"rounds": [[10**30, 9]], "lowest_wins": False}}
    refused = _import(client, huge)
    assert refused.status_code == 422 and refused.get_json()["error"]["field"] == "plays.0"
    assert client.get("/history/pad-play-000001").status_code == 404
    assert client.get("/api/v1/plays").get_json()["plays"] == []


@pytest.fixture
def client(app):
    return app.test_client()


BYPASSES = [
    "//evil.example",
    "/%09/evil.example",
    "/\t/evil.example",
    "/\r\n/evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "http:evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    " //evil.example",
    "\x00//evil.example",
    "/%0d%0a/evil.example",
    "%2F%2Fevil.example",
    "/%5Cevil.example",
    "\u0085//evil.example",
    "evil.example",
]


@pytest.mark.parametrize("bypass", BYPASSES)
def test_the_language_switch_never_leads_off_the_site(client, bypass):
    answer = client.get("/language/fr", query_string={"next": bypass})
    assert answer.status_code == 303
    location = answer.headers["Location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\")), location
    assert location.isprintable() and " " not in location
    # Read as a browser reads it (backslashes as slashes), it stays on this site.
    assert (
        urlsplit(urljoin("https://castellan.example/x", location.replace("\\", "/"))).netloc
        == "castellan.example"
    )


@pytest.mark.parametrize(
    "page, back", [("/history?player=Ola", "/history?player=Ola"), ("/t/abc\tdef", "/t/abcdef"), ("/", "/")]
)
def test_the_language_switch_goes_back_to_this_sites_page(client, page, back):
    assert client.get("/language/pl", query_string={"next": page}).headers["Location"] == back


def test_the_language_cookie_is_secure_behind_https(tmp_path):
    from companion.app import create_app

    app = create_app(
        {"DATABASE": str(tmp_path / "c.sqlite3"), "SECRET_KEY": "t", "TESTING": True, "TRUSTED_PROXIES": 1}
    )
    client = app.test_client()
    behind = client.get("/language/pl", headers={"X-Forwarded-Proto": "https"}).headers["Set-Cookie"]
    assert "; Secure" in behind and behind.startswith("lang=pl")
    plain = client.get("/language/pl").headers["Set-Cookie"]
    assert "Secure" not in plain


def test_a_seats_export_is_never_kept_by_a_cache(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    exported = browser.get(f"/t/{token}/export.json")
    assert exported.status_code == 200 and exported.headers["Cache-Control"] == "no-store"


def test_a_bad_host_is_refused_as_plain_text_never_sniffed(client):
    refused = client.get("/", headers={"Host": "bad host!"})
    assert refused.status_code == 400 and refused.headers["X-Content-Type-Options"] == "nosniff"
    assert refused.headers["Content-Type"].startswith("text/plain")


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_a_method_no_page_takes_is_a_405(client, method):
    refused = client.open("/", method=method)
    assert refused.status_code == 405
    assert client.open("/history/files", method=method).status_code == 405
