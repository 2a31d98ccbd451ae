"""Castle's rules module: values, placements, colours, turns, scoring, the API and the table."""

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import castle
from companion.rules.cards import deck, parse
from companion.rules.errors import RuleError

# Columns A-D, rows 1-3. Values (worked out by hand):
#   A1 2S 0   B1 6D 5   C1 4C 5   D1 KS 13
#   A2 5H 4   B2 10H 12 C2 9S 7   D2 AD -2
#   A3 3C 1   B3 7H 8   C3 8D 7   D3 JC 9
BASE = {
    "A1": "2S", "A2": "5H", "A3": "3C",
    "B1": "6D", "B2": "10H", "B3": "7H",
    "C1": "4C", "C2": "9S", "C3": "8D",
    "D1": "KS", "D2": "AD", "D3": "JC",
}  # fmt: skip
BASE_VALUES = {
    "A1": 0, "A2": 4, "A3": 1, "B1": 5, "B2": 12, "B3": 8,
    "C1": 5, "C2": 7, "C3": 7, "D1": 13, "D2": -2, "D3": 9,
}  # fmt: skip


def tops(**changes):
    """The base castle's top cards, with some piles changed."""
    return {pile: parse(name) for pile, name in {**BASE, **changes}.items()}


def refused(call, *args):
    """The RuleError raised by ``call(*args)``."""
    with pytest.raises(RuleError) as error:
        call(*args)
    return error.value


# --- The castle and its values ------------------------------------------------------


def test_piles_are_named_column_then_row():
    assert castle.PILES == ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3", "D1", "D2", "D3")


def test_corners_have_two_neighbours_edges_three_and_the_inner_piles_four():
    counts = {pile: len(castle.neighbours(pile)) for pile in castle.PILES}
    assert {pile for pile, count in counts.items() if count == 2} == {"A1", "A3", "D1", "D3"}
    assert {pile for pile, count in counts.items() if count == 4} == {"B2", "C2"}
    assert {pile for pile, count in counts.items() if count == 3} == {"A2", "B1", "B3", "C1", "C3", "D2"}
    assert castle.neighbours("B2") == ("A2", "B1", "B3", "C2")
    assert castle.neighbours("d3") == ("C3", "D2")


def test_neighbours_are_mutual():
    for pile in castle.PILES:
        assert all(pile in castle.neighbours(near) for near in castle.neighbours(pile))


def test_the_sources_example_a_red_10_with_three_red_and_one_black_neighbour_is_12():
    assert castle.pile_value(tops(), "B2") == 12


def test_every_value_of_the_base_castle():
    assert castle.values(tops()) == BASE_VALUES


def test_a_corner_with_both_neighbours_of_its_colour_gains_two():
    assert castle.pile_value(tops(A1="2H"), "A1") == 4
    assert castle.pile_value(tops(A2="5S", B1="6C"), "A1") == 4


def test_a_corner_with_one_of_each_is_its_own_value():
    assert castle.pile_value(tops(B1="6C"), "A1") == 2


def test_an_edge_pile_counts_three_neighbours():
    assert castle.pile_value(tops(), "A2") == 5 - 1 - 1 + 1
    assert castle.pile_value(tops(A1="2H", A3="3D"), "A2") == 5 + 3


def test_an_inner_pile_ranges_from_minus_3_to_17():
    lowest = tops(B2="AH", A2="5S", B1="6C", B3="7S", C2="9C")
    assert castle.pile_value(lowest, "B2") == -3
    highest = tops(C2="KC", B2="10S", C3="8C", D2="AC")
    assert castle.pile_value(highest, "C2") == 17


def test_the_help_pages_worked_example():
    grid = {
        "A1": "4C", "B1": "8D", "C1": "JS", "D1": "2S",
        "A2": "2H", "B2": "9H", "C2": "5C", "D2": "3S",
        "A3": "10C", "B3": "6S", "C3": "7D", "D3": "AH",
    }  # fmt: skip
    answer = castle.api_values({"castle": grid, "card": "QH"})
    assert (answer["values"]["B2"], answer["values"]["C2"]) == (9, 5)
    assert "C2" in answer["legal"]
    assert "C2" not in castle.api_values({"castle": grid, "card": "5D"})["legal"]
    assert castle.api_values({"castle": grid | {"C2": "QH"}})["values"]["B2"] == 11


def test_a_value_changes_when_a_neighbouring_top_changes():
    before = castle.pile_value(tops(), "B2")
    assert castle.pile_value(tops(C2="9D"), "B2") == before + 2
    assert castle.pile_value(tops(D2="AS"), "B2") == before  # not a neighbour


