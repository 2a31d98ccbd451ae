"""Fort: its pages (battle adjudicator, showdown judge, table tracker, help) and its JSON API.

Thin views: read the request, call ``companion.rules.fort``, render. The adjudicator and the
showdown judge are GET forms (they change nothing on the server), so they work without
JavaScript, step 1 travels into step 2 in hidden fields, and htmx swaps only their fragment.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from flask import Blueprint, render_template, request

from companion.i18n import current_language, say, say_name
from companion.rules import fort
from companion.rules.cards import Card, from_picker, parse, parse_distinct
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Message, together
from companion.service import schemas
from companion.service.games import Game
from companion.web.rendering import render
from companion.web.templating import keyed_as_they_are

bp = Blueprint("fort", __name__, url_prefix="/fort")

SIDES = ("attacker", "defender")
SHOWDOWN_SEATS = range(1, fort.MAX_PLAYERS + 1)
SHOWDOWN_SLOTS = 12  # cards tapped per army on the showdown judge; a longer army is typed
# A ready-made battle for the adjudicator's "try an example" link and the help page.
EXAMPLE_BATTLE = {
    "a_army": "5",
    "a_fort": "3",
    "d_army": "4",
    "stake": "card",
    "target": "9H",
    "height": "1",
    "challenge": "1",
    "size": "2",
    "a_soldiers": "7S KH",
    "d_soldiers": "AD 2C",
    "do": "settle",
}


def table_options(options: dict) -> dict:
    """The creation options (typed, ``OPTIONS_SCHEMA``): ``players`` (2 to 4; text or a whole number)
    and ``name_1`` … ``name_4`` (optional)."""
    players = options.get("players")
    players = _whole(
        "2" if players in (None, "") else players,
        "players",
        N_("The number of players"),
        fort.MIN_PLAYERS,
        fort.MAX_PLAYERS,
    )
    # A blank name is stored as "Player n", which fort.names() knows is no name (the plays history).
    names = [
        _text(options.get(f"name_{n}"))[: fort.NAME_LENGTH] or f"Player {n}" for n in range(1, players + 1)
    ]
    return {"players": players, "names": names}


def table_title(options: dict) -> str | Message:
    """A table's title in lists: the players' names, "Ola, Kuba and Ewa" (an unnamed one "Player 2")."""
    names = list(options.get("names") or [])
    return together(*names) if names else ""


def table_action(form: dict, viewer: str) -> dict:
    """A posted referee action: its ``type`` and the fields of that action's form."""
    kind = form.get("type")
    reader = _ACTIONS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise RuleError("unknown_action", N_("Choose one of the actions offered on the table."), "type")
    return {"type": kind, **reader(form)}


OPTIONS_SCHEMA = schemas.options(
    "The start form: 2 to 4 players, and their names (name_1 … name_4).",
    {"players": schemas.WHOLE, **{f"name_{n}": schemas.NAME for n in range(1, fort.MAX_PLAYERS + 1)}},
)
_OPTIONAL_TEXT = {"type": ["string", "null"], "maxLength": 200}
ACTION_SCHEMA = schemas.actions(
    schemas.action(
        "deal", "Each player's four fort cards.", {"forts": schemas.by_player(schemas.cards("fort"), "")}
    ),
    schemas.action(
        "burn",
        "A fort card burned, and the cards drawn for it (a royal or ace: 1 or 2).",
        {"card": schemas.CARD},
        {"player": schemas.TEXT, "draws": {"type": "integer"}},
    ),
    schemas.action("start", "The players are ready: the first turn begins."),
    schemas.action(
        "draw", "The player to move draws (the card, when it is seen).", optional={"card": schemas.CARD}
    ),
    schemas.action("fortify", "Cards added to the fort.", {"cards": schemas.cards("the cards added")}),
    schemas.action(
        "challenge",
        "A challenge of a fort card, or a campaign battle (target null).",
        {
            "defender": schemas.TEXT,
            "target": _OPTIONAL_TEXT,
            "soldiers": {
                "type": "object",
                "properties": {side: schemas.cards("soldiers") for side in SIDES},
                "additionalProperties": False,
            },
        },
        {"size": schemas.WHOLE},
    ),
    schemas.action("replace", "The card taken from the barracks into the fort.", {"card": schemas.CARD}),
    schemas.action(
        "free_for_all", "The card each player laid.", {"laid": schemas.by_player(_OPTIONAL_TEXT, "")}
    ),
    schemas.action("restock", "The fort after a lost campaign.", {"fort": schemas.cards("the fort")}),
    schemas.action("end_turn", "The player to move ends the turn."),
    schemas.action(
        "showdown",
        "Each player's line at the showdown.",
        {"laid": schemas.by_player(schemas.cards("line"), "")},
    ),
    schemas.action("share", "The tied players share the win."),
)


