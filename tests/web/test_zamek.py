"""Zamek's pages: the table tracker (referee, teams voting, viewer), the score sheet, the help page."""

from __future__ import annotations

import json
import random
import re

import pytest
import sqlalchemy as sa

from companion.http.context import get_db
from companion.rules import zamek
from tests.conftest import everything_seen, table_state, text, with_state_changed

TWO = {"players": ["Ola", "Kuba", "", ""], "variant": "basic", "deck": "default"}
EXTENDED = {**TWO, "variant": "extended"}
TEAMS = {"players": ["Red", "Blue", "", ""], "variant": "extended", "teams": "yes", "deck": "default"}


def links(browser, token) -> dict[str, str]:
    page = browser.get(f"/t/{token}/links").data.decode()
    return dict(re.findall(r"<strong>([^<]+)</strong>.*?href=\"https?://[^/]+/t/([\w-]+)\"", page, re.S))


def version(browser, token) -> int:
    return int(re.search(rb'data-version="(\d+)"', browser.get(f"/t/{token}").data).group(1))


def act(browser, token, htmx=False, **fields):
    """Post one action on the table's current version; the page (or fragment) it leads to."""
    data = {"version": str(version(browser, token)), **{k: str(v) for k, v in fields.items()}}
    return browser.post(f"/t/{token}/act", data, htmx=htmx, follow_redirects=not htmx)


