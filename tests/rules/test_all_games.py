"""Every rules module that can be played at a table, played at random to the end.

For each module with the table protocol (docs/rules-modules.md): random legal games end
within a bound, states round-trip through JSON, neither ``apply`` nor ``view`` changes the
state it is given, a result reads the same from a state read back (its keys sorted, as the
store writes them), ``describe`` says the same whether or not it is given the state ``apply`` made,
every viewer's view is JSON, and a nonsense action is refused with a RuleError that changes nothing.
"""

from __future__ import annotations

import copy
import importlib
import json
import pkgutil
import random

import pytest

import companion.rules
from companion.rules.errors import RuleError
from companion.rules.sentences import Message
from companion.rules.stored_sentences import dump, load

# Options a table of each game is created with in these tests (several where variants differ).
OPTIONS = {
    "scorepad": [{"players": ["Ola", "Kuba", "Ada"]}],
    "forteresse": [{"mode": "phones", "first": "a"}, {"mode": "paper", "first": "random"}],
    "fort": [{"players": 2}, {"players": 4}],
    "tactics": [
        {"players": 2, "factions": {"p1": "wardens", "p2": "roost"}},
        {"players": 4, "factions": {"p1": "wardens", "p2": "shieldwall", "p3": "roost", "p4": "marches"}},
    ],
    "zamek": [
        {"variant": "basic", "players": ["Ola", "Kuba"]},
        {"variant": "extended", "players": ["Ola", "Kuba", "Ada", "Jan"]},
        {"variant": "extended", "players": ["Ola", "Kuba"], "teams": True},
    ],
    "castle": [{"players": 4, "dealer": "E"}, {"players": 2, "dealer": "S"}],
}
MAX_ACTIONS = 3000
GAMES_PER_OPTION = 6


def _table_modules():
    for info in pkgutil.iter_modules(companion.rules.__path__):
        module = importlib.import_module(f"companion.rules.{info.name}")
        if hasattr(module, "new_table") and hasattr(module, "apply"):
            yield info.name, module


TABLE_MODULES = dict(_table_modules())


def test_every_table_game_has_example_options_here():
    assert set(TABLE_MODULES) == set(OPTIONS)


@pytest.mark.parametrize(
    "name,options", [(name, options) for name in TABLE_MODULES for options in OPTIONS.get(name, [])]
)
def test_random_games_end_and_keep_the_protocol(name, options):
    rules = TABLE_MODULES[name]
    viewers = ["referee", "viewer"] + [seat for seat, _label in rules.seats(options)]
    for game_number in range(GAMES_PER_OPTION):
        rng = random.Random(f"{name}-{game_number}")
        state = rules.new_table(copy.deepcopy(options), rng.randrange(2**62))
        for _step in range(MAX_ACTIONS):
            assert json.loads(json.dumps(state)) == state
            seen = copy.deepcopy(state)
            for viewer in viewers:
                json.dumps(rules.view(state, viewer), default=str)  # its sentences are Messages
            assert state == seen, "view changed the state"  # the store shares decoded states
            stored = json.loads(json.dumps(state, sort_keys=True))  # as the store writes it: keys sorted
            for finished in (False, True):  # a result read back lists its sides in the same order
                assert json.dumps(rules.result(stored, finished)) == json.dumps(rules.result(state, finished))
            chosen = rules.random_legal_action(state, rng)
            if chosen is None:
                break
            actor, action = chosen
            before, frozen = state, copy.deepcopy(state)
            described = rules.describe(state, action, actor)  # a Message (or, not yet translated, a str)
            assert isinstance(described, str | Message) and str(described)
            assert str(load(dump(described))) == str(described), "the store keeps the sentence whole"
            state = rules.apply(before, action, actor)
            assert before == frozen, "apply mutated its input"
            given = rules.describe(before, action, actor, after=state)  # as the store asks, after applying
            assert dump(given) == dump(described), "describe says the same given the state after"
            _assert_refuses_nonsense(rules, state, actor)
        else:
            pytest.fail(f"{name}: a random game did not end within {MAX_ACTIONS} actions")
        _assert_keeps_a_play(rules, state, options)


def _assert_keeps_a_play(rules, state, options):
    """What the history keeps of a game that ended: its result, small JSON details, and the typed names."""
    result = rules.result(state, True)
    assert result is not None and result["players"]
    details = rules.play_details(state)
    assert isinstance(details, dict) and json.loads(json.dumps(details)) == details
    assert len(json.dumps(details)) < 4000
    typed = rules.names(rules.new_table(copy.deepcopy(options), 1))
    assert all(isinstance(name, str) and name for name in typed)
    assert set(typed) <= {player["name"] for player in result["players"]}


def _assert_refuses_nonsense(rules, state, actor):
    snapshot = copy.deepcopy(state)
    for nonsense in ({"type": "no-such-action"}, {}, {"type": None}):
        with pytest.raises(RuleError):
            rules.apply(state, nonsense, actor)
    assert state == snapshot


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_only_typed_names_are_names_to_remember(name):
    """A seat left unnamed ("North", "Player 2", "Player A") is no name to offer at the next table."""
    rules = TABLE_MODULES[name]
    typed = {"scorepad": ["Ola", "Kuba", "Ada"], "zamek": ["Ola", "Kuba"]}.get(name, [])
    assert rules.names(rules.new_table(copy.deepcopy(OPTIONS[name][0]), 1)) == typed
