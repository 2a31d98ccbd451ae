"""Zamek: a castle-building memory game for 2-4 players or teams.

Cards 2-46 lie face down; on a turn a player turns one over and adds it to the end of their
ascending castle, puts it back in its place, or sees it go to the box when no castle can use it.
Rules as implemented: shared/rules/zamek.md; the players' help page is docs/zamek.md.
"""

from __future__ import annotations

import bisect
import copy
import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from importlib import resources

from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Either, Message, then
from companion.rules.stored_sentences import dump

TILE = 1  # every castle starts with the tile 1
LOWEST, HIGHEST = 2, 46  # the numbers on the cards
CARD_COUNT = HIGHEST - LOWEST + 1
POSITIONS = tuple(range(1, CARD_COUNT + 1))  # places of the printed table layout
_NUMBERS = frozenset(range(LOWEST, HIGHEST + 1))
CASTLE_GOAL = 10  # elements, the tile included
MIN_PLAYERS, MAX_PLAYERS = 2, 4
VARIANTS = ("basic", "extended")
CHOICES = ("add", "put_back", "wizard", "box")  # "box": decline the wizard for a card that must go
FIGURES = ("king", "queen", "wizard")  # exactly one of each in a deck
GROUPS = {"knights": "knight", "princesses": "princess"}  # any number of each in a deck
POINTS = {"element": 1, "knight": 1, "princess": 1, "king": 3, "queen": 3, "pair": 1}
TIE_BREAKS = ("king", "queen", "wizard")
DEFAULT_DECK = "default"
SHIPPED_DECK_ID = "zamek-default"
DECK_FILE = "decks/zamek-default.json"
DECK_LABELS = ("id", "name", "version")
NAME_LENGTH = 40
VIEWERS = ("referee", "viewer")
SHIPPED_DECK_NAME = N_(
    "Castellan's default Zamek deck"
)  # the shipped deck's name, said in the reader's language
# How a game was won, one whole sentence each (``%(name)s``: the winner): history, table and score sheet.
WINS = {
    "ten": N_("%(name)s wins with a castle of 10 elements."),
    "longest": N_("%(name)s wins with the longest castle."),
    "score": N_("%(name)s wins on points."),
    "king": N_("%(name)s wins on a tie, holding the king."),
    "queen": N_("%(name)s wins on a tie, holding the queen."),
    "wizard": N_("%(name)s wins on a tie, holding the wizard."),
}
# The name of each picture as a word on its own (a card's picture, a legend), capitalised: "queen" alone is the
# playing card's (dama, dame), Zamek's is a queen (królowa, reine).
PICTURE_NAMES = {
    "knight": N_("Knight"),
    "princess": N_("Princess"),
    "king": N_("King"),
    "queen": N_("Queen"),
    "wizard": N_("Wizard"),
}

SEATS = ("p1", "p2", "p3", "p4")  # players, or teams when members vote from their phones
# A turn's action names the position of a card: exports show only the plain-words history.
SECRET_ACTIONS = True
# A seat's link is a whole team's: every member opens it on their own phone and joins.
TEAM_SEATS = True
# A ballot or a join does not depend on what teammates did a moment before: members tapping
# at once are judged in arrival order instead of being sent back with "the table changed".
ORDER_FREE_ACTIONS = frozenset({"vote", "join"})


# Refusals said the same way in several places, and one whole sentence per picture or stage.
_MUST_GO_TO_BOX = N_("%(number)s is lower than the end of every castle: it goes to the box.")
_FIGURE_MISSING = {
    "king": N_("A deck needs exactly one king: give its number as 'king'."),
    "queen": N_("A deck needs exactly one queen: give its number as 'queen'."),
    "wizard": N_("A deck needs exactly one wizard: give its number as 'wizard'."),
}
_FIGURE_LIST = {
    "king": N_("A deck holds exactly one king: give one number, not a list."),
    "queen": N_("A deck holds exactly one queen: give one number, not a list."),
    "wizard": N_("A deck holds exactly one wizard: give one number, not a list."),
}
_GROUP_NOT_LIST = {
    "knights": N_("A deck lists its knights as a list of numbers (it may be empty)."),
    "princesses": N_("A deck lists its princesses as a list of numbers (it may be empty)."),
}
_ALREADY_CARRIES = {
    "knight": N_("Card %(number)s already carries a knight: a card shows one picture."),
    "princess": N_("Card %(number)s already carries a princess: a card shows one picture."),
    "king": N_("Card %(number)s already carries a king: a card shows one picture."),
    "queen": N_("Card %(number)s already carries a queen: a card shows one picture."),
    "wizard": N_("Card %(number)s already carries a wizard: a card shows one picture."),
}
_WAITING_FOR = {
    None: N_("Your team is waiting for the referee to enter the card."),
    "position": N_("Your team is waiting for a vote on the position."),
    "choice": N_("Your team is waiting for a vote on the choice."),
}


# --- Decks ----------------------------------------------------------------------------------


def default_deck() -> dict:
    """The deck Castellan ships and prints (``decks/zamek-default.json``), validated."""
    return copy.deepcopy(_shipped_deck())


def parse_deck(raw: object, field: str = "deck") -> dict:
    """Read ``"default"`` or a deck definition; raise ``bad_deck`` for anything else.

    A deck holds exactly one king, queen and wizard and any number of knights and
    princesses, all numbers 2-46 and no number twice, not even under two pictures. The
    answer is canonical: ``{"id", "name", "version", "king", "queen", "wizard",
    "knights", "princesses"}`` with the lists sorted.
    """
    if raw == DEFAULT_DECK:
        return default_deck()
    if not isinstance(raw, dict):
        raise RuleError(
            "bad_deck",
            N_('A deck is "default" or an object with king, queen, wizard, knights and princesses.'),
            field,
        )
    _refuse_unknown_keys(raw, FIGURES + tuple(GROUPS) + DECK_LABELS, field)
    taken: dict[int, str] = {}
    deck = {figure: _deck_figure(raw, figure, field, taken) for figure in FIGURES}
    deck.update({group: sorted(_deck_group(raw, group, field, taken)) for group in GROUPS})
    return {**_deck_labels(raw, deck, field), **deck}


def deck_reference(deck: Mapping) -> str:
    """How printed sheets, QR codes and scores name a deck: ``"zamek-default@1"``."""
    return f"{deck['id']}@{deck['version']}"


def picture(deck: Mapping, number: int) -> str | None:
    """The picture a card shows in this deck: knight, princess, king, queen, wizard or None."""
    for figure in FIGURES:
        if deck[figure] == number:
            return figure
    for group, name in GROUPS.items():
        if number in deck[group]:
            return name
    return None


# --- Castles and the turn -------------------------------------------------------------------


def castle_end(castle: list[int]) -> int:
    """The last (highest) element of a castle."""
    return castle[-1]


def must_go_to_box(castles: Mapping[str, list[int]], number: int) -> bool:
    """True when the card is lower than the end of every castle: nobody can ever add it."""
    return all(number < castle_end(castle) for castle in castles.values())


