"""The JSON API has no session: a browser's cookie sent along with a call is neither checked nor
written (companion/security.py, ``_SessionCookie``), so a call can never change a phone's session."""

from __future__ import annotations


def test_an_api_call_reads_and_writes_no_session_whatever_cookie_comes_with_it(app, browser, monkeypatch):
    from companion.http import security

    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    page = browser.get(f"/t/{token}").get_data(as_text=True)
    cookie = browser.client.get_cookie("session").value
    checked = []
    monkeypatch.setattr(security, "session_data", lambda *args: checked.append(args) or {})
    for sent in (cookie, "forged.cookie.value"):
        browser.client.set_cookie("session", sent)
        answer = browser.client.post(
            f"/api/v1/tables/{token}/actions",
            json={
                "action": {"type": "round", "points": [3, 4]},
                "version": 0 if sent == cookie else 1,
            },
        )
        assert answer.status_code == 200 and answer.get_json()["version"] == (1 if sent == cookie else 2)
        assert "Set-Cookie" not in answer.headers
    assert checked == []  # no cookie was checked for the API
    # The phone's own session is untouched: its pages still carry its CSRF token.
    monkeypatch.undo()
    browser.client.set_cookie("session", cookie)
    again = browser.get(f"/t/{token}").get_data(as_text=True)
    assert browser.csrf in again and browser.csrf in page
    assert 'data-version="2"' in again
