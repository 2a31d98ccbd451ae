"""Castle: its pages (calculator, tracker, score sheet, help) and its JSON API.

Thin views: read the request, call ``companion.rules.castle``, render. The calculator and
the score sheet are GET forms (they change nothing on the server), so they work without
JavaScript and their address can be shared; htmx swaps only their fragment.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from flask import Blueprint, render_template, request
from markupsafe import Markup

from companion.i18n import current_language, say, say_name
from companion.rules import castle
from companion.rules.cards import RANK_WORDS, Card, from_picker, letters, parse
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, Message, versus
from companion.service import schemas
from companion.service.games import Game
from companion.web.rendering import render
from companion.web.templating import escape_text, keyed_as_they_are

bp = Blueprint("castle", __name__, url_prefix="/castle")

# Piles as a person reads the castle: row by row, left to right (A1 B1 C1 D1 A2 ...).
READING_ORDER = tuple(f"{column}{row}" for row in castle.ROWS for column in castle.COLUMNS)
COUNT_FIELDS = tuple(castle.COUNTED_RANKS)
# The worked example of the help page (docs/castle.md), before and after the queen of hearts on C2.
EXAMPLE = castle.EXAMPLE
EXAMPLE_PLAY = ("QH", "C2")


def table_options(options: dict) -> dict:
    """The creation options (typed, ``OPTIONS_SCHEMA``): ``players`` (4 or 2), ``dealer``, ``name_<seat>``."""
    players = _whole(options.get("players") or "4", "players", "players")
    order = castle.SEAT_ORDER.get(players, ())
    names = {seat: options.get(f"name_{seat}", "") for seat in order}
    return {"players": players, "dealer": options.get("dealer") or "N", "names": names}


def table_title(options: dict) -> str | Message:
    """A table's title in lists: the two sides, "Ola & Kuba v Ewa & Jan" (an unnamed seat "North")."""
    names = {**castle.SEAT_NAMES, **{seat: name for seat, name in options.get("names", {}).items() if name}}
    teams = castle.TEAMS.get(options.get("players"), {})
    sides = [
        Message(N_("%(first)s & %(second)s"), first=names[seats[0]], second=names[seats[1]])
        if len(seats) == 2
        else names[seats[0]]
        for seats in teams.values()
    ]
    return versus(*sides) if sides else ""


def table_action(form: dict, viewer: str) -> dict:
    """A posted move: ``type`` deal (the 12 piles), play (card + pile) or pass (card taken)."""
    kind = form.get("type") or ("play" if form.get("pile") else None)  # a tapped pile plays the card
    if kind == "deal":
        return {"type": "deal", "castle": _dealt_castle(form)}
    if kind == "play":
        card = _picked(form, "card", N_("Pick the card that was played: its rank and suit, or type it."))
        pile = form.get("pile")
        if not isinstance(pile, str) or not pile.strip():
            raise RuleError("no_pile", N_("Tap the pile the %(card)s went on."), "pile", card=card.in_words)
        return {"type": "play", "card": str(card), "pile": pile}
    if kind == "pass":
        card = _picked(form, "card", N_("Pick the card the opponent took from the passer's hand."))
        return {"type": "pass", "taken": str(card)}
    raise RuleError("unknown_action", N_("Choose to deal, play or pass."), "type")


OPTIONS_SCHEMA = schemas.options(
    "The start form: 4 players in two teams (N and S against E and W) or 2, the dealer, and names.",
    {
        "players": {"enum": [4, 2, "4", "2"]},
        "dealer": {"enum": list(castle.SEAT_NAMES)},
        **{f"name_{seat}": schemas.NAME for seat in castle.SEAT_NAMES},
    },
)
ACTION_SCHEMA = schemas.actions(
    schemas.action(
        "deal",
        "The 12 cards dealt face up, pile by pile.",
        {
            "castle": {"type": "object", "additionalProperties": schemas.CARD},
        },
    ),
    schemas.action(
        "play", "The player to move put a card on a pile.", {"card": schemas.CARD, "pile": schemas.TEXT}
    ),
    schemas.action(
        "pass", "The player to move passed; the opponent took this card.", {"taken": schemas.CARD}
    ),
)


