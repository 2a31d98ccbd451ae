"""Zamek's rules module: every rule and decision of shared/rules/zamek.md, the API, the table."""

from __future__ import annotations

import copy
import json
import random

import pytest

from companion.rules import zamek
from companion.rules.errors import RuleError
from companion.rules.stored_sentences import load

DECK = zamek.default_deck()  # king 41, queen 34, wizard 18
PLAIN = [n for n in range(2, 47) if zamek.picture(DECK, n) is None]
VIEWERS = ("referee", "viewer", "p1", "p2", "p3")


def refused(code: str, call, *args, field: str | None = None, **kwargs) -> RuleError:
    """Assert that ``call(*args, **kwargs)`` is refused with ``code`` (and ``field``) and changes none of its input."""
    before = copy.deepcopy((args, kwargs))
    with pytest.raises(RuleError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    if field is not None:
        assert caught.value.field == field
    assert (args, kwargs) == before
    return caught.value


def turn(castles, player, card, action, **extra):
    """api_turn with the default deck."""
    return zamek.api_turn({"castles": castles, "player": player, "card": card, "action": action, **extra})


def table(players=("Ola", "Kuba"), **options) -> dict:
    """A new table."""
    return zamek.new_table({"players": list(players), **options}, 42)


def play(state: dict, *steps: tuple[str, dict]) -> dict:
    """Apply each (actor, action) in order."""
    for actor, action in steps:
        state = zamek.apply(state, action, actor)
    return state


def card(position: int, number: int) -> tuple[str, dict]:
    """The referee enters the card turned over."""
    return "referee", {"type": "turn", "position": position, "number": number}


def choose(choice: str) -> tuple[str, dict]:
    """The referee enters the choice."""
    return "referee", {"type": "choose", "choice": choice}


def vote(seat: str, member: str, stage: str, value) -> tuple[str, dict]:
    """A member votes from their team's phone."""
    key = "position" if stage == "position" else "choice"
    return seat, {"type": "vote", "stage": stage, key: value, "member": member, "member_name": member.title()}


def join(seat: str, member: str) -> tuple[str, dict]:
    """A phone joins its team."""
    return seat, {"type": "join", "member": member, "member_name": member.title()}


# --- Decks ----------------------------------------------------------------------------------


def test_default_deck_has_one_king_queen_wizard_and_several_knights_and_princesses():
    numbers = [DECK["king"], DECK["queen"], DECK["wizard"], *DECK["knights"], *DECK["princesses"]]
    assert len(numbers) == len(set(numbers))
    assert all(2 <= n <= 46 for n in numbers)
    assert 6 <= len(DECK["knights"]) <= 8 and 6 <= len(DECK["princesses"]) <= 8
    assert zamek.deck_reference(DECK) == "zamek-default@1"
    assert zamek.parse_deck("default") == DECK


def test_default_deck_spreads_its_pictures_over_the_range():
    for group in ("knights", "princesses"):
        thirds = {(n - 2) * 3 // 45 for n in DECK[group]}
        assert thirds == {0, 1, 2}


def test_pictures_are_read_from_the_deck():
    assert zamek.picture(DECK, DECK["king"]) == "king"
    assert zamek.picture(DECK, DECK["knights"][0]) == "knight"
    assert zamek.picture(DECK, DECK["princesses"][0]) == "princess"
    assert zamek.picture(DECK, PLAIN[0]) is None


CUSTOM = {"king": 40, "queen": 38, "wizard": 23, "knights": [4, 10], "princesses": [6]}


def test_a_user_deck_is_canonical_and_named_by_its_content():
    deck = zamek.parse_deck({**CUSTOM, "knights": [10, 4]})
    assert deck["knights"] == [4, 10]
    assert deck["id"].startswith("custom-") and deck == zamek.parse_deck(CUSTOM)
    assert zamek.parse_deck({**CUSTOM, "id": "club", "name": "Club deck", "version": 3})["version"] == 3


@pytest.mark.parametrize(
    ("deck", "field"),
    [
        ({k: v for k, v in CUSTOM.items() if k != "king"}, "deck"),
        ({**CUSTOM, "queen": [38, 39]}, "deck.queen"),
        ({**CUSTOM, "wizard": 1}, "deck.wizard"),
        ({**CUSTOM, "wizard": 47}, "deck.wizard"),
        ({**CUSTOM, "wizard": True}, "deck.wizard"),
        ({**CUSTOM, "knights": [4, 4]}, "deck.knights[1]"),
        ({**CUSTOM, "princesses": [40]}, "deck.princesses[0]"),
        ({**CUSTOM, "queen": 40}, "deck.queen"),
        ({**CUSTOM, "knights": "4"}, "deck.knights"),
        ({**CUSTOM, "knight": [5]}, "deck.knight"),
        ({**CUSTOM, "id": "zamek-default"}, "deck.id"),
        ({**CUSTOM, "version": 0}, "deck.version"),
        ("mine", "deck"),
        ([40, 38], "deck"),
    ],
)
def test_a_bad_deck_is_refused(deck, field):
    refused("bad_deck", zamek.parse_deck, deck, field=field)


# --- The turn -------------------------------------------------------------------------------


def test_a_castle_grows_only_upwards():
    assert turn({"p1": [1, 5, 12], "p2": [1, 3]}, "p1", 13, "add")["castles"]["p1"] == [1, 5, 12, 13]
    refused("not_higher", turn, {"p1": [1, 5, 12], "p2": [1, 3]}, "p1", 9, "add", field="card")


def test_a_card_may_be_put_back_even_when_it_could_be_added():
    answer = turn({"p1": [1, 5], "p2": [1, 3]}, "p1", 30, "put_back")
    assert answer == {
        "result": "put_back",
        "castles": {"p1": [1, 5], "p2": [1, 3]},
        "box": [],
        "wizard_used": [],
        "winner": None,
    }


def test_a_card_lower_than_every_end_goes_to_the_box_whatever_the_choice():
    answer = turn({"p1": [1, 5, 12], "p2": [1, 8]}, "p1", 4, "add", box=[2])
    assert answer["result"] == "boxed" and answer["box"] == [2, 4]
    assert answer["castles"] == {"p1": [1, 5, 12], "p2": [1, 8]}


def test_putting_back_a_card_that_must_go_to_the_box_is_refused_at_the_table():
    refused(
        "must_go_to_box",
        zamek.play_turn,
        {"p1": [1, 5, 12], "p2": [1, 8]},
        "p1",
        4,
        "put_back",
        zamek.default_deck(),
    )


def test_the_api_boxes_such_a_card_whatever_the_action_as_the_contract_says():
    answer = turn({"p1": [1, 5, 12], "p2": [1, 8]}, "p1", 4, "put_back")
    assert answer["result"] == "boxed" and answer["box"] == [4]
    assert answer["castles"] == {"p1": [1, 5, 12], "p2": [1, 8]}


def test_a_card_another_castle_could_use_is_not_boxed():
    castles = {"p1": [1, 5, 12], "p2": [1, 3]}
    refused("not_higher", turn, castles, "p1", 4, "add")
    assert turn(castles, "p1", 4, "put_back")["result"] == "put_back"
    refused("not_for_the_box", turn, castles, "p1", 4, "box")


def test_the_wizard_slides_a_card_into_the_middle_once():
    castles = {"p1": [1, 5, 18, 30], "p2": [1, 3, 40]}
    answer = turn(castles, "p1", 20, "wizard")
    assert answer["result"] == "inserted" and answer["castles"]["p1"] == [1, 5, 18, 20, 30]
    assert answer["wizard_used"] == ["p1"]
    refused("wizard_used", turn, castles, "p1", 20, "wizard", wizard_used=["p1"], field="action")


def test_the_wizard_may_save_a_card_that_would_go_to_the_box():
    answer = turn({"p1": [1, 5, 18, 30], "p2": [1, 40]}, "p1", 2, "wizard")
    assert answer["result"] == "inserted" and answer["castles"]["p1"] == [1, 2, 5, 18, 30]


def test_only_the_holder_of_the_wizard_may_use_it():
    refused("no_wizard", turn, {"p1": [1, 5, 30], "p2": [1, 18]}, "p1", 20, "wizard", field="action")


def test_the_wizard_is_not_spent_on_a_card_that_can_simply_be_added():
    refused("wizard_not_needed", turn, {"p1": [1, 18], "p2": [1, 3]}, "p1", 20, "wizard")


@pytest.mark.parametrize(
    "castle",
    [[1, 5, 12, 14, 23, 28, 31, 37, 40], [1, 2, 3, 4, 5, 6, 7, 8, 9]],
)
def test_the_first_castle_of_ten_elements_wins(castle):
    answer = turn({"p1": castle, "p2": [1, 44]}, "p1", 42 if castle[-1] == 40 else 10, "add")
    assert len(answer["castles"]["p1"]) == 10 and answer["winner"] == "p1"
    assert turn({"p1": castle[:-1], "p2": [1, 44]}, "p1", 43, "add")["winner"] is None


def test_a_wizard_insertion_can_reach_ten():
    castle = [1, 2, 3, 4, 5, 6, 7, 8, 18]
    assert turn({"p1": castle, "p2": [1, 44]}, "p1", 10, "wizard")["winner"] == "p1"


@pytest.mark.parametrize(
    ("number", "code", "extra"),
    [
        (1, "number_out_of_range", {}),
        (47, "number_out_of_range", {}),
        (12, "already_placed", {}),
        (3, "already_placed", {}),
        (20, "already_boxed", {"box": [20]}),
    ],
)
def test_a_number_outside_the_deck_or_already_used_is_refused(number, code, extra):
    refused(code, turn, {"p1": [1, 5, 12], "p2": [1, 3]}, "p1", number, "add", **extra, field="card")


# --- Scoring and ties -----------------------------------------------------------------------


def test_a_castle_scores_elements_pictures_and_pairs():
    knights, princesses = DECK["knights"], DECK["princesses"]
    castle = sorted([1, princesses[0], *knights[:3], DECK["king"], DECK["queen"], DECK["wizard"], PLAIN[0]])
    assert zamek.score_castle(castle, DECK) == {
        "total": 9 + 3 + 1 + 3 + 3 + 1,
        "elements": 9,
        "knights": 3,
        "princesses": 1,
        "king": True,
        "queen": True,
        "wizard": True,
        "pairs": 1,
    }
    assert zamek.score_castle([1], DECK)["total"] == 1


def test_pairs_are_the_smaller_of_princesses_and_knights():
    castle = sorted([1, *DECK["knights"][:2], *DECK["princesses"][:4]])
    assert zamek.score_castle(castle, DECK)["pairs"] == 2


@pytest.mark.parametrize(
    ("castles", "winner", "decided_by"),
    [
        ({"p1": [1, 2, 4], "p2": [1, 6]}, "p1", "score"),
        ({"p1": [1, 41], "p2": [1, 2, 4, 6, 7]}, "p1", "king"),
        ({"p1": [1, 2, 4, 34], "p2": [1, 6, 7, 8, 10, 11, 13], "p3": [1, 41]}, "p1", "queen"),
        (
            {"p1": [1, 2, 4, 6, 7, 8, 18], "p2": [1, 10, 11, 13, 14, 16, 17], "p3": [1, 41], "p4": [1, 34]},
            "p1",
            "wizard",
        ),
        ({"p1": [1, 2], "p2": [1, 4]}, None, None),
        ({"p1": [1, 2, 4, 6], "p2": [1, 7, 8, 10], "p3": [1, 18]}, None, None),
    ],
)
def test_ties_go_to_the_king_then_the_queen_then_the_wizard_else_a_draw(castles, winner, decided_by):
    answer = zamek.api_score({"deck": "default", "castles": castles})
    assert (answer["winner"], answer["decided_by"]) == (winner, decided_by)
    assert answer["deck"] == {"id": "zamek-default", "name": DECK["name"], "version": 1}


def test_score_answer_has_the_contract_shape():
    answer = zamek.api_score({"deck": CUSTOM, "castles": {"p2": [1, 4, 6, 40], "p1": [1, 23]}})
    assert list(answer["scores"]) == ["p1", "p2"]
    assert answer["scores"]["p2"] == {
        "total": 4 + 1 + 1 + 3 + 1,
        "elements": 4,
        "knights": 1,
        "princesses": 1,
        "king": True,
        "queen": False,
        "wizard": False,
        "pairs": 1,
    }
    assert answer["winner"] == "p2" and answer["decided_by"] == "score"


# --- The API with junk ----------------------------------------------------------------------

GOOD_TURN = {"castles": {"p1": [1, 5], "p2": [1, 3]}, "player": "p1", "card": 9, "action": "add"}


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ([], "wrong_type", None),
        ("turn", "wrong_type", None),
        (None, "wrong_type", None),
        (7, "wrong_type", None),
        ({k: v for k, v in GOOD_TURN.items() if k != "castles"}, "missing_field", "castles"),
        ({k: v for k, v in GOOD_TURN.items() if k != "card"}, "missing_field", "card"),
        ({k: v for k, v in GOOD_TURN.items() if k != "action"}, "missing_field", "action"),
        ({**GOOD_TURN, "castles": [[1], [1]]}, "wrong_type", "castles"),
        ({**GOOD_TURN, "castles": {"p1": [1]}}, "player_count", "castles"),
        ({**GOOD_TURN, "castles": {f"p{i}": [1] for i in range(5)}}, "player_count", "castles"),
        ({**GOOD_TURN, "castles": {"p1": [5], "p2": [1]}}, "bad_castle", "castles.p1[0]"),
        ({**GOOD_TURN, "castles": {"p1": [True], "p2": [1]}}, "bad_castle", "castles.p1[0]"),
        ({**GOOD_TURN, "castles": {"p1": [1.0], "p2": [1]}}, "bad_castle", "castles.p1[0]"),
        ({**GOOD_TURN, "castles": {"p1": [1, 8, 5], "p2": [1]}}, "bad_castle", "castles.p1[2]"),
        ({**GOOD_TURN, "castles": {"p1": [1, 5], "p2": [1, 5]}}, "already_placed", "castles.p2[1]"),
        ({**GOOD_TURN, "castles": {"p1": [1, "5"], "p2": [1]}}, "wrong_type", "castles.p1[1]"),
        ({**GOOD_TURN, "castles": {"p1": "1", "p2": [1]}}, "wrong_type", "castles.p1"),
        ({**GOOD_TURN, "castles": {"": [1], "p2": [1]}}, "wrong_type", "castles"),
        ({**GOOD_TURN, "player": "p9"}, "unknown_player", "player"),
        ({**GOOD_TURN, "player": ["p1"]}, "unknown_player", "player"),
        ({**GOOD_TURN, "card": True}, "wrong_type", "card"),
        ({**GOOD_TURN, "card": "9"}, "wrong_type", "card"),
        ({**GOOD_TURN, "card": 9.0}, "wrong_type", "card"),
        ({**GOOD_TURN, "card": 10**40}, "number_out_of_range", "card"),
        ({**GOOD_TURN, "action": "take"}, "unknown_action", "action"),
        ({**GOOD_TURN, "action": None}, "unknown_action", "action"),
        ({**GOOD_TURN, "deck": {"king": 2}}, "bad_deck", "deck"),
        ({**GOOD_TURN, "deck": 3}, "bad_deck", "deck"),
        ({**GOOD_TURN, "wizard_used": "p1"}, "wrong_type", "wizard_used"),
        ({**GOOD_TURN, "wizard_used": ["p7"]}, "unknown_player", "wizard_used[0]"),
        ({**GOOD_TURN, "box": [2, 2]}, "already_placed", "box[1]"),
        ({**GOOD_TURN, "box": [5]}, "already_placed", "box[0]"),
        ({**GOOD_TURN, "box": [False]}, "wrong_type", "box[0]"),
    ],
)
def test_api_turn_refuses_junk_with_a_field(body, code, field):
    error = refused(code, zamek.api_turn, body)
    assert error.field == field and error.message.endswith(".")


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({}, "missing_field", "castles"),
        ("x", "wrong_type", None),
        ([1], "wrong_type", None),
        ({"castles": {"p1": [1]}}, "player_count", "castles"),
        ({"castles": {"p1": [1], "p2": [1, 47]}}, "number_out_of_range", "castles.p2[1]"),
        ({"castles": {"p1": [1], "p2": [1, 4]}, "deck": {**CUSTOM, "king": None}}, "bad_deck", "deck.king"),
        ({"castles": {"p1": [1], "p2": None}}, "wrong_type", "castles.p2"),
        ({"castles": {"p1": [], "p2": [1]}}, "bad_castle", "castles.p1[0]"),
    ],
)
def test_api_score_refuses_junk_with_a_field(body, code, field):
    assert refused(code, zamek.api_score, body).field == field