GAME = Game(
    slug="fort",
    name=N_("Fort"),
    tagline=N_(
        "Forts, armies and watchtowers: challenge a rival's fort and let Castellan settle the battle."
    ),
    players=N_("2 to 4 players"),
    order=3,
    summary=(
        N_(
            "Each player keeps a fort of face-up cards and a hidden army. Matching ranks stack into watchtowers, "
            "which are harder to attack."
        ),
        N_(
            "A challenge pits one or two blind soldiers from each army against each other; a 7 always fights for "
            "the attacker. The winner takes the soldiers, and the attacker who wins takes the card they aimed at."
        ),
        N_(
            "Draw the fourth card of a watchtower and win the free-for-all it starts, and you go on a campaign. "
            "When everyone is on a campaign, a final showdown decides the game."
        ),
    ),
    rules=fort,
    table_options=table_options,
    table_title=table_title,
    table_action=table_action,
    options_schema=OPTIONS_SCHEMA,
    action_schema=ACTION_SCHEMA,
    help_anchor=lambda view: {"deal": "getting-started", "setup": "burning", "play": "your-turn"}.get(
        view["phase"], "showdown"
    ),
)


# --- Pages ----------------------------------------------------------------------------


@bp.get("/")
def index():
    """The game in short, its tools, and the form that starts a tracked game."""
    return render_template("fort/page.html", game=GAME, seats=SHOWDOWN_SEATS)


@bp.get("/battle")
def battle():
    """The battle adjudicator: the situation, whether the challenge is allowed, then the verdict."""
    view = _battle_view(request.args)
    return render("fort/battle.html", "fort/_battle.html", game=GAME, view=view)


@bp.get("/showdown")
def showdown():
    """The showdown judge: each player's laid-out cards, then tricks and the winner (or the draws)."""
    view = _showdown_view(request.args)
    return render("fort/showdown.html", "fort/_showdown.html", game=GAME, view=view)


@bp.get("/help")
def help_page():
    """How to play, in Castellan's words, with one battle settled by the adjudicator."""
    example = _battle_view(EXAMPLE_BATTLE)
    return render_template(
        "fort/help.html",
        game=GAME,
        example=example,
        example_args=EXAMPLE_BATTLE,
        needed=fort.ARMY_NEEDED,
    )


# --- What a table's fragment draws ------------------------------------------------------


@keyed_as_they_are
class Tower(NamedTuple):
    """A watchtower as a fort shows it: its cards (the top last), its height, and the challenges of
    its top so far, as (the challenger's stored name, how many) pairs."""

    cards: tuple[str, ...]
    height: int
    tries: tuple[tuple[str, int], ...]


@keyed_as_they_are
class FortPlayer(NamedTuple):
    """One player's fort as the table shows it (templates/fort/_table.html draws it once per
    language and value: most forts are the same from one move to the next)."""

    id: str
    name: str  # as stored: the template says it in the reader's words
    current: bool
    out: bool
    army: int
    fort: int
    campaign: tuple[str, ...] | None
    towers: tuple[Tower, ...]
    dealing: bool


@keyed_as_they_are
class Forts(tuple):
    """Every player's ``FortPlayer``, in turn order; its own key for ``once``."""

    __slots__ = ()


def _challenge_item(option: dict, names: dict) -> tuple:
    """A challenge as the form names it: its key, the defender's name, the target, its height, the tries so
    far and the soldiers (a campaign battle's; 0 for a vulnerable fort)."""
    return (
        option["key"],
        names[option["defender"]],
        option["target"],
        option["height"],
        option["tries"],
        option["soldiers"],
    )


