"""Forteresse: its pages (shot resolver, tables, score sheet, help) and its JSON API.

Thin views: read the request, call ``companion.rules.forteresse``, render. The resolver and
the score sheet are GET forms whose whole state lives in the address (the fortress, the
shots fired so far), so they work without JavaScript, change nothing on the server and
can be shared; htmx swaps only their fragment. Tables are played through the generic
table routes (``views/tables.py``); ``forteresse_table`` prepares what ``_table.html``
draws from the view alone, so a hidden fortress never reaches a phone that may not see it.
"""

from __future__ import annotations

import functools
import re
from operator import itemgetter
from typing import NamedTuple

from flask import Blueprint, render_template, request
from markupsafe import Markup, escape

from companion.i18n import current_language, say
from companion.rules import forteresse
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, Message, versus
from companion.service import schemas
from companion.service.games import Game
from companion.web.rendering import render
from companion.web.templating import keyed_as_they_are

bp = Blueprint("forteresse", __name__, url_prefix="/forteresse")

ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
WEAPON_WORDS = {"cannon": N_("Cannon"), "rifle": N_("Rifle")}
OUTCOME_WORDS = {
    "wall_destroyed": N_("Wall destroyed at …"),
    "besieged_killed": N_("Besieged killed at …"),
    "wall": N_("Wall."),
    "miss": N_("Miss."),
}
MARKS = ("empty", "wall", "besieged")
_GRID = tuple(tuple(f"{column}{row}" for column in forteresse.COLUMNS) for row in forteresse.ROWS)
_FIRING_GRID = tuple(
    tuple((cell, cell not in forteresse.FORTRESS) for cell in row) for row in _GRID
)  # (cell, firing)
FORTRESS_CELLS = tuple(forteresse.sort_cells(forteresse.FORTRESS))
# The help page's diagram: a corner, a cell beside a corner and the middle of a side.
EXAMPLE_FIRING_CELLS = ("A1", "G2", "D7")
EXAMPLE_FORTRESS = forteresse.EXAMPLE_FORTRESS  # the help page's fortress


def table_options(options: dict) -> dict:
    """The creation options (typed, ``OPTIONS_SCHEMA``): ``mode`` (phones or paper), ``first`` (a, b or
    random), ``name_a``, ``name_b``."""
    names = {
        seat: options[f"name_{seat}"].strip()
        for seat in forteresse.SEATS
        if isinstance(options.get(f"name_{seat}"), str) and options[f"name_{seat}"].strip()
    }
    return {
        "mode": options.get("mode") or "phones",
        "first": options.get("first") or "random",
        "names": names,
    }


def table_title(options: dict) -> str | Message:
    """A table's title in lists: "Ola v Kuba" (an unnamed seat "Player A")."""
    names = {
        **forteresse.DEFAULT_NAMES,
        **{seat: name for seat, name in options.get("names", {}).items() if name},
    }
    return versus(names["a"], names["b"])


def table_action(form: dict, viewer: str) -> dict:
    """A posted action: ``type`` setup (one mark per fortress cell) or shot (from, direction, weapon).

    On paper the referee adds the defender's answer: ``outcome`` and, for a hit, ``cell``. The referee
    may name the ``shooter``; the rules refuse anyone but the player whose turn it is.
    """
    kind = form.get("type")
    if kind == "setup":
        return {"type": "setup", **marked_fortress(form)}
    if kind == "shot":
        action = {
            "type": "shot",
            "from": form.get("from"),
            "direction": form.get("direction"),
            "weapon": form.get("weapon"),
        }
        if "shooter" in form:
            # The referee may name the shooter; the rules refuse anyone but the player whose turn it is.
            action["shooter"] = form["shooter"]
        if "outcome" in form:
            action["outcome"] = form["outcome"]
            # The form offers the path's cells whatever the answer: "Wall." and "Miss." name none.
            hit = form["outcome"] in ("wall_destroyed", "besieged_killed")
            action["cell"] = form.get("cell") if hit else None
            if hit and not action["cell"]:  # said as the page asks for it: a cell tapped, not typed
                raise RuleError(
                    "missing_cell", N_("Tap the cell of the path where it hit, in the row At."), "cell"
                )
        return action
    raise RuleError("unknown_action", N_("Choose to draw a fortress or to fire a shot."), "type")