def test_api_answers_are_plain_json():
    answer = turn({"p2": [1, 3], "p1": [1, 5]}, "p1", 9, "add")
    assert list(answer["castles"]) == ["p1", "p2"]
    assert json.loads(json.dumps(answer)) == answer


# --- The table: options ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"players": ["Ola"]}, "player_count"),
        ({"players": ["A", "B", "C", "D", "E"]}, "player_count"),
        ({"players": "Ola, Kuba"}, "wrong_type"),
        ({"players": ["Ola", ""]}, "wrong_type"),
        ({"players": ["Ola", "ola"]}, "bad_option"),
        ({"players": ["Ola", "Kuba"], "variant": "advanced"}, "bad_option"),
        ({"players": ["Ola", "Kuba"], "stop_at_ten": True}, "bad_option"),
        ({"players": ["Ola", "Kuba"], "variant": "extended", "stop_at_ten": 1}, "wrong_type"),
        ({"players": ["Ola", "Kuba"], "teams": "yes"}, "wrong_type"),
        ({"players": ["Ola", "Kuba"], "deck": {"king": 3}}, "bad_deck"),
        (["Ola", "Kuba"], "wrong_type"),
    ],
)
def test_bad_table_options_are_refused(options, code):
    refused(code, zamek.new_table, options, 1)