GAME = Game(
    slug="castle",
    name=N_("Castle"),
    tagline=N_("Twelve piles in a 4x3 castle; every pile's worth depends on its neighbours."),
    players=N_("4 players in two teams, or 2"),
    order=2,
    summary=(
        N_(
            "Twelve cards lie face up in four columns and three rows. A card's value is its own rank, plus one for each neighbouring pile of its colour, minus one for each of the other colour."
        ),
        N_(
            "On your turn you put a card on a pile of the same colour, or on a pile of the other colour if your card's rank beats that pile's value, or you pass and lose a card to an opponent."
        ),
        N_(
            "At the end each team collects the piles of its colour and scores the captured cards of the other colour: aces, kings, queens and jacks above all."
        ),
    ),
    rules=castle,
    table_options=table_options,
    table_title=table_title,
    table_action=table_action,
    options_schema=OPTIONS_SCHEMA,
    action_schema=ACTION_SCHEMA,
    help_anchor=lambda view: {"deal": "the-deal-and-the-castle", "play": "your-turn"}.get(
        view["phase"], "the-end-and-the-score"
    ),
)


# --- Pages ----------------------------------------------------------------------------


@bp.get("/")
def index():
    """The game in short, its tools, and the form that starts a tracked game."""
    return render_template("castle/page.html", game=GAME, seat_names=castle.SEAT_NAMES)


@bp.get("/calculator")
def calculator():
    """The pile-value calculator: enter the 12 tops, see every value and where a card may go."""
    notices: list[tuple[str, str]] = []
    tops = _read_or_report(
        lambda: castle.read_tops({p: request.args.get(p) for p in castle.PILES}), notices, {}
    )
    # The piles and the card checked travel in hidden fields by their canonical names (4C, QH), whatever the page's language.
    checked = _read_or_report(lambda: from_picker(request.args.get("card"), field="card"), notices, None)
    target = request.args.get("pile", "").strip().upper()
    try:
        tops, target, checked = _calculator_step(request.args.get("do"), tops, target, checked)
    except RuleError as refused:
        notices.append(("error", say(refused)))
    view = _calculator_view(tops, target, checked, notices)
    return render("castle/calculator.html", "castle/_calculator.html", game=GAME, view=view)


@bp.get("/score")
def score_sheet():
    """The score sheet of a game that was not tracked: count each side's captured cards per rank."""
    counts = {
        side: {key: request.args.get(f"{side}_{key}", "") for key in COUNT_FIELDS}
        for side in ("red", "black")
    }
    result, error = None, None
    if any(text.strip() for side in counts.values() for text in side.values()):
        try:
            numbers = {
                side: {
                    key: _whole(text or "0", f"{side}.{key}", "count") for key, text in side_counts.items()
                }
                for side, side_counts in counts.items()
            }
            result = castle.score_counts(numbers)
        except RuleError as refused:
            error = say(refused)
    view = {
        "counts": counts,
        "result": result,
        "error": error,
        "limits": {key: len(castle.COUNTED_RANKS[key]) * 2 for key in COUNT_FIELDS},
        "points": {key: castle.PICKUP_POINTS.get(key, castle.OTHER_POINTS) for key in COUNT_FIELDS},
    }
    return render("castle/score.html", "castle/_score.html", game=GAME, view=view)


@bp.get("/help")
def help_page():
    """How to play, in Castellan's words, with the value rule shown on a real castle."""
    before = castle.read_tops(EXAMPLE)
    card, pile = EXAMPLE_PLAY
    after = {**before, pile: castle.read_tops({pile: card})[pile]}
    return render_template(
        "castle/help.html",
        game=GAME,
        before=_grid(before),
        after=_grid(after, highlight={pile, "B2"}),
        pickup_points=castle.PICKUP_POINTS,
        rank_words=RANK_WORDS,
    )