def holds_wizard(castle: list[int], deck: Mapping) -> bool:
    """True when the castle holds the deck's wizard."""
    return deck["wizard"] in castle


def play_turn(
    castles: Mapping[str, list[int]],
    player: str,
    number: int,
    action: str,
    deck: Mapping,
    wizard_used: Iterable[str] = (),
    box: Iterable[int] = (),
) -> dict:
    """Resolve one turned-over card: ``{"result", "castles", "box", "wizard_used", "winner"}``.

    ``result`` is added, put_back, boxed or inserted. A card lower than every castle's end
    is boxed whatever the action (add, box), except a legal wizard; putting it back is
    refused. ``winner`` is the player whose castle has just reached 10 elements. Nothing
    given is changed.
    """
    _check_free(castles, box, number)
    if action == "wizard":
        return _outcome(
            castles,
            player,
            _wizard_castle(castles, player, number, deck, wizard_used),
            "inserted",
            box,
            [*wizard_used, player],
        )
    if must_go_to_box(castles, number):
        if action == "put_back":
            raise RuleError("must_go_to_box", _MUST_GO_TO_BOX, number=number)
        return _outcome(castles, player, castles[player], "boxed", [*box, number], wizard_used)
    if action == "box":
        raise RuleError(
            "not_for_the_box",
            N_("%(number)s can still be used by a castle: add it or put it back."),
            number=number,
        )
    if action == "put_back":
        return _outcome(castles, player, castles[player], "put_back", box, wizard_used)
    _check_higher(castles[player], number)
    return _outcome(castles, player, [*castles[player], number], "added", box, wizard_used)


# --- Scoring --------------------------------------------------------------------------------


def score_castle(castle: list[int], deck: Mapping) -> dict:
    """The extended game's score of one castle, with its breakdown."""
    pictures = Counter(picture(deck, number) for number in castle)
    breakdown = {
        "elements": len(castle),
        "knights": pictures["knight"],
        "princesses": pictures["princess"],
        "king": bool(pictures["king"]),
        "queen": bool(pictures["queen"]),
        "wizard": bool(pictures["wizard"]),
        "pairs": min(pictures["knight"], pictures["princess"]),
    }
    total = (
        POINTS["element"] * breakdown["elements"]
        + POINTS["knight"] * breakdown["knights"]
        + POINTS["princess"] * breakdown["princesses"]
        + POINTS["king"] * breakdown["king"]
        + POINTS["queen"] * breakdown["queen"]
        + POINTS["pair"] * breakdown["pairs"]
    )
    return {"total": total, **breakdown}


def final_result(castles: Mapping[str, list[int]], deck: Mapping) -> dict:
    """Scores of every castle, the winner and what decided it (score, king, queen, wizard, None)."""
    scores = {player: score_castle(castle, deck) for player, castle in sorted(castles.items())}
    best = max(score["total"] for score in scores.values())
    tied = [player for player, score in scores.items() if score["total"] == best]
    if len(tied) == 1:
        return {"scores": scores, "winner": tied[0], "decided_by": "score"}
    for figure in TIE_BREAKS:
        holders = [player for player in tied if scores[player][figure]]
        if holders:
            return {"scores": scores, "winner": holders[0], "decided_by": figure}
    return {"scores": scores, "winner": None, "decided_by": None}


# --- The JSON API ---------------------------------------------------------------------------


def api_turn(body: object) -> dict:
    """``POST /api/v1/zamek/turn``: one card turned over, and what becomes of it."""
    body = _read_object(body, None)
    deck = parse_deck(body.get("deck", DEFAULT_DECK), "deck")
    castles = _read_castles(_required(body, "castles"), "castles")
    player = _read_player(_required(body, "player"), castles, "player")
    action = _read_choice(_required(body, "action"), "action")
    box = _read_box(body.get("box", []), castles)
    wizard_used = _read_wizard_used(body.get("wizard_used", []), castles)
    number = _read_number(_required(body, "card"), "card")
    if action == "put_back" and must_go_to_box(castles, number):
        # The contract: such a card is boxed whatever the action (the table refuses the put-back
        # as a move a player cannot make; an API caller only asks what becomes of the card).
        action = "box"
    try:
        outcome = play_turn(castles, player, number, action, deck, wizard_used, box)
    except RuleError as refused:
        raise refused.at(refused.field or _turn_field(refused.code)) from None
    return {**outcome, "castles": dict(sorted(outcome["castles"].items()))}


def api_score(body: object) -> dict:
    """``POST /api/v1/zamek/score``: the extended game's final score, winner and tie-break."""
    body = _read_object(body, None)
    deck = parse_deck(body.get("deck", DEFAULT_DECK), "deck")
    castles = _read_castles(_required(body, "castles"), "castles")
    labels = {key: deck[key] for key in DECK_LABELS}
    return {**final_result(castles, deck), "deck": labels}


# --- The table protocol ---------------------------------------------------------------------


def seats(options: dict) -> list[tuple[str, str]]:
    """One private link per team when members vote from their phones; none otherwise."""
    settings = _read_options(options)
    if not settings["teams"]:
        return []
    return [(player["seat"], f"Team {player['name']}") for player in settings["players"]]


def new_table(options: dict, seed: int) -> dict:
    """The first state: every castle the tile 1, all 45 cards face down, the first player to turn."""
    settings = _read_options(options)
    seat_ids = [player["seat"] for player in settings["players"]]
    return {
        "game": "zamek",
        "seed": seed,
        **settings,
        "castles": {seat: [TILE] for seat in seat_ids},
        "box": [],
        "wizard_used": [],
        "table": list(POSITIONS),
        "seen": {},
        "turn": seat_ids[0],
        "card": None,
        "chosen_position": None,
        "members": {seat: [] for seat in seat_ids} if settings["teams"] else {},
        "ballots": {},
        "decision": None,
        "last": None,
        "over": False,
        "winner": None,
        "decided_by": None,
    }


def rematch_options(options: dict, state: dict) -> dict:
    """The options of a new game: the same players or teams in the same turn order, variant and deck
    (the rules page does not say who begins the next game, so the start form's order stands)."""
    return dict(options)


def first_player(state: dict) -> int | None:
    """The place, in ``result``'s list, of the player (or team) who turned the first card: the
    first in the start form's order."""
    return 0


def to_move(state: dict) -> tuple[str, str] | None:
    """The player to move, ``(seat key, name)`` as the table clock keeps them; None when nobody is
    (the referee's turn, the game over)."""
    return None if state["over"] else (state["turn"], _seat_name(state, state["turn"]))


def apply(state: dict, action: dict, actor: str) -> dict:
    """The state after ``actor`` (``"referee"`` or a team's seat) does ``action``; the input is untouched."""
    action = _read_object(action, "action")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _APPLY:
        raise RuleError(
            "unknown_action",
            N_("Unknown action %(kind)s: use %(actions)s."),
            "type",
            kind=repr(kind),
            actions=Either(tuple(_APPLY)),
        )
    state = _copied(state)
    _APPLY[kind](state, action, actor)
    return state


