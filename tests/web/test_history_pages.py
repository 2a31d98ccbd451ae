"""The history pages: plays newest first with their filters and pages, a play's page with its chart,
a player's and a game's record with their numbers, rename / merge / forget through the forms; and
at the table, Finish (the score pad), Rematch (seats rotated by the game's rules) and the names
remembered for the start forms."""

from __future__ import annotations

import random
import re

import pytest
import sqlalchemy as sa

from companion import store
from companion.rules import forteresse
from companion.store import db
from tests.conftest import Browser, text
from tests.web.test_charts import read_back


def _pad(browser, players="Ola\nKuba", rounds=((5, 3), (2, 8), (10, 0)), finish=True) -> str:
    """A score pad with these rounds, finished by its referee: the referee's token."""
    token = browser.create_table("scorepad", {"players": players})
    for version, points in enumerate(rounds):
        response = browser.post(
            f"/t/{token}/act", {"version": str(version), "points": [str(p) for p in points]}
        )
        assert response.status_code == 303
    if finish:
        response = browser.post(f"/t/{token}/finish", {"version": str(len(rounds))})
        assert response.status_code == 303, text(response)[:400]
    return token


def _imported(app, plays: list[dict]) -> None:
    """Plays put straight into the store (as another server's export would be), with chosen times."""
    with db.connect(app.config["DATABASE"]) as conn:
        assert store.import_plays(conn, plays) == len(plays)


def _play(
    number: int, game: str, seats: list[tuple[str, int, bool]], day: str = "2026-10-01", minutes: int = 30
) -> dict:
    hour = 10 + number % 10
    return {
        "id": f"imported-play-{number:04d}",
        "game": game,
        "started": f"{day}T{hour:02d}:00:00Z",
        "finished": f"{day}T{hour:02d}:{minutes:02d}:00Z",
        "players": [
            {"name": name, "score": score, "winner": won, "team": None} for name, score, won in seats
        ],
        "details": {},
    }


def _player_id(app, name: str) -> int:
    with db.connect(app.config["DATABASE"]) as conn:
        return store.find_player(conn, name)["id"]


def _records(html: str) -> list[tuple[str, dict[str, str]]]:
    """A player's record by game as their page shows it: each game's block, its heading and facts."""
    blocks = re.search(r'<ul class="game-records" id="record-by-game">(.*?)</ul>', html, re.S).group(1)
    return [
        (
            " ".join(re.sub(r"<[^>]+>", "", heading).split()),
            {
                term: re.sub(r"<[^>]+>", "", value)
                for term, value in re.findall(r"<dt>([^<]+)</dt><dd[^>]*>(.*?)</dd>", facts)
            },
        )
        for heading, facts in re.findall(r"<h3>(.*?)</h3>\s*<dl class=\"facts\">(.*?)</dl>", blocks, re.S)
    ]


def _history_entries(html: str) -> list[str]:
    """Each play of a history page as a line: the game, then its players as shown."""
    entries = re.findall(
        r'<li>\s*<a class="play-link"[^>]*><strong>([^<]+)</strong>.*?<span class="play-players">(.*?)</span>\s*</li>',
        html,
        re.S,
    )
    return [
        f"{game}: {re.sub(r'<[^>]+>', '', players).replace('★(winner)', '*')}" for game, players in entries
    ]


# --- At the table: Finish and the way to the play ---


def test_the_score_pads_referee_has_a_finish_button_and_the_viewer_does_not(browser):
    token = _pad(browser, finish=False)
    assert "Finish the table" in text(browser.get(f"/t/{token}"))
    viewer = re.search(r"/t/([\w-]+)", text(browser.get(f"/t/{token}/links")).split("Viewer", 1)[1]).group(1)
    assert "Finish the table" not in text(browser.get(f"/t/{viewer}"))
    response = browser.post(f"/t/{viewer}/finish", {"version": "3"})
    assert response.status_code == 403 and "Only the referee can finish the table." in text(response)


def test_finishing_the_pad_makes_its_totals_a_play_linked_from_the_table(browser):
    token = _pad(browser)
    page = text(browser.get(f"/t/{token}"))
    assert "This table is finished." in page and "Finish the table" not in page
    play_url = re.search(r'href="(/history/[\w-]+)">See this play in the history', page).group(1)
    play = text(browser.get(play_url))
    rows = re.findall(
        r'<tr>\s*<th scope="row"><a href="/players/\d+">(\w+)</a></th>\s*<td>(-?\d+)</td>\s*<td>(.*?)</td>',
        play,
        re.S,
    )
    assert [(name, score, "Won" in result) for name, score, result in rows] == [
        ("Ola", "17", True),
        ("Kuba", "11", False),
    ]


