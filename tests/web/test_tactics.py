"""Square Tactics' pages as people use them: the board tracker, every refusal, seen-from, the match,
the score sheet, the help, and the simulator through the castellan command."""

from __future__ import annotations

import re

import pytest

from companion import cli
from companion.rules import tactics
from tests.conftest import text

NAMES = {"name_p1": "Ola", "name_p2": "Kuba"}


def new_table(browser, **form) -> str:
    return browser.create_table(
        "tactics", {"players": "2", "faction_p1": "wardens", "faction_p2": "roost", **NAMES, **form}
    )


def page(browser, token) -> str:
    return text(browser.get(f"/t/{token}"))


def version(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def mover(html: str) -> str:
    return re.search(r'id="whose-turn">(\w+)\'s turn', html).group(1)


def act(browser, token, data: dict, htmx=True):
    html = page(browser, token)
    return browser.post(f"/t/{token}/act", {"version": str(version(html)), **data}, htmx=htmx)


def typed(browser, token, cell: str, edges: list[int], **extra):
    numbers = dict(zip(tactics.EDGES, (str(n) for n in edges), strict=True))
    return act(browser, token, {"cell": cell, "typed": "1", **numbers, **extra})


def board_cells(html: str) -> list[str]:
    board = html[html.index('class="tboard ') :]
    board = board[
        : board.index("</div>\n    {%") if "{%" in board else board.index('class="side side-bottom"')
    ]
    return re.findall(r'<span class="cell-name">([A-D][1-4])</span>', board)


def test_the_page_offers_both_boards_every_faction_and_the_tools(browser):
    html = text(browser.get("/tactics/"))
    for faction in tactics.load_factions().values():
        assert faction["name"] in html and faction["description"] in html
    assert "2, on a 3x3 board" in html and "4, on a 4x4 board" in html
    for link in ("/tactics/help", "/tactics/score", "/print#tactics"):
        assert f'href="{link}"' in html


def test_a_tracked_play_shows_each_step_the_capture_and_whose_turn(browser):
    token = new_table(browser)
    html = page(browser, token)
    first = mover(html)
    second = "Kuba" if first == "Ola" else "Ola"
    assert "Game 1 of 3" in html and f"{first} was drawn to start" in html
    typed(browser, token, "B2", [1, 1, 1, 1])
    html = page(browser, token)
    assert mover(html) == second
    response = typed(browser, token, "b3", [9, 9, 9, 9])
    html = text(response)
    assert response.status_code == 200 and html.lstrip().startswith('<section id="live"')
    # Whatever seat the second player has, one of the 9s meets the 1 facing it.
    assert "9 vs 1 → capture B2" in html
    # Two sentences, with a space between them.
    assert f"Captured 1: B2, now empty. {second} has taken 1 card this game.</p>" in html
    assert mover(html) == first
    assert re.search(
        rf"<th scope=\"row\">.*?{second}.*?</th>\s*<td>\d+</td><td>\d+</td><td>1</td>", html, re.S
    )
    assert f"<strong>Recorded.</strong> {second} plays" in html and "captures B2" in html


def test_a_card_picked_from_the_hand_leaves_the_hand(browser):
    token = new_table(browser)
    html = page(browser, token)
    hand = re.findall(r'name="card" value="(p\d-\d\d)"', html)
    card_id = hand[0]
    player = card_id.split("-")[0]
    faction = "wardens" if player == "p1" else "roost"
    card = tactics.faction(faction)["cards"][int(card_id.split("-")[1]) - 1]
    act(browser, token, {"cell": "A1", "card": card_id})
    html = page(browser, token)
    assert f"played {card['name']} on <strong>A1</strong>" in html
    assert "No enemy card next to it" in html
    assert f'value="{card_id}"' not in html  # no longer among anyone's cards to play


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"typed": "1", "top": "1", "right": "1", "bottom": "1", "left": "1"},
            "Tap the cell the card was laid on",
        ),
        ({"cell": "B2"}, "Pick the card that was played, or type its four numbers"),
        (
            {"cell": "D4", "typed": "1", "top": "1", "right": "1", "bottom": "1", "left": "1"},
            "D4 is off the board",
        ),
        (
            {"cell": "B2", "typed": "1", "top": "0", "right": "1", "bottom": "1", "left": "1"},
            "The top number must be 1 to 9, not “0”",
        ),
        (
            {"cell": "B2", "typed": "1", "top": "5", "right": "x", "bottom": "1", "left": "1"},
            "The right number must be 1 to 9",
        ),
        (
            {"cell": "B2", "typed": "1", "top": "5", "right": "5", "bottom": "", "left": "1"},
            "The bottom number must be 1 to 9, not nothing",
        ),
        (
            {"cell": "B2", "typed": "1", "top": "²", "right": "1", "bottom": "1", "left": "1"},
            "The top number must be 1 to 9, not “²”",
        ),  # isdigit() says yes, int() says no: it was a 500
        (
            {"cell": "B2", "typed": "1", "top": "٠", "right": "1", "bottom": "1", "left": "1"},
            "The top number must be 1 to 9, not “٠”",
        ),  # an Arabic-Indic zero is still a zero
        ({"cell": "B2", "card": "p9-01"}, "is not one of"),
        ({"type": "next_game"}, "Finish this game before starting the next one"),
        ({"type": "shuffle"}, "Choose one of the buttons"),
        ({"cell": ["A1", "B1"], "card": "x"}, "This form sent one of its fields twice."),
    ],
)
def test_each_bad_play_is_refused_in_words_and_changes_nothing(browser, data, message):
    token = new_table(browser)
    before = page(browser, token)
    response = act(browser, token, data)
    assert response.status_code == 422
    assert message in text(response)
    after = page(browser, token)
    assert version(after) == version(before) == 0 and mover(after) == mover(before)