def test_seats_are_the_teams_only_when_members_vote():
    assert zamek.seats({"players": ["Ola", "Kuba"]}) == []
    assert zamek.seats({"players": ["Red", "Blue", "Green"], "teams": True}) == [
        ("p1", "Team Red"),
        ("p2", "Team Blue"),
        ("p3", "Team Green"),
    ]


def test_a_new_table_starts_every_castle_with_the_tile():
    state = table(("Ola", "Kuba", "Ala"), variant="extended", deck=CUSTOM)
    assert state["castles"] == {"p1": [1], "p2": [1], "p3": [1]}
    assert state["table"] == list(range(1, 46)) and state["turn"] == "p1"
    assert state["deck"]["king"] == 40 and json.loads(json.dumps(state)) == state


# --- The table: turns -----------------------------------------------------------------------


def test_an_added_card_leaves_the_table_and_the_turn_passes():
    state = play(table(), card(7, 20), choose("add"))
    assert state["castles"]["p1"] == [1, 20] and 7 not in state["table"] and state["turn"] == "p2"
    assert state["last"] == {"seat": "p1", "number": 20, "result": "added", "by": "referee"}


def test_a_put_back_card_stays_at_its_place_and_is_remembered():
    state = play(table(), card(7, 20), choose("put_back"))
    assert 7 in state["table"] and state["seen"] == {"7": 20}
    assert 20 not in zamek.view(state, "viewer")["unseen"]
    refused("wrong_number", zamek.apply, state, card(7, 21)[1], "referee", field="number")
    refused("wrong_number", zamek.apply, state, card(8, 20)[1], "referee", field="number")
    state = play(state, card(7, 20), choose("add"))
    assert state["castles"]["p2"] == [1, 20] and state["seen"] == {}