def test_a_finished_pad_names_its_winner_and_offers_no_round_to_record_until_undo_reopens_it(browser):
    token = _pad(browser)
    page = text(browser.get(f"/t/{token}"))
    assert "Winner: Ola" in page and "Leading" not in page
    assert "Record round" not in page and 'id="round-form"' not in page and "?correct=" not in page
    tie = text(browser.get(f"/t/{_pad(browser, rounds=((4, 6), (6, 4)))}"))
    assert "Winners: Ola, Kuba" in tie
    browser.post(f"/t/{token}/undo", {"version": "4"})
    reopened = text(browser.get(f"/t/{token}"))
    assert "Leading: Ola" in reopened and "Record round" in reopened and "?correct=1" in reopened


def test_finish_with_htmx_answers_in_place_and_undo_reopens_the_table(browser):
    token = _pad(browser, finish=False)
    response = browser.post(f"/t/{token}/finish", {"version": "3"}, htmx=True)
    assert "The table is finished: these totals are the final score. Undo reopens it." in text(response)
    assert len(_history_entries(text(browser.get("/history")))) == 1
    browser.post(f"/t/{token}/undo", {"version": "4"})
    assert "Finish the table" in text(browser.get(f"/t/{token}"))
    assert _history_entries(text(browser.get("/history"))) == []


def test_a_game_that_ends_by_its_rules_has_no_finish_button_and_refuses_one(browser):
    token = browser.create_table("castle", {"players": "4", "dealer": "N"})
    assert "Finish the table" not in text(browser.get(f"/t/{token}"))
    response = browser.post(f"/t/{token}/finish", {"version": "0"})
    assert response.status_code == 422
    assert "This table ends by the game's own rules: there is nothing to finish." in text(response)


def test_a_stale_finish_is_refused_and_changes_nothing(browser):
    token = _pad(browser, finish=False)
    response = browser.post(f"/t/{token}/finish", {"version": "1"})
    assert response.status_code == 409 and "Finish the table" in text(response)
    assert _history_entries(text(browser.get("/history"))) == []


# --- The play's page and its chart ---


def test_a_plays_page_has_its_rounds_and_a_chart_whose_lines_are_the_running_totals(browser):
    token = _pad(browser)
    play_url = re.search(r'href="(/history/[\w-]+)">See', text(browser.get(f"/t/{token}"))).group(1)
    page = browser.get(play_url).data.decode()
    svg = re.search(r"<svg class=\"chart\".*?</svg>", page, re.S).group(0)
    assert read_back(svg)["lines"] == {
        "Ola": [(0, 0), (1, 5), (2, 7), (3, 17)],
        "Kuba": [(0, 0), (1, 3), (2, 11), (3, 11)],
    }
    assert "Score pad: running totals after each round" in svg and "Won by: Ola." in svg
    numbers = re.search(r'aria-label="Running totals">(.*?)</table>', page, re.S).group(1)
    assert re.findall(r"<td>(-?\d+)</td>", numbers) == ["5", "3", "7", "11", "17", "11"]
    points = re.search(r'aria-label="Points by round">(.*?)</table>', page, re.S).group(1)
    assert re.findall(r"<td>(-?\d+)</td>", points) == ["5", "3", "2", "8", "10", "0"]


def test_an_unknown_play_is_a_404(browser):
    assert browser.get("/history/no-such-play-here").status_code == 404


# --- The history: filters and pages ---