# --- Placements -----------------------------------------------------------------------


def test_a_card_may_always_go_on_a_pile_of_its_colour():
    assert castle.refusal(tops(), parse("2C"), "D1") is None  # a black 2 on a black king worth 13
    assert castle.refusal(tops(), parse("AH"), "B2") is None


def test_taking_a_pile_of_the_other_colour_needs_strictly_more_than_its_value():
    position = tops(B2="9D")  # 9 + 3 red - 1 black = 11
    assert castle.pile_value(position, "B2") == 11
    assert castle.refusal(position, parse("QS"), "B2") is None
    assert str(castle.refusal(position, parse("JS"), "B2")) == "A black jack needs more than this pile's 11."
    assert str(castle.refusal(position, parse("9C"), "B2")) == "A black 9 needs more than this pile's 11."


def test_equal_is_not_enough_at_the_boundary_on_an_edge():
    assert castle.refusal(tops(), parse("9C"), "B3") is None  # 9 > 8
    assert str(castle.refusal(tops(), parse("8S"), "B3")) == "A black 8 needs more than this pile's 8."


def test_a_pile_worth_less_than_one_can_be_taken_by_an_ace():
    assert castle.refusal(tops(), parse("AS"), "D2") is None  # the red ace at D2 is worth -2
    assert str(castle.refusal(tops(), parse("AH"), "A3")) == "A red ace needs more than this pile's 1."


def test_legal_piles_are_sorted_and_each_other_pile_has_its_reason():
    card = parse("QS")
    assert castle.legal_piles(tops(), card) == [pile for pile in castle.PILES if pile != "B2"]
    reasons = castle.placements(tops(), card)
    assert str(reasons["B2"]) == "A black queen needs more than this pile's 12."
    assert [pile for pile, reason in reasons.items() if reason] == ["B2"]


def test_check_placement_raises_the_reason():
    error = refused(castle.check_placement, tops(), parse("8S"), "B3")
    assert (error.code, error.message, error.field) == (
        "illegal_placement",
        "A black 8 needs more than this pile's 8.",
        "pile",
    )


@pytest.mark.parametrize("name", ["E1", "A4", "A0", "AA", "", "B22", 3, None])
def test_a_pile_outside_a1_d3_is_refused(name):
    assert refused(castle.parse_pile, name, "pile").code == "unknown_pile"


def test_pile_names_are_read_in_any_case():
    assert castle.parse_pile(" b2 ") == "B2"


# --- Scoring --------------------------------------------------------------------------


def test_card_points():
    assert [castle.card_points(parse(name)) for name in ("AS", "KS", "QS", "JS", "10S", "2S")] == [
        9, 4, 3, 2, 1, 1,
    ]  # fmt: skip


def test_each_colour_holds_54_points():
    for colour in ("red", "black"):
        assert sum(castle.card_points(card) for card in deck() if card.colour == colour) == 54


def score_body(**piles):
    return {"piles": {pile: [name] for pile, name in BASE.items()} | piles}


def test_a_team_scores_the_opposing_cards_under_its_tops_and_its_pass_taken_cards():
    body = score_body(B2=["QS", "AS", "10H"], D1=["KH", "JD", "KS"])
    assert castle.api_score(body) == {"scores": {"red": 12, "black": 6}, "winner": "red"}
    body["taken"] = {"red": ["KC", "3H"], "black": ["2H"]}
    assert castle.api_score(body) == {"scores": {"red": 16, "black": 7}, "winner": "red"}


def test_own_colour_cards_score_nothing_and_equal_scores_draw():
    assert castle.api_score(score_body()) == {"scores": {"red": 0, "black": 0}, "winner": None}
    body = score_body(B2=["AS", "10H"], D1=["AH", "KS"])
    assert castle.api_score(body) == {"scores": {"red": 9, "black": 9}, "winner": None}


def test_a_team_holding_every_opposing_card_scores_54():
    blacks = [str(card) for card in deck() if card.colour == "black"]
    reds = [str(card) for card in deck() if card.colour == "red"]
    piles = {"A1": [*blacks, reds[0]]} | {
        pile: [red] for pile, red in zip(castle.PILES[1:], reds[1:], strict=False)
    }
    assert castle.api_score({"piles": piles}) == {"scores": {"red": 54, "black": 0}, "winner": "red"}


