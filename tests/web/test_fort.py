"""Fort's pages through the test client: the battle adjudicator, the showdown judge, the table, help, junk."""

from __future__ import annotations

import random
import re
from urllib.parse import urlencode

import pytest

from companion.rules import fort
from tests.conftest import text

SITUATION = {
    "a_army": "5",
    "a_fort": "3",
    "d_army": "4",
    "stake": "card",
    "target": "9H",
    "height": "1",
    "challenge": "1",
    "size": "2",
}


def _words(page: str) -> str:
    """The page's words without tags, as a person reads them."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace(" .", ".").replace(" ,", ",")


def _get(browser, path: str, htmx: bool = False, **args) -> str:
    headers = {"HX-Request": "true"} if htmx else {}
    response = browser.get(f"{path}?{urlencode(args)}", headers=headers)
    assert response.status_code == 200
    return text(response)


def _battle(browser, htmx=False, **args) -> str:
    return _get(browser, "/fort/battle", htmx, **{**SITUATION, **args})


def _moves(page: str) -> list[str]:
    """Where every card goes, one line per card, as the verdict lists them."""
    block = re.search(r'<ul class="moves" id="moves">(.*?)</ul>', page, re.S).group(1)
    return [_words(item).strip() for item in re.findall(r"<li>(.*?)</li>", block, re.S)]


# --- The battle adjudicator -----------------------------------------------------------


def test_the_challenge_is_allowed_before_any_card_is_shown(browser):
    page = _battle(browser, do="check")
    assert "Allowed. Each side lays 2 soldiers" in _words(page)
    assert "Turn over the attacker's soldier 1" in page
    assert 'id="verdict"' not in page
    for key, value in SITUATION.items():
        assert f'<input type="hidden" name="{key}" value="{value}">' in page  # step 1 travels into step 2


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            {"height": "2"},
            "The top of a watchtower of 2 needs 6 army cards to challenge, and the attacker holds 5.",
        ),
        ({"height": "3", "a_army": "9"}, "needs 10 army cards"),
        ({"height": "4"}, "A complete watchtower of 4 cannot be challenged."),
        ({"challenge": "4"}, "A player may challenge for the same fort card only 3 times."),
        ({"d_army": "1"}, "A challenge of 2 needs 2 army cards on each side"),
        ({"d_campaign": "1"}, "A player on a campaign has no fort to challenge"),
        ({"stake": "campaign"}, "only fought between two players who are both on campaigns"),
        ({"stake": "campaign", "a_campaign": "1", "d_campaign": "1", "d_army": "0"}, "has lost the campaign"),
        ({"a_army": "five"}, "The attacker's army is a whole number, and “five” is not one."),
        ({"d_army": ""}, "The defender's army is a whole number, and nothing is not one."),
        ({"a_army": "99"}, "The attacker's army must be between 0 and 52."),
        # "²" is a digit to Python's isdigit() but not a number int() reads: it used to give a 500.
        ({"a_army": "²"}, "The attacker's army is a whole number, and “²” is not one."),
        ({"target": ""}, "Pick the card challenged"),
        ({"target": "ZZ"}, "ZZ"),
        ({"size": "3"}, "The challenge size must be between 1 and 2."),
    ],
)
def test_a_challenge_that_breaks_a_requirement_is_refused_with_the_reason(browser, change, reason):
    page = _words(_battle(browser, do="check", **change))
    assert "Not allowed:" in page and reason in page
    assert "Allowed." not in page and "The verdict" not in page
    assert "Is this challenge allowed?" in page  # the situation stays on screen to be corrected


def test_a_tapped_suit_lays_the_soldier_at_once(browser):
    """Issue 12.2: two taps a soldier on the adjudicator, the suit button sending the rank with it."""
    words = _words(_battle(browser, pick_rank="7", pick_suit="S"))
    assert (
        "Pair 1: 7♠ against —" in words
        and "Turn over the defender's soldier 1: its rank, then its suit" in words
    )
    page = _battle(browser, pick_rank="Q", pick_suit="H")
    assert 'name="pick_suit" value="H"' in page and "Pair 1: Q♥ against —" in _words(page)


@pytest.mark.parametrize(
    ("tapped", "refusal"),
    [
        ({"pick_suit": "D"}, "Pick the card's rank as well as its suit."),  # the rank's tap came too late
        ({"pick_rank": "7", "pick_suit": "S"}, "The 7 of spades is already in this battle"),
    ],
)
def test_a_refused_soldier_leaves_the_picker_for_the_same_soldier(browser, tapped, refusal):
    page = _battle(browser, do="lay", a_soldiers="7S", **tapped)
    words = _words(page)
    assert refusal in words and "Pair 1: 7♠ against —" in words
    # The two-tap picker is still there for the defender's soldier: it used to vanish, leaving only typing.
    assert "Turn over the defender's soldier 1: its rank, then its suit" in words
    assert 'name="pick_suit" value="D"' in page


def test_soldiers_turned_over_one_by_one_alternate_and_give_the_verdict(browser):
    page = _battle(browser, do="lay", pick_rank="7", pick_suit="S")
    assert "Pair 1: 7♠ against —" in _words(page)
    assert "Turn over the defender's soldier 1" in page
    page = _battle(browser, do="lay", a_soldiers="7S", pick="ad")
    assert "Turn over the attacker's soldier 2" in page
    page = _battle(browser, do="lay", a_soldiers="7S", d_soldiers="AD", pick="kh")
    page = _battle(browser, do="lay", a_soldiers="7S KH", d_soldiers="AD", pick_rank="2", pick_suit="C")
    words = _words(page)
    assert "Pair 1: 7♠ against A♦ Pair 2: K♥ against 2♣" in words
    assert "7 rule" in words
    assert "The attacker wins the battle and takes the 9♥." in words
    assert _moves(page) == [
        "7♠ → the attacker's army",
        "A♦ → the bottom of the barracks",
        "K♥ → the bottom of the barracks",
        "2♣ → the attacker's army",
        "9♥ (the fort card) → the attacker's army",
    ]


def test_a_lost_third_try_replaces_the_card_and_a_fortless_attacker_is_out(browser):
    page = _battle(
        browser, do="settle", a_fort="0", challenge="3", size="1", a_soldiers="3S", d_soldiers="4D"
    )
    words = _words(page)
    assert "The defender wins the battle and keeps the fort card." in words
    assert _moves(page)[-1] == "9♥ (the fort card) → the bottom of the barracks"
    assert "Third try lost" in words and "out of the game" in words


def test_a_draw_sends_every_soldier_home_and_a_campaign_keeps_its_royals(browser):
    page = _battle(browser, do="settle", a_campaign="1", a_soldiers="QS 5H", d_soldiers="QD 5C")
    assert "A draw: every soldier goes home and the fort card stays." in _words(page)
    assert _moves(page) == [
        "Q♠ → the attacker's army",
        "Q♦ → the bottom of the barracks",
        "5♥ → the attacker's army",
        "5♣ → the defender's army",
        "9♥ (the fort card) → stays in the defender's fort",
    ]


def test_a_vulnerable_fort_is_taken_without_soldiers(browser):
    page = _battle(browser, do="check", d_army="0")
    assert "Allowed, and no battle: the defender has no army." in _words(page)
    assert "the fort is vulnerable and the attacker takes the 9♥" in _words(page)
    assert _moves(page) == ["9♥ (the fort card) → the attacker's army"]


def test_a_campaign_battle_is_fought_with_the_smaller_army(browser):
    args = {"stake": "campaign", "a_campaign": "1", "d_campaign": "1", "a_army": "7", "d_army": "2"}
    assert "Each side lays 2 soldiers" in _words(_battle(browser, do="check", **args))
    page = _battle(browser, do="settle", a_soldiers="QS 5H", d_soldiers="4C 3D", **args)
    assert "The attacker wins the battle." in _words(page)
    assert _moves(page) == [
        "Q♠ → the attacker's army",
        "4♣ → the attacker's army",
        "5♥ → the attacker's army",
        "3♦ → the attacker's army",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"do": "lay", "a_soldiers": "7S", "pick": "7s"}, "The 7 of spades is already in this battle"),
        ({"do": "lay", "pick": "9h"}, "The 9 of hearts is already in this battle"),
        ({"do": "lay"}, "Pick the attacker's soldier"),
        ({"do": "lay", "pick_rank": "7"}, "Pick the card's suit as well as its rank."),
        ({"do": "settle", "a_soldiers": "7S KH 2H"}, "Each side lays 2 soldiers: the attacker has 3."),
        ({"do": "settle", "a_soldiers": "7S KH", "d_soldiers": "KH 2C"}, "named twice in one battle"),
        ({"do": "settle", "a_soldiers": "7S 7S"}, "named twice"),
        ({"do": "settle", "a_soldiers": "7X"}, "7X"),
    ],
)
def test_bad_soldiers_are_refused_and_no_verdict_is_given(browser, args, message):
    page = _battle(browser, **args)
    assert message in _words(page)
    assert 'id="verdict"' not in page


def test_htmx_gets_only_the_adjudicator_fragment(browser):
    page = _battle(browser, htmx=True, do="check")
    assert "<html" not in page and page.count('id="battle"') == 1
    assert "<h1>" not in page and "Allowed." in page


# --- The showdown judge ---------------------------------------------------------------


def _showdown(browser, **args) -> str:
    return _words(_get(browser, "/fort/showdown", do="judge", **args))


def test_the_judge_evens_out_plays_positions_and_names_the_winner(browser):
    page = _showdown(browser, name_1="Ann", army_1="5H JC 2D", name_2="Bob", army_2="9C 4S QH 6D")
    assert "Each line holds 3 cards. To the barracks: 9♣." in page
    assert "Tricks 1 2" in page
    assert "Bob wins the game with 2 tricks." in page


def test_the_judge_takes_armies_tapped_card_by_card(browser):
    """Issue 12.2: the showdown judge's armies are tapped (rank, then suit), the watchtowers chosen."""
    tapped = {"army_1": ["5H", "JC", "2D"], "army_2": ["9C", "4S", "QH", "6D"]}
    args = {
        f"{army}_{index}_{part}": value
        for army, cards in tapped.items()
        for index, name in enumerate(cards, start=1)
        for part, value in (("rank", name[:-1]), ("suit", name[-1]))
    }
    page = _showdown(browser, name_1="Ann", name_2="Bob", **args)
    assert "Each line holds 3 cards. To the barracks: 9♣." in page
    assert "Bob wins the game with 2 tricks." in page
    raw = _get(browser, "/fort/showdown", do="judge", **args)
    assert 'name="army_2_3_rank" value="Q" checked' in raw  # the taps stay on screen
    half = _showdown(browser, army_1_1_rank="5", army_2_1_rank="9", army_2_1_suit="C")
    assert "Pick the card's suit as well as its rank." in half


