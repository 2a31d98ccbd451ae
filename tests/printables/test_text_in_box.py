"""Every text inside its box, on every sheet, in every language and on every paper.

``printables.build(..., check_text=True)`` measures each text run (its width, from its baseline
to the capitals' height) against every box it was drawn in: a label's rectangle, a paragraph's,
a column of a quick reference, and on a card its safe area (``SAFE_AREA`` inside the cut line).
Every sheet in English, French and Polish on A4 and Letter (mats on A3 and Tabloid too), the
decks as fold-over cards and with a back offset's warning, the kits, and decks of one's own:
none may cross. The check itself finds a deliberately overflowing sheet.
"""

from __future__ import annotations

import io

import pytest

import printables
from printables import Sheet, own
from printables.draw import SAFE_AREA
from printables.layout import Rect
from tests.printables.test_own import FACTION, ZAMEK

LANGUAGES = ("en", "fr", "pl")
DECK_KINDS = ("cards", "memory cards", "duplex check")
OWN = [own.own_sheet("tactics", FACTION), own.own_sheet("zamek", ZAMEK)]


def cases():
    """(sheet, paper, language, options) of every sheet the check covers."""
    for sheet in [*printables.all_sheets(), *OWN]:
        for lang in LANGUAGES:
            yield from ((sheet, paper, lang, {}) for paper in sheet.papers)
            if sheet.kind in printables.FOLDABLE:
                yield from ((sheet, paper, lang, {"fold": True}) for paper in sheet.papers_for(True))
            if sheet.kind in DECK_KINDS:  # the offset's sentences and the warning past the bleed
                yield from ((sheet, paper, lang, {"back_offset": (3.5, -2.0)}) for paper in sheet.papers)


CASES = list(cases())
IDS = [
    f"{sheet.slug}-{paper}-{lang}{'-fold' if 'fold' in extra else ''}{'-offset' if 'back_offset' in extra else ''}"
    for sheet, paper, lang, extra in CASES
]


def overflows(sheet: Sheet, **options) -> list:
    """The text runs of the sheet that cross a box they were drawn in."""
    return printables.build(sheet, io.BytesIO(), check_text=True, **options)


@pytest.mark.parametrize(("sheet", "paper", "lang", "extra"), CASES, ids=IDS)
def test_every_text_run_lies_inside_its_box(sheet, paper, lang, extra):
    found = overflows(sheet, paper=paper, lang=lang, **extra)
    assert not found, [(run.page, run.text) for run in found[:5]]


def test_the_check_covers_every_sheet_language_and_paper():
    assert len(CASES) > 300
    assert {(sheet.slug, paper) for sheet, paper, _lang, _extra in CASES} >= {
        ("castle-mat", "tabloid"),
        ("fort-reference", "letter"),
    }


def test_the_check_finds_a_deliberately_overflowing_sheet():
    def card(doc, slot: Rect) -> None:
        doc.text(slot.x + 1, slot.cy, "Near the cut", size=8)  # inside the card, outside its safe area
        doc.label(Rect(slot.x + 5, slot.cy + 10, 20, 4), "A name far too long for its little box", size=9)

    def draw(doc) -> None:
        content = doc.frame()
        doc.text_block(Rect(content.x, content.top - 10, 30, 10), "A paragraph of many words " * 6, size=9)
        with doc.within(Rect(content.x, content.y, 40, 40)):
            doc.text(content.x + 35, content.y + 20, "Crosses the column", size=9)
        doc.new_page()
        doc.card_sheet([card] * 2, card)

    found = overflows(Sheet("overflowing", "fort", "Overflowing", "Runs over.", draw, kind="cards"))
    texts = {run.text for run in found}
    assert "Near the cut" in texts and "Crosses the column" in texts
    assert any(text.startswith("A paragraph") or text.startswith("many words") for text in texts)
    assert any("little box" in text or "far too" in text for text in texts)
    near = next(run for run in found if run.text == "Near the cut")
    assert near.box.w == pytest.approx(63 - 2 * SAFE_AREA) or near.box.h == pytest.approx(63 - 2 * SAFE_AREA)


def test_a_sound_build_does_not_measure_at_all(build_pdf):
    assert printables.build("score-pad", io.BytesIO()) == []
    assert build_pdf("castle-deck") == build_pdf("castle-deck")  # no state left from a check
