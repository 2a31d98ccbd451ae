"""The app as a whole: pages, security headers, CSRF, errors, static assets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sqlalchemy as sa

from companion.app import create_app
from tests.conftest import text

GAMES = {
    "forteresse": "Forteresse",
    "castle": "Castle",
    "fort": "Fort",
    "zamek": "Zamek",
    "tactics": "Square Tactics",
}


def test_home_lists_the_five_games_with_links(browser):
    page = text(browser.get("/"))
    for slug, name in GAMES.items():
        assert f'href="/{slug}/"' in page
        assert f"<h3>{name}</h3>" in page


@pytest.mark.parametrize("slug", GAMES)
def test_each_game_has_its_page(browser, slug):
    response = browser.get(f"/{slug}/")
    assert response.status_code == 200
    assert f"<h1>{GAMES[slug]}" in text(response)


@pytest.mark.parametrize(
    "path", ["/", "/print", "/castle/", "/nowhere", "/api/v1/openapi.json", "/static/castellan.css"]
)
def test_every_response_carries_the_security_headers(browser, path):
    response = browser.get(path)
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_an_htmx_answer_carries_nosniff_and_leaves_the_document_headers_to_its_page(browser):
    """A fragment script puts into a page already loaded (a move's answer, a poll's table, drawn or
    kept) gets nosniff only: the policy, framing, opener, permissions and referrer rules are the
    page's, which has them. The same address asked for as a page gets them all."""
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    document_only = {
        "Content-Security-Policy",
        "Referrer-Policy",
        "X-Frame-Options",
        "Cross-Origin-Opener-Policy",
        "Permissions-Policy",
    }
    page = browser.get(f"/t/{token}")
    assert document_only <= set(page.headers.keys())
    version = re.search(r'name="version" value="(\d+)"', page.get_data(as_text=True)).group(1)
    move = browser.post(
        f"/t/{token}/act", {"type": "round", "points": ["3", "4"], "version": version}, htmx=True
    )
    assert move.status_code == 200 and "Round 1: Ola 3, Kuba 4." in text(move)
    refused = browser.post(
        f"/t/{token}/act", {"type": "round", "points": ["x", "4"], "version": "1"}, htmx=True
    )
    assert refused.status_code == 422
    for answer in (
        move,
        refused,
        *(browser.get(f"/t/{token}/live", headers={"HX-Request": "true"}) for _ in range(2)),
    ):
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert document_only.isdisjoint(answer.headers.keys()), answer.headers
    plain = browser.get(f"/t/{token}/live")  # the fragment's address opened as a page
    assert plain.status_code == 200 and document_only <= set(plain.headers.keys())


def test_pages_hold_no_inline_script_or_handler_and_no_foreign_asset(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    for path in ["/", "/print", "/scorepad/", f"/t/{token}", f"/t/{token}/history", f"/t/{token}/links"]:
        page = browser.get(path).data.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), path
        assert not re.search(r"\son[a-z]+=", page), path
        assert not re.search(r"\sstyle=", page), path
        assert not re.search(r'<(script|link|img)[^>]+(src|href)="(https?:)?//', page), path


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(app, browser):
    response = browser.client.post("/tables/new/scorepad", data={"players": "Ola"})
    assert response.status_code == 400
    assert "This form has expired" in text(response)
    with app.app_context():
        from companion.http.context import get_db

        assert get_db().execute(sa.text("SELECT COUNT(*) FROM tables")).scalar() == 0


def test_htmx_requests_may_send_the_token_as_a_header(browser):
    browser.get("/")
    response = browser.client.post(
        "/tables/new/scorepad",
        data={"players": "Ola"},
        headers={"X-CSRF-Token": browser.csrf, "HX-Request": "true"},
    )
    # Created: htmx is told to open the table's page (HX-Redirect), as a plain post is redirected there.
    assert response.status_code == 200 and response.headers["HX-Redirect"].startswith("/t/")


def test_not_found_is_a_friendly_page_in_the_layout(browser):
    response = browser.get("/no/such/page")
    assert response.status_code == 404
    page = text(response)
    assert "<h1>Not found</h1>" in page
    assert 'class="brand"' in page


def test_an_unexpected_error_is_a_friendly_500(app):
    @app.get("/boom")
    def boom():
        raise RuntimeError("boom")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "Something went wrong" in text(response)


def test_htmx_is_pinned_served_locally_with_its_license(browser):
    page = browser.get("/").data.decode()
    script = re.search(r'<script src="(/static/vendor/htmx-[\d.]+\.min\.js)\?v=\w+" defer>', page)
    assert script
    assert browser.get(script.group(1)).status_code == 200
    license_text = browser.get("/static/vendor/htmx-LICENSE.txt").data.decode()
    assert "Zero-Clause BSD" in license_text or "BSD" in license_text