def _copied(state: dict) -> dict:
    """A copy of a state the action handlers may change in place: a new dict whose containers the
    handlers change in place (``table``, ``seen``, ``ballots``, each team's ``members``) are copied, and
    whose other values are shared, never changed (the handlers replace ``castles``, ``box``, ``card``...
    whole). The same state as ``copy.deepcopy`` gives, at a small part of its cost: ``apply`` runs
    twice a move (the move, its description), and copying every castle and card was most of it."""
    return {
        **state,
        "table": list(state["table"]),
        "seen": dict(state["seen"]),
        "ballots": dict(state["ballots"]),
        "members": {seat: list(members) for seat, members in state["members"].items()},
    }


def describe(state: dict, action: dict, actor: str, after: dict | None = None) -> Message:
    """The action in plain words for the table's history; it never says where a card lies.
    ``after`` is the state ``apply`` made of these, when the caller has it (the store does)."""
    try:
        after = apply(state, action, actor) if after is None else after
    except RuleError as refused:
        return Message(N_("Refused: %(reason)s"), reason=refused.sentence)
    return _DESCRIBE[action["type"]](state, after, action, actor)


def view(state: dict, viewer: str) -> dict:
    """What ``viewer`` may see: castles, the box, unseen numbers, whose turn, never where a card lies."""
    if viewer not in VIEWERS and viewer not in state["castles"]:
        raise RuleError("unknown_viewer", N_("There is no seat %(seat)s at this table."), seat=repr(viewer))
    seat = state["turn"]
    return {
        "game": "zamek",
        "viewer": viewer,
        "variant": state["variant"],
        "stop_at_ten": state["stop_at_ten"],
        "teams": state["teams"],
        "deck": state["deck"],
        "deck_reference": deck_reference(state["deck"]),
        "players": [_player_view(state, player, viewer) for player in state["players"]],
        "turn": None if state["over"] else seat,
        "awaiting": _awaiting(state),
        "on_table": len(state["table"]),
        "face_down": len(state["table"]) - (1 if state["card"] else 0),
        "positions": list(state["table"]),
        "unseen": unseen_numbers(state),
        "box": list(state["box"]),
        "card": _card_view(state),
        "chosen_position": state["chosen_position"],
        "vote": _vote_view(state, viewer),
        "last": state["last"],
        "over": state["over"],
        "winner": state["winner"],
        "decided_by": state["decided_by"],
        "scores": _final_scores(state),
    }


def result(state: dict, finished: bool) -> dict | None:
    """Once the game is over: each castle's score (the extended game's points, the basic game's
    elements) and the winner; else None (``finished``: the referee closed the table early)."""
    if not state["over"]:
        return None
    scores = _final_scores(state)
    return {
        "players": [
            {
                "name": player["name"],
                "score": scores[player["seat"]]["total"] if scores else len(state["castles"][player["seat"]]),
                "winner": state["winner"] == player["seat"],
                "team": None,
            }
            for player in state["players"]
        ]
    }


def names(state: dict) -> list[str]:
    """The names typed at the table's start: every castle's player."""
    return [player["name"] for player in state["players"]]


def play_details(state: dict) -> dict:
    """What the history keeps of a finished game: the variant, each castle's length (players by
    their place in the result's list) and what decided the winner ("score", a tie-break's
    "king", "queen" or "wizard", "ten", "longest"; None for a tie nothing broke)."""
    if not state["over"]:
        return {}
    return {
        "variant": state["variant"],
        "decided_by": state["decided_by"],
        "castles": [len(state["castles"][player["seat"]]) for player in state["players"]],
    }


def random_legal_action(state: dict, rng: random.Random) -> tuple[str, dict] | None:
    """A legal ``(actor, action)`` drawn at random, or None once the game is over."""
    if state["over"]:
        return None
    if rng.random() < 0.003:
        return "referee", {"type": "end"}
    if state["teams"] and rng.random() < 0.05:
        joining = _random_join(state, rng)
        if joining:
            return joining
    if _vote_open(state):
        return _random_vote(state, rng)
    if state["card"] is None:
        turn = _random_turn(state, rng)
        if rng.random() < 0.3:  # now and then the whole turn in one entry
            after = apply(state, turn, "referee")
            if after["card"] and not _vote_open(after):
                turn["choice"] = _random_choice(after, rng)
        return "referee", turn
    return "referee", {"type": "choose", "choice": _random_choice(state, rng)}


# --- Reading the table (for the web layer) --------------------------------------------------


def unseen_numbers(state: dict) -> list[int]:
    """Numbers nobody has seen yet: never turned over, so neither placed, boxed, put back nor face up."""
    known = set(state["box"]) | set(state["seen"].values()) | _placed(state["castles"])
    if state["card"]:
        known.add(state["card"]["number"])
    return sorted(_NUMBERS - known)


def legal_choices(state: dict) -> list[str]:
    """What may be done with the face-up card (empty when none is face up)."""
    return [choice for choice in CHOICES if state["card"] and _choice_refusal(state, choice) is None]


def phone_view(state: dict, seat: str, member: object) -> dict | None:
    """What one phone at a team's link is: its name, whether it is captain, its own open ballot.

    None until that phone has joined this team. It holds nothing the team's seat view does
    not already show to that team, and never the phone's identity itself.
    """
    members = state["members"].get(seat, [])
    for index, entry in enumerate(members):
        if isinstance(member, str) and entry["member"] == member:
            return {
                "name": entry["name"],
                "captain": index == 0,
                "ballot": state["ballots"].get(member),
                "outvoted": _outvoted(state, seat, member),
            }
    return None


def member_seat(state: dict, member: str) -> str | None:
    """The team (seat) a phone's member has joined, or None."""
    return next(
        (
            seat
            for seat, members in state["members"].items()
            if any(entry["member"] == member for entry in members)
        ),
        None,
    )


# --- Private helpers: reading input ---------------------------------------------------------


# The shipped deck file as read, once, when the module is imported: only this very object may
# carry the shipped deck's id (``_deck_labels``). Read lazily, two serving threads drawing a
# fresh worker's first Zamek pages could each read their own copy, and one was refused.
_SHIPPED_DECK_OBJECT = json.loads(
    resources.files("companion.rules").joinpath(DECK_FILE).read_text(encoding="utf-8")
)


@lru_cache(maxsize=1)
def _shipped_deck() -> dict:
    """The shipped deck, validated once like any other (two threads validating it at once get equal decks)."""
    return parse_deck(_SHIPPED_DECK_OBJECT, "deck")


def _read_object(value: object, field: str | None) -> dict:
    """``value`` if it is a JSON object, else a ``wrong_type`` refusal."""
    if not isinstance(value, dict):
        if field:
            raise RuleError("wrong_type", N_("The field '%(key)s' must be a JSON object."), field, key=field)
        raise RuleError("wrong_type", N_("The request must be a JSON object."))
    return value


def _required(body: dict, key: str) -> object:
    """``body[key]``, or a ``missing_field`` refusal."""
    if key not in body:
        raise RuleError("missing_field", N_("The field '%(key)s' is missing."), key, key=key)
    return body[key]