def words(response) -> str:
    """A response as a person reads it: tags gone, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text(response))).replace(" .", ".").replace(" ,", ",")


def live(browser, token) -> str:
    """The live fragment as a person reads it."""
    return words(browser.get(f"/t/{token}/live"))


def turn(browser, token, number, position=None):
    fields = {"type": "turn", "number": number}
    if position is not None:
        fields["position"] = position
    return act(browser, token, **fields)


def count_tables(app) -> int:
    with app.app_context():
        return get_db().execute(sa.text("SELECT COUNT(*) FROM tables")).scalar()


# --- Pages ----------------------------------------------------------------------------


def test_the_zamek_page_offers_a_table_the_score_sheet_help_and_print(browser):
    page = text(browser.get("/zamek/"))
    assert "Start the table" in page
    assert "Extended: play until the table is empty" in page
    assert 'href="/zamek/score"' in page and 'href="/zamek/help"' in page
    assert "Teams vote from their phones" in page


def test_a_scanned_deck_code_shows_that_deck(browser):
    page = words(browser.get("/zamek/?deck=zamek-default@1"))
    assert "This is zamek-default@1, Castellan's default deck." in page
    assert "King 41 Queen 34 Wizard 18" in page
    unknown = text(browser.get("/zamek/?deck=somebody-else@3"))
    assert "does not know the deck “somebody-else@3”" in unknown


def test_the_help_page_says_the_rules_in_castellans_words(browser):
    page = text(browser.get("/zamek/help"))
    for words in (
        "10 elements",
        "The wizard.",
        "princess–knight pair",
        "captain",
        "zamek-default@1",
        "never tells anyone where a card lies",
        "Referee's decisions",
    ):
        assert words in page


# --- Creating a table ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**TWO, "players": ["Ola", "", "", ""]}, "2 to 4 players or teams, not 1"),
        ({**TWO, "players": ["A", "B", "C", "D", "E"]}, "not 5"),
        ({**TWO, "players": ["Ola", "ola", "", ""]}, "Two players have the same name"),
        ({**TWO, "variant": "speed"}, "The variant is basic or extended"),
        (
            {**TWO, "deck": "custom", "deck_king": "40", "deck_queen": "40", "deck_wizard": "3"},
            "already carries a king",
        ),
        (
            {**TWO, "deck": "custom", "deck_king": "47", "deck_queen": "4", "deck_wizard": "3"},
            "numbered 2 to 46",
        ),
        (
            {**TWO, "deck": "custom", "deck_king": "", "deck_queen": "4", "deck_wizard": "3"},
            "Enter the king's card",
        ),
        (
            {
                **TWO,
                "deck": "custom",
                "deck_king": "4",
                "deck_queen": "5",
                "deck_wizard": "6",
                "deck_knights": "7 seven",
            },
            "“seven” is not a number",
        ),
        (
            {
                **TWO,
                "deck": "custom",
                "deck_king": "4",
                "deck_queen": "5",
                "deck_wizard": "6",
                "deck_knights": "7 8",
                "deck_princesses": "8",
            },
            "already carries a knight",
        ),
    ],
)
def test_bad_options_create_nothing_and_say_why(app, browser, data, message):
    response = browser.post("/tables/new/zamek", data, follow_redirects=True)
    assert message in text(response)
    assert count_tables(app) == 0


def test_a_custom_deck_is_named_on_the_table(browser):
    token = browser.create_table(
        "zamek",
        {
            **EXTENDED,
            "deck": "custom",
            "deck_king": "2",
            "deck_queen": "3",
            "deck_wizard": "4",
            "deck_knights": "5, 6",
            "deck_princesses": "7",
            "deck_name": "Kitchen deck",
        },
    )
    assert re.search(r"deck custom-[0-9a-f]{10}@1", live(browser, token))


# --- The referee's table -------------------------------------------------------------


def test_the_referee_enters_a_card_then_chooses_and_the_castle_grows(browser):
    token = browser.create_table("zamek", TWO)
    assert "Ola's turn: turn over a card." in live(browser, token)
    page = words(turn(browser, token, 23, 7))
    assert "Ola turned over 23." in page
    assert "Add to the castle" in page and "Put it back" in page
    assert "Use the wizard" not in page  # basic game: never the wizard
    act(browser, token, type="choose", choice="add")
    page = text(browser.get(f"/t/{token}"))
    assert "Last turn (Ola): card 23 added." in words(browser.get(f"/t/{token}"))
    assert "Kuba's turn" in page
    assert re.search(
        r'<ol class="zk-castle">\s*<li class="zk-card zk-tile">\s*<span class="zk-number">1</span>'
        r'\s*</li>\s*<li class="zk-card">\s*<span class="zk-number">23</span>',
        page,
    )
    assert "44 cards lie face down." in live(browser, token)


def test_a_picture_turned_over_is_named_in_lower_case_inside_the_sentence(browser):
    token = browser.create_table("zamek", EXTENDED)
    turn(browser, token, 5, 7)  # a princess in the shipped deck
    said = {
        "en": "Ola turned over 5 (princess).",
        "fr": "Ola a retourné le 5 (princesse).",
        "pl": "Ola odkrywa kartę 5 (księżniczka).",
    }
    for lang, sentence in said.items():
        assert sentence in words(browser.get(f"/t/{token}/live", headers={"Accept-Language": lang}))


def test_an_illegal_add_is_refused_with_its_reason_and_changes_nothing(browser):
    token = browser.create_table("zamek", TWO)
    turn(browser, token, 30, 1)
    act(browser, token, type="choose", choice="add")  # Ola: 1 30
    turn(browser, token, 10, 2)
    act(browser, token, type="choose", choice="add")  # Kuba: 1 10
    page = words(turn(browser, token, 20, 3))  # Ola cannot add 20 after 30
    assert "Add to the castle: no. 20 is not higher than 30, the end of this castle: put it back." in page
    assert 'value="add"' not in text(browser.get(f"/t/{token}"))
    before = version(browser, token)
    response = act(browser, token, htmx=True, type="choose", choice="add")
    assert response.status_code == 422
    assert "20 is not higher than 30" in text(response)
    assert version(browser, token) == before


def test_a_card_no_castle_can_use_goes_to_the_box_by_itself(browser):
    token = browser.create_table("zamek", TWO)
    for number, place in ((30, 1), (20, 2)):
        turn(browser, token, number, place)
        act(browser, token, type="choose", choice="add")
    page = words(turn(browser, token, 12, 3))
    assert "Last turn (Ola): card 12 sent to the box." in page
    assert re.search(r"In the box \(1\): .*12", page)
    assert "Kuba's turn" in page
    assert "42 cards lie face down." in page


def test_the_wizard_is_offered_only_when_it_may_be_used(browser):
    token = browser.create_table("zamek", EXTENDED)
    turn(browser, token, 18, 1)
    page = words(act(browser, token, type="choose", choice="add"))  # Ola holds the wizard (18)
    assert "★ wizard" in page
    turn(browser, token, 30, 2)
    act(browser, token, type="choose", choice="add")  # Kuba: 1 30
    page = words(turn(browser, token, 10, 3))  # lower than both ends, but Ola's wizard can save it
    assert "Use the wizard" in page and "To the box" in page
    assert "Put it back: no." in page
    assert 'value="put_back"' not in text(browser.get(f"/t/{token}"))
    page = words(act(browser, token, type="choose", choice="wizard"))
    assert "Last turn (Ola): card 10 slid in with the wizard." in page
    assert "★ wizard used" in page
    turn(browser, token, 40, 4)
    act(browser, token, type="choose", choice="add")  # Kuba: 1 30 40
    page = words(turn(browser, token, 12, 5))  # Ola's wizard is used: 12 goes to the box by itself
    assert "12 sent to the box" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"type": "turn", "number": "47", "position": "1"}, "Cards are numbered 2 to 46; 47 is not one."),
        ({"type": "turn", "number": "1", "position": "1"}, "Cards are numbered 2 to 46"),
        ({"type": "turn", "number": "", "position": "1"}, "Enter the number on the card."),
        ({"type": "turn", "number": "x" * 500, "position": "1"}, "is not a number"),
        ({"type": "turn", "number": "9" * 5000, "position": "1"}, "is not a number"),
        ({"type": "turn", "number": "5", "position": "46"}, "Positions run from 1 to 45."),
        ({"type": "turn", "number": "5"}, "The field 'position' must be a whole number."),
        ({"type": "choose", "choice": "add"}, "No card is face up"),
        ({"type": "vote", "stage": "position", "position": "3"}, ""),
        ({"type": "leave", "seat": "p9", "index": "0"}, "Name the team the member leaves."),
        ({"type": "fly"}, "Choose one of the buttons"),
        ({}, "Choose one of the buttons"),
    ],
)
def test_junk_form_posts_are_refused_in_words_never_a_500(browser, fields, message):
    token = browser.create_table("zamek", TWO)
    response = act(browser, token, htmx=True, **fields)
    assert response.status_code == 422
    assert message in text(response)
    assert version(browser, token) == 0


def test_a_number_already_placed_or_boxed_cannot_be_turned_over_again(browser):
    token = browser.create_table("zamek", TWO)
    turn(browser, token, 30, 1)
    act(browser, token, type="choose", choice="add")
    turn(browser, token, 20, 2)
    act(browser, token, type="choose", choice="add")
    turn(browser, token, 5, 3)  # boxed
    for number, words in ((30, "30 is already in a castle"), (5, "5 is already in the box")):
        response = act(browser, token, htmx=True, type="turn", number=number, position=4)
        assert response.status_code == 422
        assert words in text(response)


def test_no_screen_history_or_export_says_where_a_seen_card_lies(browser):
    """The same game with 23 put back at place 7 or at place 8 looks the same to every phone."""
    screens = []
    for place in (7, 8):
        token = browser.create_table("zamek", TWO)
        viewer = links(browser, token)["Viewer"]
        turn(browser, token, 23, place)
        act(browser, token, type="choose", choice="put_back")
        history = text(browser.get(f"/t/{token}/history"))
        assert "Ola put 23 back face down." in history
        export = browser.get(f"/t/{token}/export.json").get_json()
        assert "action" not in export["history"][0]
        assert "seen" not in export["view"] and "table" not in export["view"]
        screens.append([live(browser, viewer), _tokenless(history), export["view"]])
    assert screens[0] == screens[1]
    assert "Not seen yet (44)" in screens[0][0]


def _tokenless(page: str) -> str:
    page = re.sub(r"/t/[\w-]+", "/t/TOKEN", page)
    return re.sub(r"<time[^>]*>[^<]*</time>", "", page)


def test_an_extended_game_ends_at_ten_and_shows_the_scores(browser):
    token = browser.create_table("zamek", {**EXTENDED, "stop_at_ten": "yes"})
    for index, number in enumerate([2, 3, 4, 5, 6, 7, 8, 9, 10]):
        turn(browser, token, number, index * 2 + 1)
        act(browser, token, type="choose", choice="add")
        if index < 8:
            turn(browser, token, 30 + index, index * 2 + 2)
            act(browser, token, type="choose", choice="put_back")
    page = live(browser, token)
    # Ola: 10 elements, knights 3 9, princess 5, one pair = 14
    assert "Game over: Ola wins on points." in page
    assert "14 points" in page
    assert "Ola 14 10 elements, 2 knights, 1 princess, 1 pair" in page
    assert "Kuba to play" not in page
    assert "Turn over" not in page


# --- Teams voting ----------------------------------------------------------------------


@pytest.fixture
def team_table(app, browser):
    """A team table: the referee's token, and a phone maker for the team links."""
    from tests.conftest import Browser

    token = browser.create_table("zamek", TEAMS)
    table_links = links(browser, token)

    def phone(team: str, name: str):
        member = Browser(app.test_client())
        act(member, table_links[f"Team {team}"], type="join", member_name=name)
        return member

    return token, table_links, phone