def test_the_box_rule_needs_no_choice():
    state = play(table(), card(1, 20), choose("add"), card(2, 30), choose("add"), card(3, 10))
    assert state["box"] == [10] and state["card"] is None and state["turn"] == "p2"
    assert 3 not in state["table"] and state["last"]["result"] == "boxed"


def test_an_illegal_add_is_refused_with_the_reason():
    state = play(table(), card(1, 20), choose("add"), card(2, 5), choose("add"), card(3, 10))
    view = zamek.view(state, "referee")["card"]
    assert view["choices"] == ["put_back"] and "not higher than 20" in str(load(view["refused"]["add"]))
    refused("not_higher", zamek.apply, state, choose("add")[1], "referee", field="choice")
    refused("not_for_the_box", zamek.apply, state, choose("box")[1], "referee", field="choice")


def test_putting_back_a_card_for_the_box_is_refused_at_the_table():
    state = play(
        table(variant="extended"), card(1, 18), choose("add"), card(2, 30), choose("add"), card(3, 5)
    )
    assert state["card"] == {"position": 3, "number": 5}
    assert zamek.view(state, "viewer")["card"]["choices"] == ["wizard", "box"]
    refused("must_go_to_box", zamek.apply, state, choose("put_back")[1], "referee")
    refused("must_go_to_box", zamek.apply, state, choose("add")[1], "referee")
    boxed = play(state, choose("box"))
    assert boxed["box"] == [5] and boxed["turn"] == "p2"
    inserted = play(state, choose("wizard"))
    assert inserted["castles"]["p1"] == [1, 5, 18] and inserted["wizard_used"] == ["p1"]


def test_the_wizard_is_used_once_and_only_by_its_holder():
    state = play(
        table(variant="extended"),
        card(1, 18),
        choose("add"),
        card(2, 30),
        choose("add"),
        card(3, 25),
        choose("add"),
        card(4, 27),
    )
    refused("no_wizard", zamek.apply, state, choose("wizard")[1], "referee")
    state = play(
        state, choose("put_back"), card(6, 10), choose("wizard"), card(8, 31), choose("add"), card(9, 26)
    )
    assert state["castles"]["p1"] == [1, 10, 18, 25]
    assert zamek.view(state, "viewer")["card"]["choices"] == ["add", "put_back"]
    refused("wizard_used", zamek.apply, state, choose("wizard")[1], "referee")


def test_the_basic_game_has_no_wizard():
    state = play(table(), card(1, 18), choose("add"), card(2, 30), choose("add"), card(3, 5))
    assert state["box"] == [5]
    state = play(state, card(4, 31), choose("put_back"), card(5, 20))
    refused("no_wizard", zamek.apply, state, choose("wizard")[1], "referee")