def marked_fortress(form) -> dict:
    """The walls and besieged of a drawing form: a field ``c_<cell>`` per fortress cell, marked
    ``empty``, ``wall`` or ``besieged``. Unchecked cells are simply absent."""
    marks = read_marks(form)
    return {
        kind: [cell for cell, mark in marks.items() if mark == name]
        for kind, name in (("walls", "wall"), ("besieged", "besieged"))
    }


def read_marks(form) -> dict[str, str]:
    """Each fortress cell's mark in a drawing form, refusing anything but empty, wall or besieged."""
    marks = {}
    for cell in FORTRESS_CELLS:
        mark = form.get(f"c_{cell}") or "empty"
        if mark not in MARKS:
            shown = mark[:12] if isinstance(mark, str) else "that"
            raise RuleError(
                "unknown_mark",
                N_("A fortress cell holds a wall, a besieged or nothing, not “%(mark)s”."),
                f"c_{cell}",
                mark=shown,
            )
        marks[cell] = mark
    return marks


OPTIONS_SCHEMA = schemas.options(
    "The start form: on phones (each player draws the fortress on a private link) or on paper, who shoots first, names.",
    {
        "mode": {"enum": list(forteresse.MODES)},
        "first": {"enum": list(forteresse.FIRST_CHOICES)},
        **{f"name_{seat}": schemas.NAME for seat in forteresse.SEATS},
    },
)
_OPTIONAL_TEXT = {"type": ["string", "null"], "maxLength": 200}
ACTION_SCHEMA = schemas.actions(
    schemas.action(
        "setup",
        "A player's fortress (phones mode, through that player's link).",
        {
            "walls": {"type": "array", "items": schemas.CELL},
            "besieged": {"type": "array", "items": schemas.CELL},
        },
        schemas.MEMBER,
    ),
    schemas.action(
        "shot",
        "A shot; on paper the referee adds the defender's answer (outcome, cell).",
        {
            "from": _OPTIONAL_TEXT,
            "direction": _OPTIONAL_TEXT,
            "weapon": _OPTIONAL_TEXT,
        },
        {"shooter": _OPTIONAL_TEXT, "outcome": _OPTIONAL_TEXT, "cell": _OPTIONAL_TEXT, **schemas.MEMBER},
    ),
)


GAME = Game(
    slug="forteresse",
    name=N_("Forteresse"),
    tagline=N_(
        "A pencil-and-paper siege: find and fell the five defenders hidden in your opponent's fortress."
    ),
    players=N_("2 players"),
    order=1,
    summary=(
        N_(
            "Each player hides a fortress on a 7x7 grid: ten walls and five besieged inside the central 5x5 square."
        ),
        N_(
            "Players take turns firing from the cells around the fortress, with a cannon that breaks walls or a rifle that only harms the besieged. Only the first thing in the line of fire is hit."
        ),
        N_(
            "Killing a besieged is worth a lot; every shot you fire gives points to your opponent, so cheap rifle shots and careful aim pay. Two rounds make a game."
        ),
    ),
    rules=forteresse,
    table_options=table_options,
    table_title=table_title,
    table_action=table_action,
    options_schema=OPTIONS_SCHEMA,
    action_schema=ACTION_SCHEMA,
    help_anchor=lambda view: {"setup": "before-a-round", "shooting": "your-turn-one-shot"}.get(
        view["phase"], "score"
    ),
)


# --- Pages ----------------------------------------------------------------------------


@bp.get("/")
def index():
    """The game in short, its tools, and the form that starts a table."""
    return render_template("forteresse/page.html", game=GAME, names=_default_names())


@bp.get("/resolver")
def resolver():
    """The standalone shot resolver: draw a fortress, then call shots at it one by one."""
    view = resolver_view(request.args)
    return render("forteresse/resolver.html", "forteresse/_resolver.html", game=GAME, view=view)


@bp.get("/score")
def score_sheet():
    """The score sheet of a game played on paper: kills, cannons and rifles per player per round."""
    return render("forteresse/score.html", "forteresse/_score.html", game=GAME, view=score_view(request.args))