@keyed_as_they_are
class Cell(NamedTuple):
    """One pile as ``castle_grid`` draws it: its name, top card, value and height (None while
    empty), ``legal`` (True or False where ``castle_marks`` marks it for the card being checked,
    else None), ``last`` (the last move's pile) and ``highlight``."""

    pile: str
    card: str | None
    value: int | None
    height: int | None
    legal: bool | None
    last: bool
    highlight: bool = False


@keyed_as_they_are
class Row(tuple):
    """A castle's row: its four ``Cell``; its own key for ``once``."""

    __slots__ = ()


@keyed_as_they_are
class Grid(tuple):
    """A castle's three ``Row``, row 1 first; its own key for ``once`` (templates/castle/_grid.html
    draws a grid once per language and value, and each pile once)."""

    __slots__ = ()


@bp.app_template_global("castle_rows")
def castle_rows(view: dict, marks: dict | None) -> Grid:
    """A table's castle as ``castle_grid`` draws it: 3 rows of 4 ``Cell``. Built here once, not
    cell by cell in the template, where it cost a fifth of a move's page."""
    last = view["last"]
    last_pile = last["pile"] if last and last["type"] == "play" else None
    reasons = marks["reasons"] if marks else None
    piles = view["piles"]
    rows = []
    for row in _ROWS:
        cells = []
        for pile in row:
            shown = piles.get(pile)
            cells.append(
                Cell(
                    pile,
                    shown["top"] if shown else None,
                    shown["value"] if shown else None,
                    shown["height"] if shown else None,
                    (reasons[pile] is None) if reasons and pile in reasons else None,
                    pile == last_pile,
                )
            )
        rows.append(Row(cells))
    return Grid(rows)


@keyed_as_they_are
class Seat(NamedTuple):
    """A row of the table's players: the seat, its stored name, cards in hand and turns left."""

    seat: str
    name: str
    cards: int
    turns_left: int


@bp.app_template_global("castle_table")
def castle_table(view: dict) -> dict:
    """What ``castle/_table.html`` draws from a table's view, worked out here once rather than by
    loops in the template: the seats by id, their names and each side's name in the reader's words ("Ola & Sud":
    the view's names are the stored ones, as the API gives them), and the seats as values ``once``
    keys the players' table with."""
    by_seat = {seat["seat"]: seat for seat in view["seats"]}
    language = current_language()
    names = {seat: _said_name(language, info["name"]) for seat, info in by_seat.items()}
    pair = None
    team_names = {}
    for team, info in view["teams"].items():
        seats = info["seats"]
        if len(seats) == 2:
            # What the template's _('%(first)s & %(second)s', ...) wrote: the sentence as it is, the names escaped.
            pair = pair or Markup(say(_PAIR))
            team_names[team] = pair % {"first": names[seats[0]], "second": names[seats[1]]}
        else:
            team_names[team] = names[seats[0]]
    return {
        "by_seat": by_seat,
        "names": names,
        "team_names": team_names,
        "seats": tuple(
            Seat(seat["seat"], seat["name"], seat["cards"], seat["turns_left"]) for seat in view["seats"]
        ),
    }


@functools.lru_cache(maxsize=4096)
def _said_name(language: str, name: str) -> str:
    """A stored name in the reader's words (``say_name``), kept by language and name: a move's page
    says each seat's name several times."""
    return say_name(name)  # in this request's catalog, whose language is ``language``


_PAIR = N_("%(first)s & %(second)s")


@bp.app_template_global("castle_seats")
def castle_seats(seats_head, seat_row, seats: tuple, turn: str | None, dealer: str | None) -> Markup:
    """The players' table: its head (``seats_head``) and each player's row (``seat_row``), macros kept
    by ``once``, joined here: a move changes two rows, and a macro joining them with a Jinja loop
    cost more than the rows."""
    rows = "".join([f"      {seat_row(seat, seat.seat == turn, seat.seat == dealer)}\n" for seat in seats])
    return Markup(f"{seats_head()}{rows}    </tbody>\n  </table>\n  </div>")


# Piles as drawn, by (language, Cell, pick, checked, tap), in an lru_cache of the piles made for
# their macros (once per template module): a finite set (12 piles, their cards, values and heights),
# bounded all the same.
PILES_KEPT = 20_000