def _read_int(value: object, field: str) -> int:
    """An integer (``true`` is not a number), or a ``wrong_type`` refusal."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("wrong_type", N_("The field '%(key)s' must be a whole number."), field, key=field)
    return value


def _read_number(value: object, field: str) -> int:
    """A card number 2-46."""
    number = _read_int(value, field)
    if not LOWEST <= number <= HIGHEST:
        raise RuleError(
            "number_out_of_range",
            N_("Cards are numbered %(lowest)s to %(highest)s; %(number)s is not one."),
            field,
            lowest=LOWEST,
            highest=HIGHEST,
            number=number,
        )
    return number


def _read_list(value: object, field: str) -> list:
    """A JSON array, or a ``wrong_type`` refusal."""
    if not isinstance(value, list):
        raise RuleError("wrong_type", N_("The field '%(key)s' must be a list."), field, key=field)
    return value


def _read_text(value: object, field: str) -> str:
    """A non-empty string of at most ``NAME_LENGTH`` characters, stripped."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > NAME_LENGTH:
        raise RuleError(
            "wrong_type",
            N_("The field '%(key)s' must be a name of 1 to %(most)s characters."),
            field,
            key=field,
            most=NAME_LENGTH,
        )
    return value.strip()


def _read_bool(value: object, field: str) -> bool:
    """A JSON boolean, or a ``wrong_type`` refusal."""
    if not isinstance(value, bool):
        raise RuleError("wrong_type", N_("The field '%(key)s' must be true or false."), field, key=field)
    return value


def _read_choice(value: object, field: str) -> str:
    """One of add, put_back, wizard, box."""
    if value not in CHOICES:
        raise RuleError(
            "unknown_action", N_("The action must be %(choices)s."), field, choices=Either(CHOICES)
        )
    return value


def _refuse_unknown_keys(raw: dict, known: tuple[str, ...], field: str) -> None:
    """A deck with a misspelt key would silently score wrong: refuse it."""
    for key in raw:
        if key not in known:
            raise RuleError(
                "bad_deck",
                N_("A deck has no %(key)s: use %(known)s."),
                f"{field}.{key}",
                key=repr(key),
                known=Either(known),
            )


def _deck_figure(raw: dict, figure: str, field: str, taken: dict[int, str]) -> int:
    """The one number carrying the king, the queen or the wizard."""
    if figure not in raw:
        raise RuleError("bad_deck", _FIGURE_MISSING[figure], field)
    value = raw[figure]
    if isinstance(value, list):
        raise RuleError("bad_deck", _FIGURE_LIST[figure], f"{field}.{figure}")
    return _deck_number(value, f"{field}.{figure}", figure, taken)


def _deck_group(raw: dict, group: str, field: str, taken: dict[int, str]) -> list[int]:
    """The numbers carrying knights, or princesses."""
    if not isinstance(raw.get(group), list):
        raise RuleError("bad_deck", _GROUP_NOT_LIST[group], f"{field}.{group}")
    return [
        _deck_number(value, f"{field}.{group}[{index}]", GROUPS[group], taken)
        for index, value in enumerate(raw[group])
    ]


def _deck_number(value: object, field: str, name: str, taken: dict[int, str]) -> int:
    """One number of a deck: a whole number 2-46 that carries no other picture."""
    if isinstance(value, bool) or not isinstance(value, int) or not LOWEST <= value <= HIGHEST:
        raise RuleError(
            "bad_deck",
            N_("Each picture sits on a card numbered %(lowest)s to %(highest)s."),
            field,
            lowest=LOWEST,
            highest=HIGHEST,
        )
    if value in taken:
        raise RuleError("bad_deck", _ALREADY_CARRIES[taken[value]], field, number=value)
    taken[value] = name
    return value


def _deck_labels(raw: dict, deck: dict, field: str) -> dict:
    """The deck's id, name and version; a deck without an id is named after its content."""
    content = hashlib.sha256(json.dumps(deck, sort_keys=True).encode()).hexdigest()[:10]
    labels = {
        "id": raw.get("id", f"custom-{content}"),
        "name": raw.get("name", "Custom deck"),
        "version": raw.get("version", 1),
    }
    for key in ("id", "name"):
        if not isinstance(labels[key], str) or not labels[key].strip() or len(labels[key]) > 60:
            raise RuleError(
                "bad_deck",
                N_("A deck's %(key)s is a text of 1 to %(most)s characters."),
                f"{field}.{key}",
                key=key,
                most=60,
            )
    if isinstance(labels["version"], bool) or not isinstance(labels["version"], int) or labels["version"] < 1:
        raise RuleError("bad_deck", N_("A deck's version is a whole number from 1."), f"{field}.version")
    if labels["id"] == SHIPPED_DECK_ID and raw is not _SHIPPED_DECK_OBJECT:
        raise RuleError(
            "bad_deck",
            N_("%(id)s names the shipped deck: give your deck another id."),
            f"{field}.id",
            id=repr(SHIPPED_DECK_ID),
        )
    return labels


def _read_castles(raw: object, field: str) -> dict[str, list[int]]:
    """2-4 castles, each the tile 1 then ascending numbers 2-46, no number in two castles."""
    castles = _read_object(raw, field)
    if not MIN_PLAYERS <= len(castles) <= MAX_PLAYERS:
        raise RuleError(
            "player_count",
            NP_(
                "Zamek is played by %(least)s to %(most)s players; %(count)s castle was given.",
                "Zamek is played by %(least)s to %(most)s players; %(count)s castles were given.",
            ),
            field,
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            count=len(castles),
        )
    placed: set[int] = set()
    return {
        _read_key(player, field): _read_castle(castle, f"{field}.{player}", placed)
        for player, castle in castles.items()
    }


def _read_key(player: object, field: str) -> str:
    """A player's key in a body: a non-empty name of at most ``NAME_LENGTH`` characters, kept as given."""
    if not isinstance(player, str) or not player or len(player) > NAME_LENGTH:
        raise RuleError(
            "wrong_type",
            N_("Each castle is named by its player, in 1 to %(most)s characters."),
            field,
            most=NAME_LENGTH,
        )
    return player


def _read_castle(raw: object, field: str, placed: set[int]) -> list[int]:
    """One castle: the tile 1 first, then strictly ascending card numbers."""
    castle = _read_list(raw, field)
    if not castle or type(castle[0]) is not int or castle[0] != TILE:
        raise RuleError("bad_castle", N_("A castle starts with the tile 1."), f"{field}[0]")
    for index, value in enumerate(castle[1:], start=1):
        number = _read_number(value, f"{field}[{index}]")
        if number in placed:
            raise RuleError(
                "already_placed", N_("%(number)s is already in a castle."), f"{field}[{index}]", number=number
            )
        if number <= castle[index - 1]:
            raise RuleError("bad_castle", N_("A castle always ascends."), f"{field}[{index}]")
        placed.add(number)
    return list(castle)


def _read_player(value: object, castles: Mapping, field: str) -> str:
    """A player who has a castle."""
    if not isinstance(value, str) or value not in castles:
        raise RuleError(
            "unknown_player",
            N_("The player must be one of %(players)s."),
            field,
            players=Either(tuple(castles)),
        )
    return value