@bp.get("/help")
def help_page():
    """How to play, in Castellan's words, with the grid and the legal directions drawn."""
    fortress = forteresse.validate_setup(EXAMPLE_FORTRESS["walls"], EXAMPLE_FORTRESS["besieged"])
    rays = [
        {
            "from": cell,
            "directions": forteresse.legal_directions(cell),
            "paths": [forteresse.path(cell, d) for d in forteresse.legal_directions(cell)],
        }
        for cell in EXAMPLE_FIRING_CELLS
    ]
    shot = {"from": "A4", "direction": "E", "weapon": "cannon"}
    return render_template(
        "forteresse/help.html",
        game=GAME,
        rays=rays,
        arrows=ARROWS,
        example=board(walls=fortress["walls"], besieged=fortress["besieged"]),
        example_shot=shot,
        example_result=forteresse.resolve_shot(fortress, shot),
        example_path=forteresse.path("A4", "E"),
        trajectories=len(forteresse.TRAJECTORIES),
        compass_key=forteresse.COMPASS_KEY,
        points=(forteresse.POINTS_PER_KILL, forteresse.POINTS_PER_CANNON, forteresse.POINTS_PER_RIFLE),
    )


# --- The resolver and the score sheet -------------------------------------------------


def resolver_view(args) -> dict:
    """What the resolver shows for the fields of its address: drawing, aiming or after a shot."""
    notices: list[tuple[str, str]] = []
    do = args.get("do")
    try:
        setup, fired = _resolver_game(args)
    except RuleError as refused:
        notices.append(
            (
                "error",
                say(
                    Message(
                        N_("This resolver's address is damaged: %(reason)s Draw the fortress again."),
                        reason=refused.sentence,
                    )
                ),
            )
        )
        setup, fired, do = None, [], None
    if setup is None and do == "start":
        try:
            setup = forteresse.validate_setup(**marked_fortress(args))
        except RuleError as refused:
            notices.append(("error", say(refused)))
    if setup is None:
        return _drawing_view(args, notices)
    aim = args.get("from") or None
    if do == "fire":
        try:
            fired, aim = _fire(setup, fired, args), None
        except RuleError as refused:
            notices.append(("error", say(refused)))
    if aim is not None:
        try:
            aim = _aimed(fired, aim)
        except RuleError as refused:
            notices[:] = notices or [("error", say(refused))]
            aim = None
    return _firing_view(setup, fired, aim, notices)


def score_view(args) -> dict:
    """The score sheet's counts as typed, and the points once something is typed."""
    counts = {
        number: {
            seat: {key: args.get(f"r{number}_{seat}_{key}", "") for key in ("killed", "cannons", "rifles")}
            for seat in forteresse.SEATS
        }
        for number in (1, 2)
    }
    names = {seat: _name(args.get(f"name_{seat}"), default) for seat, default in _default_names().items()}
    result, error = None, None
    typed = [
        number
        for number, seats in counts.items()
        if any(str(text).strip() for tally in seats.values() for text in tally.values())
    ]
    if typed:
        try:
            rounds = [_round_numbers(counts[number], number, names) for number in range(1, max(typed) + 1)]
            result = forteresse.api_score({"rounds": rounds})
        except RuleError as refused:
            error = _score_message(refused, names)
    return {
        "counts": counts,
        "names": names,
        "result": result,
        "error": error,
        "points": (forteresse.POINTS_PER_KILL, forteresse.POINTS_PER_CANNON, forteresse.POINTS_PER_RIFLE),
    }


# --- What the templates draw ----------------------------------------------------------


@keyed_as_they_are
class Shot(NamedTuple):
    """A shot as a board marks it on its firing cell."""

    weapon: str
    direction: str


@keyed_as_they_are
class Cell(NamedTuple):
    """One cell of a board, with what a template needs to draw it (``once`` keys it as it is)."""

    cell: str
    firing: bool
    mark: str | None
    shot: Shot | None
    free: bool
    aim: bool
    trail: bool


@keyed_as_they_are
class Row(tuple):
    """A board's row: its seven ``Cell``; its own key for ``once``."""

    __slots__ = ()


@keyed_as_they_are
class Board(tuple):
    """A board's rows (row 1 first), each a ``Row``; its own key for ``once``."""

    __slots__ = ()


# Each row of the grid: its (cell, firing, the cell with nothing on it), its cells, the row with nothing on it.
_BLANK_ROWS = tuple(
    (
        tuple((cell, firing, Cell(cell, firing, None, None, False, False, False)) for cell, firing in row),
        frozenset(cell for cell, _firing in row),
        Row([Cell(cell, firing, None, None, False, False, False) for cell, firing in row]),
    )
    for row in _FIRING_GRID
)


