"""Castle's pages through the test client: calculator, tracked table, score sheet, help, junk."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.conftest import table_state, text

ROW = "4c 8d js 2s 2h 9h 5c 3s tc 6s 7d ah"
EXAMPLE = dict(
    zip(
        ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3"],
        ["4C", "8D", "JS", "2S", "2H", "9H", "5C", "3S", "10C", "6S", "7D", "AH"],
        strict=True,
    )
)


def _values(page: str) -> dict[str, int]:
    return {
        pile: int(value)
        for pile, value in re.findall(r'value="([A-D][1-3])".*?value (-?\d+)</span>', page, re.S)
    }


def _words(page: str) -> str:
    """The page's words without tags, as a person reads them."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def _calculator(browser, htmx=False, **args) -> str:
    headers = {"HX-Request": "true"} if htmx else {}
    response = browser.get("/castle/calculator?" + urlencode(args), headers=headers)
    assert response.status_code == 200
    return text(response)


# --- The calculator -------------------------------------------------------------------


def test_the_castle_typed_row_by_row_shows_every_value(browser):
    page = _calculator(browser, do="row", row=ROW)
    values = _values(page)
    assert len(values) == 12
    assert (values["B2"], values["C2"], values["A1"], values["D3"]) == (9, 5, 2, 1)
    assert 'aria-label="10 of clubs">10♣<' in page


def test_a_card_is_put_on_the_chosen_pile_with_rank_and_suit_and_the_next_pile_is_chosen(browser):
    page = _calculator(browser, do="put", pile="A1", pick_rank="10", pick_suit="H")
    assert '<input type="hidden" name="A1" value="10H">' in page
    assert 'name="pile" value="B1" checked' in page
    assert "1 of 12 piles entered" in page


def test_checking_a_card_marks_each_pile_with_the_reason_where_it_may_not_go(browser):
    page = _calculator(browser, do="check", pick="9s", **EXAMPLE)
    assert "B2</strong>: A black 9 needs more than this pile's 9." in page
    assert re.search(r"may go on <strong>A1, A2, A3, B1, B3, C1, C2, C3, D1, D2, D3</strong>", page)
    # The checked card stays while the castle changes: B2 becomes the 8 of hearts, worth 8.
    page = _calculator(browser, do="put", pile="B2", pick="8h", card="9S", **EXAMPLE)
    assert "B2</strong>" not in page
    assert "may go on <strong>A1, A2, A3, B1, B2," in page


def test_htmx_gets_only_the_calculator_fragment(browser):
    page = _calculator(browser, htmx=True, do="row", row=ROW)
    assert page.lstrip().startswith('<div id="calculator"')
    assert "<html" not in page


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"do": "put", "pile": "A1", "pick": "1X"}, "“1X” is not a card"),
        ({"do": "put", "pile": "A1", "pick_rank": "Q"}, "Pick the card's suit as well as its rank."),
        ({"do": "put", "pile": "A1"}, "Pick a card first"),
        ({"do": "put", "pile": "E9", "pick": "QS"}, "Tap the pile to put the queen of spades on."),
        ({"do": "put", "pile": "B1", "pick": "4C", "A1": "4C"}, "already elsewhere (on A1)"),
        ({"do": "row", "row": ROW + " ks"}, "you typed 13 cards"),
        ({"do": "row", "row": "4c 4c"}, "already elsewhere (on A1)"),
        ({"do": "check", "pick": "AH", **EXAMPLE}, "The ace of hearts is already elsewhere (on D3)"),
        ({"A1": "zz" * 500}, "is not a card"),
        ({"Q7": "AS", "do": "nothing"}, ""),
    ],
)
def test_bad_calculator_input_says_why_and_changes_nothing(browser, args, message):
    page = _calculator(browser, **args)
    assert message in page
    if args.get("A1") == "4C":
        assert '<input type="hidden" name="A1" value="4C">' in page
        assert 'name="B1" value="4C"' not in page


# --- The tracked table ----------------------------------------------------------------