@bp.app_template_global("fort_table")
def fort_table(view: dict) -> dict:
    """What ``fort/_table.html`` draws from a table's view, worked out here once rather than by
    loops in the template: each player's name in the reader's words, the player to move, the
    forts, and the challenges open and closed now."""
    players = view["players"]
    tries: dict[str, list[tuple[str, int]]] = {}
    for other in players:
        for card, count in other["challenges"].items():
            if count:
                tries.setdefault(card, []).append((other["name"], count))
    dealing = view["phase"] == "deal"
    turn = view["turn"]
    by_id = {p["id"]: p for p in players}
    mover = by_id[turn] if turn else None
    challenges = view["challenges"]
    names = {p["id"]: say_name(p["name"]) for p in players}
    return {
        "names": names,
        "by_id": by_id,
        "mover": mover,
        "forts": Forts(
            FortPlayer(
                p["id"],
                p["name"],
                p["id"] == turn,
                p["out"],
                p["army"],
                len(p["fort"]),
                tuple(p["campaign"]) if p["campaign"] else None,
                tuple(
                    Tower(tuple(tower["cards"]), tower["height"], tuple(tries.get(tower["top"], ())))
                    for tower in p["watchtowers"]
                ),
                dealing,
            )
            for p in players
        ),
        # each challenge as the challenge form's pieces are keyed (templates/fort/_challenge.html)
        "offered_items": tuple(
            _challenge_item(option, names) for option in challenges if not option["refusal"]
        ),
        "closed_items": tuple(
            (*_challenge_item(option, names)[1:], option["said"]["refusal"])
            for option in challenges
            if option["refusal"]
        ),
        "can_build": bool(mover and not mover["campaign"] and mover["army"]),
    }


# --- JSON API -------------------------------------------------------------------------


# --- The battle adjudicator -----------------------------------------------------------


def _battle_view(args) -> dict:
    """What the adjudicator shows: the situation, the permission, the soldiers laid, the verdict."""
    view = {
        "form": {key: _text(args.get(key)) for key in _SITUATION_FIELDS},
        # A suit tapped on the soldier's picker sends the form: it lays that soldier.
        "do": _text(args.get("do")) or ("lay" if args.get("pick_suit") else ""),
        "allowed": False,
        "size": 0,
        "refusal": None,
        "laid": {"attacker": [], "defender": []},
        "next": None,
        "verdict": None,
        "notices": [],
    }
    if not view["do"]:
        return view
    try:
        situation = _situation(args)
        view["form"]["target"] = str(situation["target"]) if situation["target"] else ""
        view["size"] = _soldiers_needed(situation)
    except RuleError as refused:
        view["refusal"] = refused.sentence
        return view
    view["allowed"] = True
    try:
        _lay_soldiers(view, situation, args)
    except RuleError as refused:
        view["notices"].append(("error", say(refused)))
    return view


def _situation(args) -> dict:
    """Step 1 of the adjudicator read from the form: both sides, the stake, which challenge, the size."""
    attacker = fort.Side(
        _whole(args.get("a_army"), "a_army", N_("The attacker's army"), 0, fort.DECK_SIZE),
        _whole(args.get("a_fort"), "a_fort", N_("The attacker's fort"), 0, fort.DECK_SIZE),
        bool(args.get("a_campaign")),
    )
    defender = fort.Side(
        _whole(args.get("d_army"), "d_army", N_("The defender's army"), 0, fort.DECK_SIZE),
        1,
        bool(args.get("d_campaign")),
    )
    if args.get("stake") == "campaign":
        return {"attacker": attacker, "defender": defender, "target": None, "height": 1, "challenge": 1}
    target = _picker(args, "target")
    if target is None:
        raise RuleError(
            "no_target", N_("Pick the card challenged: tap its rank and suit, or type it."), "target"
        )
    return {
        "attacker": attacker,
        "defender": defender,
        "target": target,
        "height": _whole(
            args.get("height") or "1", "height", N_("The watchtower's height"), 1, fort.COMPLETE
        ),
        "challenge": _whole(args.get("challenge") or "1", "challenge", N_("The challenge"), 1, 9),
        "size": _whole(args.get("size") or "1", "size", N_("The challenge size"), 1, 2),
    }


def _soldiers_needed(situation: dict) -> int:
    return fort.soldiers_needed(
        situation["attacker"],
        situation["defender"],
        situation["target"] is not None,
        situation["height"],
        situation["challenge"],
        situation.get("size", 1),
    )


