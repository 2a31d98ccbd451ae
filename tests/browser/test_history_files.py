"""The export and import page on a phone: the BG Stats file comes with the phone's time zone,
and a club's export uploaded without JavaScript is imported and said in words."""

from __future__ import annotations

import json
from pathlib import Path

from tests.browser.accessibility import assert_accessible


def test_the_bgstats_download_carries_the_phones_time_zone(phone, server):
    phone.goto(f"{server}/history/files")
    zone = phone.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert zone and phone.locator("#bgstats-tz").input_value() == zone
    with phone.expect_download() as started:
        phone.get_by_role("button", name="Download for BG Stats").click()
    download = started.value
    assert download.suggested_filename.endswith(".bgsplay")
    assert f"tz={zone.replace('/', '%2F')}" in download.url
    document = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert {"games", "players", "locations", "plays"} <= set(document)
    assert_accessible(phone)


def test_an_upload_without_javascript_says_what_it_added(plain_phone, server, tmp_path):
    file = tmp_path / "plays.json"
    play = {
        "id": "browser-upload-play-1",
        "game": "scorepad",
        "started": "2026-11-20T19:00:00Z",
        "finished": "2026-11-20T19:40:00Z",
        "details": {"rounds": [[5, 3]], "lowest_wins": False},
        "players": [
            {"name": "Ola", "team": None, "score": 5, "winner": True},
            {"name": "Kuba", "team": None, "score": 3, "winner": False},
        ],
    }
    file.write_text(json.dumps({"format": "castellan-plays", "version": 1, "plays": [play]}))
    plain_phone.goto(f"{server}/history/files")
    plain_phone.set_input_files("#import-file", str(file))
    plain_phone.get_by_role("button", name="Import plays").click()
    answer = plain_phone.get_by_role("status")
    assert "Plays added: 1." in answer.inner_text() or "Nothing was added" in answer.inner_text()
    assert plain_phone.evaluate("document.documentElement.scrollWidth") <= plain_phone.viewport_size["width"]
    file.write_text("not json at all")
    plain_phone.set_input_files("#import-file", str(file))
    plain_phone.get_by_role("button", name="Import plays").click()
    assert "is not a Castellan export of plays" in plain_phone.get_by_role("alert").inner_text()