def test_a_team_nobody_has_joined_is_named_a_team_when_its_turn_comes(browser, team_table):
    """The referee plays the turns of a team with no phone: the line says whose turn as a team's."""
    token = team_table[0]
    said = {
        "en": "Team Red's turn: turn over a card.",
        "fr": "Au tour de l'équipe Red : retourner une carte.",
        "pl": "Kolej drużyny Red: odkryj kartę.",
    }
    for lang, sentence in said.items():
        page = words(browser.get(f"/t/{token}/live", headers={"Accept-Language": lang}))
        assert sentence in page
        assert "Kolej gracza" not in page


def test_a_member_who_gave_no_name_is_named_in_the_readers_language(app, browser, team_table):
    """A member who joins without typing a name is stored as "Member 1": said as a default name,
    on the team's phone, the referee's screen and in the history, never in English."""
    from tests.conftest import Browser

    token, table_links, _phone = team_table
    red = table_links["Team Red"]
    nameless = Browser(app.test_client())
    act(nameless, red, type="join", member_name="")
    act(nameless, red, type="vote", stage="position", position=4)
    said = {"en": "Member 1", "fr": "Membre 1", "pl": "Członek 1"}
    for lang, name in said.items():
        own = words(nameless.get(f"/t/{red}/live", headers={"Accept-Language": lang}))
        referee = words(browser.get(f"/t/{token}", headers={"Accept-Language": lang}))
        history = words(browser.get(f"/t/{token}/history", headers={"Accept-Language": lang}))
        for page in (own, referee, history):
            assert name in page
            if lang != "en":
                assert "Member 1" not in page