def _table(browser, **options):
    data = {
        "players": "4",
        "dealer": "N",
        "name_N": "Ola",
        "name_S": "Kuba",
        "name_E": "Ewa",
        "name_W": "Jan",
    }
    return browser.create_table("castle", {**data, **options})


def _act(browser, token, version, **fields):
    return browser.post(f"/t/{token}/act", {"version": str(version), **fields}, htmx=True)


def test_a_tracked_game_shows_turns_colours_values_and_refuses_an_illegal_placement(browser):
    token = _table(browser)
    page = text(browser.get(f"/t/{token}"))
    assert "Ola deals 10 cards each" in page
    assert _act(browser, token, 0, type="deal", castle_line=ROW).status_code == 200
    page = text(browser.get(f"/t/{token}"))
    assert "Ewa's turn (Ewa & Jan)" in page
    assert "No colours yet" in page
    assert _values(page)["C2"] == 5

    refused = _act(browser, token, 1, type="play", card_rank="5", card_suit="H", pile="C2")
    assert refused.status_code == 422
    assert "A red 5 needs more than this pile's 5." in text(refused)
    assert 'data-version="1"' in text(refused)

    played = text(_act(browser, token, 1, type="play", card_rank="Q", card_suit="H", pile="C2"))
    assert "Kuba's turn (Ola & Kuba, black)" in played
    assert re.search(r"Ewa (&amp;|&) Jan</span>\s*<strong class=\"red\">play red", played)
    assert _values(played)["B2"] == 11  # three red neighbours now, one black
    assert "2 cards" in played  # C2's height


def test_a_two_player_game_says_each_player_plays_a_colour(browser):
    token = browser.create_table("castle", {"players": "2", "dealer": "S", "name_N": "Ola", "name_S": "Kuba"})
    _act(browser, token, 0, type="deal", castle_line=ROW)
    played = text(_act(browser, token, 1, type="play", card_rank="Q", card_suit="H", pile="C2"))
    assert re.search(r'Ola</span>\s*<strong class="red">plays red</strong>', played)
    assert re.search(r'Kuba</span>\s*<strong class="black">plays black</strong>', played)


def test_a_pass_gives_the_card_to_the_team_on_the_left_and_undo_takes_it_back(browser):
    token = _table(browser)
    _act(browser, token, 0, type="deal", castle_line=ROW)
    page = text(_act(browser, token, 1, type="pass", card="KS"))
    assert "took on passes:" in page and 'aria-label="king of spades"' in page
    assert "Kuba's turn" in page
    undone = text(browser.post(f"/t/{token}/undo", {"version": "2"}, htmx=True))
    assert "Ewa's turn" in undone and "took on passes" not in undone


def test_a_two_player_game_ends_and_scores_from_the_tracked_piles(browser, app):
    from companion.rules import castle

    token = browser.create_table("castle", {"players": "2", "dealer": "S", "name_N": "Ola", "name_S": "Kuba"})
    _act(browser, token, 0, type="deal", castle_line=ROW)
    state_version = 1
    for _ in range(40):
        page = text(browser.get(f"/t/{token}"))
        with app.app_context():
            from companion import store
            from companion.http.context import get_db

            table = store.get_table(get_db(), store.find_link(get_db(), token).table_id)
            card = castle.unseen_cards(table.state)[0]
        response = _act(browser, token, state_version, type="pass", card=card)
        assert response.status_code == 200, text(response)[:300]
        state_version += 1
    page = text(browser.get(f"/t/{token}"))
    assert "Final score" in page
    assert "A draw." in page  # nobody laid a card: no colours, 0-0
    assert "Ola" in page and 'name="pile"' not in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"type": "deal", "castle_line": "4c 8d"}, "type 12 cards row by row, not 2"),
        ({"type": "deal", "A1": "4C"}, "still empty: A2, A3"),
        ({"type": "deal", "castle_line": ROW.replace("ah", "4c")}, "already elsewhere"),
        ({"type": "play", "pile": "C2"}, "Pick the card that was played"),
        ({"type": "play", "card": "QH"}, "Tap the pile the queen of hearts went on."),
        ({"type": "play", "card": "QH", "pile": "Z9"}, "is not a pile of the castle"),
        ({"type": "play", "card": "4C", "pile": "C2"}, "already elsewhere (in pile A1)"),
        ({"type": "pass"}, "Pick the card the opponent took"),
        ({"type": "fly"}, "Choose to deal, play or pass."),
        (
            {"card_rank": ["Q", "K"], "card_suit": "H", "type": "play", "pile": "A1"},
            "This form sent one of its fields twice.",
        ),
    ],
)
def test_bad_moves_are_refused_with_the_reason_and_change_nothing(browser, fields, message):
    token = _table(browser)
    if fields["type"] != "deal":
        _act(browser, token, 0, type="deal", castle_line=ROW)
    version = 0 if fields["type"] == "deal" else 1
    response = _act(browser, token, version, **fields)
    assert response.status_code == 422
    assert message in text(response)
    assert f'data-version="{version}"' in text(browser.get(f"/t/{token}"))