def test_pages_stay_small(browser):
    """A phone on bad Wi-Fi: the home page and the stylesheet are a few kilobytes."""
    assert len(browser.get("/").data) < 12_000
    assert len(browser.get("/static/castellan.css").data) < 12_000


def test_the_secret_key_is_generated_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("CASTELLAN_DATABASE", str(tmp_path / "db.sqlite3"))
    first = create_app({"TESTING": True})
    second = create_app({"TESTING": True})
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 32
    assert (Path(first.instance_path) / "secret_key").exists()


def test_text_answers_are_compressed_with_brotli_or_gzip_for_phones_that_accept_it(browser):
    import gzip

    import brotli

    plain = browser.get("/static/vendor/htmx-2.0.11.min.js")
    squeezed = browser.get("/static/vendor/htmx-2.0.11.min.js", headers={"Accept-Encoding": "gzip, br"})
    assert squeezed.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in squeezed.headers["Vary"]
    assert len(squeezed.data) < len(plain.data) / 2
    assert brotli.decompress(squeezed.data) == plain.data
    assert squeezed.headers["ETag"] != plain.headers["ETag"]
    page = browser.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    assert b"Castellan" in gzip.decompress(page.data)


def test_the_print_page_lists_the_games_in_the_home_page_order_and_general_sheets_last(browser):
    page = text(browser.get("/print"))
    headings = re.findall(r"<h2>([^<]+)</h2>", page)
    assert headings == ["Forteresse", "Castle", "Fort", "Zamek", "Square Tactics", "For any game"]
    assert 'href="/print/score-pad.pdf?paper=letter"' in page


def test_every_game_page_loads_its_game_stylesheet_once(app, browser):
    """base.html adds a game's own small stylesheet to every page rendered for that game."""
    static = Path(app.static_folder) / "games"
    pages = [
        rule.rule
        for rule in app.url_map.iter_rules()
        if "GET" in rule.methods and not rule.arguments and rule.rule.split("/")[1] in GAMES
    ]
    assert len(pages) >= 15
    for path in pages:
        slug = path.split("/")[1]
        page = browser.get(path).data.decode()
        if (static / f"{slug}.css").exists():
            assert page.count(f"/static/games/{slug}.css") == 1, path
        others = [other for other in GAMES if other != slug and f"/static/games/{other}.css" in page]
        assert not others, (path, others)


def test_a_forged_token_with_unusual_characters_is_refused_not_a_crash(app, browser):
    browser.get("/")
    for forged in ("²", "ł" * 40, "\u0000"):
        response = browser.client.post("/tables/new/scorepad", data={"csrf_token": forged, "players": "Ola"})
        assert response.status_code == 400
        assert "This form has expired" in text(response)


def test_a_links_qr_code_is_drawn_once_and_reused():
    """Drawing a code was 90 % of a table page's time; the same address gives the same cached SVG."""
    from companion.http import netinfo

    netinfo._qr_drawing.cache_clear()
    first = netinfo.qr_svg("http://192.168.1.20:5000/t/abc", "Kod QR")
    again = netinfo.qr_svg("http://192.168.1.20:5000/t/abc", "Kod QR")
    assert again == first and 'aria-label="Kod QR"' in first  # the name is the caller's, in its language
    assert netinfo._qr_drawing.cache_info().hits == 1
    assert netinfo.qr_svg("http://192.168.1.20:5000/t/abd", "Kod QR") != first


def test_a_refused_start_is_said_at_the_top_of_the_form_and_creates_nothing(app, browser):
    browser.get("/castle/")
    form = {"players": "2", "dealer": "E", "name_N": "Ewa", "csrf_token": browser.csrf}
    answer = browser.client.post("/tables/new/castle", data=form, headers={"HX-Request": "true"})
    # With htmx only the reason comes back, for the form's answer slot: the form stays as filled in.
    assert answer.status_code == 422
    assert (
        text(answer).strip()
        == '<p class="notice notice-error" role="alert">The dealer sits at North or South.</p>'
    )
    plain = browser.client.post("/tables/new/castle", data=form)
    assert plain.status_code == 303 and plain.headers["Location"].endswith("/castle/#new-table")
    page = text(browser.get("/castle/"))
    start = page.index('id="new-table"')
    assert page.index("The dealer sits at North or South.", start) < page.index('name="players"', start)
    with app.app_context():
        from companion.http.context import get_db

        assert get_db().execute(sa.text("SELECT COUNT(*) FROM tables")).scalar() == 0