def test_an_even_smallest_army_drops_its_last_card_with_three_players(browser):
    page = _showdown(browser, army_1="KS 2H", army_2="3C 4C 5C", army_3="AD 6H")
    assert "Each line holds 1 card." in page
    assert "To the barracks: 2♥, 3♣, 4♣, A♦" in page
    assert "Player 1 wins the game with 1 trick." in page


def test_a_tie_names_the_cards_each_tied_player_draws(browser):
    args = {"army_1": "9S", "army_2": "9D", "army_3": "4C", "army_4": "2C"}
    page = _showdown(browser, **args, tower_1="8", tower_2="K", tower_3="A", tower_4="3")
    assert "Tied for the most tricks: Player 1, Player 2, Player 3, Player 4." in page
    assert "Player 1 draws 8 cards" in page and "Player 2 draws 10 cards" in page
    assert "Player 4 draws 3 cards" in page
    assert "Type every player's watchtower rank" in _showdown(browser, **args)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"army_1": "5H"}, "Type the cards of at least 2 players."),
        ({"army_1": "5H", "army_2": "5H"}, "The 5 of hearts is in two armies"),
        ({"army_1": "5H", "army_2": "6H", "name_1": "Jo", "name_2": "Jo"}, "Two players have the same name"),
        ({"army_1": "5H", "army_2": "6H 6H"}, "named twice"),
        ({"army_1": "5H", "army_2": "6Z"}, "6Z"),
        (
            {"army_1": "5H", "army_2": "6H", "tower_1": "8"},
            "Give every player's watchtower rank, or none at all.",
        ),
        ({"army_1": "5H", "army_2": "6H", "tower_1": "8", "tower_2": "8"}, "cannot share a rank"),
        ({"army_1": "5H", "army_2": "6H", "tower_1": "5", "tower_2": "9"}, "a watchtower holds all 4 fives"),
        (
            {"army_1": "5H", "army_2": "6H", "tower_1": "Z", "tower_2": "9"},
            "Player 1's watchtower must be a rank",
        ),
    ],
)
def test_the_judge_refuses_impossible_lines_and_says_why(browser, args, message):
    page = _showdown(browser, **args)
    assert message in page
    assert "wins the game" not in page and "Tricks" not in page


