"""Every game's rules module satisfies the table protocol of companion/rules/protocol.py."""

from __future__ import annotations

import importlib
import inspect

import pytest

from companion.rules import protocol

GAMES = ["castle", "fort", "forteresse", "scorepad", "tactics", "zamek"]
ROUNDS = {"forteresse", "scorepad", "tactics"}


def _members(kind: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in vars(kind).items()
        if callable(member) and not name.startswith("_")
    } | (_members(kind.__bases__[0]) if kind is protocol.RoundRules else {})


@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_a_table_rules_module(game):
    module = importlib.import_module(f"companion.rules.{game}")
    kind = protocol.RoundRules if game in ROUNDS else protocol.TableRules
    assert isinstance(module, kind)
    for name, expected in _members(kind).items():
        wanted = [param.name for param in expected.parameters.values()][1:]  # without self
        given = [param.name for param in inspect.signature(getattr(module, name)).parameters.values()]
        assert given == wanted, f"{game}.{name}{given} differs from the protocol's {wanted}"


def test_a_module_missing_a_member_is_not_one():
    """The check can fail: a module without ``apply`` does not satisfy the protocol."""
    from types import SimpleNamespace

    castle = importlib.import_module("companion.rules.castle")
    partial = SimpleNamespace(
        **{name: getattr(castle, name) for name in _members(protocol.TableRules) if name != "apply"}
    )
    assert not isinstance(partial, protocol.TableRules)
