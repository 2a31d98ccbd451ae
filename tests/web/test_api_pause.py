"""Pause and resume through the JSON API, an extension of the contract: the referee's link pauses
and resumes, every link reads ``paused``, a second tap changes nothing, another link is refused in
the contract's error shape, bad bodies are refused, and the OpenAPI document says it is an
extension. On SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.both_backends


def _made(client) -> dict:
    """A Forteresse table played from phones: a referee's, a viewer's and two seats' links."""
    return client.post(
        "/api/v1/tables", json={"game": "forteresse", "options": {"mode": "phones", "first": "a"}}
    ).get_json()


def test_the_referee_pauses_and_resumes_and_every_link_reads_it(app):
    client = app.test_client()
    made = _made(client)
    referee, viewer = made["links"]["referee"]["token"], made["links"]["viewer"]["token"]
    seat = made["links"]["seats"][0]["token"]
    assert made["table"]["paused"] is False
    version = made["table"]["version"]
    answer = client.post(f"/api/v1/tables/{referee}/pause", json={})
    assert answer.status_code == 200
    assert answer.get_json()["paused"] is True and answer.get_json()["version"] == version + 1
    for token in (referee, viewer, seat):
        assert client.get(f"/api/v1/tables/{token}").get_json()["paused"] is True
    again = client.post(f"/api/v1/tables/{referee}/pause", json={}).get_json()
    assert again["paused"] is True and again["version"] == version + 1, "a second pause changes nothing"
    log = client.get(f"/api/v1/tables/{referee}/log").get_json()["actions"]
    assert [entry["text"] for entry in log] == ["The referee paused the table."]
    resumed = client.post(f"/api/v1/tables/{referee}/resume", json={}).get_json()
    assert resumed["paused"] is False and resumed["version"] == version + 2
    assert client.get(f"/api/v1/tables/{viewer}").get_json()["paused"] is False
    assert client.post(f"/api/v1/tables/{referee}/resume", json={}).get_json()["version"] == version + 2


@pytest.mark.parametrize("who", ["viewer", "seat"])
def test_only_the_referee_may_pause_or_resume(app, who):
    client = app.test_client()
    made = _made(client)
    token = made["links"]["viewer"]["token"] if who == "viewer" else made["links"]["seats"][0]["token"]
    for path in ("pause", "resume"):
        answer = client.post(f"/api/v1/tables/{token}/{path}", json={}, headers={"Accept-Language": "pl"})
        assert answer.status_code == 403
        assert answer.get_json()["error"]["code"] == "referee_only"
        assert answer.get_json()["error"]["message"] == "Tylko sędzia może wstrzymać grę lub ją wznowić."
    referee = made["links"]["referee"]["token"]
    assert client.get(f"/api/v1/tables/{referee}").get_json()["paused"] is False, "nothing changed"


def test_a_bad_body_or_token_is_refused_in_the_contracts_shape(app):
    client = app.test_client()
    referee = _made(client)["links"]["referee"]["token"]
    answers = {
        "not an object": client.post(f"/api/v1/tables/{referee}/pause", json=[1]),
        "not JSON": client.post(f"/api/v1/tables/{referee}/pause", data="{", content_type="application/json"),
        "no JSON type": client.post(f"/api/v1/tables/{referee}/pause", data="{}"),
        "unknown token": client.post("/api/v1/tables/no-such-token-here/pause", json={}),
    }
    assert {
        case: (answer.status_code, answer.get_json()["error"]["code"]) for case, answer in answers.items()
    } == {
        "not an object": (422, "bad_body"),
        "not JSON": (400, "malformed_json"),
        "no JSON type": (415, "unsupported_media_type"),
        "unknown token": (404, "unknown_table"),
    }
    assert client.get(f"/api/v1/tables/{referee}").get_json()["paused"] is False


def test_the_openapi_document_calls_pause_and_resume_an_extension(app):
    document = app.test_client().get("/api/v1/openapi.json").get_json()
    for path in ("pause", "resume"):
        operation = document["paths"][f"/tables/{{token}}/{path}"]["post"]
        assert operation["summary"].startswith("Extension (not in the contract)")
        assert set(operation["responses"]) >= {"200", "403", "404"}
    assert "paused" in document["components"]["schemas"]["Table"]["properties"]
