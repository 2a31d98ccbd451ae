"""Who began: each game's ``first_player(state)`` names, by its place in ``result``'s list of players,
the player the rules (shared/rules/<game>.md) have begin, in a first table and in its rematch."""

from __future__ import annotations

import random

import pytest

from companion.rules import castle, fort, forteresse, scorepad, tactics, zamek
from companion.rules.errors import RuleError
from tests.rules.test_all_games import OPTIONS, TABLE_MODULES


def _ended(rules, options, seed=3):
    """A table of these options played to its end by random legal moves (the score pad: 3 rounds)."""
    state, rng = rules.new_table(options, seed), random.Random(seed)
    for _ in range(3000):
        move = rules.random_legal_action(state, rng)
        if move is None or (rules is scorepad and len(state["rounds"]) == 3):
            return state
        state = rules.apply(state, move[1], move[0])
    raise AssertionError("the game did not end")


def _first_turn(rules, options, seed=3) -> str:
    """The seat whose turn the game's first turn is, as its rules play it."""
    state, rng = rules.new_table(options, seed), random.Random(seed)
    while state["turn"] is None:
        actor, action = rules.random_legal_action(state, rng)
        state = rules.apply(state, action, actor)
    return state["turn"]


def _began(rules, state) -> str:
    """The name of who began, as the play will say it."""
    return rules.result(state, True)["players"][rules.first_player(state)]["name"]


@pytest.mark.parametrize(("dealer", "first"), [("N", "E"), ("E", "S"), ("W", "N")])
def test_castle_begins_at_the_dealers_left_and_the_rematch_one_seat_on(dealer, first):
    names = {"N": "Nina", "E": "Emil", "S": "Sara", "W": "Wit"}
    options = {"players": 4, "dealer": dealer, "names": names}
    state = _ended(castle, options)
    assert _first_turn(castle, options) == first, "the rules' first turn is the dealer's left"
    assert _began(castle, state) == names[first]
    again = _ended(castle, castle.rematch_options(options, state))
    assert _began(castle, again) == names[castle.SEAT_ORDER[4][(castle.SEAT_ORDER[4].index(first) + 1) % 4]]


def test_castle_with_two_begins_with_the_dealers_opponent():
    options = {"players": 2, "dealer": "S", "names": {"N": "Nina", "S": "Sara"}}
    state = _ended(castle, options)
    assert _began(castle, state) == "Nina"
    assert _began(castle, _ended(castle, castle.rematch_options(options, state))) == "Sara"


@pytest.mark.parametrize(("first", "name", "next_name"), [("a", "Ola", "Kuba"), ("b", "Kuba", "Ola")])
def test_forteresse_begins_with_round_ones_first_shot_and_the_rematch_with_the_other(first, name, next_name):
    options = {"mode": "paper", "first": first, "names": {"a": "Ola", "b": "Kuba"}}
    state = _ended(forteresse, options)
    assert _began(forteresse, state) == name
    assert _began(forteresse, _ended(forteresse, forteresse.rematch_options(options, state))) == next_name


def test_forteresse_a_drawn_first_shot_is_who_began():
    state = _ended(forteresse, {"mode": "phones", "first": "random", "names": {"a": "Ola", "b": "Kuba"}}, 9)
    assert _began(forteresse, state) == {"a": "Ola", "b": "Kuba"}[state["rounds"][0]["first"]]


@pytest.mark.parametrize("players", [2, 4])
def test_fort_begins_with_the_first_player_of_the_start_form_in_every_game(players):
    options = {"players": players, "names": ["Ola", "Kuba", "Ada", "Jan"][:players]}
    assert fort.new_table(options, 3)["names"][_first_turn(fort, options)] == "Ola"
    state = _ended(fort, options)
    assert _began(fort, state) == "Ola"
    assert _began(fort, _ended(fort, fort.rematch_options(options, state))) == "Ola"


@pytest.mark.parametrize("options", OPTIONS["zamek"])
def test_zamek_begins_with_the_first_castle_of_the_start_form_in_every_game(options):
    fresh = zamek.new_table(options, 3)
    first = next(player["name"] for player in fresh["players"] if player["seat"] == fresh["turn"])
    state = _ended(zamek, options)
    assert _began(zamek, state) == first == zamek.result(state, True)["players"][0]["name"]
    assert _began(zamek, _ended(zamek, zamek.rematch_options(options, state))) == first


@pytest.mark.parametrize("options", OPTIONS["tactics"])
def test_tactics_the_match_began_with_its_first_games_drawn_starter(options):
    for seed in range(4):
        fresh = tactics.new_table({**options, "seed": seed}, seed)
        state = _ended(tactics, {**options, "seed": seed}, seed)
        assert _began(tactics, state) == fresh["names"][fresh["starter"]]
        assert state["results"][0]["starter"] == fresh["starter"], "the match's first game, not its last"
        again = tactics.rematch_options({**options, "seed": seed}, state)
        assert "seed" not in again, "the rematch draws its starter again"


def test_the_score_pad_begins_with_whom_the_referee_named_whatever_the_capitals():
    options = {"players": ["Ola", "Kuba", "Ada"], "first": "  kuBA "}
    state = _ended(scorepad, options)
    assert _began(scorepad, state) == "Kuba"
    assert _began(scorepad, _ended(scorepad, scorepad.rematch_options(options, state))) == "Kuba"


@pytest.mark.parametrize("first", [None, "", "   "])
def test_the_score_pad_started_without_who_begins_does_not_know(first):
    state = scorepad.new_table({"players": ["Ola", "Kuba"], "first": first}, 1)
    assert scorepad.first_player(state) is None


def test_the_score_pad_refuses_a_first_player_who_is_not_playing():
    with pytest.raises(RuleError) as refused:
        scorepad.new_table({"players": ["Ola", "Kuba"], "first": "Ada"}, 1)
    assert refused.value.code == "bad_first" and refused.value.field == "first"


@pytest.mark.parametrize(
    "name,options", [(name, options) for name in TABLE_MODULES for options in OPTIONS[name]]
)
def test_every_game_names_a_player_of_its_result(name, options):
    rules = TABLE_MODULES[name]
    state = _ended(rules, options)
    first = rules.first_player(state)
    assert first is None if name == "scorepad" else 0 <= first < len(rules.result(state, True)["players"])