def test_members_join_the_first_is_captain_and_the_majority_picks_the_place(browser, team_table):
    token, table_links, phone = team_table
    red = table_links["Team Red"]
    ala, bea, cyd = phone("Red", "Ala"), phone("Red", "Bea"), phone("Red", "Cyd")
    assert "You are Ala, captain of Team Red." in live(ala, red)
    assert "You are Bea in Team Red." in live(bea, red)
    act(ala, red, type="vote", stage="position", position=4)
    act(bea, red, type="vote", stage="position", position=9)
    page = live(browser, token)
    assert "Team Red is voting on the card to turn over (votes: 2 of 3)." in page
    said = {
        "fr": "équipe Red vote sur la carte à retourner (votes : 2 sur 3).",
        "pl": "Drużyna Red głosuje, którą kartę odkryć (głosy: 2 z 3).",
    }
    for lang, sentence in said.items():  # the count said as a count: no verb to agree with either number
        assert sentence in words(browser.get(f"/t/{token}/live", headers={"Accept-Language": lang}))
    assert "Oddane głosy: 2 z 3." in words(ala.get(f"/t/{red}/live", headers={"Accept-Language": "pl"}))
    act(cyd, red, type="vote", stage="position", position=9)
    page = live(browser, token)
    assert "Red chose place 9: turn that card over." in page
    assert "Team Red chose place 9." in page


