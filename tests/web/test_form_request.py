"""A posted form read the short way (``requests.Request``) is the form Werkzeug's parser reads, whatever is posted."""

from __future__ import annotations

import io

import flask
import pytest
from werkzeug.exceptions import RequestEntityTooLarge

from companion.http import requests

FORM = "application/x-www-form-urlencoded"

BODIES = [
    b"csrf_token=abc.def&version=12&type=shot&cell=c4&direction=",
    b"points=3&points=4&points=&name=Ola+Nowak&note=%C5%BC%C3%B3%C5%82w",  # a list, a blank, spaces, Polish
    b"a=%zz&b=%&c=1%2",  # broken escapes: kept as they are
    b"&&=x&y&z=1=2",  # empty pairs, a name alone, an '=' in a value
    b"name=\xff\xfe",  # not UTF-8
    b"",
]


def _form(app, request_class, body: bytes, content_type: str = FORM, **environ):
    app.request_class = request_class
    with app.test_request_context(
        "/",
        method="POST",
        input_stream=io.BytesIO(body),
        content_type=content_type,
        headers={"Content-Length": str(len(body))},
        environ_overrides=environ,
    ):
        request = flask.request
        return request.form.to_dict(flat=False), request.files.to_dict(flat=False), request.get_data()


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("terminated", [False, True])  # gunicorn says its input stream ends by itself
def test_a_posted_form_is_read_as_werkzeug_reads_it(app, body, terminated):
    environ = {"wsgi.input_terminated": True} if terminated else {}
    short = _form(app, requests.Request, body, **environ)
    assert short == _form(app, flask.Request, body, **environ)
    if body.startswith(b"points"):
        assert (
            short[0]["points"] == ["3", "4", ""]
            and short[0]["note"] == ["żółw"]
            and short[0]["name"] == ["Ola Nowak"]
        )


def test_a_form_with_a_charset_and_other_bodies_are_read_as_werkzeug_reads_them(app):
    for content_type in (f"{FORM}; charset=UTF-8", "text/plain", "application/json"):
        body = b"a=1&b=%C5%BC"
        assert _form(app, requests.Request, body, content_type) == _form(
            app, flask.Request, body, content_type
        )


def test_a_form_past_the_size_limit_is_refused_before_it_is_read(app):
    body = b"a=" + b"x" * app.config["MAX_CONTENT_LENGTH"]
    for request_class in (requests.Request, flask.Request):
        with pytest.raises(RequestEntityTooLarge):
            _form(app, request_class, body)


def test_a_form_read_after_its_body_is_the_same_form(app):
    app.request_class = requests.Request
    with app.test_request_context("/", method="POST", data=b"a=1&a=2", content_type=FORM):
        assert flask.request.get_data(cache=True) == b"a=1&a=2"
        assert flask.request.form.getlist("a") == ["1", "2"]


def test_a_move_posted_through_the_app_uses_the_short_way(app, browser):
    assert app.request_class is requests.Request
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    answer = browser.post(f"/t/{token}/act", {"version": "0", "points": ["3", "4"]}, htmx=True)
    assert answer.status_code == 200 and "Round 1" in answer.data.decode()