def _read_box(raw: object, castles: Mapping) -> list[int]:
    """The numbers already in the box: cards 2-46, none twice, none in a castle."""
    box: list[int] = []
    for index, value in enumerate(_read_list(raw, "box")):
        number = _read_number(value, f"box[{index}]")
        if number in box or number in _placed(castles):
            raise RuleError(
                "already_placed",
                N_("%(number)s cannot be in the box twice or in a castle too."),
                f"box[{index}]",
                number=number,
            )
        box.append(number)
    return sorted(box)


def _read_wizard_used(raw: object, castles: Mapping) -> list[str]:
    """The players who already used the wizard."""
    used = [
        _read_player(value, castles, f"wizard_used[{index}]")
        for index, value in enumerate(_read_list(raw, "wizard_used"))
    ]
    return sorted(set(used))


def _turn_field(code: str) -> str:
    """Where in a turn body the cause of a refusal lies."""
    return {
        "must_go_to_box": "action",
        "not_for_the_box": "action",
        "not_higher": "card",
        "wizard_not_needed": "card",
    }.get(code, "card" if code.startswith("already") else "action")


def _read_options(options: object) -> dict:
    """The table's options, checked: variant, stop_at_ten, players, teams and deck."""
    options = _read_object(options, "options")
    variant = options.get("variant", "basic")
    if variant not in VARIANTS:
        raise RuleError(
            "bad_option", N_("The variant is %(variants)s."), "variant", variants=Either(VARIANTS)
        )
    stop_at_ten = _read_bool(options.get("stop_at_ten", False), "stop_at_ten")
    if stop_at_ten and variant == "basic":
        raise RuleError(
            "bad_option",
            N_("Only the extended game can stop at ten: the basic game always does."),
            "stop_at_ten",
        )
    return {
        "variant": variant,
        "stop_at_ten": stop_at_ten,
        "players": _read_names(options.get("players")),
        "teams": _read_bool(options.get("teams", False), "teams"),
        "deck": parse_deck(options.get("deck", DEFAULT_DECK), "deck"),
    }


def _read_names(raw: object) -> list[dict]:
    """2-4 different names, each with its seat p1..p4."""
    names = [_read_text(name, f"players[{index}]") for index, name in enumerate(_read_list(raw, "players"))]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(
            "player_count",
            N_("Zamek is played by %(least)s to %(most)s players or teams, not %(given)s."),
            "players",
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            given=len(names),
        )
    if len({name.casefold() for name in names}) < len(names):
        raise RuleError(
            "bad_option", N_("Two players have the same name: give each a different one."), "players"
        )
    return [{"seat": seat, "name": name} for seat, name in zip(SEATS, names, strict=False)]


# --- Private helpers: the rules -------------------------------------------------------------


def _placed(castles: Mapping[str, list[int]]) -> set[int]:
    """Every card number in a castle."""
    placed: set[int] = set()
    for castle in castles.values():
        placed.update(castle[1:])
    return placed


def _check_free(castles: Mapping, box: Iterable[int], number: int) -> None:
    """Refuse a number already placed in a castle or boxed."""
    if number in _placed(castles):
        raise RuleError(
            "already_placed",
            N_("%(number)s is already in a castle: it cannot be turned over again."),
            number=number,
        )
    if number in box:
        raise RuleError(
            "already_boxed",
            N_("%(number)s is already in the box: it cannot be turned over again."),
            number=number,
        )


def _check_higher(castle: list[int], number: int) -> None:
    """Refuse to add a card that is not higher than the castle's end."""
    if number < castle_end(castle):
        raise RuleError(
            "not_higher",
            N_("%(number)s is not higher than %(end)s, the end of this castle: put it back."),
            number=number,
            end=castle_end(castle),
        )


def _wizard_castle(
    castles: Mapping, player: str, number: int, deck: Mapping, used: Iterable[str]
) -> list[int]:
    """The castle with the card slid in where it keeps ascending, if the wizard may be used."""
    castle = castles[player]
    if not holds_wizard(castle, deck):
        raise RuleError(
            "no_wizard",
            N_("Only the castle holding the wizard (%(wizard)s) may slide a card in."),
            wizard=deck["wizard"],
        )
    if player in used:
        raise RuleError("wizard_used", N_("The wizard has already been used: once per game."))
    if number > castle_end(castle):
        raise RuleError(
            "wizard_not_needed",
            N_("%(number)s is higher than the castle's end: add it, and keep the wizard."),
            number=number,
        )
    inserted = list(castle)
    bisect.insort(inserted, number)
    return inserted


def _outcome(
    castles: Mapping,
    player: str,
    castle: list[int],
    result: str,
    box: Iterable[int],
    wizard_used: Iterable[str],
) -> dict:
    """A turn's answer, with fresh lists."""
    reached = len(castle) >= CASTLE_GOAL > len(castles[player])
    return {
        "result": result,
        "castles": {**{p: list(c) for p, c in castles.items()}, player: list(castle)},
        "box": sorted(box),
        "wizard_used": sorted(set(wizard_used)),
        "winner": player if reached else None,
    }


# --- Private helpers: the table -------------------------------------------------------------


def _seat_name(state: dict, seat: str) -> str:
    """The player's (or team's) name."""
    return next(player["name"] for player in state["players"] if player["seat"] == seat)


def _check_playing(state: dict) -> None:
    """Refuse any move once the game is over."""
    if state["over"]:
        raise RuleError("game_over", N_("The game is over."))


def _check_referee(actor: str, refusal: str) -> None:
    """Some actions are the referee's: ``refusal`` says which, as one sentence."""
    if actor != "referee":
        raise RuleError("not_allowed", refusal)


def _team_votes(state: dict, seat: str) -> bool:
    """True when this team has members on their phones, so its votes decide."""
    return bool(state["teams"] and state["members"].get(seat))


def _vote_stage(state: dict) -> str | None:
    """What the team to play votes on now: a position, a choice, or nothing (waiting for the referee)."""
    if state["over"]:
        return None
    if state["card"]:
        return "choice"
    return None if state["chosen_position"] else "position"


def _vote_open(state: dict) -> bool:
    """True when the team to play is voting."""
    return _team_votes(state, state["turn"]) and _vote_stage(state) is not None


def _apply_turn(state: dict, action: dict, actor: str) -> None:
    """The referee enters the card turned over: its position and its number, and may add the
    player's choice at once (``choice``), so that a decided turn is one entry; a choice the
    rules refuse refuses the whole turn. A card the box rule takes goes to the box whatever the choice."""
    _check_referee(actor, N_("Only the referee enters the card turned over."))
    _check_playing(state)
    if state["card"]:
        raise RuleError(
            "card_face_up",
            N_("%(number)s is still face up: choose what becomes of it first."),
            number=state["card"]["number"],
        )
    position = _turn_position(state, action)
    number = _read_number(action.get("number"), "number")
    try:
        _check_free(state["castles"], state["box"], number)
    except RuleError as refused:
        raise refused.at("number") from None
    _check_memory(state, position, number)
    state["card"] = {"position": position, "number": number}
    state["chosen_position"], state["ballots"] = None, {}
    if must_go_to_box(state["castles"], number) and _choice_refusal(state, "wizard"):
        _resolve(state, "box", "box rule")
    elif action.get("choice") is not None:
        if _vote_open(state):
            raise RuleError(
                "vote_open",
                N_("%(team)s votes on what becomes of the card: turn it over only."),
                "choice",
                team=_seat_name(state, state["turn"]),
            )
        choice = _read_choice(action["choice"], "choice")
        _refuse_choice(state, choice)
        _resolve(state, choice, "referee")