def board(
    *,
    walls=(),
    besieged=(),
    destroyed=(),
    killed=(),
    known_walls=(),
    known_empty=(),
    used=(),
    free=None,
    aim=None,
    trail=(),
) -> Board:
    """The 7x7 grid as rows of cells (row 1 first), each with what a template needs to draw it.

    ``used``: shots as ``{"from", "weapon", "direction"}`` marked on their firing cells;
    ``free``: the firing cells that may be tapped; ``aim``: the firing cell chosen;
    ``trail``: the cells a shot crosses.
    """
    marks = {
        **{cell: "empty-known" for cell in known_empty},
        **{cell: "known-wall" for cell in known_walls},
        **{cell: "wall" for cell in walls},
        **{cell: "besieged" for cell in besieged},
        **{cell: "destroyed" for cell in destroyed},
        **{cell: "killed" for cell in killed},
    }
    shots = {shot["from"]: Shot(shot["weapon"], shot["direction"]) for shot in used}
    free = frozenset(free) if free is not None else frozenset()
    drawn = marks.keys() | shots.keys() | free | set(trail)  # the cells with anything on them
    if aim is not None:
        drawn.add(aim)
    new = tuple.__new__  # Cell's own __new__ is a Python call per cell: 98 a move
    return Board(
        [
            Row(
                [
                    new(
                        Cell,
                        (
                            cell,
                            firing,
                            marks.get(cell),
                            shots.get(cell),
                            cell in free,
                            cell == aim,
                            cell in trail,
                        ),
                    )
                    if cell in drawn
                    else blank
                    for cell, firing, blank in row
                ]
            )
            if not drawn.isdisjoint(cells)
            else blank_row
            for row, cells, blank_row in _BLANK_ROWS
        ]
    )


@bp.app_template_global("forteresse_table")
def forteresse_table(view: dict, link, can_act: bool, args, form, refused: bool) -> dict:
    """What ``_table.html`` draws for one link: its boards and forms, all from ``view``.

    ``args`` holds the firing cell (and, on paper, the direction) chosen in the aiming
    steps; ``form`` is this phone's own refused post, to keep what it had chosen.
    """
    seat = view["viewer"] if view["viewer"] in forteresse.SEATS else None
    shooter = view["turn"]
    can_shoot = bool(
        can_act
        and view["phase"] == "shooting"
        and shooter
        and link.role in ("referee", "seat")
        and (seat is None or seat == shooter)
    )
    chosen = form if refused else args
    aim, direction, aim_error = _table_aim(view, shooter, chosen) if can_shoot else (None, None, None)
    trail = forteresse.path(aim, direction) if aim and direction else ()
    # A seat's phone draws only its own attacks (to aim, or as its record); the referee's and a viewer's, both.
    attacks = {
        s: _record_board(
            view["attacks"][s],
            view["free_firing_cells"][s] if can_shoot and s == shooter else None,
            aim if s == shooter else None,
            trail if s == shooter else (),
        )
        for s in forteresse.SEATS
        if seat is None or s == seat
    }
    can_draw = bool(can_act and seat and view["mode"] == "phones" and view["phase"] == "setup")
    return {
        "seat": seat,
        "shooter": shooter,
        "can_shoot": can_shoot,
        "aim": aim,
        "direction": direction,
        "aim_error": aim_error,
        "trail": trail,
        "attacks": attacks,
        "can_draw": can_draw,
        "marks": _table_marks(view, form if refused else None) if can_draw else None,  # drawn only then
        "own": _own_board(view, seat),
        "reveal": [
            {
                "number": done["number"],
                "boards": {s: _fortress_board(f) for s, f in done["fortresses"].items()},
            }
            for done in view["reveal"] or []
        ],
        "last": view["shots"][-1]
        if view["shots"]
        else (view["history"][-1]["shots"][-1] if view["history"] and view["history"][-1]["shots"] else None),
        "directions": forteresse.legal_directions(aim) if aim else (),
        "arrows": ARROWS,
        "weapons": WEAPON_WORDS,
        "outcomes": OUTCOME_WORDS,
        "names": {s: say(forteresse.said_name(view, s)) for s in forteresse.SEATS},
    }