def test_an_occupied_cell_and_a_play_out_of_turn_are_refused(browser):
    token = new_table(browser)
    first_id = re.search(r'name="player" value="(p\d)"', page(browser, token)).group(1)
    typed(browser, token, "B2", [1, 1, 1, 1])
    refused = typed(browser, token, "B2", [2, 2, 2, 2])
    assert refused.status_code == 422 and "B2 already holds a card" in text(refused)
    refused = typed(browser, token, "A1", [2, 2, 2, 2], player=first_id)
    assert refused.status_code == 422 and "turn" in text(refused)
    assert version(page(browser, token)) == 1


def test_a_long_unknown_card_is_refused_with_a_short_message(browser):
    # Without htmx the refused page is the answer itself; the message quotes a short part of the name.
    token = new_table(browser)
    html = page(browser, token)
    response = browser.post(
        f"/t/{token}/act", {"version": str(version(html)), "cell": "A1", "card": "Z" * 3000}
    )
    assert response.status_code == 422
    assert len(response.headers.get("Set-Cookie", "")) < 4000
    shown = text(response)
    assert f"“{'Z' * 40}” is not one of" in shown and "Z" * 41 not in shown
    assert version(shown) == version(html)


def test_a_card_played_already_is_refused(browser):
    token = new_table(browser)
    card_id = re.findall(r'name="card" value="(p\d-\d\d)"', page(browser, token))[0]
    act(browser, token, {"cell": "A1", "card": card_id})
    typed(browser, token, "C3", [5, 5, 5, 5])  # the other player
    html = page(browser, token)
    # Give the first player's played card again, this time without the player field.
    refused = act(browser, token, {"cell": "A3", "card": card_id})
    assert refused.status_code == 422 and "is not one of" in text(refused)
    assert version(page(browser, token)) == version(html)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"players": "3"}, "played by 2 or 4 players"),
        ({"players": "two"}, "played by 2 or 4 players"),
        ({"faction_p2": "goblins"}, "There is no faction"),
        ({"own_p1": "{not json"}, "must be written as a JSON object"),
        ({"own_p1": '{"name": "Mine", "cards": [{"name": "A", "edges": [1, 2, 3, 10]}]}'}, "12 to 18 cards"),
        (
            {
                "own_p1": '{"name": "Mine", "cards": '
                + str([{"name": f"C{i}", "edges": [1, 2, 3, 10]} for i in range(12)]).replace("'", '"')
                + "}"
            },
            "must be a whole number from 1 to 9",
        ),
        ({"own_p1": "[1, 2]"}, "must be written as a JSON object"),
        ({"own_p1": "[" * 5000}, "must be written as a JSON object"),
    ],
)
def test_bad_table_options_create_nothing_and_say_why(browser, form, message):
    response = browser.post(
        "/tables/new/tactics",
        {"players": "2", "faction_p1": "wardens", "faction_p2": "roost", **form},
        follow_redirects=True,
    )
    assert message in text(response)
    assert "/t/" not in response.request.path