def _turn_position(state: dict, action: dict) -> int:
    """The position turned over: the team's decision when its members voted."""
    if _vote_open(state):
        raise RuleError(
            "vote_open",
            N_("%(team)s is still voting on the card to turn over: wait, or close the vote."),
            team=_seat_name(state, state["turn"]),
        )
    chosen = state["chosen_position"]
    position = action.get("position", chosen)
    position = _read_int(position, "position")
    if chosen is not None and position != chosen:
        raise RuleError(
            "not_chosen",
            N_("The team chose position %(position)s: turn that card over."),
            "position",
            position=chosen,
        )
    if position not in POSITIONS:
        raise RuleError(
            "position_out_of_range", N_("Positions run from 1 to %(last)s."), "position", last=len(POSITIONS)
        )
    if position not in state["table"]:
        raise RuleError(
            "position_empty",
            N_("No card lies at position %(position)s any more."),
            "position",
            position=position,
        )
    return position


def _check_memory(state: dict, position: int, number: int) -> None:
    """A card seen before is where it was put back; the message never says where anything lies."""
    remembered = state["seen"].get(str(position))
    if remembered is not None and remembered != number:
        raise RuleError(
            "wrong_number",
            N_(
                "The card at position %(position)s was seen before and is not %(number)s: "
                "check the position and the number."
            ),
            "number",
            position=position,
            number=number,
        )
    if remembered is None and number in state["seen"].values():
        raise RuleError(
            "wrong_number",
            N_("%(number)s was put back at another position: check the position and the number."),
            "number",
            number=number,
        )


def _apply_choose(state: dict, action: dict, actor: str) -> None:
    """The referee enters what becomes of the face-up card (when no team vote decides it)."""
    _check_referee(actor, N_("Only the referee enters the choice for a player."))
    _check_playing(state)
    if not state["card"]:
        raise RuleError("no_card", N_("No card is face up: enter the card turned over first."))
    if _vote_open(state):
        raise RuleError(
            "vote_open",
            N_("%(team)s is voting on this card: wait, or close the vote."),
            team=_seat_name(state, state["turn"]),
        )
    choice = _read_choice(action.get("choice"), "choice")
    _refuse_choice(state, choice)
    _resolve(state, choice, "referee")


def _choice_refusal(state: dict, choice: str) -> RuleError | None:
    """Why ``choice`` is not allowed for the face-up card, or None."""
    number = state["card"]["number"]
    if choice == "wizard" and state["variant"] == "basic":
        return RuleError("no_wizard", N_("The wizard is used only in the extended game."), "choice")
    if choice == "add" and must_go_to_box(state["castles"], number):
        return RuleError("must_go_to_box", _MUST_GO_TO_BOX, "choice", number=number)
    try:
        _play(state, choice)
    except RuleError as refused:
        refused.field = "choice"  # what ``refused.at("choice")`` says, without making and saying it again
        return refused
    return None


def _refuse_choice(state: dict, choice: str) -> None:
    """Raise the reason ``choice`` is not allowed, if it is not."""
    refusal = _choice_refusal(state, choice)
    if refusal:
        raise refusal


def _play(state: dict, choice: str) -> dict:
    """The face-up card resolved by ``choice`` (state untouched)."""
    return play_turn(
        state["castles"],
        state["turn"],
        state["card"]["number"],
        choice,
        state["deck"],
        state["wizard_used"],
        state["box"],
    )


def _resolve(state: dict, choice: str, by: str) -> None:
    """Apply a legal choice for the face-up card, then end the turn."""
    outcome, card, seat = _play(state, choice), state["card"], state["turn"]
    state["castles"], state["box"], state["wizard_used"] = (
        outcome["castles"],
        outcome["box"],
        outcome["wizard_used"],
    )
    key = str(card["position"])
    if outcome["result"] == "put_back":
        state["seen"][key] = card["number"]
    else:
        state["table"].remove(card["position"])
        state["seen"].pop(key, None)
    state["last"] = {"seat": seat, "number": card["number"], "result": outcome["result"], "by": by}
    state["card"], state["ballots"] = None, {}
    _end_turn(state, outcome["winner"])


def _end_turn(state: dict, reached_ten: str | None) -> None:
    """Pass the turn on, or end the game."""
    if state["variant"] == "basic" and reached_ten:
        state.update(over=True, winner=reached_ten, decided_by="ten")
    elif not state["table"] or (state["stop_at_ten"] and reached_ten):
        state.update(over=True, **_result_now(state))
    else:
        order = [player["seat"] for player in state["players"]]
        state["turn"] = order[(order.index(state["turn"]) + 1) % len(order)]


def _result_now(state: dict) -> dict:
    """The winner and what decided it, scored as an emptied table: the longest castle, or the extended score."""
    if state["variant"] == "basic":
        return _longest_castle(state["castles"])
    result = final_result(state["castles"], state["deck"])
    return {"winner": result["winner"], "decided_by": result["decided_by"]}


def _longest_castle(castles: Mapping[str, list[int]]) -> dict:
    """A basic game whose table emptied before any castle reached 10: the longest castle wins."""
    longest = max(len(castle) for castle in castles.values())
    leaders = [seat for seat, castle in castles.items() if len(castle) == longest]
    return (
        {"winner": leaders[0], "decided_by": "longest"}
        if len(leaders) == 1
        else {"winner": None, "decided_by": None}
    )


# --- Private helpers: team votes ------------------------------------------------------------


def _outvoted(state: dict, seat: str, member: str) -> dict | None:
    """The team's last decision when this member voted otherwise: ``{"stage", "chosen", "mine"}``."""
    decision = state.get("decision")  # tables started before decisions were kept have none
    if not decision or decision["seat"] != seat:
        return None
    mine = decision["ballots"].get(member)
    if mine is None or mine == decision["chosen"]:
        return None
    return {"stage": decision["stage"], "chosen": decision["chosen"], "mine": mine}


def _member_of(state: dict, actor: str, action: dict) -> dict:
    """The joined member of this seat who sends the action."""
    member = action.get("member")
    for entry in state["members"].get(actor, []):
        if entry["member"] == member:
            return entry
    raise RuleError("not_joined", N_("Join your team first: only its members vote."))