def test_a_refused_deal_keeps_what_the_referee_typed(browser):
    token = _table(browser)
    response = _act(browser, token, 0, type="deal", castle_line=ROW.replace("ah", "xx"))
    assert f'value="{ROW.replace("ah", "xx")}"' in text(response)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": "3"}, "played by 4 players in two teams, or by 2"),
        ({"players": "many"}, "is a whole number"),
        ({"players": "²"}, "The number of players is a whole number, and “²” is not one."),
        ({"players": "2", "dealer": "E"}, "The dealer sits at North or South."),
        ({"name_N": "x" * 41}, "at most 40 characters"),
    ],
)
def test_bad_table_options_create_nothing_and_say_why(browser, data, message):
    response = browser.post(
        "/tables/new/castle", {"players": "4", "dealer": "N", **data}, follow_redirects=True
    )
    assert message in text(response)
    assert "/t/" not in response.request.path


def test_the_viewer_sees_the_castle_but_no_forms(browser, other_browser):
    token = _table(browser)
    _act(browser, token, 0, type="deal", castle_line=ROW)
    links = text(browser.get(f"/t/{token}/links"))
    viewer = [t for t in re.findall(r"/t/([\w-]{20,})", links) if t != token][0]
    page = text(other_browser.get(f"/t/{viewer}"))
    assert _values(page) == {} and "value 9</span>" in page
    assert 'name="pile"' not in page and 'name="card_rank"' not in page


# --- Score sheet and help -------------------------------------------------------------


def test_the_score_sheet_counts_each_teams_captured_cards(browser):
    page = _words(text(browser.get("/castle/score?red_A=2&red_K=1&red_2-10=3&black_Q=2&black_J=1")))
    assert "Red team: 25 · Black team: 8" in page  # 18 + 4 + 3 against 6 + 2
    assert "The red team wins." in page


def test_the_score_sheet_is_a_draw_when_equal_and_refuses_impossible_counts(browser):
    assert "A draw." in text(browser.get("/castle/score?red_J=1&black_2-10=2"))
    page = text(browser.get("/castle/score?red_2-10=19&black_A=1"))
    assert "The deck holds only 18 black cards from 2 to 10, not 19." in page
    assert "wins" not in page
    assert "is a whole number" in text(browser.get("/castle/score?red_A=-1"))
    assert "is a whole number" in text(browser.get("/castle/score?black_K=" + "9" * 40))
    # "²" is a digit to Python's isdigit() but int() cannot read it: it used to give a 500.
    response = browser.get("/castle/score?red_A=²&black_K=1")
    assert response.status_code == 200
    assert "A count is a whole number, and “²” is not one." in text(response)


def test_the_help_page_shows_the_worked_example_with_real_values(browser):
    page = text(browser.get("/castle/help"))
    values = re.findall(r'<span class="pile-name">(B2|C2)</span>.*?value (\d+)</span>', page, re.S)
    assert values == [("B2", "9"), ("C2", "5"), ("B2", "11"), ("C2", "12")]
    assert "A black jack (11) cannot take a red pile worth 11" in page


