"""The registry of games: each game's web module declares itself with a ``GAME``.

Adding a game means adding files (its rules module, its views module with a ``GAME`` and
a blueprint ``bp``, its templates, its printables), never editing a list here:
``discover(companion.web.views)`` imports every module of the pages' views and collects what they declare.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING

from companion import i18n
from companion.rules.sentences import Message
from companion.service import schemas
from companion.store import TITLE_LENGTH

if TYPE_CHECKING:
    from flask import Blueprint


@dataclass(frozen=True)
class Game:
    """What the rest of Castellan needs to know about one game (or table tool)."""

    slug: str  # URL segment and template folder: "castle"
    name: str  # "Castle"
    tagline: str  # one line for the home page
    players: str  # "2 or 4 players"
    order: int  # position on the home page
    summary: tuple[str, ...] = ()  # a few short paragraphs, in Castellan's own words
    rules: ModuleType | None = None  # a rules module with the table protocol, if tables can be played
    table_options: Callable[[dict], dict] | None = (
        None  # creation options (typed) -> options for rules.new_table
    )
    table_title: Callable[[dict], str | Message] | None = None  # options -> a short title for lists
    table_action: Callable[[dict, str], dict] | None = None  # (action form, viewer) -> action for rules.apply
    list_fields: tuple[
        str, ...
    ] = ()  # form fields sent several times (a list); every other field is one string
    options_schema: dict | None = None  # JSON schema of the creation form's fields (the API's "options")
    action_schema: dict | None = None  # JSON schema of an action rules.apply takes (the form's result too)
    commands: dict[str, tuple[str, Callable[[list[str]], int]]] = field(default_factory=dict)
    help_anchor: Callable[[dict], str] | None = (
        None  # a table's view -> its help page's section for that phase
    )
    tool: bool = False  # a general table tool rather than one of the games

    def checked_action(self, action: object) -> dict:
        """An action for ``rules.apply``, from the page's form reader or the API's JSON alike, once it
        fits the game's ``action_schema`` (``RuleError`` naming the field when it does not)."""
        if self.action_schema is not None:
            schemas.check(self.action_schema, action, "action")
        return action

    def options_from_form(self, form: dict) -> dict:
        """The start form's fields as the typed values ``table_options`` reads, the same as the API's
        JSON gives them (``schemas.from_form``: a ticked box is true)."""
        return schemas.from_form(self.options_schema, form)

    def stored_title(self, options: dict) -> str:
        """The title a new table keeps: ``table_title`` in English, unnamed seats by their stored
        default names ("Player 1 v Player 2"), as the store and the table's export give it."""
        return str(self.table_title(options))[:TITLE_LENGTH] if self.table_title else ""

    def said_title(self, title: str, options: dict) -> str:
        """A table's title in the reader's language. One that ``table_title`` made (in whichever
        language: older titles were made in their creator's) is made again, each name a parameter,
        so "Player 1 v Player 2" reads "Joueur 1 contre Joueur 2"; any other is shown as stored."""
        if not title or self.table_title is None:
            return title
        try:
            made = self.table_title(options)
        except (KeyError, TypeError, ValueError, AttributeError):  # an older table's options
            return title
        if not isinstance(made, Message) or not any(
            i18n.say(made, lang)[:TITLE_LENGTH] == title for lang in i18n.LANGUAGES
        ):
            return title
        return i18n.say(made)

    @property
    def has_tables(self) -> bool:
        """True when a table of this game can be created and played."""
        return self.rules is not None and self.table_options is not None and self.table_action is not None


@dataclass(frozen=True)
class Registry:
    """Every game and every blueprint found in ``companion.views``."""

    games: dict[str, Game]
    blueprints: list[Blueprint]

    def game_over(self, slug: str, state: dict) -> bool:
        """True when a table's game is over by its rules (an unknown game's table counts as over: kept)."""
        game = self.games.get(slug)
        return game is None or game.rules is None or game.rules.result(state, False) is not None

    def said_title(self, table) -> str:
        """A table's title as its game says it in the reader's language (``Game.said_title``)."""
        game = self.games.get(table.game)
        return game.said_title(table.title, table.options) if game else table.title

    def ordered(self) -> list[Game]:
        """Games first, then tools, each by their declared order."""
        return sorted(self.games.values(), key=lambda game: (game.tool, game.order))


def discover(package: ModuleType) -> Registry:
    """Import every module of ``package`` (the pages' views) and collect its ``GAME`` and ``bp``."""
    games: dict[str, Game] = {}
    blueprints: list[Blueprint] = []
    for module in modules_of(package):
        game = getattr(module, "GAME", None)
        if game is not None:
            if game.slug in games:
                raise RuntimeError(f"Two games declare the slug {game.slug!r}.")
            games[game.slug] = game
        blueprint = getattr(module, "bp", None)
        if blueprint is not None:
            blueprints.append(blueprint)
    return Registry(games, blueprints)


def modules_of(package: ModuleType) -> list[ModuleType]:
    """Every module of ``package``, imported in the order of their names: a game or a door adds
    itself by being a file there, never by an entry in a list."""
    names = sorted(info.name for info in pkgutil.iter_modules(package.__path__))
    return [importlib.import_module(f"{package.__name__}.{name}") for name in names]