def test_a_faction_of_ones_own_can_be_played(browser):
    own = (
        '{"name": "Bridge Wardens", "emblem": "bridge", "cards": ['
        + ", ".join(f'{{"name": "Toll {i}", "edges": [{i % 9 + 1}, 2, 3, 4]}}' for i in range(12))
        + "]}"
    )
    token = new_table(browser, own_p2=own)
    html = page(browser, token)
    assert "Bridge Wardens" in html


def test_four_players_get_a_4x4_board_and_clockwise_seats(browser):
    token = browser.create_table(
        "tactics",
        {
            "players": "4",
            "faction_p1": "wardens",
            "faction_p2": "roost",
            "faction_p3": "shieldwall",
            "faction_p4": "marches",
            "name_p1": "Ola",
            "name_p2": "Kuba",
            "name_p3": "Ada",
            "name_p4": "Jan",
        },
    )
    html = page(browser, token)
    assert board_cells(html)[:4] == ["A1", "B1", "C1", "D1"] and len(board_cells(html)) == 16
    for name, seat in (("Ola", "S"), ("Kuba", "W"), ("Ada", "N"), ("Jan", "E")):
        assert f"{name} ({seat})" in html
    assert "Ola v Kuba v Ada v Jan" in html


def test_the_board_can_be_seen_from_another_seat_by_this_phone_only(browser, other_browser):
    token = new_table(browser)
    typed(browser, token, "A1", [1, 2, 3, 4])
    assert board_cells(page(browser, token))[0] == "A1"
    response = browser.post(f"/tactics/seen/{token}", {"seat": "N"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{token}")
    html = page(browser, token)
    assert board_cells(html)[:3] == ["C3", "B3", "A3"] and board_cells(html)[-1] == "A1"
    assert 'aria-pressed="true">N · ' in html
    # The live fragment keeps the choice; another phone still sees it from S.
    assert board_cells(text(browser.get(f"/t/{token}/live")))[0] == "C3"
    other_browser.get(f"/t/{token}")
    assert board_cells(text(other_browser.get(f"/t/{token}")))[0] == "A1"
    # A seat the table does not have is ignored.
    browser.post(f"/tactics/seen/{token}", {"seat": "W"})
    assert board_cells(page(browser, token))[0] == "A1"


def test_a_card_is_turned_as_its_owner_laid_it(browser):
    token = new_table(browser)
    typed(browser, token, "A1", [1, 2, 3, 4])
    html = page(browser, token)
    owner = 1 if mover(html) == "Kuba" else 2  # Ola is p1 (S), Kuba p2 (N)
    from_south = re.search(r'class="tcard owner-\d turn-(\d+)"', html).group(1)
    assert from_south == ("0" if owner == 1 else "180")
    browser.post(f"/tactics/seen/{token}", {"seat": "N"})
    from_north = re.search(r'class="tcard owner-\d turn-(\d+)"', page(browser, token)).group(1)
    assert from_north == ("180" if owner == 1 else "0")


def test_a_viewer_sees_the_board_but_no_controls(browser, other_browser):
    token = new_table(browser)
    typed(browser, token, "B2", [3, 3, 3, 3])
    links = text(browser.get(f"/t/{token}/links"))
    viewer = re.search(r"<strong>Viewer</strong>.*?/t/([\w-]+)\"", links, re.S).group(1)
    html = text(other_browser.get(f"/t/{viewer}"))
    assert "You are watching" in html and "played" in html and "B2" in html
    assert 'name="cell"' not in html and 'name="card"' not in html and "Play these numbers" not in html


def _fill_board(browser, token):
    """Every play a 5 all round on the next empty cell: nothing is captured; the board fills."""
    for cell in tactics.cells(3):
        typed(browser, token, cell, [5, 5, 5, 5])


def test_a_whole_match_is_scored_and_the_winner_starts_the_next_game(browser):
    token = new_table(browser)
    for game in (1, 2, 3):
        starter = mover(page(browser, token))
        _fill_board(browser, token)
        html = page(browser, token)
        assert f"Game {game} is over" in html
        # No capture: the two players share the board's 16 points of cells.
        scores = re.search(r'<p class="result">Ola (\d+) · Kuba (\d+)</p>', html)
        ola, kuba = int(scores.group(1)), int(scores.group(2))
        assert ola + kuba == sum(tactics.cell_value(cell, 3) for cell in tactics.cells(3))
        winner = "Ola" if ola > kuba else "Kuba" if kuba > ola else None
        assert (f"{winner} wins game {game}." if winner else f"Game {game} is a draw.") in html
        if game < 3:
            act(browser, token, {"type": "next_game"})
            following = mover(page(browser, token))
            assert following == (winner or ("Kuba" if starter == "Ola" else "Ola"))
    html = page(browser, token)
    totals = re.search(
        r'<th scope="row">Match</th><td class="total">(\d+)</td><td class="total">(\d+)</td>', html
    )
    games = re.findall(r"<td><strong>(\d+)</strong>", html)
    assert int(totals.group(1)) == sum(int(n) for n in games[0::2])
    assert int(totals.group(2)) == sum(int(n) for n in games[1::2])
    assert "wins the match with" in html or "The match is a draw." in html
    assert "Start game" not in html


def test_the_score_sheet_adds_captures_and_cells_for_each_game_and_the_match(browser):
    query = (
        "name_p1=Ola&name_p2=Kuba&g1_p1_captured=2&g1_p1_corners=2&g1_p1_sides=1&g1_p2_centres=1"
        "&g1_p2_sides=2&g2_p1_centres=1&g2_p2_captured=1"
    )
    html = text(browser.get(f"/tactics/score?{query}"))
    assert re.search(
        r"<th scope=\"row\">1</th><td><strong>6</strong> <span class=\"hint\">2 \+ 4</span></td>"
        r"<td><strong>7</strong> <span class=\"hint\">0 \+ 7</span></td>",
        html,
    )
    assert re.search(r'<td class="total">9</td><td class="total">8</td>', html)
    assert "Ola leads with 9." in html
    # Said once by a screen reader: the leader's line is the one live region, not the table too.
    assert re.findall(r'role="(?:status|alert)"[^>]*>([^<]*)', html) == ["Ola leads with 9."]
    fragment = browser.get(f"/tactics/score?{query}", headers={"HX-Request": "true"})
    assert text(fragment).lstrip().startswith('<div id="score-sheet"')


def test_the_score_sheet_knows_the_4x4_board(browser):
    html = text(browser.get("/tactics/score?players=4&g1_p3_centres=4&g1_p4_corners=4&g1_p1_sides=8"))
    assert "of 4" in html and "of 8" in html
    assert re.search(
        r'<td class="total">16</td><td class="total">0</td><td class="total">12</td>'
        r'<td class="total">4</td>',
        html,
    )


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("g1_p1_corners=3&g1_p2_corners=2", "Game 1: The 3x3 board has only 4 corners"),
        ("g2_p1_centres=2", "has only 1 centre, and more"),
        ("g1_p1_captured=x", "Player 1's captured must be a whole number"),
        (
            "g1_p1_captured=%C2%B2",
            "Player 1's captured must be a whole number, and “²” is not one",
        ),  # was a 500
        ("g3_p2_sides=-1", "Player 2's sides must be a whole number"),
        ("g1_p1_captured=99", "Nobody can capture more than 18 cards"),
        ("players=4&g1_p1_sides=9", "The 4x4 board has only 8 sides"),
    ],
)
def test_the_score_sheet_refuses_impossible_counts(browser, query, message):
    html = text(browser.get(f"/tactics/score?{query}"))
    assert message in html
    assert 'id="score-result"' not in html