# --- The table tracker ----------------------------------------------------------------

FORTS = {"p1": "9H 9C 2S KD", "p2": "5H 8C JS 4D", "p3": "3C 3D 3H QS"}


def _table(browser, players=3) -> str:
    return browser.create_table(
        "fort", {"players": str(players), "name_1": "Ann", "name_2": "Bob", "name_3": "Cy"}
    )


def _act(browser, token, version, **fields):
    return browser.post(f"/t/{token}/act", {"version": str(version), **fields}, htmx=True)


def _version(browser, token) -> int:
    return int(re.search(r'data-version="(\d+)"', text(browser.get(f"/t/{token}"))).group(1))


def _started(browser) -> str:
    token = _table(browser)
    for fields in [
        {"type": "deal", **{f"fort_{p}": cards for p, cards in FORTS.items()}},
        {"type": "start"},
        {"type": "draw"},
    ]:
        response = _act(browser, token, _version(browser, token), **fields)
        assert response.status_code == 200, _words(text(response))[:300]
    return token


def test_a_new_table_asks_for_the_deal_and_shows_each_player(browser):
    token = _table(browser)
    page = _words(text(browser.get(f"/t/{token}")))
    assert "Deal 4 cards face up (the fort) and 4 face down (the army) to each player." in page
    assert "Ann's fort (4 cards)" in page and "Cy's fort (4 cards)" in page
    assert "Barracks: 52 cards." in page