def test_taken_is_optional_and_may_name_one_colour_only():
    body = score_body(B2=["QS", "10H"])
    assert castle.api_score(body | {"taken": None})["scores"] == {"red": 3, "black": 0}
    assert castle.api_score(body | {"taken": {"black": ["AH"]}})["scores"] == {"red": 3, "black": 9}


# --- API: values ----------------------------------------------------------------------


def test_api_values_gives_all_twelve_values_and_no_legal_without_a_card():
    answer = castle.api_values({"castle": BASE})
    assert answer == {"values": BASE_VALUES}
    assert list(answer["values"]) == list(castle.PILES)


def test_api_values_lists_the_legal_piles_sorted_for_a_card():
    answer = castle.api_values({"castle": BASE, "card": "q♠"})
    assert answer["legal"] == ["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3", "D1", "D2", "D3"]
    assert castle.api_values({"castle": BASE, "card": None}) == {"values": BASE_VALUES}


def test_api_values_reads_any_spelling_and_any_order_of_piles():
    shuffled = dict(
        reversed([(pile.lower(), name.lower().replace("10", "t")) for pile, name in BASE.items()])
    )
    assert castle.api_values({"castle": shuffled, "card": "7s"}) == castle.api_values(
        {"castle": BASE, "card": "7S"}
    )


def test_api_values_refuses_a_card_already_on_the_castle():
    error = refused(castle.api_values, {"castle": BASE, "card": "th"})
    assert (error.code, error.field) == ("card_elsewhere", "card")
    assert "already elsewhere (on B2)" in error.message


def without(mapping, key):
    return {k: v for k, v in mapping.items() if k != key}


VALUES_JUNK = [
    ([], "wrong_type", None),
    ("castle", "wrong_type", None),
    (None, "wrong_type", None),
    (42, "wrong_type", None),
    ({}, "missing_field", "castle"),
    ({"castle": None}, "missing_field", "castle"),
    ({"castle": []}, "wrong_type", "castle"),
    ({"castle": "A1 2S"}, "wrong_type", "castle"),
    ({"castle": {}}, "castle_size", "castle"),
    ({"castle": without(BASE, "D3")}, "castle_size", "castle"),
    ({"castle": BASE | {"E1": "2H"}}, "unknown_pile", "castle.E1"),
    ({"castle": BASE | {"a1": "2H"}}, "duplicate_pile", "castle.a1"),
    ({"castle": BASE | {"A1": 7}}, "wrong_type", "castle.A1"),
    ({"castle": BASE | {"A1": ["2S"]}}, "wrong_type", "castle.A1"),
    ({"castle": BASE | {"A1": "ZZ"}}, "unknown_card", "castle.A1"),
    ({"castle": BASE | {"A1": "10H"}}, "card_elsewhere", "castle.B2"),
    ({"castle": BASE, "card": 12}, "wrong_type", "card"),
    ({"castle": BASE, "card": ["QS"]}, "wrong_type", "card"),
    ({"castle": BASE, "card": "XX"}, "unknown_card", "card"),
    ({"castle": BASE, "card": "ks"}, "card_elsewhere", "card"),
]


@pytest.mark.parametrize(("body", "code", "field"), VALUES_JUNK)
def test_api_values_refuses_junk_with_a_code_and_a_field(body, code, field):
    before = copy.deepcopy(body)
    error = refused(castle.api_values, body)
    assert (error.code, error.field) == (code, field)
    assert error.message.endswith(".")
    assert body == before


# --- API: score -----------------------------------------------------------------------

PILES_BODY = {pile: [name] for pile, name in BASE.items()}

SCORE_JUNK = [
    ([], "wrong_type", None),
    ("piles", "wrong_type", None),
    ({}, "missing_field", "piles"),
    ({"piles": "A1"}, "wrong_type", "piles"),
    ({"piles": BASE}, "wrong_type", "piles.A1"),
    ({"piles": without(PILES_BODY, "C2")}, "castle_size", "piles"),
    ({"piles": PILES_BODY | {"Z9": ["2H"]}}, "unknown_pile", "piles.Z9"),
    ({"piles": PILES_BODY | {"A1": []}}, "empty_pile", "piles.A1"),
    ({"piles": PILES_BODY | {"A1": [3]}}, "wrong_type", "piles.A1[0]"),
    ({"piles": PILES_BODY | {"A1": ["QS", "nope"]}}, "unknown_card", "piles.A1[1]"),
    ({"piles": PILES_BODY | {"A1": ["QS", "2S", "Q♠"]}}, "card_elsewhere", "piles.A1[2]"),
    ({"piles": PILES_BODY | {"A1": ["5H", "2S"]}}, "card_elsewhere", "piles.A2[0]"),
    ({"piles": PILES_BODY, "taken": []}, "wrong_type", "taken"),
    ({"piles": PILES_BODY, "taken": "red"}, "wrong_type", "taken"),
    ({"piles": PILES_BODY, "taken": {"green": []}}, "unknown_colour", "taken.green"),
    ({"piles": PILES_BODY, "taken": {"red": "KS"}}, "wrong_type", "taken.red"),
    ({"piles": PILES_BODY, "taken": {"red": [None]}}, "wrong_type", "taken.red[0]"),
    ({"piles": PILES_BODY, "taken": {"red": ["2s"]}}, "card_elsewhere", "taken.red[0]"),
    ({"piles": PILES_BODY, "taken": {"red": ["QH"], "black": ["QH"]}}, "card_elsewhere", "taken.black[0]"),
]