@bp.app_template_global("castle_piles")
def castle_piles(card, pile_value, pile_height):
    """_grid.html's ``piles(rows, pick, target, tap)``: a castle's piles, row by row: radio choices
    named ``pick`` (``target`` checked), submit buttons named ``tap``, or plain boxes. Each pile is
    drawn here from the macros kept by ``once`` for its card, value and height, the first time it is
    seen in this language, and joined: a move redraws the piles it changed (two to six), and a pile
    macro cost more than the rest of the grid. A pile given as a dict (the calculator's, the help
    page's) is read as a ``Cell``."""

    @functools.lru_cache(maxsize=PILES_KEPT)
    def drawn(_language: str, cell: Cell, pick: str | None, checked: bool | None, tap: str | None) -> str:
        return _drawn_pile(card, pile_value, pile_height, cell, pick, checked, tap)

    def piles(rows, pick: str | None, target: str | None, tap: str | None) -> Markup:
        language = current_language()
        html = []
        for row in rows:
            for cell in row:
                if type(cell) is not Cell:
                    cell = Cell(
                        cell["pile"],
                        cell.get("card"),
                        cell.get("value"),
                        cell.get("height"),
                        cell.get("legal"),
                        bool(cell.get("last")),
                        bool(cell.get("highlight")),
                    )
                html.append(drawn(language, cell, pick, cell.pile == target if pick else None, tap))
        return Markup("".join(html))

    return piles


# A pile's words for the card being checked, and the last move's tag.
_MAY, _MAY_NOT, _LAST_MOVE = N_("may go here"), N_("may not go here"), N_("last move")


def _drawn_pile(card, pile_value, pile_height, cell: Cell, pick, checked, tap) -> str:
    """One pile's HTML (what the ``pile`` macro of castle/_grid.html drew): its mark for the card
    being checked (an id of its own when tapped), its top card, value, height and the last move's tag."""
    legal = cell.legal
    marked = " legal" if legal is True else " illegal" if legal is False else ""
    classes = (
        "pile"
        + ("" if tap else marked)
        + (" highlight" if cell.highlight else "")
        + (" last" if cell.last else "")
    )
    name = escape_text(cell.pile)
    if pick:
        start = f'<label class="{classes}"><input type="radio" name="{escape_text(pick)}" value="{name}"{" checked" if checked else ""}>\n'
        end = "</label>"
    elif tap:
        start = f'<button type="submit" name="{escape_text(tap)}" value="{name}" class="{classes}">\n'
        end = "</button>"
    else:
        start, end = f'<div class="{classes}">', "</div>"
    mark = ""
    if tap or legal is not None:
        said = ""
        if legal is not None:
            said = (
                f'<span aria-hidden="true">{"✓" if legal else "✗"}</span>'
                f'<span class="sr-only">{say(_MAY) if legal else say(_MAY_NOT)}</span>'
            )
        ident = f' id="mark-{name}"' if tap else ""
        mark = f'<span class="pile-mark{marked}"{ident}>{said}</span>'
    value = pile_value(cell.value) if cell.value is not None else ""
    height = pile_height(cell.height) if cell.height else ""
    last = f'<span class="pile-last">{say(_LAST_MOVE)}</span>' if cell.last else ""
    return f'{start}    <span class="pile-name">{name}</span>\n{mark}    {card(cell.card)}\n{value}{height}{last}{end}'


_ROWS = tuple(tuple(f"{column}{row}" for column in castle.COLUMNS) for row in castle.ROWS)
# The ids of the 12 piles' marks, which a "Where may it go?" check swaps (castle/_table.html).
bp.add_app_template_global("#mark-" + ",#mark-".join(READING_ORDER), "castle_mark_ids")


_CHECK_WHICH = N_("Pick the card to check: tap its rank, then its suit, or type it.")