# Boards as drawn, by (language, Board, label, pick, id); their rows, by (language, Row, pick); their
# cells, by (language, Cell, pick): each in an lru_cache of the board made for its ``mark_text``
# (once per template module). Finite sets (49 cells, their marks and shots), bounded all the same (a
# board's HTML is about 5,000 characters).
BOARDS_KEPT = 2_000
DRAWN_KEPT = 20_000
_AXES = "".join(f'<span class="axis">{column}</span>' for column in ("", *forteresse.COLUMNS))


@bp.app_template_global("forteresse_board")
def forteresse_board(mark_text):
    """_board.html's ``board(rows, label, pick=False, id=None)``: a board's HTML, each cell's marks
    said by ``mark_text`` (a macro kept by ``once``), kept whole, by row and by cell here."""

    @functools.lru_cache(maxsize=DRAWN_KEPT)
    def drawn_cell(_language: str, cell: Cell, pick: bool) -> str:
        return f"  {_drawn_cell(mark_text, cell, pick)}\n"  # the cell on its own indented line

    @functools.lru_cache(maxsize=DRAWN_KEPT)
    def drawn_row(language: str, row: Row, pick: bool) -> str:
        """A board's row: its number then its seven cells: a move redraws only the rows a shot's
        path crossed."""
        cells = [drawn_cell(language, cell, pick) for cell in row]
        return f'  <span class="axis">{row[0].cell[1:]}</span>\n{"".join(cells)}'

    @functools.lru_cache(maxsize=BOARDS_KEPT)
    def drawn(language: str, rows: Board, _kind: type, label: str, pick: bool, id: str | None) -> Markup:  # noqa: A002
        picking = " picking" if pick else ""
        named = f' id="{escape(id)}"' if id else ""
        drawn_rows = "".join([drawn_row(language, row, pick) for row in rows])
        return Markup(
            f'<div class="fort-board{picking}"{named} role="group" aria-label="{escape(label)}">\n'
            f"  {_AXES}\n{drawn_rows}</div>\n"
        )

    def drawn_board(rows: Board, label: str, pick: bool = False, id: str | None = None) -> Markup:  # noqa: A002 - the macro's name
        return drawn(
            current_language(), rows, type(label), label, pick, id
        )  # a Markup label is written as it is

    return drawn_board


def _drawn_cell(mark_text, cell: Cell, pick: bool) -> str:
    """One cell: a button naming it when it may be picked, else its name and marks for a screen reader."""
    name = cell.cell  # A1 to G7, and the classes below: nothing to escape
    classes = (
        ("fc firing" if cell.firing else "fc inner")
        + (f" {cell.mark}" if cell.mark else "")
        + (" used" if cell.shot else "")
        + (" aim" if cell.aim else "")
        + (" trail" if cell.trail else "")
    )
    if pick and cell.free:
        return f'<button type="submit" name="from" value="{name}" class="{classes} free" data-cell="{name}">{name}</button>'
    return (
        f'<span class="{classes}" data-cell="{name}"><span class="sr-only">{name}</span>'
        f"{mark_text(cell.mark, cell.shot)}</span>"
    )


@bp.app_template_global("forteresse_score_table")
def forteresse_score_table(score_words, score_head, score_rule):
    """_board.html's ``score_table(sheet, names)``: the score sheet's table, its words, head and rule
    drawn by macros kept by ``once``, its names and numbers written here: they change on every move,
    and the macro's loops cost more than the table."""

    def score_table(sheet: dict, names: dict[str, str]) -> Markup:
        said = {seat: escape(names[seat]) for seat in forteresse.SEATS}
        html = [
            f'<div class="scroll" tabindex="0" role="region" aria-label="{score_words("sheet")}">\n'
            f'<table class="fort-score">\n  {score_head()}\n'
        ]
        for number, round_ in enumerate(sheet["rounds"], start=1):
            html.append(
                f'  <tbody>\n    <tr class="round-head"><th scope="rowgroup" colspan="5">'
                f"{score_words('round', number)}</th></tr>\n"
            )
            for seat in forteresse.SEATS:
                tally = round_[seat]
                html.append(
                    f'    <tr><th scope="row">{said[seat]}</th><td>{escape(tally["killed"])}</td>'
                    f"<td>{escape(tally['cannons'])}</td><td>{escape(tally['rifles'])}</td>"
                    f'<td class="total">{escape(tally["points"])}</td></tr>\n'
                )
            html.append("  </tbody>\n")
        html.append(
            f'  <tfoot>\n    <tr class="round-head"><th scope="rowgroup" colspan="5">'
            f"{score_words('final' if sheet['finished'] else 'so_far')}</th></tr>\n"
        )
        for seat in forteresse.SEATS:
            winner = f' <span class="tag">{score_words("winner")}</span>' if sheet["winner"] == seat else ""
            html.append(
                f'    <tr><th scope="row">{said[seat]}{winner}</th><td colspan="4" class="total" '
                f'data-seat="{seat}">{escape(sheet["totals"][seat])}</td></tr>\n'
            )
        html.append(f"  </tfoot>\n</table>\n</div>\n{score_rule()}\n")
        return Markup("".join(html))

    return score_table