def test_a_tied_vote_goes_to_the_captain(browser, team_table):
    token, table_links, phone = team_table
    red = table_links["Team Red"]
    ala, bea = phone("Red", "Ala"), phone("Red", "Bea")
    act(bea, red, type="vote", stage="position", position=12)
    act(ala, red, type="vote", stage="position", position=3)
    assert "Red chose place 3" in live(browser, token)
    turn(browser, token, 20)  # the chosen place is taken
    act(ala, red, type="vote", stage="choice", choice="put_back")
    act(bea, red, type="vote", stage="choice", choice="add")
    page = live(browser, token)
    assert "Last turn (Red, team vote): card 20 put back." in page
    assert "Blue's turn" in page


def test_other_teams_and_the_referee_never_see_a_teams_ballots(browser, team_table):
    token, table_links, phone = team_table
    red, blue = table_links["Team Red"], table_links["Team Blue"]
    ala = phone("Red", "Zed")
    phone("Red", "Bea")
    ola = phone("Blue", "Ola")
    act(ala, red, type="vote", stage="position", position=37)
    own = live(ala, red)
    assert "Zed: 37" in own and "Only your team sees these votes." in own
    for who, where in ((browser, token), (ola, blue), (browser, table_links["Viewer"])):
        page = live(who, where)
        assert "37" not in page.replace("Not seen yet", "").split("cards lie face down")[0]
        assert "(votes: 1 of 2)" in page
    export = browser.get(f"/t/{token}/export.json").get_json()
    assert not any("37" in entry["description"] for entry in export["history"])


def test_only_a_member_may_vote_and_only_on_their_turn(browser, team_table):
    token, table_links, phone = team_table
    ola = phone("Blue", "Ola")
    response = act(ola, table_links["Team Blue"], htmx=True, type="vote", stage="position", position=3)
    assert response.status_code == 422
    assert "It is Red's turn, not your team's." in text(response)
    response = act(browser, table_links["Viewer"], htmx=True, type="vote", stage="position", position=3)
    assert response.status_code == 403


def test_the_referee_takes_out_a_member_who_left(browser, team_table):
    token, table_links, phone = team_table
    red = table_links["Team Red"]
    ala, _bea = phone("Red", "Ala"), phone("Red", "Bea")
    act(ala, red, type="vote", stage="position", position=5)
    page = words(act(browser, token, type="leave", seat="p1", index=1))
    assert "Red chose place 5" in page
    castles = live(browser, token).split("Undo")[0]
    assert "Ala (captain)" in castles and "Bea" not in castles


# --- Score sheet ---------------------------------------------------------------------


def test_the_score_sheet_scores_each_castle_and_names_the_tie_break(browser):
    page = words(browser.get("/zamek/score?name1=Ola&castle1=41&name2=Kuba&castle2=34"))
    assert "Ola wins on a tie, holding the king." in page
    assert "Castellan's default Zamek deck (zamek-default@1)" in page
    assert "Ola 5 2 elements, king 3 Kuba 5 2 elements, queen 3" in page


def test_the_score_sheet_counts_pairs_and_adds_the_tile(browser):
    page = words(browser.get("/zamek/score?castle1=1+3+5+9&castle2=2"))
    assert "Castle 1 wins on points." in page
    assert "Castle 1 8 4 elements, 2 knights, 1 princess, 1 pair Castle 2 2 2 elements" in page