def test_the_history_lists_plays_newest_first_and_filters_by_game_and_player(app, browser):
    _imported(
        app,
        [
            _play(1, "castle", [("Ola", 30, True), ("Kuba", 24, False)], day="2026-10-01"),
            _play(2, "zamek", [("Kuba", 9, True), ("Ewa", 7, False)], day="2026-10-02"),
            _play(3, "castle", [("Ewa", 40, True), ("Jan", 14, False)], day="2026-10-03"),
        ],
    )
    assert _history_entries(text(browser.get("/history"))) == [
        "Castle: Ewa 40 *, Jan 14",
        "Zamek: Kuba 9 *, Ewa 7",
        "Castle: Ola 30 *, Kuba 24",
    ]
    castle = text(browser.get("/history?game=castle"))
    assert _history_entries(castle) == ["Castle: Ewa 40 *, Jan 14", "Castle: Ola 30 *, Kuba 24"]
    assert "2 plays." in castle and '<option value="castle" selected>' in castle
    assert _history_entries(text(browser.get("/history?player=kuba"))) == [
        "Zamek: Kuba 9 *, Ewa 7",
        "Castle: Ola 30 *, Kuba 24",
    ]
    assert _history_entries(text(browser.get("/history?game=castle&player=Kuba"))) == [
        "Castle: Ola 30 *, Kuba 24"
    ]
    nobody = text(browser.get("/history?player=Zed"))
    assert _history_entries(nobody) == [] and "No play of Zed matches." in nobody
    assert _history_entries(text(browser.get("/history?game=nonsense"))) == _history_entries(
        text(browser.get("/history"))
    )


def test_the_download_links_carry_the_same_filters(app, browser):
    page = text(browser.get("/history?game=castle&player=Ola"))
    assert 'href="/api/v1/plays.csv?game=castle&player=Ola"' in page
    assert 'href="/api/v1/plays/bgstats.json?game=castle&player=Ola"' in page
    bgstats = browser.get("/api/v1/plays/bgstats.json?game=castle&player=Ola")
    assert bgstats.status_code == 200 and "plays" in bgstats.get_json()
    files = text(browser.get("/history/files"))
    assert 'href="/history/files"' in page and "BG Stats" in files


def test_the_history_goes_back_a_page_at_a_time(app, browser):
    _imported(
        app, [_play(n, "zamek", [(f"P{n}", n, True)], day=f"2026-09-{1 + n // 2:02d}") for n in range(45)]
    )
    first = text(browser.get("/history"))
    shown = _history_entries(first)
    assert len(shown) == 20 and shown[0] == "Zamek: P44 44 *" and "45 plays." in first
    older = re.search(r'href="(/history\?before=[^"]+)">Older plays', first).group(1).replace("&amp;", "&")
    second = text(browser.get(older))
    assert _history_entries(second)[0] == "Zamek: P24 24 *" and "Newest plays" in second
    third = text(browser.get(re.search(r'href="(/history\?before=[^"]+)">Older plays', second).group(1)))
    assert _history_entries(third) == [f"Zamek: P{n} {n} *" for n in range(4, -1, -1)]
    assert "Older plays" not in third


def test_plays_show_their_length(app, browser):
    _imported(app, [_play(1, "castle", [("Ola", 1, True)], minutes=25)])
    assert "25 min" in text(browser.get("/history"))


# --- A player's and a game's record ---


def test_a_players_page_counts_wins_rates_scores_and_opponents(app, browser):
    _imported(
        app,
        [
            _play(1, "castle", [("Ola", 30, True), ("Kuba", 24, False)], day="2026-10-01"),
            _play(2, "castle", [("Ola", 20, False), ("Kuba", 34, True)], day="2026-10-02"),
            _play(3, "zamek", [("Ola", 9, True), ("Ewa", 7, False), ("Kuba", 3, False)], day="2026-10-05"),
        ],
    )
    page = text(browser.get(f"/players/{_player_id(app, 'Ola')}"))
    assert "2 of 3 plays won: 67 %." in page
    assert _records(page) == [
        (
            "Castle",
            {"Plays": "2", "Wins": "1", "Win rate": "50 %", "Average score": "25.0", "Best score": "30"},
        ),
        (
            "Zamek",
            {"Plays": "1", "Wins": "1", "Win rate": "100 %", "Average score": "9.0", "Best score": "9"},
        ),
    ]
    assert re.findall(
        r'<li><a href="/players/\d+">(\w+)</a> <span class="hint">(\d+ plays? together)', page
    ) == [
        ("Kuba", "3 plays together"),
        ("Ewa", "1 play together"),
    ]
    svg = re.search(r"<svg class=\"chart\" id=\"wins-chart.*?</svg>", page, re.S).group(0)
    lines = read_back(svg.replace("&amp;", "&"))["lines"]
    assert [y for _x, y in lines["Plays"]] == [1, 2, 3] and [y for _x, y in lines["Wins"]] == [1, 1, 2]
    assert "2 of 3 plays won" in svg