def test_the_deal_shows_forts_watchtowers_and_counts(browser):
    token = _started(browser)
    page = text(browser.get(f"/t/{token}"))
    words = _words(page)
    assert "Ann's turn: build, burn, challenge, or end the turn." in words
    assert "Army 5 · fort 4" in words  # Ann drew one
    assert "Barracks: 27 cards." in words  # 52 less 12 fort, 12 army cards and the draw
    cy = re.search(r'id="player-p3".*?</li>\s*</ul>', page, re.S).group(0)
    assert "triple" in cy and _words(cy).count("3♣") == 1
    assert "Cy's 3♥ (top of a triple)" in words  # only the top of a watchtower may be challenged
    choices = re.search(r"<fieldset><legend>Ann challenges.*?</fieldset>", page, re.S).group(0)
    assert 'value="p2:5H"' in choices and 'value="p1:' not in choices  # never one's own fort


def test_a_challenge_is_settled_applied_and_counted_then_undone(browser):
    token = _started(browser)
    version = _version(browser, token)
    response = _act(
        browser, token, version, type="challenge", target="p2:8C", size="1", a_soldiers="7D", d_soldiers="AS"
    )
    page = text(response)
    words = _words(page)
    assert "Last battle: Ann against Bob" in words
    assert "Ann wins the battle and takes the 8♣." in words
    assert _moves(page) == [
        "7♦ → Ann's army",
        "A♠ → the bottom of the barracks",
        "8♣ (the fort card) → Ann's army",
    ]
    assert "Army 6 · fort 4" in words and "Army 3 · fort 3" in words  # Ann 5-1+2, Bob 4-1
    assert "Ann's turn: build, burn, or end the turn." in words and "Ann challenges" not in words
    response = browser.post(f"/t/{token}/undo", {"version": str(version + 1)}, htmx=True)
    assert "Undone: Ann challenged Bob for the 8 of clubs with 1 soldier: Ann won." in text(response)
    assert "Ann challenges" in _words(text(response))