def test_the_score_sheet_says_a_draw(browser):
    assert "A draw" in text(browser.get("/zamek/score?castle1=2&castle2=4"))


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("castle1=5+3&castle2=2", "A castle always ascends."),
        ("castle1=5&castle2=5", "5 is already in a castle."),
        ("castle1=50&castle2=2", "Cards are numbered 2 to 46; 50 is not one."),
        ("castle1=five&castle2=2", "“five” is not a number"),
        ("castle1=5", "2 to 4 players"),
        ("name1=A&castle1=5&name2=A&castle2=6", "Two castles are called A"),
        ("castle1=5&castle2=6&deck=custom&deck_king=7&deck_queen=7&deck_wizard=8", "already carries a king"),
    ],
)
def test_the_score_sheet_refuses_bad_input_in_words(browser, query, message):
    response = browser.get(f"/zamek/score?{query}")
    assert response.status_code == 200
    assert message in text(response)
    assert "wins" not in text(response)


def test_the_score_sheet_answers_htmx_with_its_fragment(browser):
    response = browser.get("/zamek/score?castle1=3&castle2=2", headers={"HX-Request": "true"})
    body = text(response)
    assert body.lstrip().startswith('<section id="zamek-score">')
    assert "<html" not in body
    assert "Castle 1 wins on points." in body


def test_teammates_voting_at_the_same_moment_are_both_counted(browser, team_table):
    """Two phones showing the same version vote at once: neither is told the table changed."""
    token, table_links, phone = team_table
    red = table_links["Team Red"]
    ala, bea, _cyd = phone("Red", "Ala"), phone("Red", "Bea"), phone("Red", "Cyd")
    seen = version(browser, token)
    for member in (ala, bea):
        response = member.post(
            f"/t/{red}/act",
            {"version": str(seen), "type": "vote", "stage": "position", "position": "7"},
            htmx=True,
        )
        assert response.status_code == 200, words(response)
    assert "Team Red is voting on the card to turn over (votes: 2 of 3)." in live(browser, token)


# --- Secrets over a whole game, and junk found by fuzzing ------------------------------


def _observed(browser, token) -> list:
    """Everything one link can fetch."""
    return everything_seen(browser, token, {"type": "turn", "number": "99"})


def _seen_elsewhere(state: dict) -> dict:
    """The same cards seen, each remembered at another free place."""
    face_up = state["card"]["position"] if state["card"] else None
    free = [p for p in state["table"] if str(p) not in state["seen"] and p != face_up]
    numbers = list(state["seen"].values())
    seen = [int(p) for p in state["seen"]]
    if not free and len(seen) < 2:
        return None
    places = seen[1:] + (free[:1] or seen[:1])
    state["seen"] = {str(place): number for place, number in zip(places, numbers, strict=True)}
    return state


def test_no_link_ever_depends_on_where_seen_cards_lie_over_a_whole_game(app, browser):
    """Referee and viewer see the same bytes whatever places the cards put back lie at, all game long."""
    from companion.rules import zamek

    token = browser.create_table("zamek", {**EXTENDED, "players": ["Ola", "Kuba", "Ela", ""]})
    viewer = links(browser, token)["Viewer"]
    rng = random.Random(3)
    checks = 0
    for _step in range(400):
        state = table_state(app, token)
        if state["seen"] and _step % 3 == 0 and _seen_elsewhere(json.loads(json.dumps(state))):
            moved = _seen_elsewhere(json.loads(json.dumps(state)))
            assert moved is None or moved["seen"] != state["seen"]
            before = [_observed(browser, where) for where in (token, viewer)]
            after = with_state_changed(
                app,
                token,
                lambda _s, moved=moved: moved,
                lambda: [_observed(browser, where) for where in (token, viewer)],
            )
            assert before == after, "a page depends on where a seen card lies"
            checks += 1
        move = zamek.random_legal_action(state, rng)
        if move is None:
            break
        assert act(browser, token, **move[1]).status_code == 200
    assert table_state(app, token)["over"] and checks >= 5