def _apply_join(state: dict, action: dict, actor: str) -> None:
    """A phone joins its team; the first to join is the captain."""
    if not state["teams"] or actor not in state["members"]:
        raise RuleError("not_allowed", N_("Only a team's phone can join, in a game played by teams."))
    member = action.get("member")
    if not isinstance(member, str) or not member:
        raise RuleError("wrong_type", N_("The phone's identity is missing."), "member")
    seat = member_seat(state, member)
    if seat:
        raise RuleError(
            "already_joined", N_("This phone is already in %(team)s."), team=_seat_name(state, seat)
        )
    name = action.get("member_name")
    name = (
        name.strip()[:NAME_LENGTH]
        if isinstance(name, str) and name.strip()
        else f"Member {len(state['members'][actor]) + 1}"
    )
    state["members"][actor].append({"member": member, "name": name})


def _apply_leave(state: dict, action: dict, actor: str) -> None:
    """A member leaves their team (or the referee takes out one who left); their open ballot goes."""
    seat, entry = _leaving(state, action, actor)
    state["members"][seat].remove(entry)
    if seat == state["turn"]:
        state["ballots"].pop(entry["member"], None)
        if state["members"][seat]:
            _settle_vote(state)
        else:
            state["ballots"] = {}


def _leaving(state: dict, action: dict, actor: str) -> tuple[str, dict]:
    """The member who leaves: the sender, or the one the referee names by team and place in it."""
    if actor != "referee":
        return actor, _member_of(state, actor, action)
    seat = action.get("seat")
    if not isinstance(seat, str) or seat not in state["members"]:
        raise RuleError("not_joined", N_("Name the team the member leaves."), "seat")
    index = _read_int(action.get("index"), "index")
    if not 0 <= index < len(state["members"][seat]):
        raise RuleError(
            "not_joined", N_("%(team)s has no such member."), "index", team=_seat_name(state, seat)
        )
    return seat, state["members"][seat][index]


def _apply_vote(state: dict, action: dict, actor: str) -> None:
    """A member votes on the card to turn over, or on what to do with the face-up card."""
    entry = _member_of(state, actor, action)
    _check_playing(state)
    if actor != state["turn"]:
        raise RuleError(
            "not_your_turn",
            N_("It is %(team)s's turn, not your team's."),
            team=_seat_name(state, state["turn"]),
        )
    stage = _vote_stage(state)
    if stage is None or action.get("stage") != stage:
        raise RuleError("wrong_stage", _WAITING_FOR[stage], "stage")
    state["ballots"][entry["member"]] = _ballot(state, action, stage)
    _settle_vote(state)


def _ballot(state: dict, action: dict, stage: str) -> int | str:
    """One member's vote, checked like the move it stands for."""
    if stage == "position":
        position = _read_int(action.get("position"), "position")
        if position not in state["table"]:
            raise RuleError(
                "position_empty",
                N_("No card lies face down at position %(position)s."),
                "position",
                position=position,
            )
        return position
    choice = _read_choice(action.get("choice"), "choice")
    _refuse_choice(state, choice)
    return choice


def _apply_close_vote(state: dict, action: dict, actor: str) -> None:
    """The referee decides the open vote with the ballots cast so far (a member left)."""
    _check_referee(actor, N_("Only the referee closes a vote."))
    if not _vote_open(state) or not state["ballots"]:
        raise RuleError("no_votes", N_("There is no open vote with a ballot to count."))
    _decide(state)


def _settle_vote(state: dict) -> None:
    """Decide the open vote once every joined member has voted."""
    members = state["members"].get(state["turn"], [])
    if (
        _vote_open(state)
        and state["ballots"]
        and all(entry["member"] in state["ballots"] for entry in members)
    ):
        _decide(state)


def _decide(state: dict) -> None:
    """The majority decides; a tie goes to the tied option of the earliest member to join (the captain first)."""
    ballots = state["ballots"]
    counts = Counter(ballots.values())
    top = max(counts.values())
    tied = [value for value, count in counts.items() if count == top]
    order = [entry["member"] for entry in state["members"][state["turn"]]] + list(ballots)
    decision = next(ballots[member] for member in order if member in ballots and ballots[member] in tied)
    state["decision"] = {
        "seat": state["turn"],
        "stage": _vote_stage(state),
        "chosen": decision,
        "ballots": dict(ballots),
    }
    state["ballots"] = {}
    if _vote_stage(state) == "position":
        state["chosen_position"] = decision
    else:
        _resolve(state, decision, "vote")


def _apply_end(state: dict, action: dict, actor: str) -> None:
    """The referee ends the game here, scored as an emptied table; a face-up card goes back face down.

    Nothing in the source ends a game in which players keep putting cards back.
    """
    _check_referee(actor, N_("Only the referee ends the game."))
    _check_playing(state)
    if state["card"]:
        state["seen"][str(state["card"]["position"])] = state["card"]["number"]
    state.update(card=None, chosen_position=None, ballots={}, over=True, **_result_now(state))


_APPLY: dict[str, Callable[[dict, dict, str], None]] = {
    "turn": _apply_turn,
    "choose": _apply_choose,
    "join": _apply_join,
    "leave": _apply_leave,
    "vote": _apply_vote,
    "close_vote": _apply_close_vote,
    "end": _apply_end,
}


# --- Private helpers: views and descriptions ------------------------------------------------


def _player_view(state: dict, player: dict, viewer: str) -> dict:
    """One player's (or team's) public side: castle, wizard, members."""
    seat, castle = player["seat"], state["castles"][player["seat"]]
    members = state["members"].get(seat, [])
    return {
        "seat": seat,
        "name": player["name"],
        "castle": list(castle),
        "elements": len(castle),
        "end": castle_end(castle),
        "holds_wizard": holds_wizard(castle, state["deck"]),
        "wizard_used": seat in state["wizard_used"],
        "members": [
            {
                "name": entry["name"],
                "captain": index == 0,
                **({"voted": entry["member"] in state["ballots"]} if viewer == seat == state["turn"] else {}),
            }
            for index, entry in enumerate(members)
        ],
    }


def _awaiting(state: dict) -> dict | None:
    """Who acts next and on what: the referee (card, choice) or a team's vote (position, choice)."""
    if state["over"]:
        return None
    if _vote_open(state):
        return {"actor": state["turn"], "step": _vote_stage(state)}
    return {"actor": "referee", "step": "choice" if state["card"] else "card"}


def _card_view(state: dict) -> dict | None:
    """The face-up card (its number only), what may be done with it and why not the rest."""
    if not state["card"]:
        return None
    refusals = {choice: _choice_refusal(state, choice) for choice in CHOICES}
    return {
        "number": state["card"]["number"],
        "picture": picture(state["deck"], state["card"]["number"]),
        "must_go_to_box": must_go_to_box(state["castles"], state["card"]["number"]),
        "choices": [choice for choice, refusal in refusals.items() if refusal is None],
        # Stored sentences (stored_sentences.dump): a view is plain JSON, said in the reader's language by the page.
        "refused": {choice: dump(refusal.sentence) for choice, refusal in refusals.items() if refusal},
    }