_SHOT_VALUES = itemgetter("from", "weapon", "direction", "outcome", "cell")


@bp.app_template_global("forteresse_said_shots")
def forteresse_said_shots(shots: list[dict], names: dict[str, str]) -> Markup:
    """The round's shots as list items: a move's fragment lists every shot of the round, up to 48."""
    if not shots:
        return Markup("")
    return Markup(
        "<li>"
        + "</li><li>".join(
            [forteresse_shot_words(names[shot["shooter"]], *_SHOT_VALUES(shot)) for shot in shots]
        )
        + "</li>"
    )


@bp.app_template_global("forteresse_said_shot")
def forteresse_said_shot(shot: dict, names: dict[str, str]) -> Markup:
    """One shot and its answer in words, its shooter named: "Ola: rifle from A4 → E — Besieged killed at D4."."""
    return forteresse_shot_words(names[shot["shooter"]], *_SHOT_VALUES(shot))


# A shot in words, by whether its shooter is named and its weapon (as the templates said it before).
_SHOT_WORDS = {
    (True, "cannon"): N_(
        "%(name)s: cannon from %(cell)s %(arrow)s %(direction)s — <strong>%(answer)s</strong>"
    ),
    (True, "rifle"): N_(
        "%(name)s: rifle from %(cell)s %(arrow)s %(direction)s — <strong>%(answer)s</strong>"
    ),
    (False, "cannon"): N_("cannon from %(cell)s %(arrow)s %(direction)s — <strong>%(answer)s</strong>"),
    (False, "rifle"): N_("rifle from %(cell)s %(arrow)s %(direction)s — <strong>%(answer)s</strong>"),
}


@bp.app_template_global("forteresse_shot_words")
def forteresse_shot_words(
    name: str | None, cell: str, weapon: str, direction: str, outcome: str, at: str | None
) -> Markup:
    """A shot and its answer in the page's language, HTML: "Ola: rifle from A4 → E — <strong>Besieged
    killed at D4.</strong>" (``name`` None: without it). Kept by (language, name, shot): the sentence
    said with its values escaped, as ``{% trans %}`` says it, the first time it is seen."""
    # a Markup name is written as it is: told apart from text by its type
    return _said_shot(current_language(), type(name), name, cell, weapon, direction, outcome, at)


@functools.lru_cache(maxsize=DRAWN_KEPT)  # a finite set too
def _said_shot(
    _language: str, _kind: type, name: str | None, cell: str, weapon: str, direction: str, outcome: str, at
) -> Markup:
    words = _SHOT_WORDS[name is not None, "cannon" if weapon == "cannon" else "rifle"]
    values = {
        "cell": cell,
        "arrow": forteresse_arrow(direction),
        "direction": direction,
        "answer": forteresse_answer(outcome, at),
    }
    if name is not None:
        values["name"] = name
    return Markup(say(words)) % values


@bp.app_template_global("forteresse_arrow")
def forteresse_arrow(direction: str) -> str:
    """The arrow of a compass direction: "NE" -> "↗"."""
    return ARROWS.get(direction, direction)


@bp.app_template_global("forteresse_answer")
def forteresse_answer(outcome: str, cell: str | None) -> str:
    """The defender's answer in the page's language: "Besieged killed at D4.", "Assiégé tué en D4."
    (kept by language: 4 answers, 2 of them at one of 25 cells)."""
    return _said_answer(current_language(), outcome, cell)


@functools.lru_cache(maxsize=1024)  # all of them, in every language
def _said_answer(_language: str, outcome: str, cell: str | None) -> str:
    return say(forteresse.announcement(outcome, cell))


# --- JSON API -------------------------------------------------------------------------


# --- Private helpers ------------------------------------------------------------------