@pytest.mark.parametrize(
    ("action", "code", "field"),
    [
        ({"type": "turn", "position": 0, "number": 9}, "position_out_of_range", "position"),
        ({"type": "turn", "position": 46, "number": 9}, "position_out_of_range", "position"),
        ({"type": "turn", "position": 1, "number": 9}, "position_empty", "position"),
        ({"type": "turn", "position": 4, "number": 1}, "number_out_of_range", "number"),
        ({"type": "turn", "position": 4, "number": 47}, "number_out_of_range", "number"),
        ({"type": "turn", "position": 4, "number": 20}, "already_placed", "number"),
        ({"type": "turn", "position": 4, "number": 3}, "already_boxed", "number"),
        ({"type": "turn", "position": True, "number": 9}, "wrong_type", "position"),
        ({"type": "turn", "position": 4, "number": "9"}, "wrong_type", "number"),
        ({"type": "choose", "choice": "add"}, "no_card", None),
        ({"type": "roll"}, "unknown_action", "type"),
        ({"position": 2}, "unknown_action", "type"),
    ],
)
def test_bad_table_input_changes_nothing(action, code, field):
    state = play(table(), card(1, 20), choose("add"), card(2, 25), choose("add"), card(3, 3))
    refused(code, zamek.apply, state, action, "referee", field=field)


def test_junk_actions_are_refused():
    for junk in ([], "turn", None, 5):
        refused("wrong_type", zamek.apply, table(), junk, "referee")


def test_only_the_referee_enters_cards_and_choices():
    state = table(teams=True)
    refused("not_allowed", zamek.apply, state, card(1, 20)[1], "p1")
    refused("not_allowed", zamek.apply, play(state, card(1, 20)), choose("add")[1], "p1")
    refused("not_allowed", zamek.apply, state, {"type": "close_vote"}, "viewer")


def test_a_face_up_card_must_be_settled_first():
    refused("card_face_up", zamek.apply, play(table(), card(1, 20)), card(2, 21)[1], "referee")


def test_the_basic_game_ends_at_ten_elements():
    steps = []
    for index, number in enumerate(range(2, 11)):
        steps += [
            card(2 * index + 1, number),
            choose("add"),
            card(2 * index + 2, 40 - index),
            choose("put_back"),
        ]
    state = play(table(), *steps[:-2])
    assert not play(table(), *steps[:-4])["over"]
    assert state["over"] and state["winner"] == "p1" and state["decided_by"] == "ten"
    assert state["castles"]["p1"] == list(range(1, 11))
    assert zamek.random_legal_action(state, random.Random(1)) is None
    refused("game_over", zamek.apply, state, card(40, 45)[1], "referee")
    assert "Ola wins with a castle of 10 elements" in str(
        zamek.describe(play(table(), *steps[:-3]), *steps[-3][::-1])
    )


def test_the_extended_game_goes_on_past_ten_unless_the_players_agreed():
    steps = []
    for index, number in enumerate(range(2, 12)):
        steps += [
            card(2 * index + 1, number),
            choose("add"),
            card(2 * index + 2, 40 - index),
            choose("put_back"),
        ]
    assert not play(table(variant="extended"), *steps)["over"]
    state = play(table(variant="extended", stop_at_ten=True), *steps[:-6])
    assert state["over"] and state["winner"] == "p1" and state["decided_by"] == "score"
    assert zamek.view(state, "viewer")["scores"]["p1"]["elements"] == 10


def test_the_extended_game_ends_when_the_table_is_empty_with_scores():
    state = table(variant="extended")
    for position in range(1, 46):
        state = play(state, card(position, position + 1))
        if state["card"]:
            state = play(state, choose("add"))
    view = zamek.view(state, "viewer")
    assert state["over"] and view["on_table"] == 0 and view["turn"] is None
    assert view["scores"] and view["winner"] == zamek.final_result(state["castles"], DECK)["winner"]


def test_a_basic_game_that_empties_the_table_goes_to_the_longest_castle():
    state = table()
    for position in range(1, 46):
        state = play(state, card(position, 47 - position))
        if state["card"]:
            state = play(state, choose("add"))
    assert state["over"] and state["castles"] == {"p1": [1, 46], "p2": [1, 45]}
    assert state["winner"] is None and state["decided_by"] is None


def test_the_referee_ends_a_basic_game_scored_as_an_emptied_table():
    # Ola keeps putting 40 back, Kuba builds: nothing in the source would ever end this game.
    state = play(
        table(),
        card(1, 40),
        choose("put_back"),
        card(2, 5),
        choose("add"),
        card(1, 40),
        choose("put_back"),
        card(3, 6),
        choose("add"),
        card(1, 40),
    )
    ended = play(state, ("referee", {"type": "end"}))
    assert ended["over"] and ended["winner"] == "p2" and ended["decided_by"] == "longest"
    assert ended["card"] is None and ended["seen"] == {"1": 40}  # the face-up 40 went back face down
    assert 1 in ended["table"] and zamek.view(ended, "viewer")["face_down"] == len(ended["table"])
    assert str(zamek.describe(state, {"type": "end"}, "referee")) == (
        "The referee ended the game; 40 went back face down. Kuba wins with the longest castle."
    )
    assert zamek.random_legal_action(ended, random.Random(1)) is None
    refused("game_over", zamek.apply, ended, {"type": "end"}, "referee")
    refused("not_allowed", zamek.apply, state, {"type": "end"}, "p1")
    level = play(table(), card(2, 5), choose("add"), card(3, 6), choose("add"))
    assert play(level, ("referee", {"type": "end"}))["winner"] is None  # the longest castles tie: a draw


