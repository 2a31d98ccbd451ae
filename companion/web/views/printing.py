"""What the table needs on paper: the list of every sheet, and each sheet as a PDF."""

from __future__ import annotations

import io
import re
from itertools import groupby

from flask import Blueprint, abort, current_app, make_response, render_template, request, send_file
from flask_babel import gettext
from werkzeug.exceptions import TooManyRequests

import printables
from companion.http import security
from companion.http.context import registry
from companion.http.error_pages import BUSY_RETRY_SECONDS
from companion.http.requests import is_htmx, printed_base_url
from companion.i18n import lang_for_print, say
from companion.rules import tactics, tactics_balance
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Message
from companion.web.pdf_cache import BUILDER, Busy, Crowded, SheetCache
from printables import kit
from printables import own as own_deck
from printables.draw import QRTooLarge
from printables.layout import BLEED, DUPLEX, PAPER_NAMES, back_offset

bp = Blueprint("printing", __name__)
QR_TOO_LONG = N_(
    "The address %(address)s is too long for a sheet's QR code to scan. "
    "Open Castellan by a shorter address, or set CASTELLAN_BASE_URL to one."
)
WAITING_ALREADY = NP_(
    "This address already has %(count)s sheet waiting to be made. Wait for it, then try again.",
    "This address already has %(count)s sheets waiting to be made. Wait for them, then try again.",
)
OFFSET_COOKIE = (
    "back_offset"  # "right:down" (a comma would be quoted): the phone remembers it, not the server
)
OFFSET_DAYS = 365
# The balance check before printing a faction of one's own: one block of the simulator per pairing and
# seating (500 games a pairing, a rate within about 2 points), eight steps of a fraction of a second.
BALANCE_GAMES = tactics_balance.BLOCK
BALANCE_SEED = 1  # as `castellan tactics-balance`'s default


@bp.get("/print")
def index():
    """Every sheet of every game, with a link per paper (a mat's says how many pages) and the printing options."""
    return _print_page()


def _print_page(own: dict | None = None, status: int = 200):
    """The print page; ``own`` is the deck of one's own just refused (game, deck, refusal) to show again."""
    order = {game.slug: game.order for game in registry().ordered()}
    sheets = sorted(printables.all_sheets(), key=lambda sheet: order.get(sheet.game, 1000))
    by_game = [(game, list(group)) for game, group in groupby(sheets, key=lambda sheet: sheet.game)]
    options = {
        key: value
        for key, value in (("ink", "saver"), ("duplex", "short"), ("back", "rich"), ("layout", "fold"))
        if request.args.get(key) == value
    }
    offset, refused = _entered_offset()
    if any(offset):
        options["offset"] = f"{offset[0]:g},{offset[1]:g}"
    response = make_response(
        render_template(
            "print/page.html",
            by_game=by_game,
            paper_names=PAPER_NAMES,
            options=options,
            edge=options.get("duplex", "long"),
            fold="layout" in options,
            address=printed_base_url() + "/",
            offset=offset,
            offset_refused=refused,
            past_bleed=max(map(abs, offset)) > BLEED,
            own_games=own_deck.GAMES,
            own=own or {},
            balance_games=len(tactics.load_factions()) * 2 * BALANCE_GAMES,
        ),
        status,
    )
    if "right" in request.args and not refused:
        response.set_cookie(
            OFFSET_COOKIE,
            options.get("offset", "0,0").replace(",", ":"),
            max_age=OFFSET_DAYS * 24 * 3600,
            samesite="Lax",
            secure=request.is_secure,
        )
    return response


def _entered_offset() -> tuple[tuple[float, float], bool]:
    """The back offset the form sends (``right`` and ``down``, mm), else the one this phone remembers,
    and whether the form's was refused (then the remembered one stands)."""
    remembered = _offset(request.cookies.get(OFFSET_COOKIE, "0:0").replace(":", ",")) or (0.0, 0.0)
    if "right" not in request.args:
        return remembered, False
    entered = _offset(f"{request.args.get('right') or 0},{request.args.get('down') or 0}")
    return (entered, False) if entered else (remembered, True)


