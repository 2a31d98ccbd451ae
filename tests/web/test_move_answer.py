"""The answer to a move posted through the table page (htmx): its forms (written by
``table_form_start``) carry this session's CSRF token and a fresh key each, work as plain forms too,
and the answer is gzipped (companion/web.py, ISA-L) for a phone that takes gzip."""

from __future__ import annotations

import gzip
import re

import pytest

from companion.http import requests

_FORMS = re.compile(r"<form .*?</form>", re.S)
_KEYS = re.compile(r'name="idempotency_key" value="([^"]*)"')
_CSRF = re.compile(r'name="csrf_token" value="([^"]*)"')


def _move(browser, token: str, version: int, points: list[str], encoding: str = "identity"):
    return browser.post(
        f"/t/{token}/act",
        {"version": str(version), "points": points},
        htmx=True,
        headers={"Accept-Encoding": encoding},
    )


def test_a_move_answers_with_forms_that_each_carry_the_session_token_and_their_own_key(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    first = _move(browser, token, 0, ["3", "4"]).get_data(as_text=True)
    answer = _move(browser, token, 1, ["5", "6"]).get_data(as_text=True)
    forms = _FORMS.findall(answer)
    # the next round, the referee's Undo beside the notice, and the score pad's Finish
    actions = [re.search(r'action="([^"]+)"', form).group(1) for form in forms]
    assert actions == [f"/t/{token}/act", f"/t/{token}/undo", f"/t/{token}/finish"]
    for form, action in zip(forms, actions, strict=True):
        assert (
            form.startswith(f'<form method="post" action="{action}" class="')
            and f'hx-post="{action}" hx-target="#live" hx-swap="outerHTML">' in form
        )
        assert _CSRF.findall(form) == [browser.csrf]
        assert 'name="version" value="2"' in form
    keys = _KEYS.findall(answer)
    assert len(keys) == 3 == len(set(keys)) and set(keys).isdisjoint(_KEYS.findall(first))
    assert "<strong>Recorded.</strong> Round 2: Ola 5, Kuba 6." in answer
    # the Undo form of the answer, sent twice as a plain form (no JavaScript): one round taken back
    undo = dict(re.findall(r'name="(csrf_token|version|idempotency_key)" value="([^"]*)"', forms[1]))
    for _ in range(2):
        taken = browser.client.post(f"/t/{token}/undo", data=undo)
        assert taken.status_code == 303
    page = browser.get(f"/t/{token}").get_data(as_text=True)
    assert 'data-version="3"' in page and ">3<" in page and ">5<" not in page


def test_a_move_answer_is_gzipped_for_a_phone_that_takes_it(browser):
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    plain = _move(browser, token, 0, ["3", "4"])
    squeezed = _move(browser, token, 1, ["5", "6"], encoding="gzip")
    assert plain.headers.get("Content-Encoding") is None
    assert squeezed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in squeezed.headers["Vary"]
    assert int(squeezed.headers["Content-Length"]) == len(squeezed.data) < len(plain.data) / 2
    html = gzip.decompress(squeezed.data).decode()  # checks the CRC-32 and the length too
    assert html.startswith('<section id="live"') and "Round 2: Ola 5, Kuba 6." in html
    assert squeezed.headers["Vary"] == plain.headers["Vary"]
    assert squeezed.headers["X-Content-Type-Options"] == plain.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "vary", [None, "HX-Request", "HX-Request, Accept-Encoding", "cookie, accept-language"]
)
def test_naming_a_header_in_vary_writes_what_werkzeugs_set_would(vary):
    from flask import Response

    ours, theirs = Response(), Response()
    if vary:
        ours.headers["Vary"] = theirs.headers["Vary"] = vary
    requests.add_vary(ours, "Accept-Language", "Cookie")
    theirs.vary.update(("Accept-Language", "Cookie"))
    assert ours.headers["Vary"] == theirs.headers["Vary"]


@pytest.mark.parametrize(
    ("vary", "named"),
    [(None, "Cookie"), ("HX-Request", "HX-Request, Cookie"), ("HX-Request, Cookie", "HX-Request, Cookie")],
)
def test_a_session_that_was_read_names_cookie_in_vary_as_flasks_own_would(app, vary, named):
    """Castellan's session cookie names Cookie in Vary itself (``requests.add_vary``): what Flask's own
    interface writes, and nothing when the session was not read."""
    from flask import Response, request
    from flask.sessions import SecureCookieSessionInterface

    for read in (True, False):
        answers = []
        for interface in (app.session_interface, SecureCookieSessionInterface()):
            with app.test_request_context("/"):
                opened = interface.open_session(app, request)
                opened["csrf_form_token"] = "a token"  # a phone's session: not empty, not changed
                opened.modified, opened.accessed = False, read
                response = Response(headers={"Vary": vary} if vary else {})
                interface.save_session(app, opened, response)
                answers.append(response.headers.get("Vary"))
        assert answers == [named if read else vary] * 2


def test_a_form_sent_again_after_another_phone_moved_says_the_version_its_move_made(browser, other_browser):
    """Its first answer lost, the form comes again from the phone's outbox: the table as it is now,
    and the version its own move made, on which the outbox sends the move queued after it."""
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    form = {"version": "0", "points": ["3", "4"], "idempotency_key": "lost-answer"}
    assert browser.post(f"/t/{token}/act", form, htmx=True).status_code == 200
    other_browser.get(f"/t/{token}")
    assert _move(other_browser, token, 1, ["5", "6"]).status_code == 200
    again = browser.post(f"/t/{token}/act", form, htmx=True)
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Castellan-Version-Made"] == "1"
    assert 'data-version="2"' in again.get_data(as_text=True)  # the table as it is now
    queued = {
        "version": again.headers["Castellan-Version-Made"],
        "points": ["7", "8"],
        "idempotency_key": "queued",
    }
    assert (
        browser.post(f"/t/{token}/act", queued, htmx=True).status_code == 409
    )  # the other phone moved first