def test_the_referee_ends_an_extended_game_by_the_extended_scoring():
    state = play(
        table(variant="extended"),
        card(1, 41),
        choose("add"),
        card(2, 3),
        choose("add"),
        card(4, 20),
        choose("put_back"),
        card(3, 9),
        choose("add"),
    )  # Ola: 1 41 (king); Kuba: 1 3 9 (two knights)
    ended = play(state, ("referee", {"type": "end"}))
    assert ended["over"] and ended["table"] != []
    scores = zamek.view(ended, "viewer")["scores"]
    assert scores["p1"]["total"] == 5 and scores["p2"]["total"] == 5  # 2 + king 3; 3 + 2 knights
    assert ended["winner"] == "p1" and ended["decided_by"] == "king"
    assert str(zamek.describe(state, {"type": "end"}, "referee")) == (
        "The referee ended the game. Ola wins on a tie, holding the king."
    )


def test_a_team_vote_open_when_the_game_ends_is_dropped():
    state = play(teams_table(), vote("p1", "ada", "position", 4))
    ended = play(state, ("referee", {"type": "end"}))
    assert ended["over"] and ended["ballots"] == {} and zamek.view(ended, "p1")["vote"] is None


def test_a_decided_turn_is_entered_at_once_with_its_choice():
    state = zamek.apply(table(), {"type": "turn", "position": 7, "number": 20, "choice": "add"}, "referee")
    assert state == play(table(), card(7, 20), choose("add"))
    assert str(
        zamek.describe(table(), {"type": "turn", "position": 7, "number": 20, "choice": "add"}, "referee")
    ) == ("Ola turned over 20. Ola added 20 to the castle (2 elements).")
    kept = zamek.apply(state, {"type": "turn", "position": 8, "number": 30, "choice": "put_back"}, "referee")
    assert kept["seen"] == {"8": 30} and kept["turn"] == "p1" and kept["card"] is None
    # A choice the rules refuse refuses the whole turn; the box rule needs no choice and ignores one.
    low = play(state, card(8, 5), choose("add"))  # Ola 1 20, Kuba 1 5
    refused(
        "not_higher",
        zamek.apply,
        low,
        {"type": "turn", "position": 9, "number": 10, "choice": "add"},
        "referee",
        field="choice",
    )
    boxed = zamek.apply(low, {"type": "turn", "position": 9, "number": 3, "choice": "add"}, "referee")
    assert boxed["box"] == [3] and boxed["castles"]["p1"] == [1, 20]
    refused(
        "unknown_action",
        zamek.apply,
        table(),
        {"type": "turn", "position": 7, "number": 20, "choice": "fly"},
        "referee",
        field="choice",
    )


def test_a_team_that_votes_cannot_have_its_choice_entered_with_the_card():
    state = play(teams_table(), *[vote("p1", m, "position", 4) for m in ("ada", "bea", "cy")])
    refused(
        "vote_open",
        zamek.apply,
        state,
        {"type": "turn", "position": 4, "number": 20, "choice": "add"},
        "referee",
        field="choice",
    )


def test_the_face_down_count_leaves_out_the_face_up_card():
    view = zamek.view(play(table(), card(45, 46)), "viewer")
    assert view["face_down"] == 44 and view["on_table"] == 45 and view["card"]["number"] == 46


# --- Teams ----------------------------------------------------------------------------------


def teams_table() -> dict:
    """Red (3 members, Ada captain) against Blue (Bo alone)."""
    return play(
        table(("Red", "Blue"), teams=True, variant="extended"),
        join("p1", "ada"),
        join("p1", "bea"),
        join("p1", "cy"),
        join("p2", "bo"),
    )


def test_the_first_member_to_join_is_the_captain():
    state = teams_table()
    assert [m["name"] for m in state["members"]["p1"]] == ["Ada", "Bea", "Cy"]
    players = zamek.view(state, "viewer")["players"]
    assert players[0]["members"][0] == {"name": "Ada", "captain": True}
    refused("already_joined", zamek.apply, state, join("p2", "ada")[1], "p2")
    refused("not_allowed", zamek.apply, table(), join("p1", "x")[1], "p1")


def test_the_majority_decides_the_position():
    state = play(teams_table(), vote("p1", "ada", "position", 5), vote("p1", "bea", "position", 9))
    assert state["chosen_position"] is None
    state = play(state, vote("p1", "cy", "position", 9))
    assert state["chosen_position"] == 9 and state["ballots"] == {}
    refused("not_chosen", zamek.apply, state, card(5, 20)[1], "referee")
    state = play(state, card(9, 20))
    assert state["card"] == {"position": 9, "number": 20}


def test_a_tie_goes_to_the_captain():
    state = play(
        teams_table(),
        vote("p1", "bea", "position", 5),
        vote("p1", "ada", "position", 9),
        ("referee", {"type": "close_vote"}),
    )
    assert state["chosen_position"] == 9


def test_a_tie_without_the_captain_goes_to_the_earliest_member_in_it():
    state = play(
        teams_table(),
        vote("p1", "cy", "position", 5),
        vote("p1", "bea", "position", 9),
        ("referee", {"type": "close_vote"}),
    )
    assert state["chosen_position"] == 9


def test_the_team_votes_what_becomes_of_the_card_and_it_is_applied():
    state = play(
        teams_table(),
        vote("p1", "ada", "position", 4),
        vote("p1", "bea", "position", 4),
        vote("p1", "cy", "position", 4),
        card(4, 20),
    )
    refused("vote_open", zamek.apply, state, choose("add")[1], "referee")
    state = play(
        state,
        vote("p1", "ada", "choice", "put_back"),
        vote("p1", "bea", "choice", "add"),
        vote("p1", "cy", "choice", "add"),
    )
    assert state["castles"]["p1"] == [1, 20] and state["last"]["by"] == "vote" and state["turn"] == "p2"