def test_tries_per_card_are_counted_and_shown(browser):
    token = _started(browser)
    response = _act(
        browser,
        token,
        _version(browser, token),
        type="challenge",
        target="p2:8C",
        a_soldiers="4S",
        d_soldiers="9D",
    )
    words = _words(text(response))
    assert "Bob wins the battle and keeps the fort card." in words
    assert "8♣ Ann 1/3" in words


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"type": "challenge", "target": "p3:3H", "a_soldiers": "4S", "d_soldiers": "9D"},
            "needs 10 army cards",
        ),
        (
            {"type": "challenge", "target": "p3:3C", "a_soldiers": "4S", "d_soldiers": "9D"},
            "is not on top of its watchtower",
        ),
        (
            {"type": "challenge", "target": "p2:8C", "a_soldiers": "4S"},
            "The defender must lay 1 soldier, not 0.",
        ),
        (
            {"type": "challenge", "target": "p2:8C", "a_soldiers": "4S", "d_soldiers": "8C"},
            "already on the table",
        ),
        ({"type": "challenge", "a_soldiers": "4S"}, "Choose the fort card challenged"),
        ({"type": "challenge", "target": "p1:9C"}, "cannot challenge their own fort"),
        ({"type": "fortify", "cards": "9H"}, "already on the table"),
        ({"type": "fortify", "cards": ""}, "can move 1 to 5 army cards into the fort"),
        ({"type": "burn"}, "Choose the fort card burned."),
        (
            {"type": "burn", "card": "4S"},
            "Only a fort card can be burned, and the 4 of spades is not in Ann's fort.",
        ),
        ({"type": "burn", "card": "2S", "draws": "2"}, "only a jack, queen, king or ace may draw 2"),
        ({"type": "draw"}, "The draw comes once"),
        ({"type": "deal"}, "The game is under way."),
        ({"type": "replace", "card": "4S"}, "There is no replace to record now."),
        ({"type": "fly"}, "Choose one of the actions offered on the table."),
    ],
)
def test_bad_moves_are_refused_with_the_reason_and_change_nothing(browser, fields, message):
    token = _started(browser)
    version = _version(browser, token)
    response = _act(browser, token, version, **fields)
    assert response.status_code == 422
    assert message in _words(text(response))
    assert _version(browser, token) == version


def test_a_refused_challenge_keeps_what_the_referee_typed(browser):
    token = _started(browser)
    response = _act(
        browser,
        token,
        _version(browser, token),
        type="challenge",
        target="p2:8C",
        a_soldiers="4S 5S",
        d_soldiers="9D",
    )
    page = text(response)
    assert 'value="4S 5S"' in page and 'value="p2:8C" checked' in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"players": "5"}, "The number of players must be between 2 and 4."),
        ({"players": "many"}, "is a whole number"),
        ({"players": "²"}, "The number of players is a whole number, and “²” is not one."),
    ],
)
def test_bad_table_options_create_nothing_and_say_why(browser, data, message):
    response = browser.post("/tables/new/fort", data, follow_redirects=True)
    assert message in text(response)
    assert "/t/" not in response.request.path


def test_the_viewer_sees_the_forts_but_no_forms(browser, other_browser):
    token = _started(browser)
    links = text(browser.get(f"/t/{token}/links"))
    viewer = [t for t in re.findall(r"/t/([\w-]{20,})", links) if t != token][0]
    page = text(other_browser.get(f"/t/{viewer}"))
    assert "Ann's turn" in page and "3♥" in page
    assert 'name="type"' not in page and "Settle the battle" not in page


def _slots(name: str, cards: list[str]) -> dict:
    """Cards as tapped into the card slots ``name_1``, ``name_2`` …: a rank and a suit each."""
    fields = {}
    for index, card in enumerate(cards, start=1):
        fields |= {f"{name}_{index}_rank": card[:-1], f"{name}_{index}_suit": card[-1]}
    return fields


def _form(action: dict) -> dict:
    """A rules action as the table's forms post it: the cards tapped into slots, as on a phone."""
    kind, form = action["type"], {"type": action["type"]}
    if kind == "deal":
        for p, cards in action["forts"].items():
            form |= _slots(f"fort_{p}", cards)
    elif kind == "burn":
        form |= {"card": f"{action['player']}:{action['card']}" if "player" in action else action["card"]}
        form["draws"] = str(action["draws"])
    elif kind == "replace" or (kind == "draw" and action.get("card")):
        form["card"] = action["card"]
    elif kind == "fortify":
        form |= _slots("cards", action["cards"])
    elif kind == "challenge":
        form["target"] = f"{action['defender']}:{action['target'] or ''}"
        for side in ("attacker", "defender"):
            form |= _slots(f"{side[0]}_soldiers", action["soldiers"][side])
    elif kind == "free_for_all":
        for p, card in action["laid"].items():
            form |= {f"laid_{p}_rank": card[:-1], f"laid_{p}_suit": card[-1]}
    elif kind == "restock":
        form |= {"kept": action["fort"][0], **_slots("drawn", action["fort"][1:])}
    elif kind == "showdown":
        for p, cards in action["laid"].items():
            form |= _slots(f"line_{p}", cards)
    return form