def test_a_players_best_score_is_the_lowest_where_the_lowest_total_wins(app, browser):
    low = {"rounds": [], "lowest_wins": True}
    _imported(
        app,
        [
            _play(1, "scorepad", [("Ola", 40, True), ("Kuba", 24, False)]),
            {**_play(2, "scorepad", [("Ola", 12, True), ("Kuba", 30, False)]), "details": low},
            {**_play(3, "scorepad", [("Ola", 18, False), ("Kuba", 9, True)]), "details": low},
        ],
    )
    page = text(browser.get(f"/players/{_player_id(app, 'Ola')}"))
    assert _records(page) == [
        (
            "Score pad",
            {"Plays": "1", "Wins": "1", "Win rate": "100 %", "Average score": "40.0", "Best score": "40"},
        ),
        (
            "Score pad (lowest total wins)",
            {"Plays": "2", "Wins": "1", "Win rate": "50 %", "Average score": "15.0", "Best score": "12"},
        ),
    ]


def test_the_wins_over_time_count_the_days_of_the_phones_time_zone(app, browser):
    def late(number: int, finished: str, won: bool) -> dict:
        return {**_play(number, "castle", [("Ola", 1, won)]), "started": finished, "finished": finished}

    _imported(app, [late(1, "2026-10-01T21:30:00Z", True), late(2, "2026-10-01T22:30:00Z", False)])
    ola = _player_id(app, "Ola")

    def days(page: str) -> list[tuple[str, str, str]]:
        table = re.search(r'aria-label="Plays and wins so far">(.*?)</table>', page, re.S).group(1)
        return re.findall(r'<th scope="row">([\d-]+)</th><td>(\d+)</td><td>(\d+)</td>', table)

    utc = text(browser.get(f"/players/{ola}"))
    assert days(utc) == [("2026-10-01", "2", "1")] and "Days begin at midnight, UTC time." in utc
    assert 'data-zone-seen=""' in utc  # castellan.js sets the cookie and draws the page again
    browser.client.set_cookie(
        "tz", "Europe/Warsaw"
    )  # as castellan.js keeps it: 22:30 UTC is past midnight there
    warsaw = text(browser.get(f"/players/{ola}"))
    assert days(warsaw) == [("2026-10-01", "1", "1"), ("2026-10-02", "2", "1")]
    assert (
        "Days begin at midnight, Europe/Warsaw time." in warsaw and 'data-zone-seen="Europe/Warsaw"' in warsaw
    )
    browser.client.set_cookie("tz", "Mars/Olympus")  # a zone this server does not know: UTC, said so
    assert days(text(browser.get(f"/players/{ola}"))) == [("2026-10-01", "2", "1")]


def test_a_games_page_has_the_winners_table_and_the_average_length(app, browser):
    _imported(
        app,
        [
            _play(1, "castle", [("Ola", 30, True), ("Kuba", 24, False)], minutes=20),
            _play(2, "castle", [("Ola", 20, True), ("Kuba", 34, False)], minutes=40),
            _play(3, "castle", [("Ewa", 9, True), ("Kuba", 3, False)], minutes=30),
            _play(4, "zamek", [("Kuba", 9, True)]),
        ],
    )
    page = text(browser.get("/history/game/castle"))
    winners = re.search(r'aria-label="Winners">(.*?)</table>', page, re.S).group(1)
    assert re.findall(r">(\w+)</a></th><td>(\d+)</td><td>(\d+)</td>", winners) == [
        ("Ola", "2", "2"),
        ("Ewa", "1", "1"),
    ]
    assert "<dt>Plays</dt><dd>3</dd>" in page and "<dt>Average length</dt><dd>30 min</dd>" in page
    assert len(_history_entries(page)) == 3
    assert browser.get("/history/game/nonsense").status_code == 404


def test_the_players_list_names_everyone_with_their_plays(app, browser):
    _imported(
        app,
        [
            _play(1, "castle", [("Ola", 30, True), ("Kuba", 24, False)]),
            _play(2, "zamek", [("Kuba", 9, True)]),
        ],
    )
    page = text(browser.get("/players"))
    assert re.findall(r'<strong>(\w+)</strong>\s*<span class="hint">(\d+ plays?)</span>', page) == [
        ("Kuba", "2 plays"),
        ("Ola", "1 play"),
    ]