def test_a_member_who_was_outvoted_is_told_what_the_team_chose():
    state = play(
        teams_table(),
        vote("p1", "ada", "position", 5),
        vote("p1", "bea", "position", 9),
        vote("p1", "cy", "position", 9),
    )
    assert zamek.phone_view(state, "p1", "ada")["outvoted"] == {"stage": "position", "chosen": 9, "mine": 5}
    assert zamek.phone_view(state, "p1", "bea")["outvoted"] is None  # on the winning side
    state = play(
        state,
        card(9, 20),
        vote("p1", "ada", "choice", "add"),
        vote("p1", "bea", "choice", "put_back"),
        vote("p1", "cy", "choice", "put_back"),
    )
    assert zamek.phone_view(state, "p1", "ada")["outvoted"] == {
        "stage": "choice",
        "chosen": "put_back",
        "mine": "add",
    }
    assert zamek.phone_view(state, "p1", "cy")["outvoted"] is None
    assert zamek.phone_view(state, "p2", "bo")["outvoted"] is None  # Blue's phone hears nothing of Red's vote
    for viewer in ("viewer", "referee", "p2"):
        assert "ada" not in json.dumps(zamek.view(state, viewer))


def test_a_vote_is_checked_like_the_move():
    state = play(
        teams_table(),
        *[vote("p1", m, "position", 4) for m in ("ada", "bea", "cy")],
        card(4, 30),
        *[vote("p1", m, "choice", "add") for m in ("ada", "bea", "cy")],
        vote("p2", "bo", "position", 5),
        card(5, 10),
        vote("p2", "bo", "choice", "add"),
        *[vote("p1", m, "position", 6) for m in ("ada", "bea", "cy")],
        card(6, 20),
    )
    refused("not_higher", zamek.apply, state, vote("p1", "ada", "choice", "add")[1], "p1", field="choice")
    refused("no_wizard", zamek.apply, state, vote("p1", "ada", "choice", "wizard")[1], "p1")
    refused("wrong_stage", zamek.apply, state, vote("p1", "ada", "position", 7)[1], "p1", field="stage")
    refused("position_empty", zamek.apply, teams_table(), vote("p1", "ada", "position", 46)[1], "p1")
    refused("not_your_turn", zamek.apply, state, vote("p2", "bo", "choice", "put_back")[1], "p2")
    refused("not_joined", zamek.apply, state, vote("p1", "zed", "choice", "put_back")[1], "p1")
    refused("vote_open", zamek.apply, teams_table(), card(4, 20)[1], "referee")
    refused("no_votes", zamek.apply, teams_table(), {"type": "close_vote"}, "referee")


def test_a_teams_votes_are_secret_until_decided():
    state = play(teams_table(), vote("p1", "ada", "position", 5), vote("p1", "bea", "position", 9))
    own = zamek.view(state, "p1")["vote"]
    assert own["ballots"] == [{"name": "Ada", "value": 5}, {"name": "Bea", "value": 9}]
    for viewer in ("p2", "viewer", "referee"):
        shown = zamek.view(state, viewer)
        assert shown["vote"] == {"seat": "p1", "stage": "position", "voted": 2, "members": 3}
        assert all("voted" not in m for p in shown["players"] for m in p["members"])
        assert '"value"' not in json.dumps(shown)
    history = str(zamek.describe(teams_table(), *vote("p1", "ada", "position", 5)[::-1]))
    assert "5" not in history and history == "Ada of Red voted."
    decided = play(state, vote("p1", "cy", "position", 9))
    for viewer in ("p2", "viewer", "referee"):
        assert (
            zamek.view(decided, viewer)["chosen_position"] == 9
            and zamek.view(decided, viewer)["vote"] is None
        )


def test_a_member_who_leaves_no_longer_holds_up_the_vote():
    state = play(teams_table(), vote("p1", "ada", "position", 5), vote("p1", "bea", "position", 5))
    left = play(state, ("p1", {"type": "leave", "member": "cy"}))
    assert left["chosen_position"] == 5
    taken_out = play(state, ("referee", {"type": "leave", "seat": "p1", "index": 2}))
    assert taken_out == left
    refused("not_joined", zamek.apply, state, {"type": "leave", "seat": "p1", "index": 3}, "referee")
    alone = play(
        teams_table(),
        ("p2", {"type": "leave", "member": "bo"}),
        vote("p1", "ada", "position", 4),
        vote("p1", "bea", "position", 4),
        vote("p1", "cy", "position", 4),
        card(4, 20),
    )
    alone = play(
        alone, *[vote("p1", m, "choice", "add") for m in ("ada", "bea", "cy")], card(8, 30), choose("add")
    )
    assert alone["castles"]["p2"] == [1, 30]


def test_a_captain_who_leaves_hands_over_to_the_next_member():
    state = play(teams_table(), ("p1", {"type": "leave", "member": "ada"}))
    assert zamek.view(state, "viewer")["players"][0]["members"][0] == {"name": "Bea", "captain": True}


# --- No view reveals where a seen card lies -------------------------------------------------


def _moved(state: dict, rng: random.Random) -> dict:
    """The same game with every remembered card, and the face-up one, at other face-down positions."""
    moved = copy.deepcopy(state)
    secret = {int(p) for p in state["seen"]} | ({state["card"]["position"]} if state["card"] else set())
    new_place = dict(zip(sorted(secret), rng.sample(state["table"], len(secret)), strict=True))
    moved["seen"] = {str(new_place[int(p)]): n for p, n in state["seen"].items()}
    if moved["card"]:
        moved["card"]["position"] = new_place[state["card"]["position"]]
    return moved


def test_no_view_says_where_a_seen_card_lies():
    state = play(
        table(("Ola", "Kuba", "Ala"), teams=True, variant="extended"), card(44, 23), choose("put_back")
    )
    assert state["seen"] == {"44": 23}
    for viewer in VIEWERS:
        text = json.dumps(zamek.view(state, viewer))
        assert "44" in text  # still face down among the positions...
        shown = zamek.view(state, viewer)
        assert (
            shown["positions"] == list(range(1, 46)) and 23 not in shown["unseen"]
        )  # ...but nothing links them
    assert "44" not in str(zamek.describe(table(), *card(44, 23)[::-1]))
    assert "44" not in str(zamek.describe(play(table(), card(44, 23)), *choose("put_back")[::-1]))
    face_up = play(state, card(12, 30))
    assert all("position" not in json.dumps(zamek.view(face_up, v)["card"], default=str) for v in VIEWERS)