@pytest.mark.parametrize("stage", ["position", "choice"])
def test_other_teams_the_viewer_and_the_referee_never_depend_on_a_teams_ballots(
    app, browser, team_table, stage
):
    token, table_links, phone = team_table
    red, blue = table_links["Team Red"], table_links["Team Blue"]
    zed, bea, _eve = phone("Red", "Zed"), phone("Red", "Bea"), phone("Red", "Eve")
    ola = phone("Blue", "Ola")
    if stage == "choice":
        for member in (zed, bea, _eve):
            act(member, red, type="vote", stage="position", position=4)
        turn(browser, token, 20)
        first, second, others = "add", "put_back", ("put_back", "add")
    else:
        first, second, others = 37, 12, (5, 6)
    act(zed, red, type="vote", stage=stage, **{stage: first})
    act(bea, red, type="vote", stage=stage, **{stage: second})
    assert f"Zed: {str(first).replace('_', ' ')}" in live(zed, red)

    def other_ballots(state):
        zed_and_bea = [entry["member"] for entry in state["members"]["p1"][:2]]  # in the order they joined
        state["ballots"] = dict(zip(zed_and_bea, others, strict=True))
        return state

    observers = ((browser, token), (browser, table_links["Viewer"]), (ola, blue))
    before = [_observed(who, where) for who, where in observers]
    after = with_state_changed(
        app, token, other_ballots, lambda: [_observed(who, where) for who, where in observers]
    )
    assert before == after
    mine = with_state_changed(app, token, other_ballots, lambda: live(zed, red))
    assert f"Zed: {str(others[0]).replace('_', ' ')}" in mine  # the team itself does see its ballots


def test_a_referee_post_naming_two_teams_to_leave_is_refused_in_words(browser, team_table):
    token, table_links, phone = team_table
    phone("Red", "Zed")
    data = {"version": str(version(browser, token)), "type": "leave", "seat": ["p1", "p2"], "index": "0"}
    response = browser.post(f"/t/{token}/act", data, htmx=True)
    assert response.status_code == 422
    assert "This form sent one of its fields twice." in text(response)
    assert "Zed" in live(browser, token)


# --- Ending by the referee, counts, team invitations, outvoted members -----------------


def test_the_referee_ends_a_game_where_cards_keep_going_back(browser):
    token = browser.create_table("zamek", TWO)
    viewer = links(browser, token)["Viewer"]
    assert "End the game now" not in live(browser, viewer)
    turn(browser, token, 30, 1)
    act(browser, token, type="choose", choice="put_back")
    turn(browser, token, 12, 2)
    act(browser, token, type="choose", choice="add")  # Kuba: 1 12
    turn(browser, token, 30, 1)  # Ola turns the 30 over once more
    assert "End the game now" in live(browser, token)
    page = words(act(browser, token, type="end"))
    assert "Game over: Kuba wins with the longest castle." in page
    assert "44 cards lie face down." in page and "is face up" not in page
    assert "Turn over" not in page and "End the game" not in page
    history = words(browser.get(f"/t/{token}/history"))
    assert "The referee ended the game; 30 went back face down. Kuba wins with the longest castle." in history
    response = act(browser, viewer, htmx=True, type="end")
    assert response.status_code == 403


def test_ending_an_extended_game_scores_the_castles_as_they_stand(browser):
    token = browser.create_table("zamek", EXTENDED)
    turn(browser, token, 41, 1)
    act(browser, token, type="choose", choice="add")  # Ola: 1 41, the king
    page = words(act(browser, token, type="end"))
    assert "Game over: Ola wins on points." in page
    assert "Ola 5 2 elements, king 3" in page


def test_the_face_down_count_leaves_out_the_face_up_card(browser):
    token = browser.create_table("zamek", TWO)
    page = words(turn(browser, token, 46, 45))
    assert "44 cards lie face down." in page
    assert "The card numbered 46 is face up." in page
    assert "45 cards" not in page


def test_a_teams_invitation_says_it_is_for_the_whole_team(browser, team_table):
    token, table_links, phone = team_table
    for page in (words(browser.get(f"/t/{token}/links")), words(browser.get(f"/t/{token}"))):
        assert "Team Red For the whole team: each member opens it on their own phone." in page
        assert "only for this player" not in page
    own = words(browser.get(f"/t/{table_links['Team Red']}"))
    assert "This is Team Red's screen, shared by its members. Do not show it to the other teams." in own