@bp.app_template_global("castle_marks")
def castle_marks(table, picked) -> dict | None:
    """The card ``picked`` on a Castle table's card picker (its fields), and the piles' marks for it.

    ``{"card": "QH", "reasons": {pile: why not, or None where it may go}, "refused": None}``, with
    ``refused`` saying why it may go nowhere (a card already seen); None while no whole card is picked,
    unless *Where may it go?* was tapped (``do=check``): then ``refused`` says what is missing.
    """
    if table.game != GAME.slug or table.state["phase"] != "play":
        return None
    asked = picked.get("do") == "check"  # the button, not the picker changing under a finger
    try:
        card = from_picker(
            picked.get("card"), picked.get("card_rank"), picked.get("card_suit"), "card", current_language()
        )
        if card is None:
            raise RuleError("no_card", _CHECK_WHICH, "card")
    except RuleError as missing:  # half a card, or none: said when asked, else the move says it
        return {"card": None, "reasons": {}, "refused": say(missing)} if asked else None
    try:
        return {"card": str(card), "reasons": castle.play_marks(table.state, card), "refused": None}
    except RuleError as refused:
        return {"card": str(card), "reasons": {}, "refused": say(refused)}


# --- JSON API -------------------------------------------------------------------------


# --- Private helpers ------------------------------------------------------------------


def _calculator_step(do: object, tops: dict, target: str, checked: Card | None):
    """Apply the calculator's button: put a card on a pile, type a row, or check a card."""
    args = request.args
    if do == "put":
        card = _picked(args, "pick", N_("Pick a card first: tap its rank, then its suit, or type it."))
        if target not in castle.PILES:
            raise RuleError("no_pile", N_("Tap the pile to put the %(card)s on."), "pile", card=card.in_words)
        tops = castle.read_tops({**_names(tops), target: str(card)})
        return tops, _next_empty(tops, target), checked
    if do == "row":
        names = str(args.get("row", "")).replace(",", " ").split()
        if len(names) > len(READING_ORDER):
            raise RuleError(
                "castle_size",
                N_("The castle has 12 piles; you typed %(typed)s cards."),
                "row",
                typed=len(names),
            )
        named = dict(zip(READING_ORDER, names, strict=False))
        tops = castle.read_tops(
            {pile: "" if name == "-" else _canonical(name, pile) for pile, name in named.items()}
        )
        return tops, _next_empty(tops, READING_ORDER[0]), checked
    if do == "check":
        card = _picked(args, "pick", _CHECK_WHICH)
        return tops, target, card
    return tops, target, checked


def _calculator_view(tops: dict, target: str, checked: Card | None, notices: list) -> dict:
    """What the calculator shows: the grid, the values once complete, where the checked card may go."""
    reasons: dict[str, str | None] = {}
    totals: dict[str, int] = {}
    if len(tops) == len(castle.PILES):
        body = {"castle": _names(tops), "card": str(checked) if checked else None}
        try:
            answer = castle.api_values(body)
        except RuleError as refused:
            notices.append(("error", say(refused)))
            checked, answer = None, castle.api_values({"castle": body["castle"]})
        totals = answer["values"]
        reasons = castle.placements(tops, checked) if checked else {}
    if target not in castle.PILES:
        target = _next_empty(tops, READING_ORDER[0])
    return {
        "grid": _grid(tops, totals, reasons),
        "tops": _names(tops),
        "target": target,
        "checked": str(checked) if checked else None,
        "refusals": [(pile, reason) for pile, reason in reasons.items() if reason],
        "legal": [pile for pile, reason in reasons.items() if reason is None],
        "missing": len(castle.PILES) - len(tops),
        "row": " ".join(_typed(tops[pile]) if pile in tops else "-" for pile in READING_ORDER)
        if tops
        else "",
        "placeholder": " ".join(_typed(parse(EXAMPLE[pile]), lower=True) for pile in READING_ORDER),
        "notices": notices,
    }


def _grid(tops: dict, totals: dict | None = None, reasons: dict | None = None, highlight=frozenset()) -> list:
    """The castle as rows of cells (row 1 first), each cell what a template needs to show a pile."""
    if totals is None:
        totals = castle.values(tops)
    reasons = reasons or {}
    return [
        [
            {
                "pile": pile,
                "card": str(tops[pile]) if pile in tops else None,
                "value": totals.get(pile),
                "legal": (reasons[pile] is None) if pile in reasons else None,
                "highlight": pile in highlight,
            }
            for pile in READING_ORDER[row * 4 : row * 4 + 4]
        ]
        for row in range(len(castle.ROWS))
    ]