@pytest.mark.parametrize(("body", "code", "field"), SCORE_JUNK)
def test_api_score_refuses_junk_with_a_code_and_a_field(body, code, field):
    before = copy.deepcopy(body)
    error = refused(castle.api_score, body)
    assert (error.code, error.field) == (code, field)
    assert error.message.endswith(".")
    assert body == before


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(junk=JSON, card=JSON, pile=st.sampled_from(castle.PILES))
def test_api_functions_raise_only_rule_errors_whatever_the_body(junk, card, pile):
    bodies = [
        junk,
        {"castle": junk},
        {"castle": BASE, "card": card},
        {"castle": BASE | {pile: junk}},
        {"piles": junk},
        {"piles": PILES_BODY | {pile: junk}},
        {"piles": PILES_BODY, "taken": junk},
        {"piles": PILES_BODY, "taken": {"red": junk}},
    ]
    for body in bodies:
        for call in (castle.api_values, castle.api_score):
            try:
                json.dumps(call(body))
            except RuleError as error:
                assert error.code and error.message


# --- The table ------------------------------------------------------------------------


def dealt(players=4, dealer="N", castle_cards=BASE):
    """A table just dealt."""
    state = castle.new_table({"players": players, "dealer": dealer}, seed=1)
    return castle.apply(state, {"type": "deal", "castle": castle_cards}, "referee")


def play(state, card, pile, **extra):
    return castle.apply(state, {"type": "play", "card": card, "pile": pile, **extra}, "referee")


def pass_turn(state, taken, **extra):
    return castle.apply(state, {"type": "pass", "taken": taken, **extra}, "referee")


def test_a_castle_table_has_no_secret_seats():
    assert castle.SEATS == ()
    assert castle.seats({"players": 4, "dealer": "E"}) == []
    assert castle.seats({"players": 2}) == []


def test_a_new_table_waits_for_the_deal():
    state = castle.new_table({}, seed=9)
    assert state["players"] == 4 and state["dealer"] == "N" and state["seed"] == 9
    assert state["phase"] == "deal" and state["turn"] is None
    assert castle.view(state, "viewer")["piles"] == {}
    assert json.loads(json.dumps(state)) == state


def test_names_label_the_seats_and_the_teams():
    state = castle.new_table({"names": {"N": " Ada ", "S": "Bo", "E": ""}}, seed=1)
    seen = castle.view(state, "referee")
    assert [seat["name"] for seat in seen["seats"]] == ["Ada", "East", "Bo", "West"]
    assert seen["teams"]["NS"]["name"] == "Ada & Bo"


@pytest.mark.parametrize(
    ("options", "code", "field"),
    [
        ([], "wrong_type", "options"),
        ({"players": 3}, "bad_players", "players"),
        ({"players": "4"}, "bad_players", "players"),
        ({"players": 4.0}, "bad_players", "players"),
        ({"players": True}, "bad_players", "players"),
        ({"dealer": "X"}, "unknown_seat", "dealer"),
        ({"players": 2, "dealer": "E"}, "unknown_seat", "dealer"),
        ({"dealer": ["N"]}, "unknown_seat", "dealer"),
        ({"names": ["Ada"]}, "wrong_type", "names"),
        ({"names": {"Z": "Ada"}}, "unknown_seat", "names.Z"),
        ({"players": 2, "names": {"E": "Ada"}}, "unknown_seat", "names.E"),
        ({"names": {"N": 5}}, "bad_name", "names.N"),
        ({"names": {"N": "x" * 41}}, "bad_name", "names.N"),
    ],
)
def test_bad_options_are_refused(options, code, field):
    error = refused(castle.new_table, options, 1)
    assert (error.code, error.field) == (code, field)
    assert refused(castle.seats, options).code == code