def _resolver_game(args) -> tuple[dict | None, list[dict]]:
    """The fortress drawn and the shots fired so far, replayed from the address's hidden fields."""
    if args.get("walls") is None and args.get("besieged") is None:
        return None, []
    setup = forteresse.validate_setup(
        str(args.get("walls", "")).split(), str(args.get("besieged", "")).split()
    )
    fired: list[dict] = []
    for token in str(args.get("shots", "")).split():
        parts = token.split("-")
        if len(parts) != 3:
            raise RuleError("bad_shot", N_("“%(token)s” is not a shot."), "shots", token=token[:16])
        fired = _fire(setup, fired, dict(zip(("from", "direction", "weapon"), parts, strict=True)))
    return setup, fired


def _fire(setup: dict, fired: list[dict], args) -> list[dict]:
    """The shots so far plus one more, each with its answer and the fortress after it."""
    fortress = fired[-1]["fortress"] if fired else setup
    used = [shot["shot"]["from"] for shot in fired]
    if len(setup["besieged"]) - len(fortress["besieged"]) == forteresse.BESIEGED or len(used) == len(
        forteresse.FIRING_CELLS
    ):
        raise RuleError(
            "shooter_stopped",
            N_(
                "This shooter has stopped: all 5 besieged are dead, or all 24 firing "
                "cells are used. Draw a new fortress for another round."
            ),
        )
    called = forteresse.check_shot(args.get("from"), args.get("direction"), args.get("weapon"), used)
    return [*fired, {"shot": called, **forteresse.resolve_shot(fortress, called)}]


def _aimed(fired: list[dict], aim: object) -> str:
    """The firing cell chosen to aim from, checked like the shot's own ``from``."""
    return _firing_cell(aim, [shot["shot"]["from"] for shot in fired])


def _firing_cell(text: object, used) -> str:
    """A firing cell not used yet, or the rules' refusal of it."""
    cell = forteresse.parse_cell(text, "from")
    direction = forteresse.legal_directions(cell)[0] if cell in forteresse.LEGAL_DIRECTIONS else "N"
    return forteresse.check_shot(cell, direction, "cannon", used)["from"]


def _drawing_view(args, notices: list) -> dict:
    """The drawing step: the marks typed so far (none when they cannot be read)."""
    try:
        marks = read_marks(args)
    except RuleError as refused:
        notices.append(("error", say(refused)))
        marks = {}
    return {"step": "draw", "marks": _marks_grid(marks), "notices": notices}


def _firing_view(setup: dict, fired: list[dict], aim: str | None, notices: list) -> dict:
    fortress = fired[-1]["fortress"] if fired else setup
    used = [{**shot["shot"]} for shot in fired]
    killed = [c for c in setup["besieged"] if c not in fortress["besieged"]]
    destroyed = [c for c in setup["walls"] if c not in fortress["walls"]]
    stopped = len(killed) == forteresse.BESIEGED or len(used) == len(forteresse.FIRING_CELLS)
    aim = None if stopped else aim
    free = [] if stopped else [c for c in forteresse.FIRING_CELLS if c not in {s["from"] for s in used}]
    last = fired[-1] if fired else None
    return {
        "step": "fire",
        "notices": notices,
        "redraw": {
            f"c_{cell}": kind
            for kinds, kind in (("walls", "wall"), ("besieged", "besieged"))
            for cell in setup[kinds]
        },
        "setup": setup,
        "aim": aim,
        "stopped": stopped,
        "last": last,
        "board": board(
            walls=fortress["walls"],
            besieged=fortress["besieged"],
            destroyed=destroyed,
            killed=killed,
            used=used,
            free=free,
            aim=aim,
            trail=forteresse.path(last["shot"]["from"], last["shot"]["direction"])
            if last and not aim
            else (),
        ),
        "shots_field": " ".join(f"{s['from']}-{s['direction']}-{s['weapon']}" for s in used),
        "fired": fired,
        "directions": forteresse.legal_directions(aim) if aim else (),
        "counts": {
            "killed": len(killed),
            "destroyed": len(destroyed),
            "cannons": sum(s["weapon"] == "cannon" for s in used),
            "rifles": sum(s["weapon"] == "rifle" for s in used),
            "shots": len(used),
        },
    }


def _marks_grid(marks: dict[str, str]) -> list[list[dict]]:
    """The 5x5 drawing grid, row 2 first: each fortress cell with its mark."""
    return [
        [{"cell": f"{column}{row}", "mark": marks.get(f"{column}{row}", "empty")} for column in "BCDEF"]
        for row in (2, 3, 4, 5, 6)
    ]