def _names(tops: dict) -> dict[str, str]:
    return {pile: str(card) for pile, card in tops.items()}


def _next_empty(tops: dict, after: str) -> str:
    """The next pile to fill in reading order after ``after`` (wrapping), or ``after`` when all are full."""
    start = READING_ORDER.index(after) if after in READING_ORDER else 0
    for pile in READING_ORDER[start:] + READING_ORDER[:start]:
        if pile not in tops:
            return pile
    return after


def _picked(form, name: str, missing: str) -> Card:
    """The card chosen on the card picker ``name`` (``_cards.html``), or a RuleError saying what is missing."""
    card = from_picker(
        form.get(name), form.get(f"{name}_rank"), form.get(f"{name}_suit"), name, current_language()
    )
    if card is None:
        raise RuleError("no_card", missing, name)
    return card


def _dealt_castle(form: dict) -> dict:
    """The 12 piles of the deal form: one line of 12 names row by row, else one field per pile."""
    line = form.get("castle_line")
    if isinstance(line, str) and line.strip():
        names = line.replace(",", " ").split()
        if len(names) != len(READING_ORDER):
            raise RuleError(
                "castle_size",
                N_("The castle has 12 piles: type 12 cards row by row, not %(typed)s."),
                "castle",
                typed=len(names),
            )
        return {
            pile: _canonical(name, f"castle.{pile}") for pile, name in zip(READING_ORDER, names, strict=True)
        }
    named = {pile: form.get(pile) for pile in castle.PILES}
    missing = [pile for pile, text in named.items() if not isinstance(text, str) or not text.strip()]
    if missing:
        raise RuleError(
            "castle_size",
            N_("The castle has 12 piles; still empty: %(missing)s."),
            "castle",
            missing=", ".join(missing),
        )
    return {pile: _canonical(text, f"castle.{pile}") for pile, text in named.items()}


def _canonical(typed: str, field: str) -> str:
    """A card typed in the page's letters (``dc`` in French) as its canonical name (``QH``)."""
    return str(parse(typed, field, current_language()))


def _typed(card: Card, lower: bool = False) -> str:
    """A card as a player of the page's language types it: ``10C`` in English is ``10H`` in Polish and
    ``10C`` (cœur) in French; with ``lower``, the placeholder's short form (``tc``, ``10c`` in French,
    whose T is a suit)."""
    ranks, suits = letters(current_language())
    rank = (
        "T" if lower and card.rank == "10" and "T" not in suits.values() else ranks.get(card.rank, card.rank)
    )
    name = rank + suits[card.suit]
    return name.lower() if lower else name


# What a number typed in a form counts, in a whole sentence each: without and with the text typed.
NOT_WHOLE = {
    "players": (
        N_("The number of players is a whole number."),
        N_("The number of players is a whole number, and “%(text)s” is not one."),
    ),
    "count": (N_("A count is a whole number."), N_("A count is a whole number, and “%(text)s” is not one.")),
}


def _whole(text: object, field: str, what: str) -> int:
    """A whole number typed in a form (or given as one, by the API), or a RuleError in the player's words."""
    text = str(text) if type(text) is int else text
    # isdecimal, not isdigit: "²" is a digit to Python but not a number int() reads.
    if isinstance(text, str) and text.strip().isdecimal() and len(text.strip()) <= 6:
        return int(text.strip())
    if not isinstance(text, str):
        raise RuleError("bad_number", NOT_WHOLE[what][0], field)
    raise RuleError("bad_number", NOT_WHOLE[what][1], field, text=text[:12])


def _read_or_report(read, notices: list, fallback):
    """``read()``, or ``fallback`` with the refusal added to the notices (a tampered address)."""
    try:
        return read()
    except RuleError as refused:
        notices.append(("error", say(refused)))
        return fallback
