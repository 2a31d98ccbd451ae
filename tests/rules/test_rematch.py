"""Rematch: each game's ``rematch_options(options, state)`` gives the next table's options, with the
seats rotated where the game's rules say who starts next (shared/rules/<game>.md)."""

from __future__ import annotations

import random

import pytest

from companion.rules import castle, fort, forteresse, scorepad, tactics, zamek
from tests.rules.test_all_games import OPTIONS, TABLE_MODULES


def _played(rules, options, seed=7, moves=40):
    """A state some random legal moves into a table of these options."""
    state, rng = rules.new_table(options, seed), random.Random(seed)
    for _ in range(moves):
        move = rules.random_legal_action(state, rng)
        if move is None:
            break
        state = rules.apply(state, move[1], move[0])
    return state


@pytest.mark.parametrize(
    "name,options", [(name, options) for name in TABLE_MODULES for options in OPTIONS[name]]
)
def test_every_game_rematches_into_a_valid_table_without_changing_the_old_options(name, options):
    rules = TABLE_MODULES[name]
    kept = repr(options)
    again = rules.rematch_options(options, _played(rules, options))
    assert repr(options) == kept
    assert rules.new_table(again, 11)  # the rules accept the next table's options


@pytest.mark.parametrize(
    ("players", "dealer", "next_dealer"), [(4, "N", "E"), (4, "W", "N"), (2, "N", "S"), (2, "S", "N")]
)
def test_castle_passes_the_deal_to_the_dealers_left(players, dealer, next_dealer):
    options = {"players": players, "dealer": dealer, "names": {"N": "Ola", "S": "Kuba"}}
    again = castle.rematch_options(options, castle.new_table(options, 1))
    assert again == {"players": players, "dealer": next_dealer, "names": {"N": "Ola", "S": "Kuba"}}


@pytest.mark.parametrize(("first", "next_first"), [("a", "b"), ("b", "a")])
def test_forteresse_gives_the_first_shot_to_the_other_player(first, next_first):
    options = {"mode": "paper", "first": first, "names": {"a": "Ola", "b": "Kuba"}}
    again = forteresse.rematch_options(options, forteresse.new_table(options, 1))
    assert again == {"mode": "paper", "first": next_first, "names": {"a": "Ola", "b": "Kuba"}}


def test_forteresse_after_a_drawn_first_shooter_names_the_other_one():
    options = {"mode": "phones", "first": "random"}
    state = forteresse.new_table(options, 5)
    drawn = state["rounds"][0]["first"]
    assert forteresse.rematch_options(options, state)["first"] == ("b" if drawn == "a" else "a")


def test_tactics_keeps_seats_and_factions_and_draws_the_starter_again():
    options = {
        "players": 2,
        "factions": {"p1": "wardens", "p2": "roost"},
        "names": {"p1": "Ola", "p2": "Kuba"},
        "seed": 3,
    }
    again = tactics.rematch_options(options, tactics.new_table(options, 1))
    assert again == {
        "players": 2,
        "factions": {"p1": "wardens", "p2": "roost"},
        "names": {"p1": "Ola", "p2": "Kuba"},
    }


@pytest.mark.parametrize(
    ("rules", "options"),
    [
        (fort, {"players": 3, "names": ["Ola", "Kuba", "Ewa"]}),
        (zamek, {"variant": "extended", "players": ["Ola", "Kuba", "Ewa"], "teams": False}),
        (scorepad, {"players": ["Ola", "Kuba"], "lowest_wins": True}),
    ],
)
def test_games_whose_rules_do_not_say_who_starts_next_keep_the_order(rules, options):
    assert rules.rematch_options(options, rules.new_table(options, 1)) == options