# --- Rename, merge, forget: through the forms ---


def test_renaming_a_player_renames_them_everywhere(app, browser):
    _imported(app, [_play(1, "castle", [("Ola", 30, True), ("Kuba", 24, False)])])
    ola = _player_id(app, "Ola")
    response = browser.post(f"/players/{ola}/rename", {"name": "Aleksandra"})
    assert response.status_code == 303
    assert "Ola is now called Aleksandra, in every play." in text(browser.get(response.headers["Location"]))
    assert _history_entries(text(browser.get("/history"))) == ["Castle: Aleksandra 30 *, Kuba 24"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "A player's name is 1 to 60 characters."),
        (
            "kuba",
            "Another player is already called Kuba: if Ola and Kuba are the same person, merge them instead.",
        ),
    ],
)
def test_a_refused_rename_says_why_keeps_the_input_and_changes_nothing(app, browser, name, message):
    _imported(app, [_play(1, "castle", [("Ola", 30, True), ("Kuba", 24, False)])])
    response = browser.post(f"/players/{_player_id(app, 'Ola')}/rename", {"name": name})
    assert response.status_code == 422 and message in text(response)
    assert f'value="{name}"' in text(response)
    assert _history_entries(text(browser.get("/history"))) == ["Castle: Ola 30 *, Kuba 24"]


def test_merging_makes_a_duplicate_name_the_same_player(app, browser):
    _imported(
        app,
        [
            _play(1, "castle", [("Ola", 30, True), ("Kuba", 24, False)]),
            _play(2, "zamek", [("Ola K", 9, True)]),
        ],
    )
    ola, duplicate = _player_id(app, "Ola"), _player_id(app, "Ola K")
    page = text(browser.get(f"/players/{ola}"))
    assert f'<option value="{duplicate}">Ola K (1 play)</option>' in page
    response = browser.post(f"/players/{ola}/merge", {"other": str(duplicate)})
    assert "Ola K and Ola are one player now: Ola." in text(browser.get(response.headers["Location"]))
    assert "2 of 2 plays won" in text(browser.get(f"/players/{ola}"))
    assert browser.get(f"/players/{duplicate}").status_code == 404
    refused = browser.post(f"/players/{ola}/merge", {"other": ""})
    assert refused.status_code == 422 and "Choose from the list the player to merge into this one." in text(
        refused
    )


def test_forgetting_asks_first_then_replaces_the_name_everywhere(app, browser):
    _imported(app, [_play(1, "castle", [("Ola", 30, True), ("Kuba", 24, False)])])
    ola = _player_id(app, "Ola")
    confirm = text(browser.get(f"/players/{ola}/forget"))
    assert "Forgetting replaces the name Ola with a number" in confirm
    assert _history_entries(text(browser.get("/history"))) == [
        "Castle: Ola 30 *, Kuba 24"
    ]  # asking changed nothing
    response = browser.post(f"/players/{ola}/forget")
    assert "Ola is forgotten: every play now says Player 1." in text(
        browser.get(response.headers["Location"])
    )
    assert _history_entries(text(browser.get("/history"))) == ["Castle: Player 1 30 *, Kuba 24"]


def test_an_unknown_player_is_a_404(browser):
    assert browser.get("/players/9999").status_code == 404
    assert browser.post("/players/9999/rename", {"name": "X"}).status_code == 404


# --- Rematch ---


def test_rematch_opens_a_new_table_of_the_same_game_and_players_as_its_referee(app, browser):
    token = _pad(browser, players="Ola\nKuba\nEwa", rounds=((1, 2, 3),))
    assert "Rematch" in text(browser.get(f"/t/{token}"))
    response = browser.post(f"/t/{token}/rematch")
    assert response.status_code == 303
    new_token = response.headers["Location"].rsplit("/t/", 1)[1]
    assert new_token != token
    page = text(browser.get(f"/t/{new_token}"))
    assert "You are the referee" in page and "Round 1" in page
    assert re.findall(r'<label for="points-\d">(\w+)</label>', page) == ["Ola", "Kuba", "Ewa"]


