"""What a game's rules module provides so that tables of it can be played: the ``TableRules`` protocol.

docs/rules-modules.md explains each member; tests/rules/test_protocol.py checks that every game's
module satisfies it, names and parameters alike. A module is used as it is (``GAME.rules``): a
protocol of module-level functions and constants, not a class to inherit.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from companion.rules.sentences import Message


@runtime_checkable
class TableRules(Protocol):
    """A game's table protocol. State and actions are plain JSON data; ``apply`` never mutates its input."""

    def seats(self, options: dict) -> list[tuple[str, str]]:
        """``(seat id, label)`` of each private link a table of these options has."""

    def new_table(self, options: dict, seed: int) -> dict:
        """The first state, from the start form's options (``RuleError`` for bad ones)."""

    def rematch_options(self, options: dict, state: dict) -> dict:
        """The options of the next table of the same players, as the rules say who begins."""

    def first_player(self, state: dict) -> int | None:
        """The place, in ``result``'s list of players, of who began the game (None: nobody said)."""

    def to_move(self, state: dict) -> tuple[str, str] | None:
        """The player to move, ``(seat key, name)``, for the table clock; None when nobody is."""

    def apply(self, state: dict, action: dict, actor: str) -> dict:
        """A new state after ``actor`` (``"referee"`` or a seat id) did ``action``; ``RuleError`` if refused."""

    def describe(self, state: dict, action: dict, actor: str, after: dict | None = None) -> Message:
        """The action in the history's words; ``after`` is the state ``apply`` made of it."""

    def view(self, state: dict, viewer: str) -> dict:
        """What ``viewer`` (``"referee"``, ``"viewer"`` or a seat id) may see of the state."""

    def result(self, state: dict, finished: bool) -> dict | None:
        """The final score once the game is over (or, for a tool, once its referee finished it)."""

    def names(self, state: dict) -> list[str]:
        """The players' names as typed at the start, in seat order."""

    def play_details(self, state: dict) -> dict:
        """The game's own details kept with a finished play (never a name, only places)."""

    def random_legal_action(self, state: dict, rng: random.Random) -> tuple[str, dict] | None:
        """An ``(actor, action)`` the rules accept now, or None once the game is over."""


@runtime_checkable
class RoundRules(TableRules, Protocol):
    """A game played in rounds, whose plays chart each round's points."""

    def round_scores(self, details: dict) -> tuple[str, list[list[int]]]:
        """From a play's details: ``("round" or "game", [[points per player] per round])``."""
