"""Decks of one's own: a Square Tactics faction or a Zamek deck from the JSON a table accepts.

Read back from the PDFs: each printed card carries the values of the JSON, the first page names
the deck and its QR code opens the game's new-table form filled with it; a deck the rules refuse
is refused with the wrong field, in the library, on the print page and on the command line.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from companion import cli
from companion.rules import zamek
from companion.rules.errors import RuleError
from printables import kit, own

FACTION = {
    "name": "Ravens of Kraków",
    "emblem": "tower",
    "cards": [
        {"name": name, "edges": [1 + (i + k * 2) % 9 for k in range(4)]}
        for i, name in enumerate(
            [
                "Scout",
                "Guard",
                "Archer",
                "Knight",
                "Squire",
                "Mason",
                "Smith",
                "Monk",
                "Herald",
                "Warden",
                "Pikeman",
                "Ranger",
                "Crow",
            ]
        )
    ],
}
ZAMEK = {"name": "Mój zamek", "king": 12, "queen": 30, "wizard": 46, "knights": [3, 9], "princesses": [5, 20]}


def runs(reader, pages) -> list[str]:
    """Every text run of the pages (1-based), in the order drawn."""
    found: list[str] = []
    for number in pages:
        reader.pages[number - 1].extract_text(
            visitor_text=lambda text, *_: found.append(text.strip()) if text.strip() else None
        )
    return found


@pytest.mark.parametrize("fold", [False, True])
def test_a_faction_of_your_own_prints_the_values_of_its_json(fold, build_pdf, read_pdf):
    reader = read_pdf(build_pdf(own.own_sheet("tactics", json.loads(json.dumps(FACTION))), fold=fold))
    fronts = range(2, len(reader.pages) + 1) if fold else range(5, len(reader.pages) + 1, 2)
    printed = runs(reader, fronts)
    for card in FACTION["cards"]:
        at = printed.index(card["name"])
        top, right, bottom, left = card["edges"]
        assert printed[at - 4 : at] == [str(top), str(bottom), str(left), str(right)], card["name"]
    assert sum(name in printed for name in (card["name"] for card in FACTION["cards"])) == 13


def test_the_first_page_names_the_deck_and_its_qr_code_opens_a_table_with_it(
    build_pdf, read_pdf, render, scan
):
    data = build_pdf(own.own_sheet("tactics", FACTION), base_url="http://castle.local:5000")
    first = " ".join(read_pdf(data).pages[0].extract_text().split())
    assert "Ravens of Kraków: the deck" in first and "A deck of your own" in first
    codes = scan(render(data, 1, dpi=200))
    opened = [code for code in codes if "own_p1=" in code]
    assert len(opened) == 1 and opened[0].startswith("http://castle.local:5000/tactics/?own_p1=")
    sent = json.loads(parse_qs(urlsplit(opened[0]).query)["own_p1"][0])
    assert sent == FACTION
    assert "left blank" in read_pdf(data).pages[1].extract_text()  # the name page's back


def test_a_zamek_deck_of_your_own_prints_its_pictures_and_names_itself(build_pdf, read_pdf):
    sheet = own.own_sheet("zamek", ZAMEK)
    reader = read_pdf(build_pdf(sheet, base_url="http://castle.local:5000"))
    assert sheet.title.params["name"] == "Mój zamek"
    assert "Mój zamek (custom-" in reader.pages[0].extract_text()
    printed = runs(reader, range(5, len(reader.pages) + 1, 2))
    for number, picture in ((12, "King"), (30, "Queen"), (46, "Wizard"), (3, "Knight"), (20, "Princess")):
        at = printed.index(str(number))
        assert picture in printed[at : at + 6], number
    printed_url = type("Printed", (), {"base_url": "http://castle.local:5000"})  # all deck_url reads
    fields = parse_qs(urlsplit(own.zamek_sheets.deck_url(printed_url, zamek.parse_deck(ZAMEK))).query)
    assert (
        fields["deck"] == ["custom"]
        and fields["deck_knights"] == ["3 9"]
        and fields["deck_name"] == ["Mój zamek"]
    )


@pytest.mark.parametrize(
    ("game", "deck", "field"),
    [
        ("tactics", {**FACTION, "cards": FACTION["cards"][:5]}, "deck.cards"),
        ("tactics", {**FACTION, "emblem": "duck"}, "deck.emblem"),
        ("zamek", {**ZAMEK, "queen": 12}, "deck.queen"),
        ("chess", {}, "game"),
    ],
)
def test_a_deck_the_rules_refuse_is_refused_with_the_wrong_field(game, deck, field):
    with pytest.raises(RuleError) as refused:
        own.own_sheet(game, deck)
    assert refused.value.field == field
    with pytest.raises(RuleError, match="JSON object"):
        own.read_deck("{not json")


def test_the_print_page_prints_a_deck_of_your_own_or_says_the_wrong_field(app):
    client = app.test_client()
    page = client.get("/print").get_data(as_text=True)
    assert 'action="/print/own.pdf"' in page and 'name="deck"' in page
    ok = client.get(
        "/print/own.pdf", query_string={"game": "zamek", "deck": json.dumps(ZAMEK), "layout": "fold"}
    )
    assert ok.status_code == 200 and "zamek-own-fold-a4.pdf" in ok.headers["Content-Disposition"]
    bad = {**FACTION, "cards": [*FACTION["cards"][:12], {"name": "Crow", "edges": [1, 12, 3, 4]}]}
    refused = client.get("/print/own.pdf", query_string={"game": "tactics", "deck": json.dumps(bad)})
    assert refused.status_code == 400
    said = refused.get_data(as_text=True)
    assert "(the field deck.cards[12].edges[1])" in said and "Crow" in said  # the deck typed stays


def test_castellan_print_prints_a_deck_of_your_own(tmp_path, build_pdf, capsys):
    deck = tmp_path / "mine.json"
    deck.write_text(json.dumps(FACTION), encoding="utf-8")
    out = tmp_path / "mine.pdf"
    args = [
        "print",
        "tactics-own",
        "--deck",
        str(deck),
        "-o",
        str(out),
        "--base-url",
        "http://localhost:5000",
    ]
    assert cli.main(args) == 0
    assert out.read_bytes() == build_pdf(own.own_sheet("tactics", FACTION))
    deck.write_text(json.dumps({**FACTION, "cards": []}), encoding="utf-8")
    assert cli.main(args) == 2
    assert "deck.cards: A faction has 12 to 18 cards." in capsys.readouterr().err


def test_a_zamek_kit_with_a_deck_of_your_own_prints_it_in_the_shipped_deck_s_place(build_pdf, read_pdf):
    mine = own.own_sheet("zamek", ZAMEK)
    assert [sheet.slug for sheet in kit.kit_sheets("zamek", mine)] == [
        "zamek-own",
        "zamek-layout",
        "zamek-score-pad",
    ]
    reader = read_pdf(build_pdf(kit.kit_sheet("zamek", mine)))
    alone = read_pdf(build_pdf(mine)).pages
    first = " ".join(reader.pages[0].extract_text().split())
    assert f"Pages 2 to {1 + len(alone)}: Mój zamek (custom-" in first
    assert [" ".join(page.extract_text().split()) for page in reader.pages[1 : 1 + len(alone)]] == [
        " ".join(page.extract_text().split()) for page in alone
    ]


def test_a_tactics_kit_with_a_faction_of_your_own_keeps_the_four_shipped_ones(build_pdf, read_pdf):
    slugs = [sheet.slug for sheet in kit.kit_sheets("tactics", own.own_sheet("tactics", FACTION))]
    assert slugs[0] == "tactics-own" and {"tactics-roost", "tactics-marches"} <= set(slugs[:5])


def test_the_print_page_and_castellan_print_put_a_deck_of_your_own_in_its_kit(app, tmp_path, build_pdf):
    query = {"game": "zamek", "deck": json.dumps(ZAMEK), "kit": "1"}
    answer = app.test_client().get("/print/own.pdf", query_string=query)
    assert answer.status_code == 200 and "zamek-kit-own-a4.pdf" in answer.headers["Content-Disposition"]
    deck, out = tmp_path / "mine.json", tmp_path / "kit.pdf"
    deck.write_text(json.dumps(ZAMEK), encoding="utf-8")
    args = ["print", "zamek-kit", "--deck", str(deck), "-o", str(out), "--base-url", "http://localhost:5000"]
    assert cli.main(args) == 0
    assert out.read_bytes() == build_pdf(kit.kit_sheet("zamek", own.own_sheet("zamek", ZAMEK)))