@pytest.mark.parametrize(("seed", "players"), [(2, 3), (3, 2), (4, 4), (7, 2)])
def test_random_games_are_played_to_the_end_through_the_forms(app, browser, seed, players):
    from companion import store
    from companion.http.context import get_db

    token = browser.create_table("fort", {"players": str(players)})
    rng = random.Random(seed)
    for _ in range(1500):
        with app.app_context():
            table = store.get_table(get_db(), store.find_link(get_db(), token).table_id)
        move = fort.random_legal_action(table.state, rng)
        if move is None:
            break
        response = _act(browser, token, table.version, **_form(move[1]))
        assert response.status_code == 200, (move, _words(text(response))[:400])
    page = _words(text(browser.get(f"/t/{token}")))
    assert re.search(r"(Player \d wins the game!|share the win\.)", page), page[:500]
    assert "Undo" in page


def test_the_help_page_says_the_rules_and_settles_the_example(browser):
    page = text(browser.get("/fort/help"))
    words = _words(page)
    assert "The top of a double needs 6 cards in your army, the top of a triple 10." in words
    assert "any pair with a 7 in it is won by the attacker" in words
    assert "The attacker wins the battle and takes the 9♥." in words
    assert "Referee's decisions" in words


def test_the_fort_pages_hold_no_inline_script_or_style(browser):
    token = _started(browser)
    paths = ["/fort/", "/fort/battle", "/fort/showdown", "/fort/help", f"/t/{token}"]
    paths += ["/fort/battle?" + urlencode({**SITUATION, "do": "check"})]
    for path in paths:
        page = browser.get(path).data.decode()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), path
        assert not re.search(r"\s(on[a-z]+|style)=", page), path


def test_junk_form_posts_and_queries_never_give_a_500(browser):
    token = _started(browser)
    version = _version(browser, token)
    junk = [
        {},
        {"type": ["challenge", "burn"]},
        {"type": "challenge", "target": "\x00" * 3000, "a_soldiers": "♠" * 500},
        {"type": "challenge", "target": "p2:8C", "size": "x", "a_soldiers": ["4S", "5S"]},
        {"type": "challenge", "target": ":::"},
        {"type": "free_for_all", "laid_p1": "4S"},
        {"type": "restock", "kept": "9H"},
        {"type": "showdown", "line_p1": "4S"},
        {"type": "burn", "card_rank": "10", "card_suit": "\ufe0f"},
        {"type": "burn", "card": "p9:9H", "draws": "²"},
        {"type": "deal", "fort_p1": "1 2 3 4", "fort_zz": "x"},
        {"type": "draw", "card": "ZZ"},
        {"type": "share"},
    ]
    for fields in junk:
        response = _act(browser, token, version, **fields)
        assert response.status_code == 422, fields
        assert "notice-error" in text(response)
    queries = [
        ("/fort/battle", "do=check&a_army=%00&d_army=1e9"),
        ("/fort/battle", "do=lay&" + urlencode(SITUATION) + "&pick_rank=%FF&pick_suit=Q"),
        ("/fort/battle", "do=settle&" + urlencode(SITUATION) + "&a_soldiers=" + "x" * 5000),
        ("/fort/battle", "do=check&stake=campaign&a_army=-1"),
        ("/fort/battle", "do=back&" + urlencode(SITUATION)),
        ("/fort/showdown", "do=judge&army_1=" + "K" * 3000 + "&army_2=%00"),
        ("/fort/showdown", "do=judge&army_1=2H&army_2=3H&army_3=4H&army_4=5H&tower_1=%FF"),
    ]
    for path, query in queries:
        response = browser.get(f"{path}?{query}")
        assert response.status_code == 200, query


def test_burning_offers_only_fort_cards_and_records_one_or_two_draws(browser):
    """Issue 11.1-2 on the table: the burn form lists fort cards only; a king may draw one."""
    token = _table(browser)
    _act(browser, token, _version(browser, token), type="deal", **{f"fort_{p}": c for p, c in FORTS.items()})
    page = text(browser.get(f"/t/{token}"))
    burn = re.search(r"<legend>Burn before the game</legend>.*?</fieldset>", page, re.S).group(0)
    assert re.findall(r'value="(p\d:\w+)"', burn) == [
        f"{p}:{c}" for p, cards in FORTS.items() for c in cards.split()
    ]
    assert 'value="p1:KD" class="royal"' in burn and 'value="p1:2S" class=""' in burn
    response = _act(browser, token, _version(browser, token), type="burn", card="p1:KD", draws="1")
    words = _words(text(response))
    assert "Recorded. Ann burned the king of diamonds before the game and drew 1 card." in words
    assert "Army 5 · fort 3" in words