def test_the_deal_lays_out_the_castle_and_the_player_left_of_the_dealer_opens():
    state = dealt(dealer="W")
    assert state["piles"] == {pile: [name] for pile, name in BASE.items()}
    assert state["turn"] == "N"
    assert state["hands"] == {"N": 10, "E": 10, "S": 10, "W": 10}
    assert state["to_deal"] == 0
    seen = castle.view(state, "viewer")
    assert seen["piles"]["B2"] == {"top": "10H", "height": 1, "value": 12, "colour": "red"}
    assert {pile: pile_view["value"] for pile, pile_view in seen["piles"].items()} == BASE_VALUES


def test_play_goes_clockwise_and_partners_sit_opposite():
    state = dealt(dealer="S")
    order = []
    for card in ("2H", "3H", "4H", "5D", "6H"):
        order.append(state["turn"])
        state = play(state, card, "B2")
    assert order == ["W", "N", "E", "S", "W"]
    assert castle.TEAMS[4] == {"NS": ("N", "S"), "EW": ("E", "W")}


def test_a_play_puts_the_card_on_top_and_changes_the_values_around():
    state = play(dealt(), "QS", "C3")  # the black queen beats the red 8 worth 7
    seen = castle.view(state, "viewer")
    assert state["piles"]["C3"] == ["8D", "QS"]
    assert seen["piles"]["C3"] == {"top": "QS", "height": 2, "value": 12 + 1 + 1 - 1, "colour": "black"}
    assert seen["piles"]["B3"]["value"] == BASE_VALUES["B3"] - 2
    assert state["hands"]["E"] == 9 and state["turns_left"]["E"] == 9 and state["turn"] == "S"


def test_the_first_card_played_fixes_the_team_colours():
    state = dealt(dealer="N")
    assert castle.view(state, "viewer")["colours"] is None
    state = pass_turn(state, "AH")  # a pass plays no card: colours stay open
    assert state["colours"] is None
    state = play(state, "2C", "A1")  # South opens the colours with a black card
    assert state["colours"] == {"NS": "black", "EW": "red"}
    state = play(state, "3H", "B2")  # later cards change nothing
    assert state["colours"] == {"NS": "black", "EW": "red"}
    assert castle.view(state, "viewer")["teams"]["EW"]["colour"] == "red"


def test_a_pass_gives_the_card_to_the_opponent_on_the_passers_left():
    state = pass_turn(dealt(dealer="N"), "KC")  # East passes: South takes it for North & South
    assert state["taken"] == {"NS": ["KC"], "EW": []}
    state = pass_turn(state, "7D")  # South passes: West takes it
    assert state["taken"] == {"NS": ["KC"], "EW": ["7D"]}
    assert state["hands"] == {"N": 10, "E": 9, "S": 9, "W": 10}


def test_in_the_two_player_game_the_other_player_takes_a_passed_card():
    state = dealt(players=2, dealer="N")
    assert state["turn"] == "S"
    state = pass_turn(state, "KC")
    assert state["taken"] == {"N": ["KC"], "S": []}
    state = play(state, "2H", "B2")
    assert state["colours"] == {"N": "red", "S": "black"}


def play_turns(state, count, rng):
    for _ in range(count):
        actor, action = castle.random_legal_action(state, rng)
        state = castle.apply(state, action, actor)
    return state


def test_the_two_player_game_deals_the_other_20_cards_after_ten_turns_each():
    state = dealt(players=2, dealer="N")
    assert state["hands"] == {"N": 10, "S": 10} and state["to_deal"] == 20
    state = play_turns(state, 19, random.Random(3))
    assert state["hands"] == {"N": 1, "S": 0} and state["deals"] == 1
    actor, action = castle.random_legal_action(state, random.Random(4))
    assert str(castle.describe(state, action, actor)).endswith("the other 20 cards are dealt, 10 each.")
    state = castle.apply(state, action, actor)
    assert state["hands"] == {"N": 10, "S": 10} and state["to_deal"] == 0 and state["deals"] == 2
    assert state["turns_left"] == {"N": 10, "S": 10}
    assert state["turn"] == "S"  # alternation goes on: the non-dealer leads again
    state = play_turns(state, 20, random.Random(5))
    assert state["phase"] == "over"