def _lay_soldiers(view: dict, situation: dict, args) -> None:
    """Step 2: the soldiers turned over so far (typed, or one more tapped), then the verdict once all are in."""
    laid = view["laid"]
    for side in SIDES:
        laid[side] = [
            str(card)
            for card in _typed_cards(
                args.get(f"{side[0]}_soldiers"), f"{side}'s soldiers", _SOLDIERS_WORDS[side]
            )
        ]
    size = view["size"]
    for side in SIDES:
        if len(laid[side]) > size:
            raise RuleError("too_many_soldiers", _TOO_MANY[side], count=size, laid=len(laid[side]))
    # Whose soldier comes next, set before the tap is read: a refused tap (a suit without its rank, a
    # card already in the battle) leaves the picker on screen for the same soldier.
    view["next"] = _next_side(laid, size)
    if view["do"] == "lay":
        _turn_over(laid, size, args)
    elif view["do"] == "back":
        _take_back(laid)
    view["next"] = _next_side(laid, size)
    if view["next"] is None:
        soldiers = (_parsed(laid["attacker"]), _parsed(laid["defender"]))
        view["verdict"] = fort.adjudicate(
            situation["attacker"],
            situation["defender"],
            soldiers,
            situation["target"],
            situation["height"],
            situation["challenge"],
            size if situation["target"] is not None else None,
        )


def _turn_over(laid: dict, size: int, args) -> None:
    """One more soldier turned over, on the side whose turn it is in the pairs (attacker first)."""
    side = _next_side(laid, size)
    if side is None:
        raise RuleError("all_laid", N_("Every soldier is already laid."), "pick")
    card = _picker(args, "pick")
    if card is None:
        raise RuleError("no_card", _PICK_SOLDIER[side], "pick")
    named = laid["attacker"] + laid["defender"] + ([args.get("target")] if args.get("target") else [])
    if str(card) in {str(known) for known in _parsed(named)}:
        raise RuleError(
            "duplicate_card",
            N_("The %(card)s is already in this battle: a deck holds it once."),
            "pick",
            card=card.in_words,
        )
    laid[side].append(str(card))


def _take_back(laid: dict) -> None:
    side = "defender" if len(laid["defender"]) == len(laid["attacker"]) else "attacker"
    if laid[side]:
        laid[side].pop()


def _next_side(laid: dict, size: int) -> str | None:
    """Whose soldier is turned over next: pairs go attacker, defender, attacker, defender…"""
    if len(laid["attacker"]) == len(laid["defender"]):
        return "attacker" if len(laid["attacker"]) < size else None
    return "defender"


# --- The showdown judge ---------------------------------------------------------------


def _showdown_view(args) -> dict:
    """What the judge shows: the players' lines as typed, then the showdown's answer."""
    rows = [
        {
            "seat": seat,
            "name": _text(args.get(f"name_{seat}")),
            "army": _text(args.get(f"army_{seat}")),
            "picked": any(key.startswith(f"army_{seat}_") for key in args),
            "tower": _text(args.get(f"tower_{seat}")),
        }
        for seat in SHOWDOWN_SEATS
    ]
    view = {"rows": rows, "slots": SHOWDOWN_SLOTS, "answer": None, "players": [], "notices": []}
    if not args.get("do"):
        return view
    try:
        tapped = [{**row, "army": " ".join(_cards_named(args, f"army_{row['seat']}"))} for row in rows]
        body, view["players"] = _showdown_body(tapped)
        view["answer"] = fort.api_showdown(body)
    except RuleError as refused:
        view["notices"].append(("error", _showdown_words(refused)))
    return view


def _showdown_body(rows: list[dict]) -> tuple[dict, list[str]]:
    """The API body from the filled rows (players by name), and the players in order."""
    filled = [row for row in rows if row["army"]]
    names = [row["name"] or _player(row["seat"]) for row in filled]
    if len(filled) < fort.MIN_PLAYERS:
        raise RuleError(
            "player_count",
            N_("Type the cards of at least %(least)s players."),
            "army_1",
            least=fort.MIN_PLAYERS,
        )
    if len(set(names)) != len(names):
        raise RuleError(
            "same_name", N_("Two players have the same name: give each a different one."), "name_1"
        )
    armies = {
        name: [
            str(card)
            for card in _typed_cards(
                row["army"], f"{name}'s cards", Message(N_("%(name)s's cards"), name=name)
            )
        ]
        for name, row in zip(names, filled, strict=True)
    }
    body: dict = {"armies": armies}
    towers = {name: row["tower"] for name, row in zip(names, filled, strict=True) if row["tower"]}
    if towers:
        if len(towers) != len(names):
            raise RuleError(
                "watchtower_players", N_("Give every player's watchtower rank, or none at all."), "tower_1"
            )
        body["watchtowers"] = towers
    return body, names


