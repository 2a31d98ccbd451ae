"""Printable PDFs for paper play: card sheets, boards, score pads.

Each game adds a module to this package that defines ``SHEETS``, a list of ``Sheet``;
``all_sheets()`` finds them by importing every module here, so adding a game means
adding a module, never editing a registry. ``build()`` draws one sheet into a PDF with
ReportLab (see ``printables.draw`` for the primitives and ``printables.layout`` for the
geometry in millimetres). Printing advice for players is in ``docs/printing.md``.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from companion.rules.sentences import N_, Message
from printables import tiling
from printables.draw import Document, Overflow
from printables.tiling import MatSpec

PAPERS = ("a4", "letter")  # every sheet comes on these
LARGE_PAPERS = ("a3", "tabloid")  # mats come on these as well, in one piece where they fit
FOLDABLE = ("cards", "memory cards")  # the kinds of sheet that are decks; a kit passes the option on


@dataclass(frozen=True)
class Advice:
    """What to print a kind of sheet on, in three whole sentences for the print page and the PDF
    (marked with ``N_``: say them in the reader's language).

    A ``two_sided`` sheet's ``printer`` sentence comes in one version per duplex edge, and its
    PDF asks the print dialog for that edge (``/Duplex``).
    """

    paper: str
    sleeves: str
    printer: str | dict[str, str]
    two_sided: bool = False

    def printer_for(self, edge: str) -> str:
        """The printer sentence for paper turned on the ``edge`` edge ("long" or "short")."""
        return self.printer[edge] if isinstance(self.printer, dict) else self.printer


_CARD_PRINTER = {
    "long": N_("Printer: actual size (100 %), two-sided, flip on the long edge, best quality."),
    "short": N_("Printer: actual size (100 %), two-sided, flip on the short edge, best quality."),
}
ADVICE = {
    "cards": Advice(
        paper=N_("Paper: card stock of 160 to 250 g/m², so that the faces do not show through the backs."),
        sleeves=N_(
            "Sleeves are optional; a card slipped into a sleeve in front of an old playing card handles "
            "well even on 80 g/m² paper."
        ),
        printer=_CARD_PRINTER,
        two_sided=True,
    ),
    "memory cards": Advice(
        paper=N_(
            "Paper: card stock of 200 g/m² or more. This is a memory game: on thinner paper the numbers "
            "show through the backs."
        ),
        sleeves=N_("Sleeves with opaque backs hide the numbers on any paper; clear sleeves do not."),
        printer=_CARD_PRINTER,
        two_sided=True,
    ),
    "duplex check": Advice(
        paper=N_("Paper: the paper you print your cards on, since the check measures your printer with it."),
        sleeves=N_("No sleeve: hold the sheet against the light."),
        printer=_CARD_PRINTER,
        two_sided=True,
    ),
    "mat": Advice(
        paper=N_("Paper: 120 to 160 g/m², or card, so that the mat lies flat; 80 g/m² paper will do."),
        sleeves=N_("No sleeve; a clear sheet protector keeps the mat clean."),
        printer=N_("Printer: actual size (100 %), one-sided."),
    ),
    "reference": Advice(
        paper=N_("Paper: 120 to 160 g/m², or thin card."),
        sleeves=N_("No sleeve; cut along the dashed line, and laminate the cards if you like."),
        printer=N_("Printer: actual size (100 %), one-sided."),
    ),
    "kit": Advice(
        paper=N_(
            "Paper: the sheets of a kit want different paper; its first page says which pages go on which."
        ),
        sleeves=N_("Sleeves: as its first page says, sheet by sheet."),
        printer=N_(
            "Printer: actual size (100 %); print each group of pages on its paper, two-sided or one-sided as "
            "its first page says."
        ),
    ),
    "pad": Advice(
        paper=N_("Paper: plain 80 g/m² paper."),
        sleeves=N_("No sleeve: you write on it."),
        printer=N_("Printer: actual size (100 %), one-sided; draft quality and greyscale are fine."),
    ),
    "two-sided pad": Advice(
        paper=N_("Paper: plain 80 g/m² paper, one sheet printed on both sides."),
        sleeves=N_("No sleeve: you write on it."),
        printer={
            "long": N_(
                "Printer: actual size (100 %), two-sided, flip on the long edge; draft quality and "
                "greyscale are fine."
            ),
            "short": N_(
                "Printer: actual size (100 %), two-sided, flip on the short edge; draft quality and "
                "greyscale are fine."
            ),
        },
        two_sided=True,
    ),
}


@dataclass(frozen=True)
class Sheet:
    """One printable document of a game."""

    slug: str  # unique, used in URLs: /print/castle-deck.pdf
    game: str  # the game's slug, or "castellan" for general sheets
    title: str | Message  # "Standard 52-card deck", marked with N_ (translated where it is shown)
    description: (
        str | Message
    )  # one sentence for the /print page, marked with N_ (or a Message with parameters)
    draw: Callable[[Document], None]  # draws the pages
    game_name: str = ""  # the game's name as printed, when its slug capitalised is not it
    kind: str = "pad"  # a key of ADVICE: what to print it on
    mat: MatSpec | None = None  # the mat the sheet draws with ``Document.mat``, if it is one

    def __post_init__(self) -> None:
        if self.kind not in ADVICE:
            raise ValueError(f"sheet {self.slug!r}: kind must be one of {tuple(ADVICE)}, not {self.kind!r}")

    @property
    def advice(self) -> Advice:
        """What to print this sheet on: paper, sleeves, printer settings."""
        return ADVICE[self.kind]

    @property
    def papers(self) -> tuple[str, ...]:
        """The papers the sheet comes on: a mat on the large ones too."""
        return PAPERS + LARGE_PAPERS if self.mat else PAPERS

    @property
    def foldable(self) -> bool:
        """Whether the sheet's decks also come as fold-over cards (``build(fold=True)``): a deck's, a kit's."""
        return self.kind in (*FOLDABLE, "kit")

    def papers_for(self, fold: bool) -> tuple[str, ...]:
        """The papers the sheet comes on, fold-over decks on the large ones too."""
        return PAPERS + LARGE_PAPERS if fold and self.kind in FOLDABLE else self.papers

    def mat_pages(self, paper: str) -> int | None:
        """How many pages the mat takes on this paper; None for a sheet that is not a mat."""
        return len(tiling.mat_pages(paper, self.mat).tiles) if self.mat else None


def all_sheets() -> list[Sheet]:
    """Every sheet declared in a ``SHEETS`` list of a printables module, by game then title."""
    sheets: dict[str, Sheet] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for sheet in getattr(module, "SHEETS", ()):
            if sheet.slug in sheets:
                raise ValueError(f"two printables share the slug {sheet.slug!r} (one is in {info.name})")
            sheets[sheet.slug] = sheet
    return sorted(
        sheets.values(), key=lambda sheet: (sheet.game, str(sheet.title))
    )  # a title may be a Message


def get_sheet(slug: str) -> Sheet:
    """The sheet with this slug; KeyError if there is none."""
    return _by_slug()[slug]


@functools.cache
def _by_slug() -> dict[str, Sheet]:
    """Every sheet by its slug, found once: finding them lists this package's modules (1 ms), which
    every PDF request paid, a burst of them refused or not (docs/deploy.md, "Printed sheets in a burst")."""
    return {sheet.slug: sheet for sheet in all_sheets()}


def build(
    slug_or_sheet: str | Sheet,
    out: BinaryIO,
    *,
    paper: str = "a4",
    base_url: str = "http://localhost:5000",
    ink_saver: bool = False,
    duplex: str = "long",
    rich_backs: bool = False,
    lang: str = "en",
    back_offset: tuple[float, float] = (0.0, 0.0),
    fold: bool = False,
    check_text: bool = False,
) -> list[Overflow]:
    """Draw a sheet and write its PDF to the binary file-like object out.

    paper is one of the sheet's ``papers``; base_url is where Castellan is served (the QR codes point
    there); ink_saver prints backgrounds as outlines; duplex is "long" or "short", the edge
    the paper turns on when printing both sides; rich_backs prints card backs in full
    colour instead of a light pattern; lang is the language of every word on it ("en", "fr",
    "pl"); back_offset is the misalignment read on the duplex check, (right, down) in mm, which
    every page of backs is moved to cancel; fold lays card sheets out as fold-over cards, each front
    beside its back on one side of the paper (``layout.FoldSheet``). Same arguments, same bytes.

    With check_text every text run is measured against the boxes it was drawn in (a label's, a
    paragraph's, a card's safe area): the runs that cross one are returned (``draw.Overflow``).
    """
    sheet = get_sheet(slug_or_sheet) if isinstance(slug_or_sheet, str) else slug_or_sheet
    if fold and not sheet.foldable:
        raise ValueError(f"{sheet.slug} is not a deck: it does not come as fold-over cards")
    if paper not in sheet.papers_for(fold):
        raise ValueError(f"paper must be one of {sheet.papers_for(fold)} for {sheet.slug}, not {paper!r}")
    doc = Document(
        out,
        sheet,
        paper=paper,
        base_url=base_url,
        ink_saver=ink_saver,
        duplex=duplex,
        rich_backs=rich_backs,
        lang=lang,
        back_offset=back_offset,
        fold=fold,
        check_text=check_text,
    )
    sheet.draw(doc)
    doc.finish()
    return doc.overflows