def test_a_refused_burn_keeps_the_card_chosen_and_the_next_form_starts_clear(browser):
    """A burn refused (a 2 may not draw two) shows the same choices with the tapped card still ticked;
    the form drawn after it, with nothing refused, has no card ticked."""
    token = _table(browser)
    _act(browser, token, _version(browser, token), type="deal", **{f"fort_{p}": c for p, c in FORTS.items()})
    refused = _act(browser, token, _version(browser, token), type="burn", card="p1:2S", draws="2")
    assert refused.status_code == 422
    page = text(refused)
    assert "Only a jack, queen, king or ace may draw 2." in _words(page)
    assert re.findall(r'value="(p\d:\w+)" class="\w*" checked', page) == ["p1:2S"]
    page = text(browser.get(f"/t/{token}", headers={"HX-Request": "true"}))
    assert 'value="p1:2S" class=""><span>' in page and " checked" not in page


def test_a_challenge_is_checked_as_soon_as_its_target_and_size_are_chosen(browser):
    """Issue 12.2: only open targets are offered; a chosen challenge is checked before any soldier is asked for."""
    token = _started(browser)
    page = text(browser.get(f"/t/{token}"))
    offered = re.findall(r'name="challenge" value="([^"]+)"', page)
    assert offered == ["p2:5H", "p2:8C", "p2:JS", "p2:4D", "p3:QS"]  # Cy's triple needs 10 army cards
    closed = _words(re.search(r'<details class="closed-targets">.*?</details>', page, re.S).group(0))
    assert "Cy's 3♥ (top of a triple): The top of a watchtower of 3 needs 10 army cards" in closed
    assert "a_soldiers_1_rank" not in page  # no soldier before a challenge is chosen and allowed

    page = text(browser.get(f"/t/{token}?challenge=p3:3H&size=1"))
    assert "Not allowed: The top of a watchtower of 3 needs 10 army cards to challenge" in _words(page)
    assert 'role="alert" id="challenge-refused"' in page and "a_soldiers_1_rank" not in page
    page = text(browser.get(f"/t/{token}?challenge=p9:AS"))
    assert "That challenge is not one of those open now: choose again." in _words(page)

    page = text(browser.get(f"/t/{token}?challenge=p2:8C&size=2"))
    assert "Allowed: Bob's 8♣, 2 soldiers each, picked blind from the other's army." in _words(page)
    slots = re.findall(r'name="([ad]_soldiers_\d)_rank" value="A"', page)
    assert slots == ["a_soldiers_1", "d_soldiers_1", "a_soldiers_2", "d_soldiers_2"]
    fields = {"target": "p2:8C", "size": "2"}
    for slot, card in zip(slots, ["7D", "AS", "KH", "4H"], strict=True):
        fields |= {f"{slot}_rank": card[:-1], f"{slot}_suit": card[-1]}
    response = _act(browser, token, _version(browser, token), type="challenge", **fields)
    assert response.status_code == 200, re.findall(r"role=\"alert\">([^<]*)", text(response))
    assert "Ann wins the battle and takes the 8♣." in _words(text(response))  # the 7 rule, then K over 4


def test_the_deal_is_recorded_from_taps(browser):
    token = _table(browser, players=2)
    fields = {}
    for player, cards in (("p1", ["9H", "9C", "2S", "KD"]), ("p2", ["5H", "8C", "JS", "4D"])):
        for index, card in enumerate(cards, start=1):
            fields |= {f"fort_{player}_{index}_rank": card[:-1], f"fort_{player}_{index}_suit": card[-1]}
    page = text(browser.get(f"/t/{token}"))
    assert 'name="fort_p2_4_rank"' in page and 'name="fort_p3_1_rank"' not in page
    refused = _act(browser, token, _version(browser, token), type="deal", **{**fields, "fort_p2_4_suit": ""})
    assert "Pick the card's suit as well as its rank." in _words(text(refused))
    assert 'name="fort_p1_1_rank" value="9" checked' in text(refused)  # the taps are kept
    response = _act(browser, token, _version(browser, token), type="deal", **fields)
    words = _words(text(response))
    assert "Before the game, each player may burn one card. Then start." in words
    assert "9♥ 9♣ double" in words
