"""The JSON API's conventions, checked on every endpoint that exists."""

from __future__ import annotations

import json

import pytest

from companion.api import blueprint
from companion.app import create_app

JUNK_BODIES = [
    b"",
    b"{",
    b"not json",
    b"[" * 5000 + b"]" * 5000,
    b"NaN",
    b'{"a": Infinity}',
    b"\xff\xfe\x00garbage",
    b"null",
    b"0",
    b"true",
    b'"a string"',
    b"[]",
    b"{}",
    b'{"walls": 1, "castle": [], "board": "x", "rounds": {}, "armies": null, "deck": 7, "castles": "x"}',
    json.dumps({"size": 1e308, "player": True, "card": -1, "seats": [1, 2]}).encode(),
    json.dumps({"x": "9" * 5000}).encode(),
    b"1" * 5000,
]


def _post_endpoints(app) -> list[str]:
    """Every POST endpoint, those of a table reached through a fresh score pad's referee link."""
    rules = sorted(
        rule.rule
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1/") and "POST" in rule.methods
    )
    if not any("<token>" in rule for rule in rules):
        return rules
    created = app.test_client().post(
        "/api/v1/tables", json={"game": "scorepad", "options": {"players": ["A"]}}
    )
    token = created.get_json()["links"]["referee"]["token"]
    return [rule.replace("<token>", token) for rule in rules]


@pytest.fixture(scope="module")
def api_app(tmp_path_factory):
    # Every import is counted, refused or not (companion/plays_files.py): the junk below is more than
    # an address may send in a minute, and these tests are about the answers, not the limit.
    return create_app(
        {
            "DATABASE": str(tmp_path_factory.mktemp("api") / "db.sqlite3"),
            "SECRET_KEY": "t",
            "TESTING": True,
            "IMPORTS_PER_MINUTE": 10_000,
        }
    )


def test_the_openapi_document_describes_every_endpoint_that_exists(api_app):
    document = api_app.test_client().get("/api/v1/openapi.json").get_json()
    assert document["openapi"].startswith("3.")
    described = {f"/api/v1{path}" for path, item in document["paths"].items() if "post" in item}
    routes = {rule.rule for rule in api_app.url_map.iter_rules() if "POST" in rule.methods}
    assert described == {
        route.replace("<", "{").replace(">", "}") for route in routes if route.startswith("/api/v1/")
    }
    for path, item in document["paths"].items():
        for method, operation in item.items():
            assert operation["responses"].get("200") or operation["responses"].get("201"), (path, method)
            if method == "post":
                assert operation["requestBody"]["content"]["application/json"]["schema"], path
                assert {"400", "415", "422"} <= set(operation["responses"]), path


def test_junk_to_every_endpoint_gets_a_clear_error_never_a_500(api_app):
    client = api_app.test_client()
    endpoints = _post_endpoints(api_app)
    for path in endpoints:
        for body in JUNK_BODIES:
            response = client.post(path, data=body, content_type="application/json")
            assert response.status_code in (200, 400, 422), (path, body[:40], response.status_code)
            answer = response.get_json()
            if response.status_code != 200:
                assert set(answer) == {"error"}, (path, body[:40])
                assert answer["error"]["code"] and answer["error"]["message"], (path, body[:40])


def test_malformed_json_is_a_400_in_the_error_shape(api_app):
    client = api_app.test_client()
    for path in _post_endpoints(api_app) or ["/api/v1/none"]:
        response = client.post(path, data=b"{", content_type="application/json")
        if response.status_code == 404:
            continue
        assert response.status_code == 400
        assert response.get_json()["error"]["code"] == "malformed_json"


def test_a_body_not_declared_as_json_is_refused(api_app):
    client = api_app.test_client()
    for path in _post_endpoints(api_app):
        response = client.post(path, data=b"{}", content_type="text/plain")
        assert response.status_code == 415
        assert response.get_json()["error"]["code"] == "unsupported_media_type"


def test_unknown_api_paths_answer_json(api_app):
    response = api_app.test_client().post("/api/v1/nope", json={})
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"
    wrong_method = api_app.test_client().delete("/api/v1/openapi.json")
    assert wrong_method.status_code == 405
    assert wrong_method.get_json()["error"]["code"] == "method_not_allowed"


def test_the_endpoint_wrapper_applies_the_conventions(tmp_path):
    """A throwaway endpoint shows the wrapper's three outcomes: answer, 400 and 422."""
    from flask import Flask

    from companion.rules.errors import RuleError

    blueprint_before = blueprint.bp
    blueprint.bp = type(blueprint_before)("api_probe", __name__, url_prefix="/probe")
    try:

        @blueprint.endpoint(
            "/double", summary="Double a number.", request_schema={}, response_schema={}, tag="probe"
        )
        def double(body):
            if (
                not isinstance(body, dict)
                or isinstance(body.get("n"), bool)
                or not isinstance(body.get("n"), int)
            ):
                raise RuleError("bad_n", "Give a whole number n.", "n")
            return {"double": body["n"] * 2}

        probe = Flask(__name__)
        probe.register_blueprint(blueprint.bp)
        client = probe.test_client()
        assert client.post("/probe/double", json={"n": 21}).get_json() == {"double": 42}
        refused = client.post("/probe/double", json={"n": True})
        assert refused.status_code == 422
        assert refused.get_json() == {
            "error": {"code": "bad_n", "message": "Give a whole number n.", "field": "n"}
        }
        assert client.post("/probe/double", data=b"{", content_type="application/json").status_code == 400
    finally:
        blueprint.bp = blueprint_before
        blueprint._OPERATIONS.pop("/double", None)