def test_a_member_whose_vote_lost_is_told_what_the_team_chose(browser, team_table):
    token, table_links, phone = team_table
    red = table_links["Team Red"]
    ala, bea, cyd = phone("Red", "Ala"), phone("Red", "Bea"), phone("Red", "Cyd")
    act(ala, red, type="vote", stage="position", position=4)
    act(bea, red, type="vote", stage="position", position=9)
    act(cyd, red, type="vote", stage="position", position=9)
    assert "Your team chose place 9; you had voted for place 4." in live(ala, red)
    assert "Your team chose" not in live(bea, red)
    turn(browser, token, 20)
    act(ala, red, type="vote", stage="choice", choice="add")
    act(bea, red, type="vote", stage="choice", choice="put_back")
    act(cyd, red, type="vote", stage="choice", choice="put_back")
    assert "Your team chose “Put it back”; you had voted “Add to the castle”." in live(ala, red)
    blue = phone("Blue", "Ola")
    assert "Your team chose" not in live(blue, table_links["Team Blue"])
    assert "Your team chose" not in live(browser, token)


def test_a_decided_turn_is_one_entry_with_its_choice(browser, team_table):
    token = browser.create_table("zamek", TWO)
    page = words(browser.get(f"/t/{token}"))
    assert "If Ola has already chosen, enter the turn in one tap:" in page
    page = words(act(browser, token, type="turn", position=7, number=23, choice="add"))
    assert "Last turn (Ola): card 23 added." in page and "Kuba's turn: turn over a card." in page
    added = act(browser, token, htmx=True, type="turn", position=8, number=5, choice="add")
    assert added.status_code == 200 and "Last turn (Kuba): card 5 added." in words(added)
    response = act(browser, token, htmx=True, type="turn", position=9, number=10, choice="add")
    assert response.status_code == 422 and "10 is not higher than 23" in text(response)
    assert 'value="10"' in text(response)  # the typed number is kept
    history = words(browser.get(f"/t/{token}/history"))
    assert "Ola turned over 23. Ola added 23 to the castle (2 elements)." in history
    # A team that votes from its phones chooses for itself: no one-tap entry on its turn.
    team_token, table_links, phone = team_table
    phone("Red", "Ala")
    assert "already chosen" not in words(browser.get(f"/t/{team_token}"))


def test_each_move_shows_every_castle_and_the_turn_as_they_now_are(app, browser):
    token = browser.create_table("zamek", {**EXTENDED, "players": ["Ola", "Kuba", "Ada", ""]})
    rng = random.Random(3)
    for _ in range(24):
        state = table_state(app, token)
        if state["over"]:
            break
        if state["card"] is None:
            number, position = rng.choice(zamek.unseen_numbers(state)), rng.choice(state["table"])
            act(browser, token, htmx=True, type="turn", number=number, position=position)
        else:
            act(browser, token, htmx=True, type="choose", choice=rng.choice(["add", "put_back", "box"]))
        state = table_state(app, token)
        page = text(browser.get(f"/t/{token}/live", headers={"HX-Request": "true"}))
        articles = re.findall(
            r'<article class="zk-player( zk-active)?">\s*<h3>([^<]+)(.*?)</article>', page, re.S
        )
        assert [name.strip() for _, name, _ in articles] == ["Ola", "Kuba", "Ada"]
        for (active, _name, body), player in zip(articles, state["players"], strict=True):
            shown = [int(n) for n in re.findall(r'<span class="zk-number">(\d+)</span>', body)]
            assert shown == state["castles"][player["seat"]]
            assert (
                bool(active) == ("to play" in body) == (player["seat"] == state["turn"] and not state["over"])
            )
        free = [int(n) for n in re.findall(r'<input type="radio" name="position" value="(\d+)"', page)]
        assert free == (sorted(state["table"]) if state["card"] is None and not state["over"] else [])
