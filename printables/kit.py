"""Game kits: everything for an evening of one game, in one PDF.

A kit is every sheet its game needs (and the sheets it borrows: Fort plays with the standard
deck), each page with its usual header, after one page of print advice. The sheets want
different paper (card stock for the decks, thicker paper for the mats, plain paper for the
pads), so the kit's pages come grouped by paper, in the order of ``printables.ADVICE``, and the
first page says which pages go on which paper, two-sided or not. Options reach every sheet:
with ``fold`` the decks come as fold-over cards.
"""

from __future__ import annotations

import printables
from companion.rules.sentences import N_, Message, together
from printables import ADVICE, Sheet
from printables.draw import MUTED, Document
from printables.layout import Rect

KITS = {  # each game with a kit, and the sheets of other games it borrows
    "castle": (),
    "fort": ("castle-deck",),
    "forteresse": (),
    "tactics": (),
    "zamek": (),
}
GAME_NAMES = {"tactics": "Square Tactics"}  # where the slug capitalised is not the name
ONE_SIDED = N_("Printer: actual size (100 %), one-sided.")  # a deck's, printed as fold-over cards
# A deck of one's own in a kit: a Zamek table plays one deck, so one's own takes the shipped deck's
# place; each Square Tactics player brings a faction, so one's own comes first among the four shipped.
OWN_REPLACES_SHIPPED = frozenset({"zamek"})


def kit_sheets(game: str, own: Sheet | None = None) -> list[Sheet]:
    """The sheets of a game's kit in the kit's order: grouped by the paper they want, by title within;
    with ``own`` (a deck of one's own, ``printables.own``), that deck with them."""
    kinds = list(ADVICE)
    sheets = [
        sheet
        for sheet in printables.all_sheets()
        if (sheet.game == game or sheet.slug in KITS[game])
        and sheet.kind != "kit"
        and not (own and game in OWN_REPLACES_SHIPPED and sheet.kind == own.kind)
    ]
    sheets = [own, *sheets] if own else sheets
    return sorted(sheets, key=lambda sheet: kinds.index(sheet.kind))  # sorted() keeps the titles' order


def kit_sheet(game: str, own: Sheet | None = None) -> Sheet:
    """The sheet of a game's kit; with ``own``, the kit with that deck of one's own."""
    return Sheet(
        slug=f"{game}-kit-own" if own else f"{game}-kit",
        game=game,
        game_name=GAME_NAMES.get(game, ""),
        kind="kit",
        title=Message(N_("Everything for a %(game)s evening"), game=GAME_NAMES.get(game, game.title())),
        description=N_(
            "Every sheet the game needs in one PDF, grouped by the paper each wants; the first page says "
            "which pages go on which paper."
        ),
        draw=draw_kit(game, own),
    )


def draw_kit(game: str, own: Sheet | None = None):
    """The drawing of a game's kit: its advice page, then each of its sheets."""

    def draw(doc: Document) -> None:
        sheets = kit_sheets(game, own)
        advice_page(doc, sheets, [doc.pages_of(sheet) for sheet in sheets])
        for sheet in sheets:
            doc.include(sheet)

    return draw


def advice_page(doc: Document, sheets: list[Sheet], pages: list[int]) -> None:
    """The kit's first page: its frame, then each group of pages with the paper, sleeves and printer it wants."""
    content = doc.frame()
    y = content.top
    doc.text(content.x, y - 6, doc.say(N_("How to print this kit")), size=13, bold=True)
    y -= 10
    intro = N_(
        "The sheets of this kit want different paper, so its pages come in groups: print each group on "
        "its own paper, at 100 %, never “fit to page”. Each sheet's pages carry their usual header."
    )
    y = doc.text_block(Rect(content.x, y - 40, content.w, 40), doc.say(intro), size=10) - 3
    for first, last, group in _groups(sheets, pages):
        advice = group[0].advice
        names = together(
            *(Message(sheet.title) if isinstance(sheet.title, str) else sheet.title for sheet in group)
        )
        head = (
            Message(N_("Pages %(first)s to %(last)s: %(sheets)s."), first=first, last=last, sheets=names)
            if last > first
            else Message(N_("Page %(first)s: %(sheets)s."), first=first, sheets=names)
        )
        y = doc.text_block(Rect(content.x, y - 40, content.w, 40), doc.say(head), size=10, bold=True)
        printer = ONE_SIDED if doc.fold and group[0].foldable else advice.printer_for(doc.duplex)
        for sentence in (advice.paper, advice.sleeves, printer):
            y = doc.text_block(Rect(content.x + 4, y - 40, content.w - 4, 40), doc.say(sentence), size=9)
        y -= 3
    doc.text_block(
        Rect(content.x, y - 40, content.w, 40),
        doc.say(N_("Each card sheet also says how to print it on its own first page.")),
        size=9,
        color=MUTED,
    )


def _groups(sheets: list[Sheet], pages: list[int]) -> list[tuple[int, int, list[Sheet]]]:
    """(first page, last page, sheets) of each run of sheets that want the same paper; page 1 is the advice."""
    groups: list[tuple[int, int, list[Sheet]]] = []
    page = 2
    for sheet, count in zip(sheets, pages, strict=True):
        if groups and groups[-1][2][0].kind == sheet.kind:
            first, _last, group = groups[-1]
            groups[-1] = (first, page + count - 1, [*group, sheet])
        else:
            groups.append((page, page + count - 1, [sheet]))
        page += count
    return groups


SHEETS = [kit_sheet(game) for game in KITS]