def _offset(text: str) -> tuple[float, float] | None:
    try:
        return back_offset(text)
    except ValueError:
        return None


@bp.get("/print/<slug>.pdf")
def sheet(slug: str):
    """One sheet as a PDF: ``?paper=a4|letter`` (a mat also ``a3|tabloid``), ``&ink=saver``,
    ``&duplex=long|short``, ``&back=rich``, ``&offset=X,Y`` (the back offset, mm right and down),
    ``&layout=fold`` (a deck as fold-over cards, also on ``a3|tabloid``),
    ``&lang=en|fr|pl`` (else the page's language); its QR codes carry ``printed_base_url``."""
    try:
        chosen = printables.get_sheet(slug)
    except KeyError:
        abort(404)
    return _send(chosen, ("sheet", slug))


@bp.get("/print/own.pdf")
def own():
    """A deck of one's own as a PDF: ``?game=tactics|zamek&deck=<the JSON a table accepts>``, with
    the options of ``sheet``, alone or (``&kit=1``) inside the game's kit; a deck the rules refuse
    brings the print page back with the wrong field."""
    game, text = request.args.get("game", ""), request.args.get("deck", "")[: own_deck.LONGEST_TEXT]
    recipe = ("own", game, text, request.args.get("kit") == "1")
    try:
        chosen = sheet_of(recipe)
    except RuleError as refused:
        return _print_page(
            {
                "game": game,
                "deck": text,
                "kit": request.args.get("kit") == "1",
                "refusal": say(refused),
                "field": refused.field,
            },
            400,
        )
    return _send(chosen, recipe)


def sheet_of(recipe: tuple) -> printables.Sheet:
    """The sheet a request names: ``("sheet", slug)`` (``KeyError`` if there is none), or ``("own",
    game, deck, in_kit)``, a deck of one's own alone or in its game's kit (``RuleError`` when the
    rules refuse the deck). Sheets draw with closures, which no other process can be sent: the
    helper that builds them is sent this instead, and finds the same sheet."""
    if recipe[0] == "sheet":
        return printables.get_sheet(recipe[1])
    _own, game, text, in_kit = recipe
    chosen = own_deck.own_sheet(game, own_deck.read_deck(text))
    return kit.kit_sheet(game, chosen) if in_kit else chosen


def draw_pdf(recipe: tuple, options: dict) -> bytes:
    """The PDF of the sheet ``recipe`` names, with ``options`` (``printables.build``'s): what the
    worker's helper process runs (``pdf_cache.Builder``)."""
    out = io.BytesIO()
    printables.build(sheet_of(recipe), out, **options)
    return out.getvalue()


@bp.get("/print/balance")
def balance():
    """A faction of one's own against the four shipped ones, before printing it: one step of the
    simulator per request (``?deck=<JSON>&played=<the steps' results so far>``), the page showing
    its progress and asking for the next step (by itself with htmx, a button without), then the
    win rate against each shipped faction. Nothing is kept on the server: each step carries the
    results before it, so any worker can play the next."""
    text = request.args.get("deck", "")[: own_deck.LONGEST_TEXT]
    try:
        faction = tactics.validate_faction(own_deck.read_deck(text), own_deck.FIELD)
    except RuleError as refused:
        own = {"game": "tactics", "deck": text, "refusal": say(refused), "field": refused.field}
        return _print_page(own, 400)
    work = tactics_balance.units_against(faction, BALANCE_GAMES, BALANCE_SEED)
    played = _played(request.args.get("played", ""), len(work))
    if len(played) < len(work):
        played.append(tactics_balance.run_unit(work[len(played)])[2:])
    shown = {
        "deck": text,
        "faction": faction["name"],
        "played": ",".join(".".join(map(str, tally)) for tally in played),
        "steps": (len(played), len(work)),
        "games": 2 * BALANCE_GAMES,  # a pairing's, both seatings
        "rates": _rates(work, played) if len(played) == len(work) else None,
    }
    template = "print/_balance.html" if is_htmx() else "print/balance.html"
    return render_template(
        template, balance=shown, low=tactics_balance.FAIR_LOW, high=tactics_balance.FAIR_HIGH
    )