def test_the_game_ends_after_every_turn_and_scores_the_piles_and_the_taken_cards():
    state = play_turns(dealt(), 39, random.Random(11))
    assert state["phase"] == "play" and state["turn"] == "N"
    colours = state["colours"]
    taker = "EW"  # North passes: East takes the card for East & West
    card = next(name for name in castle.unseen_cards(state) if parse(name).colour != colours[taker])
    assert str(castle.describe(state, {"type": "pass", "taken": card}, "referee")).endswith(
        "the game is over."
    )
    final = pass_turn(state, card)
    assert final["phase"] == "over" and final["turn"] is None
    piles = {pile: [parse(name) for name in cards] for pile, cards in final["piles"].items()}
    taken = {colours[team]: [parse(name) for name in cards] for team, cards in final["taken"].items()}
    without_pass = {**taken, colours[taker]: taken[colours[taker]][:-1]}
    scores = castle.view(final, "viewer")["score"]["scores"]
    assert scores == castle.score(piles, taken)
    gained = scores[colours[taker]] - castle.score(piles, without_pass)[colours[taker]]
    assert gained == castle.card_points(parse(card)) > 0


def test_the_final_score_names_the_winning_colour_and_team():
    final = play_turns(dealt(), 40, random.Random(2))
    score = castle.final_score(final)
    assert set(score) == {"scores", "winner", "teams", "winning_team", "breakdown"}
    assert score["teams"] == {team: score["scores"][colour] for team, colour in final["colours"].items()}
    if score["winner"]:
        assert final["colours"][score["winning_team"]] == score["winner"]
    assert castle.final_score(dealt()) is None


def test_a_game_of_passes_only_has_no_colours_and_is_a_draw():
    state = dealt()
    for name in castle.unseen_cards(state)[:40]:
        state = pass_turn(state, name)
    assert state["phase"] == "over" and state["colours"] is None
    assert castle.final_score(state) == {
        "scores": {"red": 0, "black": 0},
        "winner": None,
        "teams": {"NS": 0, "EW": 0},
        "winning_team": None,
        "breakdown": {
            team: {
                key: {"cards": 0, "each": each, "points": 0}
                for key, each in zip(castle.COUNTED_RANKS, (9, 4, 3, 2, 1), strict=True)
            }
            for team in ("NS", "EW")
        },
    }


def test_the_final_score_breaks_each_sides_points_down_by_captured_rank():
    final = play_turns(dealt(), 40, random.Random(2))
    score = castle.final_score(final)
    for team, colour in final["colours"].items():
        lines = score["breakdown"][team]
        assert list(lines) == ["A", "K", "Q", "J", "2-10"]
        assert sum(line["points"] for line in lines.values()) == score["teams"][team]
        held = castle.pickup({p: [parse(c) for c in cards] for p, cards in final["piles"].items()}, colour)
        held += [parse(c) for c in final["taken"][team]]
        aces = [card for card in held if card.rank == "A" and card.colour != colour]
        assert lines["A"] == {"cards": len(aces), "each": 9, "points": 9 * len(aces)}


def test_a_breakdown_counts_only_the_opposing_colour():
    held = [parse(name) for name in ("AH", "AS", "KD", "QH", "JD", "10H", "2D", "5C")]
    assert castle.score_breakdown(held, "black") == {
        "A": {"cards": 1, "each": 9, "points": 9},
        "K": {"cards": 1, "each": 4, "points": 4},
        "Q": {"cards": 1, "each": 3, "points": 3},
        "J": {"cards": 1, "each": 2, "points": 2},
        "2-10": {"cards": 2, "each": 1, "points": 2},
    }


def test_the_last_move_and_who_made_it_are_kept_for_every_screen():
    state = dealt(dealer="N")
    assert castle.view(state, "viewer")["last"] is None
    state = play(state, "2C", "A1")  # East
    assert castle.view(state, "viewer")["last"] == {"type": "play", "seat": "E", "card": "2C", "pile": "A1"}
    state = pass_turn(state, "KD")  # South passes, West takes the king
    assert castle.view(state, "viewer")["last"] == {"type": "pass", "seat": "S", "card": "KD", "taker": "W"}


def test_describe_says_the_action_in_plain_words():
    state = dealt(dealer="N")
    deal = castle.describe(castle.new_table({}, 1), {"type": "deal", "castle": BASE}, "referee")
    assert str(deal) == "North deals 10 cards each and lays out the castle."
    assert str(castle.describe(state, {"type": "play", "card": "qs", "pile": "c3"}, "referee")) == (
        "East plays the queen of spades on C3, over the 8 of diamonds. "
        "Colours from now on: North & South red, East & West black."
    )
    assert str(castle.describe(state, {"type": "pass", "taken": "7D"}, "referee")) == (
        "East passes; South takes the 7 of diamonds."
    )
    assert str(castle.describe(state, {"type": "dance"}, "referee")) == "An action the rules could not read."