def _showdown_words(refused: RuleError) -> str:
    """A refusal in the judge's words: the API's “watchtowers.Ann” reads as Ann's watchtower."""
    key = str(refused.sentence.params.get("key", ""))
    if refused.code == "unknown_rank" and key.startswith("watchtowers."):
        params = {**refused.sentence.params, "name": key.removeprefix("watchtowers.")}
        del params["key"]
        return say(
            Message(N_("%(name)s's watchtower must be a rank: 2-10, %(j)s, %(q)s, %(k)s or %(a)s."), **params)
        )
    return say(refused)


# --- The table's action forms -----------------------------------------------------------


def _read_deal(form: dict) -> dict:
    players = sorted({key.split("_")[1] for key in form if key.startswith("fort_")})
    return {"forts": {player: _cards_named(form, f"fort_{player}") for player in players}}


def _read_burn(form: dict) -> dict:
    player, _, card = _text(form.get("card")).rpartition(":")  # before the game: "p1:9H"
    if not card:
        raise RuleError("no_card", N_("Choose the fort card burned."), "card")
    action = {"card": card, "draws": _whole(form.get("draws") or "1", "draws", N_("The cards drawn"), 1, 2)}
    if player:
        action["player"] = player
    return action


def _read_draw(form: dict) -> dict:
    card = _picker(form, "card")
    return {"card": str(card)} if card else {}


def _read_fortify(form: dict) -> dict:
    return {"cards": _cards_named(form, "cards")}


def _read_challenge(form: dict) -> dict:
    choice = _text(form.get("target"))
    defender, _, target = choice.partition(":")
    if not defender:
        raise RuleError(
            "no_target", N_("Choose the fort card challenged, or the campaign to fight."), "target"
        )
    action = {
        "defender": defender,
        "target": target or None,
        "soldiers": {side: _cards_named(form, f"{side[0]}_soldiers") for side in SIDES},
    }
    if target and form.get("size"):
        action["size"] = _whole(form.get("size"), "size", N_("The challenge size"), 0, 2)
    return action


def _read_replace(form: dict) -> dict:
    return {"card": _picked(form, "card", N_("Name the card taken from the barracks into the fort."))}


def _read_laid(form: dict) -> dict:
    players = sorted({key.split("_")[1] for key in form if key.startswith("laid_")})
    return {
        "laid": {
            player: _picked(form, f"laid_{player}", N_("Pick the card each player laid: its rank and suit."))
            for player in players
        }
    }


def _read_restock(form: dict) -> dict:
    kept = _text(form.get("kept"))
    if not kept:
        raise RuleError("bad_restock", N_("Choose the watchtower card that stays in the fort."), "kept")
    return {"fort": [kept, *_cards_named(form, "drawn")]}


def _read_showdown(form: dict) -> dict:
    players = sorted({key.split("_")[1] for key in form if key.startswith("line_")})
    return {"laid": {player: _cards_named(form, f"line_{player}") for player in players}}


def _read_nothing(form: dict) -> dict:
    return {}


_ACTIONS = {
    "deal": _read_deal,
    "burn": _read_burn,
    "start": _read_nothing,
    "draw": _read_draw,
    "fortify": _read_fortify,
    "challenge": _read_challenge,
    "replace": _read_replace,
    "free_for_all": _read_laid,
    "restock": _read_restock,
    "end_turn": _read_nothing,
    "showdown": _read_showdown,
    "share": _read_nothing,
}


# --- Private helpers ------------------------------------------------------------------

_SITUATION_FIELDS = (
    "a_army",
    "a_fort",
    "a_campaign",
    "d_army",
    "d_campaign",
    "stake",
    "target",
    "height",
    "challenge",
    "size",
)
_SEPARATORS = re.compile(r"[\s,;]+")
_SOLDIERS_WORDS = {"attacker": N_("attacker's soldiers"), "defender": N_("defender's soldiers")}
_TOO_MANY = {
    "attacker": NP_(
        "Each side lays %(count)s soldier: the attacker has %(laid)s.",
        "Each side lays %(count)s soldiers: the attacker has %(laid)s.",
    ),
    "defender": NP_(
        "Each side lays %(count)s soldier: the defender has %(laid)s.",
        "Each side lays %(count)s soldiers: the defender has %(laid)s.",
    ),
}
_PICK_SOLDIER = {
    "attacker": N_("Pick the attacker's soldier: tap its rank and suit, or type it."),
    "defender": N_("Pick the defender's soldier: tap its rank and suit, or type it."),
}