def test_the_castle_pages_hold_no_inline_script_or_style(browser):
    token = _table(browser)
    for path in ["/castle/", "/castle/calculator", "/castle/score", "/castle/help", f"/t/{token}"]:
        page = browser.get(path).data.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), path
        assert not re.search(r"\s(on[a-z]+|style)=", page), path


def test_junk_form_posts_never_give_a_500(browser):
    token = _table(browser)
    junk = [
        {},
        {"type": ["deal", "play"]},
        {"type": "deal", "castle_line": "\x00" * 3000},
        {"type": "deal", **{pile: ["4C", "5C"] for pile in EXAMPLE}},
        {"type": "play", "card": "♠" * 500, "pile": "A1"},
        {"type": "pass", "card_rank": "10", "card_suit": "\ufe0f"},
    ]
    for fields in junk:
        response = _act(browser, token, 0, **fields)
        assert response.status_code == 422, fields
        assert "notice-error" in text(response)
    for query in ["do=put&pile=%00&pick_rank=%FF", "do=row&row=" + "x" * 5000, "card=" + "q" * 99]:
        assert browser.get("/castle/calculator?" + query).status_code == 200


# --- At the table: marks while a card is played, the last move, the score's breakdown ---


def _piles(page: str) -> dict[str, str]:
    """Each pile's mark on the table page: "may go here", "may not go here", or "" (no mark)."""
    marks = {}
    for pile, body in re.findall(r'name="pile" value="([A-D][1-3])"[^>]*>(.*?)</button>', page, re.S):
        found = re.search(r'class="sr-only">(may (?:not )?go here)<', body)
        marks[pile] = found.group(1) if found else ""
    return marks


def test_a_picked_card_marks_every_pile_with_whether_it_may_go_there(browser):
    token = _table(browser)
    _act(browser, token, 0, type="deal", castle_line=ROW)
    assert set(_piles(text(browser.get(f"/t/{token}"))).values()) == {""}  # nothing picked yet
    for response in (
        browser.get(f"/t/{token}?card_rank=5&card_suit=H"),  # the no-JavaScript "Where may it go?"
        browser.get(f"/t/{token}/live?card=5h", headers={"HX-Request": "true"}),  # htmx, as the chips change
    ):
        page = text(response)
        marks = _piles(page)
        # A red 5 may go on every red pile, and take a black pile worth less than 5.
        assert marks["B1"] == marks["B2"] == "may go here"  # 8♦ and 9♥: red
        assert marks["C2"] == "may not go here"  # 5♣ worth 5: not more
        assert marks["A1"] == "may go here"  # 4♣ worth 4 - 1 - 1 = 2
        assert marks["C1"] == "may not go here"  # J♠ worth 11 + 1 - 1
        legal = sorted(pile for pile, mark in marks.items() if mark == "may go here")
        assert "may go on the piles marked ✓: " + ", ".join(legal) + "." in _words(page)
        assert 'role="status"' in page


def test_a_card_already_seen_is_said_at_once_and_marks_nothing(browser):
    token = _table(browser)
    _act(browser, token, 0, type="deal", castle_line=ROW)
    page = text(browser.get(f"/t/{token}?card_rank=4&card_suit=C"))
    assert re.search(r'role="alert">The 4 of clubs is already elsewhere \(in pile A1\)', page)
    assert set(_piles(page).values()) == {""}


def test_where_may_it_go_without_a_whole_card_says_what_to_pick_but_a_picker_half_way_does_not(browser):
    token = _table(browser)
    _act(browser, token, 0, type="deal", castle_line=ROW)
    for ask, said in (
        ("do=check", "Pick the card to check: tap its rank, then its suit, or type it."),
        ("do=check&card_rank=Q", "Pick the card's suit as well as its rank."),
        ("do=check&card=xx", "“xx” is not a card"),
    ):
        for response in (
            browser.get(f"/t/{token}?{ask}"),  # the button without JavaScript
            browser.get(f"/t/{token}/live?{ask}", headers={"HX-Request": "true"}),
        ):  # with htmx
            page = text(response)
            assert re.search(r'role="alert">' + re.escape(said), page), (
                ask,
                page[page.find("castle-marks") :][:300],
            )
            assert set(_piles(page).values()) == {""}
    # The picker changing under a finger (a rank tapped, the suit not yet) checks without a word.
    assert 'role="alert"' not in text(
        browser.get(f"/t/{token}/live?card_rank=Q", headers={"HX-Request": "true"})
    )