def test_rematch_tapped_twice_or_on_two_phones_opens_the_same_new_table(app, browser):
    token = _pad(browser, players="Ola\nKuba", rounds=((1, 2),))
    first = browser.post(f"/t/{token}/rematch")
    again = browser.post(f"/t/{token}/rematch")  # a double tap, or the request sent again on bad Wi-Fi
    other_phone = Browser(app.test_client())  # the referee's link opened on a second phone
    other_phone.get(f"/t/{token}")
    third = other_phone.post(f"/t/{token}/rematch")
    assert first.status_code == again.status_code == third.status_code == 303
    assert first.headers["Location"] == again.headers["Location"] == third.headers["Location"]
    with db.connect(app.config["DATABASE"]) as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(db.tables)).scalar() == 2
    new_token = first.headers["Location"].rsplit("/t/", 1)[1]
    assert "You are the referee" in text(browser.get(f"/t/{new_token}"))


def test_rematch_is_refused_before_the_end_and_to_a_viewer(browser):
    token = _pad(browser, finish=False)
    response = browser.post(f"/t/{token}/rematch")
    assert response.status_code == 422 and "A rematch starts once this table is finished." in text(response)
    assert ">Rematch</button>" not in text(browser.get(f"/t/{token}"))


def test_a_forteresse_rematch_gives_the_first_shot_to_the_other_player(app, browser):
    token = browser.create_table(
        "forteresse", {"mode": "paper", "first": "a", "name_a": "Ola", "name_b": "Kuba"}
    )
    with db.connect(app.config["DATABASE"]) as conn:
        table = store.get_table(conn, store.find_link(conn, token).table_id)
        state, rng = table.state, random.Random(3)
        while (move := forteresse.random_legal_action(state, rng)) is not None:
            table = store.act(conn, forteresse, table.id, move[0], move[1], None)
            state = table.state
    assert "This table is finished." in text(browser.get(f"/t/{token}"))
    new_token = browser.post(f"/t/{token}/rematch").headers["Location"].rsplit("/t/", 1)[1]
    with db.connect(app.config["DATABASE"]) as conn:
        again = store.get_table(conn, store.find_link(conn, new_token).table_id)
    assert again.options == {"mode": "paper", "first": "b", "names": {"a": "Ola", "b": "Kuba"}}
    assert again.state["rounds"][0]["first"] == "b"


# --- Names remembered for the next table ---


def test_names_played_before_are_offered_on_every_start_form(app, browser):
    _pad(browser, players="Ola\nKuba")
    for game in ("castle", "fort", "forteresse", "tactics", "zamek"):
        page = text(browser.get(f"/{game}/"))
        options = re.search(r'<datalist id="player-names">(.*?)</datalist>', page, re.S).group(1)
        assert sorted(re.findall(r'<option value="([^"]+)">', options)) == ["Kuba", "Ola"], game
        assert 'list="player-names"' in page, game


def test_the_home_page_and_every_page_link_to_the_history(browser):
    assert 'href="/history">History</a>' in text(browser.get("/"))


def test_the_score_pad_offers_earlier_players_as_boxes_to_tick(app, browser):
    _pad(browser, players="Ola\nKuba")
    page = text(browser.get("/scorepad/"))
    assert re.findall(r'<input type="checkbox" name="known" value="([^"]+)">', page) == ["Kuba", "Ola"]
    token = browser.create_table("scorepad", {"players": "Ewa\nOla", "known": ["Ola", "Kuba"]})
    assert re.findall(r'<label for="points-\d">(\w+)</label>', text(browser.get(f"/t/{token}"))) == [
        "Ewa",
        "Ola",
        "Kuba",
    ]
    refused = browser.post("/tables/new/scorepad", {"players": ""})
    assert "A score pad takes 1 to 8 players." in text(browser.get(refused.headers["Location"]))


@pytest.mark.parametrize("game", ["castle", "fort", "forteresse", "scorepad", "tactics", "zamek"])
def test_a_play_imported_with_details_of_another_shape_shows_without_them(app, browser, game):
    junk = {
        "rounds": [1, "x"],
        "games": 3,
        "sides": [{"players": [7], "captured": 2}],
        "castles": "long",
        "showdown": 5,
        "ended_by": "showdown",
    }
    _imported(app, [{**_play(1, game, [("Ola", 3, True), ("Kuba", 1, False)]), "details": junk}])
    page = browser.get("/history/imported-play-0001")
    assert page.status_code == 200 and "Ola" in text(page) and "<svg" not in text(page)