# --- Random games through the table protocol ------------------------------------------------


def conserved(state: dict) -> bool:
    """All 45 cards are on the table, in a castle or in the box, each once; remembered ones lie face down."""
    in_castles = [n for castle in state["castles"].values() for n in castle[1:]]
    known = in_castles + state["box"] + list(state["seen"].values())
    return (
        len(state["table"]) + len(in_castles) + len(state["box"]) == 45
        and len(known) == len(set(known))
        and {int(p) for p in state["seen"]} <= set(state["table"])
    )


@pytest.mark.parametrize("teams", [False, True])
@pytest.mark.parametrize(
    "options", [{"variant": "basic"}, {"variant": "extended"}, {"variant": "extended", "stop_at_ten": True}]
)
@pytest.mark.parametrize("seed", range(4))
def test_random_games_conserve_every_card_and_end(options, teams, seed):
    rng = random.Random(seed)
    players = ["Ola", "Kuba", "Ala", "Ewa"][: 2 + seed % 3]
    state = zamek.new_table({"players": players, "teams": teams, **options}, seed)
    ended_here = False
    for _ in range(3000):
        step = zamek.random_legal_action(state, rng)
        if step is None:
            break
        actor, action = step
        ended_here = action["type"] == "end"
        before = copy.deepcopy(state)
        assert zamek.describe(state, action, actor)
        after = zamek.apply(state, action, actor)
        assert state == before
        state = after
        assert conserved(state) and json.loads(json.dumps(state)) == state
        if rng.random() < 0.1:
            moved = _moved(state, rng)
            for viewer in ("referee", "viewer", "p1", *state["members"]):
                assert zamek.view(state, viewer) == zamek.view(moved, viewer)
    assert state["over"]
    if options["variant"] == "extended" and not options.get("stop_at_ten") and not ended_here:
        assert state["table"] == []
    if options["variant"] == "basic" and state["decided_by"] == "ten":
        assert len(state["castles"][state["winner"]]) == 10


def test_a_phone_sees_only_its_own_name_captaincy_and_ballot():
    state = table(teams=True)
    state = play(
        state,
        ("p1", {"type": "join", "member": "m-ala", "member_name": "Ala"}),
        ("p1", {"type": "join", "member": "m-bea", "member_name": "Bea"}),
    )
    assert zamek.phone_view(state, "p1", "m-ala") == {
        "name": "Ala",
        "captain": True,
        "ballot": None,
        "outvoted": None,
    }
    state = play(state, vote("p1", "m-bea", "position", 12))
    assert zamek.phone_view(state, "p1", "m-bea") == {
        "name": "Bea",
        "captain": False,
        "ballot": 12,
        "outvoted": None,
    }
    assert zamek.phone_view(state, "p2", "m-bea") is None  # not a member of that team
    assert zamek.phone_view(state, "p1", "m-nobody") is None
    assert zamek.phone_view(state, "p1", None) is None


def _containers(value, skip=()):
    """Every dict and list inside ``value`` (itself included), by identity, except under the keys in ``skip``."""
    found = {}
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found[id(item)] = item
            stack.extend(inner for key, inner in item.items() if key not in skip)
        elif isinstance(item, list):
            found[id(item)] = item
            stack.extend(item)
    return found


@pytest.mark.parametrize(
    "options",
    [
        {"players": ["Ola", "Kuba", "Ada"], "variant": "extended"},
        {"players": ["Red", "Blue"], "variant": "extended", "teams": True},
    ],
)
def test_apply_leaves_every_earlier_state_as_it_was_and_shares_only_what_no_move_changes(options):
    """``apply`` copies only the containers a move changes in place (the table, the cards seen, the
    ballots, each team's members) and shares the rest, which moves replace whole: every state of a
    game, kept as the store keeps them, is still what it was once the game has moved on."""
    rng = random.Random(15)
    state = zamek.new_table(options, seed=15)
    kept = []
    for _ in range(200):
        move = zamek.random_legal_action(state, rng)
        if move is None:
            break
        kept.append((state, json.dumps(state, sort_keys=True)))
        after = zamek.apply(state, move[1], move[0])
        assert after == zamek.apply(copy.deepcopy(state), move[1], move[0])
        assert after["deck"] is state["deck"]
        changed_in_place = [after["table"], after["seen"], after["ballots"], *after["members"].values()]
        assert not {id(item) for item in changed_in_place} & _containers(state).keys()
        state = after
    assert state["over"] or len(state["box"]) + sum(map(len, state["castles"].values())) > 10
    assert all(json.dumps(earlier, sort_keys=True) == text for earlier, text in kept)


def test_threads_starting_at_once_all_know_the_shipped_deck():
    """A fresh worker's first Zamek pages, drawn by several threads at once, all read the shipped
    deck (it was read lazily, and a thread holding another copy than the one checked was refused)."""
    import threading

    lazy = [value for value in vars(zamek).values() if callable(getattr(value, "cache_clear", None))]
    for _ in range(20):
        for cached in lazy:  # as in a fresh process: nothing read yet
            cached.cache_clear()
        start, failures = threading.Barrier(8), []

        def first_page(start=start, failures=failures):
            start.wait()
            try:
                assert zamek.default_deck()["id"] == zamek.SHIPPED_DECK_ID
            except Exception as error:  # noqa: BLE001 - what the test reports
                failures.append(error)

        threads = [threading.Thread(target=first_page) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