def _played(text: str, steps: int) -> list[tuple[int, ...]]:
    """The results of the steps played so far, as a step carries them ("w.d.l,w.d.l"); none when
    they are not that shape (each step is ``BALANCE_GAMES`` games)."""
    if not text:
        return []
    if not re.fullmatch(
        r"[0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,4}(,[0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,4})*", text, re.ASCII
    ):
        return []
    played = [tuple(int(count) for count in step.split(".")) for step in text.split(",")]
    return played if len(played) <= steps and all(sum(step) == BALANCE_GAMES for step in played) else []


def _rates(work: list[tuple], played: list[tuple[int, ...]]) -> list[tuple[str, int, str]]:
    """Each shipped faction's name, the win rate of one's own faction against it (in %) and its
    verdict: "strong" above ``FAIR_HIGH``, "weak" below ``FAIR_LOW``, else "fair"."""
    results = [(unit[0], unit[1], *tally) for unit, tally in zip(work, played, strict=True)]
    table = tactics_balance.records(results)
    rates = []
    for shipped, faction in sorted(tactics.load_factions().items()):
        rate = table[(tactics_balance.OWN, shipped)]["rate"]
        fair = tactics_balance.FAIR_LOW <= rate <= tactics_balance.FAIR_HIGH
        rates.append(
            (faction["name"], round(rate * 100), "fair" if fair else "strong" if rate > 0.5 else "weak")
        )
    return rates


def _built(recipe: tuple, options: dict) -> bytes:
    """The sheet built in the worker's helper, counted against the address's sheets a minute first."""
    security.spend("pdfs")
    return BUILDER.run(draw_pdf, recipe, options)


def _send(chosen: printables.Sheet, recipe: tuple):
    """The sheet's PDF with the request's options, built once per ``recipe`` and options (in the
    worker's helper process, when this request's turn in the line comes: ``pdf_cache``); 404 for
    options the sheet does not take, 429 or 503 with the reason when the line has no place for it."""
    paper = request.args.get("paper", "a4")
    duplex = request.args.get("duplex", "long")
    offset = _offset(request.args.get("offset", "0,0"))
    fold = (
        request.args.get("layout") == "fold" and chosen.foldable
    )  # the page's links carry it for every sheet
    if paper not in chosen.papers_for(fold) or duplex not in DUPLEX or offset is None:
        abort(404)
    base_url = printed_base_url()
    options = {
        "paper": paper,
        "base_url": base_url,
        "ink_saver": request.args.get("ink") == "saver",
        "duplex": duplex,
        "rich_backs": request.args.get("back") == "rich",
        "lang": lang_for_print(request.args.get("lang")),
        "back_offset": offset,
        "fold": fold,
    }
    try:
        sheets = current_app.extensions.setdefault("castellan.sheets", SheetCache())
        pdf, _new = sheets.get(
            (*recipe, *sorted(options.items())),
            lambda: _built(recipe, options),
            request.remote_addr or "",
        )
    except QRTooLarge:
        abort(400, description=gettext(QR_TOO_LONG, address=base_url[:80]))
    except Crowded:
        message = Message(WAITING_ALREADY, count=sheets.per_address)
        raise TooManyRequests(say(message), retry_after=BUSY_RETRY_SECONDS) from None
    except Busy:
        abort(503)
    slug = chosen.slug
    name = f"{slug}-fold-{paper}.pdf" if fold else f"{slug}-{paper}.pdf"
    return send_file(io.BytesIO(pdf), mimetype="application/pdf", download_name=name, max_age=0)