def _vote_view(state: dict, viewer: str) -> dict | None:
    """The open vote: how many voted for everyone; the ballots only for the voting team's own seat."""
    if not _vote_open(state):
        return None
    seat = state["turn"]
    members = state["members"][seat]
    vote = {
        "seat": seat,
        "stage": _vote_stage(state),
        "voted": len(state["ballots"]),
        "members": len(members),
    }
    if viewer == seat:
        vote["ballots"] = [
            {"name": entry["name"], "value": state["ballots"][entry["member"]]}
            for entry in members
            if entry["member"] in state["ballots"]
        ]
    return vote


def _final_scores(state: dict) -> dict | None:
    """The extended game's scores, once it is over."""
    if not state["over"] or state["variant"] != "extended":
        return None
    return final_result(state["castles"], state["deck"])["scores"]


def _describe_turn(before: dict, after: dict, action: dict, actor: str) -> Message:
    """ "Ola turned over 23." (never the position)."""
    name, number = _seat_name(before, before["turn"]), action["number"]
    if after["card"] is None and after["last"]["by"] == "box rule":
        return then(
            Message(
                N_("%(name)s turned over %(number)s: lower than every castle's end, it goes to the box."),
                name=name,
                number=number,
            ),
            _ending(after),
        )
    turned = Message(N_("%(name)s turned over %(number)s."), name=name, number=number)
    if after["card"] is None:
        return then(turned, _result_words(before, after), _ending(after))
    if after["card"] and must_go_to_box(after["castles"], number):
        return Message(
            N_("%(name)s turned over %(number)s: it would go to the box, but %(name)s may use the wizard."),
            name=name,
            number=number,
        )
    return turned


def _describe_choose(before: dict, after: dict, action: dict, actor: str) -> Message:
    """What became of the face-up card."""
    return then(_result_words(before, after), _ending(after))


def _result_words(before: dict, after: dict) -> Message:
    """ "Ola added 23 to the castle (5 elements).", from the last turn's record."""
    last = after["last"]
    name, number = _seat_name(after, last["seat"]), last["number"]
    elements = len(after["castles"][last["seat"]])
    sentence = {
        "added": NP_(
            "%(name)s added %(number)s to the castle (%(count)s element).",
            "%(name)s added %(number)s to the castle (%(count)s elements).",
        ),
        "inserted": NP_(
            "%(name)s used the wizard: %(number)s slid into the castle (%(count)s element).",
            "%(name)s used the wizard: %(number)s slid into the castle (%(count)s elements).",
        ),
        "put_back": N_("%(name)s put %(number)s back face down."),
        "boxed": N_("%(number)s went to the box."),
    }[last["result"]]
    return Message(sentence, name=name, number=number, count=elements)


def _describe_join(before: dict, after: dict, action: dict, actor: str) -> Message:
    """ "Ala joined Red as captain."."""
    entry = after["members"][actor][-1]
    captain = len(after["members"][actor]) == 1
    return Message(
        N_("%(member)s joined %(team)s as captain.") if captain else N_("%(member)s joined %(team)s."),
        member=entry["name"],
        team=_seat_name(after, actor),
    )


def _describe_leave(before: dict, after: dict, action: dict, actor: str) -> Message:
    """ "Ala left Red."."""
    seat, entry = _leaving(before, action, actor)
    left = Message(N_("%(member)s left %(team)s."), member=entry["name"], team=_seat_name(before, seat))
    return then(left, _vote_words(before, after))


def _describe_vote(before: dict, after: dict, action: dict, actor: str) -> Message:
    """Who voted, never what, until the team decides."""
    entry = _member_of(before, actor, action)
    voted = Message(N_("%(member)s of %(team)s voted."), member=entry["name"], team=_seat_name(before, actor))
    return then(voted, _vote_words(before, after))


def _describe_close_vote(before: dict, after: dict, action: dict, actor: str) -> Message:
    """The referee counted the ballots cast so far."""
    closed = Message(N_("The referee closed %(team)s's vote."), team=_seat_name(before, before["turn"]))
    return then(closed, _vote_words(before, after))


def _vote_words(before: dict, after: dict) -> Message | None:
    """What a decided vote did: the choice made public; the position only in the views, while it matters."""
    if after["chosen_position"] and not before["chosen_position"]:
        return Message(N_("The team chose the card to turn over."))
    if after["last"] != before["last"]:
        return then(
            Message(N_("The team decided: %(result)s"), result=_result_words(before, after)), _ending(after)
        )
    return None


def _ending(state: dict) -> Message | None:
    """The end of the game in words, if it ended."""
    if not state["over"]:
        return None
    if state["winner"] is None:
        return Message(N_("The game is over: a draw."))
    return Message(WINS[state["decided_by"]], name=_seat_name(state, state["winner"]))


def _describe_end(before: dict, after: dict, action: dict, actor: str) -> Message:
    """The referee ended the game; a face-up card went back face down."""
    if before["card"]:
        ended = Message(
            N_("The referee ended the game; %(number)s went back face down."),
            number=before["card"]["number"],
        )
    else:
        ended = Message(N_("The referee ended the game."))
    return then(ended, _ending(after))


_DESCRIBE: dict[str, Callable[[dict, dict, dict, str], Message]] = {
    "turn": _describe_turn,
    "choose": _describe_choose,
    "join": _describe_join,
    "leave": _describe_leave,
    "vote": _describe_vote,
    "close_vote": _describe_close_vote,
    "end": _describe_end,
}


# --- Private helpers: random play -----------------------------------------------------------


def _random_join(state: dict, rng: random.Random) -> tuple[str, dict] | None:
    """A new phone joins a team that has fewer than three members."""
    open_seats = [seat for seat, members in state["members"].items() if len(members) < 3]
    if not open_seats:
        return None
    seat = rng.choice(open_seats)
    member = f"{seat}-m{len(state['members'][seat]) + 1}"
    return seat, {"type": "join", "member": member, "member_name": member}


def _random_vote(state: dict, rng: random.Random) -> tuple[str, dict]:
    """A member who has not voted yet votes; now and then the referee closes the vote."""
    seat = state["turn"]
    if state["ballots"] and rng.random() < 0.1:
        return "referee", {"type": "close_vote"}
    entry = rng.choice([e for e in state["members"][seat] if e["member"] not in state["ballots"]])
    vote = {
        "type": "vote",
        "stage": _vote_stage(state),
        "member": entry["member"],
        "member_name": entry["name"],
    }
    if vote["stage"] == "position":
        return seat, {**vote, "position": rng.choice(state["table"])}
    return seat, {**vote, "choice": _random_choice(state, rng)}


def _random_turn(state: dict, rng: random.Random) -> dict:
    """Turn over a card: the chosen position, or any; its number as remembered, or an unseen one."""
    position = state["chosen_position"] or rng.choice(state["table"])
    number = state["seen"].get(str(position))
    if number is None:
        number = rng.choice(unseen_numbers(state))
    return {"type": "turn", "position": position, "number": number}


def _random_choice(state: dict, rng: random.Random) -> str:
    """A legal choice, mostly building the castle."""
    choices = legal_choices(state)
    for preferred, chance in (("wizard", 0.5), ("add", 0.85)):
        if preferred in choices and rng.random() < chance:
            return preferred
    return rng.choice(choices)
