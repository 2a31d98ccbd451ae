"""Duplex that lines up: the offset read on the duplex check moves every page of backs to cancel it.

The offset is what the check's scales read, seen through the sheet from the front: the backs X mm
right and Y mm down of their fronts. Read back from the PDFs (pypdf text positions, in mm), the
backs drawn with an offset lie X mm left and Y mm up of where they lie without one, as seen from
the front, on both papers and both flip edges; the first page says the offset, and warns past the
bleed; the command line and the print page take it, and the phone remembers it.
"""

from __future__ import annotations

import pytest

from companion import cli
from printables import layout
from printables.draw import PT

OFFSET = (2.5, -1.0)  # the backs read 2.5 mm right and 1 mm up of their fronts


def positions(reader, page: int) -> list[tuple[str, float, float]]:
    """(text, x, y) in mm of every text run on a page (1-based), in the order drawn."""
    runs: list[tuple[str, float, float]] = []

    def visit(text, cm, tm, _font, _size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            runs.append((text.strip(), x * PT, y * PT))

    reader.pages[page - 1].extract_text(visitor_text=visit)
    return runs


def seen_from_front(dx: float, dy: float, duplex: str) -> tuple[float, float]:
    """A move on the back of the page as seen through the sheet from its front (x right, y up)."""
    return (-dx, dy) if duplex == "long" else (dx, -dy)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize(("slug", "backs"), [("blank-cards", 4), ("duplex-check", 2), ("castle-deck", 2)])
def test_the_backs_move_by_the_offset_entered_to_cancel_it(slug, backs, duplex, paper, build_pdf, read_pdf):
    plain = positions(read_pdf(build_pdf(slug, paper=paper, duplex=duplex)), backs)
    moved = positions(read_pdf(build_pdf(slug, paper=paper, duplex=duplex, back_offset=OFFSET)), backs)
    assert len(plain) == len(moved) > 3
    right, down = OFFSET
    for (text, x0, y0), (same, x1, y1) in zip(plain, moved, strict=True):
        assert text == same
        dx, dy = seen_from_front(x1 - x0, y1 - y0, duplex)
        assert dx == pytest.approx(-right, abs=0.1), text  # read right: moved left
        assert dy == pytest.approx(down, abs=0.1), text  # read down (y goes up): moved up


@pytest.mark.parametrize("slug", ["blank-cards", "duplex-check"])
def test_the_fronts_stay_where_they_were(slug, build_pdf, read_pdf):
    plain = positions(read_pdf(build_pdf(slug)), 1)
    assert positions(read_pdf(build_pdf(slug, back_offset=OFFSET)), 1)[-12:] == plain[-12:]


def test_no_offset_gives_the_same_bytes_as_before_offsets(build_pdf):
    assert build_pdf("blank-cards", back_offset=(0.0, 0.0)) == build_pdf("blank-cards")


def test_the_first_page_says_the_offset_and_warns_past_the_bleed(build_pdf, read_pdf):
    def first(offset):
        return " ".join(
            read_pdf(build_pdf("blank-cards", back_offset=offset)).pages[0].extract_text().split()
        )

    assert "Back offset" not in first((0.0, 0.0))
    said = first(OFFSET)
    assert "the backs read 2.5 mm right and 1 mm up" in said and "Warning" not in said
    assert "the backs read 0.5 mm left and 2 mm down" in first((-0.5, 2.0))
    assert "more than the 3 mm the bleed absorbs" in first((3.5, 0.0))


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_the_offset_is_written_with_the_reader_s_decimal_comma(lang, build_pdf, read_pdf):
    said = " ".join(
        read_pdf(build_pdf("blank-cards", back_offset=(1.5, -0.5), lang=lang)).pages[0].extract_text().split()
    )
    assert "1,5 mm" in said and "0,5 mm" in said and "1.5" not in said


def test_the_duplex_check_has_half_millimetre_scales_with_words(build_pdf, read_pdf):
    said = read_pdf(build_pdf("duplex-check", lang="fr")).pages[0].extract_text()
    assert "6" in said and "gauche" in said and "droite" in said


@pytest.mark.parametrize("text", ["11,0", "0,-10.5", "2", "a,b", ""])
def test_an_offset_past_10_mm_or_not_two_numbers_is_refused(text):
    with pytest.raises(ValueError, match="back offset"):
        layout.back_offset(text)


def test_an_offset_is_rounded_to_a_tenth_of_a_millimetre():
    assert layout.back_offset(" 1.04, -0.5") == (1.0, -0.5)


def test_castellan_print_takes_the_back_offset(tmp_path, read_pdf, build_pdf):
    out = tmp_path / "deck.pdf"
    args = ["print", "blank-cards", "-o", str(out), "--base-url", "http://localhost:5000"]
    assert cli.main([*args, "--back-offset=-1,0.5", "--duplex", "short"]) == 0
    assert out.read_bytes() == build_pdf("blank-cards", back_offset=(-1.0, 0.5), duplex="short")


def test_castellan_print_refuses_an_offset_past_10_mm(tmp_path, capsys):
    with pytest.raises(SystemExit):
        cli.main(["print", "blank-cards", "-o", str(tmp_path / "x.pdf"), "--back-offset", "12,0"])
    assert "at most 10 mm" in capsys.readouterr().err


def test_the_print_page_takes_the_offset_and_this_phone_remembers_it(app):
    client = app.test_client()
    page = client.get("/print?right=1.5&down=-0.5").get_data(as_text=True)
    assert "/print/castle-deck.pdf?paper=a4&amp;offset=1.5,-0.5" in page
    again = client.get("/print").get_data(as_text=True)  # the cookie, not the server, remembers
    assert 'name="right" step="0.5" min="-10" max="10" inputmode="decimal" value="1.5"' in again
    assert "offset=1.5,-0.5" in again
    assert "more than the 3 mm" not in again
    assert "more than the 3 mm" in client.get("/print?right=3.5&down=0").get_data(as_text=True)
    refused = client.get("/print?right=30&down=0").get_data(as_text=True)
    assert "at most 10 mm each way" in refused and "offset=3.5,0" in refused  # the one kept
    assert "offset=" not in client.get("/print?right=0&down=0").get_data(as_text=True)


def test_a_sheet_pdf_takes_the_offset_and_refuses_a_wrong_one(app, build_pdf):
    client = app.test_client()
    pdf = client.get("/print/blank-cards.pdf?paper=a4&offset=1.5,-0.5&lang=en")
    assert pdf.status_code == 200
    assert client.get("/print/blank-cards.pdf?paper=a4&offset=1,x").status_code == 404
    assert client.get("/print/blank-cards.pdf?paper=a4&offset=0,11").status_code == 404