def test_the_view_is_the_same_for_everyone():
    state = play(dealt(), "QS", "C3")
    assert castle.view(state, "referee") == castle.view(state, "viewer") == castle.view(state, "N")
    seen = castle.view(state, "viewer")
    assert seen["turn"] == "S" and seen["phase"] == "play"
    assert seen["seats"][1] == {"seat": "E", "name": "East", "team": "EW", "cards": 9, "turns_left": 9}
    assert seen["score"] is None


# --- Bad input at the table: the code, and nothing changed -------------------------------


def after_deal_actions():
    return [
        ({"type": "play", "card": "ZZ", "pile": "B2"}, "unknown_card", "card"),
        ({"type": "play", "card": 7, "pile": "B2"}, "wrong_type", "card"),
        ({"type": "play", "pile": "B2"}, "missing_field", "card"),
        ({"type": "play", "card": "10H", "pile": "A1"}, "card_elsewhere", "card"),
        ({"type": "play", "card": "QS", "pile": "E1"}, "unknown_pile", "pile"),
        ({"type": "play", "card": "QS", "pile": None}, "missing_field", "pile"),
        ({"type": "play", "card": "8S", "pile": "B3"}, "illegal_placement", "pile"),
        ({"type": "play", "card": "QS", "pile": "A1", "seat": "S"}, "out_of_turn", "seat"),
        ({"type": "play", "card": "QS", "pile": "A1", "seat": "X"}, "unknown_seat", "seat"),
        ({"type": "play", "card": "QS", "pile": "A1", "seat": ["E"]}, "unknown_seat", "seat"),
        ({"type": "pass", "taken": "2S"}, "card_elsewhere", "taken"),
        ({"type": "pass", "taken": "11S"}, "unknown_card", "taken"),
        ({"type": "pass"}, "missing_field", "taken"),
        ({"type": "pass", "taken": "KH", "seat": "W"}, "out_of_turn", "seat"),
        ({"type": "deal", "castle": BASE}, "already_dealt", None),
        ({"type": "dance"}, "unknown_action", "type"),
        ({}, "unknown_action", "type"),
        (["play"], "bad_action", None),
    ]


@pytest.mark.parametrize(("action", "code", "field"), after_deal_actions())
def test_bad_moves_are_refused_and_change_nothing(action, code, field):
    state = dealt()
    before = copy.deepcopy(state)
    error = refused(castle.apply, state, action, "referee")
    assert (error.code, error.field) == (code, field)
    assert state == before


def test_the_illegal_placement_says_which_value_it_had_to_beat():
    error = refused(castle.apply, dealt(), {"type": "play", "card": "8S", "pile": "B3"}, "referee")
    assert error.message == "A black 8 needs more than this pile's 8."


def test_a_card_taken_on_a_pass_is_elsewhere_too():
    state = pass_turn(dealt(), "KH")
    error = refused(castle.apply, state, {"type": "play", "card": "KH", "pile": "B2"}, "referee")
    assert error.code == "card_elsewhere" and "taken by North & South" in error.message


@pytest.mark.parametrize(
    ("castle_cards", "code", "field"),
    [
        (without(BASE, "A1"), "castle_size", "castle"),
        (BASE | {"E1": "2H"}, "unknown_pile", "castle.E1"),
        (BASE | {"A1": "10H"}, "card_elsewhere", "castle.B2"),
        (BASE | {"A1": "1S"}, "unknown_card", "castle.A1"),
        ("A1", "wrong_type", "castle"),
        (None, "missing_field", "castle"),
    ],
)
def test_a_castle_with_other_than_twelve_good_piles_is_refused(castle_cards, code, field):
    state = castle.new_table({}, seed=1)
    before = copy.deepcopy(state)
    error = refused(castle.apply, state, {"type": "deal", "castle": castle_cards}, "referee")
    assert (error.code, error.field) == (code, field)
    assert state == before


def test_nobody_plays_before_the_deal():
    state = castle.new_table({}, seed=1)
    assert refused(castle.apply, state, {"type": "pass", "taken": "2S"}, "referee").code == "not_dealt"


def test_only_the_referee_enters_moves():
    assert refused(castle.apply, dealt(), {"type": "pass", "taken": "KH"}, "E").code == "referee_only"