def _player(number: int) -> str:
    """A player left unnamed, in this page's language: "Player 2"."""
    return say(Message(N_("Player %(number)s"), number=number))


def _text(value: object) -> str:
    """A form field as trimmed text ('' for a missing or repeated field)."""
    return value.strip()[:200] if isinstance(value, str) else ""


def _names_typed(value: object) -> list[str]:
    """Card names typed in one field, separated by spaces or commas, as written (the rules read them)."""
    return [name for name in _SEPARATORS.split(_text(value)) if name]


def _cards_named(form: dict, name: str) -> list[str]:
    """The cards of a group of card slots (templates/fort/_slots.html), or its typed field if used.

    Slot ``name_1`` posts ``name_1_rank`` and ``name_1_suit``; empty slots are skipped and
    half a choice is refused. The rules read the names and refuse a bad card.
    """
    typed = _names_typed(form.get(name))
    if typed:  # typed as the page's language writes cards ("DP" in French), passed on as the rules read them
        return [_canonical(text, name) for text in typed]
    cards = []
    for index in range(1, fort.DECK_SIZE + 1):
        card = from_picker(
            None, form.get(f"{name}_{index}_rank"), form.get(f"{name}_{index}_suit"), name, current_language()
        )
        if card is not None:
            cards.append(str(card))
    return cards


def _typed_cards(value: object, field: str, what: str | Message) -> list[Card]:
    """Typed card names read as cards; a bad name or a card named twice is refused."""
    try:
        return parse_distinct([_canonical(text, field) for text in _names_typed(value)], field)
    except RuleError as refused:
        said = Message(N_("In the %(what)s: %(reason)s"), what=_as_message(what), reason=refused.sentence)
        raise RuleError(refused.code, said, refused.field) from None


def _picker(form, name: str) -> Card | None:
    """The card chosen on the card picker ``name``: typed (as ``_canonical`` reads it), else tapped."""
    typed = form.get(name)
    typed = _canonical(typed, name) if isinstance(typed, str) and typed.strip() else typed
    return from_picker(typed, form.get(f"{name}_rank"), form.get(f"{name}_suit"), name)


def _canonical(text: str, field: str) -> str:
    """A typed card as the rules name it: read in the page's language ("DP" is the queen of spades in
    French), else as the API writes it ("QS", which the page itself puts back in a typed field)."""
    try:
        return str(parse(text, field, current_language()))
    except RuleError:
        try:
            return str(parse(text, field))
        except RuleError:
            pass
        raise


def _as_message(value: str | Message) -> Message:
    return value if isinstance(value, Message) else Message(value)


def _parsed(names: list) -> list[Card]:
    return parse_distinct([name for name in names if name])


def _picked(form: dict, name: str, missing: str) -> str:
    """The card chosen on the card picker ``name``, or a RuleError saying what is missing."""
    card = _picker(form, name)
    if card is None:
        raise RuleError("no_card", missing, name)
    return str(card)


def _whole(text: object, field: str, what: str, low: int, high: int) -> int:
    """A whole number typed in a form (or given as one, by the API), within bounds, or a RuleError in
    the player's words."""
    value = str(text) if type(text) is int else text.strip() if isinstance(text, str) else ""
    if not (value.isdecimal() and len(value) <= 6):  # not isdigit: "²" is a digit int() cannot read
        if value:
            raise RuleError(
                "bad_number",
                N_("%(what)s is a whole number, and “%(text)s” is not one."),
                field,
                what=Message(what),
                text=value[:12],
            )
        raise RuleError(
            "bad_number", N_("%(what)s is a whole number, and nothing is not one."), field, what=Message(what)
        )
    if not low <= int(value) <= high:
        raise RuleError(
            "out_of_range",
            N_("%(what)s must be between %(low)s and %(high)s."),
            field,
            what=Message(what),
            low=low,
            high=high,
        )
    return int(value)