def test_a_refused_play_keeps_the_card_and_shows_the_marks(browser):
    token = _table(browser)
    _act(browser, token, 0, type="deal", castle_line=ROW)
    refused = text(_act(browser, token, 1, card_rank="5", card_suit="H", pile="C2"))
    assert "A red 5 needs more than this pile's 5." in refused
    assert _piles(refused)["C2"] == "may not go here"
    assert re.search(r'name="card_rank" value="5" checked', refused)


def test_tapping_a_pile_plays_the_picked_card_and_every_screen_shows_the_last_move(browser, other_browser):
    token = _table(browser)
    _act(browser, token, 0, type="deal", castle_line=ROW)
    played = text(_act(browser, token, 1, card_rank="Q", card_suit="H", pile="C2"))  # the tapped pile alone
    assert "Kuba's turn" in played
    links = text(browser.get(f"/t/{token}/links"))
    viewer = [t for t in re.findall(r"/t/([\w-]{20,})", links) if t != token][0]
    for page in (played, text(other_browser.get(f"/t/{viewer}"))):
        assert "Last move: Ewa laid Q♥ on C2." in _words(page)
        last = re.findall(r'class="pile[^"]* last"[^>]*>\s*<span class="pile-name">([A-D][1-3])<', page)
        assert last == ["C2"] and page.count("last move</span>") == 1
    passed = _words(text(_act(browser, token, 2, type="pass", card="KS")))
    assert (
        "Last move: Kuba passed, and Jan took K♠." in passed
        and "last move" not in passed.split("Last move")[0]
    )


def test_the_final_score_shows_which_captured_ranks_made_which_points(browser, app):
    from companion.rules import castle

    token = browser.create_table("castle", {"players": "2", "dealer": "S", "name_N": "Ola", "name_S": "Kuba"})
    _act(browser, token, 0, type="deal", castle_line=ROW)
    for version in range(1, 41):
        state = table_state(app, token)
        name = castle.unseen_cards(state)[0]
        legal = castle.legal_piles(castle.castle_tops(state), castle.parse(name))
        fields = {"card": name, "pile": legal[0]} if legal else {"type": "pass", "card": name}
        assert _act(browser, token, version, **fields).status_code == 200
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text(browser.get(f"/t/{token}"))))
    score = castle.final_score(table_state(app, token))
    for team in "NS":
        lines = score["breakdown"][team]
        assert sum(line["points"] for line in lines.values()) == score["teams"][team]
    row = " ".join(
        f"{score['breakdown'][t]['A']['cards']} × 9 = {score['breakdown'][t]['A']['points']}" for t in "NS"
    )
    assert f"Aces (9 a card) {row}" in page
    totals = " ".join(str(score["teams"][t]) for t in "NS")
    assert f"Total {totals}" in page


def test_the_help_says_the_first_card_laid_gives_its_players_team_the_colour(browser):
    page = _words(text(browser.get("/castle/help")))
    assert "the team of the player who lays it takes that card's colour" in page
    assert "if the first player passes, the colours wait for the first card actually laid" in page


def test_a_replay_shows_the_last_move_of_its_step_and_never_marks(browser):
    token = _table(browser)
    _act(browser, token, 0, type="deal", castle_line=ROW)
    _act(browser, token, 1, card="QH", pile="C2")
    _act(browser, token, 2, type="pass", card="KS")
    after_play = _words(text(browser.get(f"/t/{token}/replay?step=2&card=5h")))
    assert "Last move: Ewa laid Q♥ on C2." in after_play and "may go" not in after_play
    assert "Last move" not in _words(text(browser.get(f"/t/{token}/replay?step=1")))