def test_a_player_with_no_cards_left_cannot_move():
    state = play_turns(dealt(dealer="W"), 39, random.Random(8))  # N, E and S have played their last card
    assert state["turn"] == "W" and state["hands"] == {"N": 0, "E": 0, "S": 0, "W": 1}
    card = castle.unseen_cards(state)[0]
    error = refused(castle.apply, state, {"type": "pass", "taken": card, "seat": "N"}, "referee")
    assert (error.code, error.field) == ("no_cards_left", "seat")
    final = pass_turn(state, card, seat="W")
    assert castle.unseen_cards(final) == []
    assert refused(castle.apply, final, {"type": "pass", "taken": card}, "referee").code == "no_cards_left"
    assert castle.random_legal_action(final, random.Random(1)) is None


# --- Random full games ----------------------------------------------------------------


def conserved(state):
    """Every card counted once: on the piles, taken on passes, in hands, or still to deal."""
    seen = [name for cards in state["piles"].values() for name in cards]
    seen += [name for cards in state["taken"].values() for name in cards]
    assert len(seen) == len(set(seen))
    return len(seen) + sum(state["hands"].values()) + state["to_deal"]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([4, 2]),
    dealer=st.sampled_from(["N", "S"]),
)
def test_random_games_conserve_the_deck_and_end_after_forty_turns(seed, players, dealer):
    rng = random.Random(seed)
    state = castle.new_table({"players": players, "dealer": dealer}, seed)
    turns = -1  # the deal is not a turn
    while (move := castle.random_legal_action(state, rng)) is not None:
        actor, action = move
        before, snapshot = state, copy.deepcopy(state)
        assert castle.describe(state, action, actor)
        state = castle.apply(state, action, actor)
        assert before == snapshot  # apply never mutates its input
        assert conserved(state) == 52
        assert json.loads(json.dumps(state)) == state
        assert json.loads(json.dumps(castle.view(state, "viewer"))) == castle.view(state, "viewer")
        turns += 1
    assert turns == 40
    assert state["phase"] == "over" and not any(state["hands"].values()) and state["to_deal"] == 0
    assert sum(len(cards) for cards in state["piles"].values()) + sum(map(len, state["taken"].values())) == 52
    score = castle.final_score(state)
    if state["colours"]:
        by_colour = {state["colours"][team]: cards for team, cards in state["taken"].items()}
        api = castle.api_score({"piles": state["piles"], "taken": by_colour})
        assert api == {"scores": score["scores"], "winner": score["winner"]}
        assert 0 <= score["scores"]["red"] <= 54 and 0 <= score["scores"]["black"] <= 54


# --- Added with the pages: a castle being entered, the score sheet's counts, the card picker ---


def test_read_tops_takes_a_castle_being_entered_and_refuses_a_card_twice():
    from companion.rules.cards import parse

    assert castle.read_tops({"b2": "th", "A1": " ", "C3": None}) == {"B2": parse("10H")}
    with pytest.raises(RuleError) as refused:
        castle.read_tops({"A1": "4C", "B1": "4c"})
    assert refused.value.code == "card_elsewhere" and "(on A1)" in refused.value.message
    with pytest.raises(RuleError) as refused:
        castle.read_tops({"E1": "4C"})
    assert refused.value.code == "unknown_pile"


def test_score_counts_scores_like_the_piles_do():
    full = {"A": 2, "K": 2, "Q": 2, "J": 2, "2-10": 18}
    assert castle.score_counts({"red": full, "black": {}}) == {
        "scores": {"red": 54, "black": 0},
        "winner": "red",
    }
    assert castle.score_counts({"red": {"J": 1}, "black": {"2-10": 2}})["winner"] is None
    for counts, code in [
        ({"A": 3}, "impossible_count"),
        ({"K": -1}, "bad_count"),
        ({"Z": 1}, "unknown_rank"),
    ]:
        with pytest.raises(RuleError) as refused:
            castle.score_counts({"black": counts})
        assert refused.value.code == code


def test_the_card_picker_reads_a_typed_name_first_then_rank_and_suit():
    from companion.rules.cards import from_picker

    assert str(from_picker("q♠", "2", "H")) == "QS"
    assert str(from_picker("", "10", "D")) == "10D"
    assert from_picker(None, "", "") is None
    for args, code in [
        (("", "Q", ""), "missing_suit"),
        (("", "", "H"), "missing_rank"),
        ((["QS"],), "unknown_card"),
    ]:
        with pytest.raises(RuleError) as refused:
            from_picker(*args)
        assert refused.value.code == code