def test_the_help_page_draws_each_seats_orientation_and_says_the_decisions(browser):
    html = text(browser.get("/tactics/help"))
    for seat in ("S", "N", "W", "E"):
        assert f"Laid from seat <strong>{seat}</strong>" in html
        directions = "".join(f"<td>{d}</td>" for d in tactics.ORIENTATION[seat])
        assert f'<th scope="row">{seat}</th>{directions}' in html
    for turn in ("turn-0", "turn-90", "turn-180", "turn-270"):
        assert turn in html
    assert "The player after the last starter, in turn order, starts the next game" in html
    assert "each of the four inner cells 3" in html


def test_the_help_page_names_the_edges_that_meet_an_s_cards_top_as_the_rules_orient_them(browser):
    html = text(browser.get("/tactics/help"))
    edges = ("top", "right", "bottom", "left")
    # The edge of each other seat's card that points south, toward an S card's top (north).
    south = {seat: edges[tactics.ORIENTATION[seat].index("south")] for seat in ("W", "N", "E")}
    assert south == {"W": "right", "N": "top", "E": "left"}
    assert (
        f"an S card's top (north) meets a W card's {south['W']}, an N card's {south['N']} "
        f"or an E card's {south['E']}: whichever edge of theirs points south."
    ) in html


def test_junk_form_posts_never_give_a_500(browser):
    token = new_table(browser)
    for data in (
        {"cell": "", "card": ""},
        {"cell": "Z", "typed": "1"},
        {"cell": "A1", "card": "💥" * 50},
        {"type": ["play", "next_game"]},
        {"cell": "A1", "typed": "1", "top": "1" * 500},
        {"cell": "A1", "player": "p7", "card": "p1-01"},
    ):
        response = act(browser, token, data)
        assert response.status_code == 422, data
        assert 'class="notice notice-error"' in text(response)
    assert browser.post(f"/tactics/seen/{token}", {"seat": "💥"}).status_code == 303
    assert browser.post("/tactics/seen/short", {"seat": "N"}).status_code == 303
    for junk in ("players=9", "g1_p1_captured=%00", "g4_p1_captured=3", "name_p1=" + "x" * 500):
        assert browser.get(f"/tactics/score?{junk}").status_code == 200


def test_castellan_tactics_balance_runs_the_simulator(capsys):
    status = cli.main(["tactics-balance", "--games", "20"])
    out = capsys.readouterr().out
    assert status in (0, 1)  # 1 while some pairing lies outside 40-60%
    for faction in tactics.load_factions().values():
        assert faction["name"] in out
    assert re.search(r"\n(\d+) games in [\d.]+ s", out).group(1) == str(
        20 * 2 * 6
    )  # 6 pairings, both starters


def test_the_start_form_names_player_two_s_seat_for_both_board_sizes(browser):
    page = text(browser.get("/tactics/"))
    assert "Player 2, seat N with two players, W with four" in page
    assert "Player 1, seat S" in page