def _table_aim(view: dict, shooter: str, chosen) -> tuple[str | None, str | None, str | None]:
    """The firing cell (and, on paper, the direction) chosen so far, or why it cannot be used."""
    if not chosen.get("from"):
        return None, None, None
    used = [shot["from"] for shot in view["attacks"][shooter]["used"]]
    try:
        aim = _firing_cell(chosen.get("from"), used)
        direction = chosen.get("direction")
        if view["mode"] == "paper" and direction:
            direction = forteresse.check_shot(aim, direction, "cannon", used)["direction"]
        else:
            direction = None
    except RuleError as refused:
        return None, None, say(refused)
    return aim, direction, None


def _record_board(record: dict, free, aim, trail) -> list[list[dict]]:
    return board(
        destroyed=record["destroyed_walls"],
        killed=record["killed_besieged"],
        known_walls=record["known_walls"],
        known_empty=record["known_empty"],
        used=record["used"],
        free=free,
        aim=aim,
        trail=trail,
    )


def _fortress_board(fortress: dict, used=()) -> list[list[dict]]:
    return board(
        walls=fortress["walls"],
        besieged=fortress["besieged"],
        destroyed=fortress["destroyed_walls"],
        killed=fortress["killed_besieged"],
        used=used,
    )


def _own_board(view: dict, seat: str | None):
    if seat is None or view["fortress"] is None:
        return None
    other = forteresse.SEATS[1 - forteresse.SEATS.index(seat)]
    return _fortress_board(view["fortress"], view["attacks"][other]["used"])


def _table_marks(view: dict, refused_form) -> list[list[dict]]:
    """The drawing grid of a seat: its refused post, else the fortress it drew, else empty."""
    marks: dict[str, str] = {}
    if refused_form is not None:
        marks = {
            cell: mark
            for cell, mark in ((c, refused_form.get(f"c_{c}")) for c in FORTRESS_CELLS)
            if mark in MARKS
        }
    elif view["fortress"]:
        marks = {
            **{c: "wall" for c in view["fortress"]["walls"]},
            **{c: "besieged" for c in view["fortress"]["besieged"]},
        }
    return _marks_grid(marks)


def _round_numbers(typed: dict, number: int, names: dict) -> dict:
    """One round's counts as whole numbers (blank is 0)."""
    tallies = {}
    for seat, tally in typed.items():
        tallies[seat] = {}
        for key, text in tally.items():
            text = str(text).strip() or "0"
            # ASCII digits only: "²" and "٣" pass str.isdigit() but are not counts a player types.
            if not re.fullmatch(r"[0-9]{1,6}", text):
                raise RuleError(
                    "bad_number",
                    _BAD_NUMBER[key],
                    f"r{number}_{seat}_{key}",
                    round=number,
                    name=names[seat],
                    text=text[:12],
                )
            tallies[seat][key] = int(text)
    return tallies


_BAD_NUMBER = {
    "killed": N_(
        "Round %(round)s, %(name)s's killed: “%(text)s” is not a count: type a whole number from 0 up, in digits."
    ),
    "cannons": N_(
        "Round %(round)s, %(name)s's cannons: “%(text)s” is not a count: type a whole number from 0 up, in "
        "digits."
    ),
    "rifles": N_(
        "Round %(round)s, %(name)s's rifles: “%(text)s” is not a count: type a whole number from 0 up, in "
        "digits."
    ),
}


def _score_message(refused: RuleError, names: dict) -> str:
    """The rules' refusal, with the round and the player named as the sheet shows them."""
    field = refused.field or ""
    if field.startswith("rounds[") and "." in field:
        number = int(field[7]) + 1
        seat = field.split(".")[1]
        return say(
            Message(
                N_("Round %(round)s, %(name)s: %(reason)s"),
                round=number,
                name=names.get(seat, seat),
                reason=refused.sentence,
            )
        )
    return say(refused)


def _default_names() -> dict[str, str]:
    """The seats' names when none is typed, in the page's language: "Player A", "Joueur A"."""
    return {seat: say(words) for seat, words in forteresse.DEFAULT_NAMES.items()}


def _name(text: object, default: str) -> str:
    if isinstance(text, str) and text.strip():
        return text.strip()[: forteresse.NAME_LENGTH]
    return default
