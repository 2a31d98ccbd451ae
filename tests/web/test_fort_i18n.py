"""Fort in French and Polish (issue 17): its pages, a refusal of its rules through a page and
through the API (the code stays English), a table's moves said in each phone's language, and
its printed sheets read back."""

from __future__ import annotations

import re

import pytest

from tests.conftest import pages_say_in, pdf_text, sheet_pdf, text

NB = "\u00a0"
TOWER_ALLOWED = dict(
    do="check",
    a_army="5",
    a_fort="3",
    d_army="4",
    stake="card",
    target="9H",
    height="2",
    challenge="1",
    size="1",
)
REFUSED = {
    "en": "The top of a watchtower of 2 needs 6 army cards to challenge, and the attacker holds 5.",
    "fr": "Le sommet d'une tour de guet de 2 cartes demande 6 cartes d'armée pour être défié, et l'attaquant en a 5.",
    "pl": "Wyzwanie o szczyt wieży strażniczej z 2 kart wymaga 6 kart armii, a atakujący ma 5.",
}
FORTS = {"p1": "9H 9C 2S KD", "p2": "5H 8C JS 4D"}


def _words(page: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", page)).replace(" .", ".").replace(" ,", ",")


@pytest.mark.parametrize(
    "lang, pages",
    [
        (
            "fr",
            {
                "/fort/": [
                    "Forts, armées et tours de guet",
                    "2 à 4 joueurs",
                    "Ouvrir une table",
                    "Joueur 3",
                ],
                "/fort/battle": [
                    "Fort" + NB + ": trancher une bataille",
                    "Ce défi est-il autorisé" + NB + "?",
                ],
                "/fort/showdown": ["Fort" + NB + ": juger l'épreuve finale", "Valeur de la tour de guet"],
                "/fort/help": [
                    "Comment jouer à Fort",
                    "Les 7 sont les amis de l'attaquant" + NB + ":",
                    "Le sommet d'une tour double demande 6 cartes dans votre armée, celui d'une tour triple 10.",
                    "L'attaquant gagne la bataille et prend la carte",
                ],
            },
        ),
        (
            "pl",
            {
                "/fort/": [
                    "Forty, armie i wieże strażnicze",
                    "od 2 do 4 graczy",
                    "Załóż stół Fortu",
                    "Gracz 3",
                ],
                "/fort/battle": ["Fort: rozstrzygnij bitwę", "Czy to wyzwanie dozwolone?"],
                "/fort/showdown": ["Fort: rozstrzygnij finał", "Wartość wieży strażniczej"],
                "/fort/help": [
                    "Jak grać w Fort",
                    "Siódemki sprzyjają atakującemu:",
                    "Szczyt podwójnej wieży wymaga 6 kart w twojej armii, szczyt potrójnej 10.",
                    "Atakujący wygrywa bitwę i zabiera kartę",
                ],
            },
        ),
    ],
)
def test_forts_pages_in_each_language(browser, lang, pages):
    # The help's sections the table links to keep their anchors.
    pages_say_in(
        browser, lang, pages, "/fort/help", ("getting-started", "burning", "your-turn", "battles", "showdown")
    )


@pytest.mark.parametrize(
    "lang, refusal",
    [
        ("fr", "Refusé. " + REFUSED["fr"]),
        ("pl", "Niedozwolone. " + REFUSED["pl"]),
    ],
)
def test_the_adjudicators_refusal_in_each_language(browser, lang, refusal):
    query = "&".join(f"{key}={value}" for key, value in TOWER_ALLOWED.items())
    page = text(browser.get(f"/fort/battle?{query}", headers={"Accept-Language": lang}))
    assert refusal in _words(page)


@pytest.mark.parametrize("lang, faces", [("en", "J Q K"), ("fr", "V D R"), ("pl", "W D K")])
def test_the_card_slots_show_ranks_as_the_page_writes_them_and_post_them_as_the_rules_read_them(
    browser, lang, faces
):
    """Fort's soldiers and armies are picked by taps: a French king is R there, as on the fort's cards."""
    page = text(browser.get("/fort/showdown", headers={"Accept-Language": lang}))
    ranks = re.findall(r'_rank" value="(\w+)"[^>]*><span>([^<]+)</span>', page)
    assert ranks and {value: shown for value, shown in ranks[-3:]} == dict(
        zip("JQK", faces.split(), strict=True)
    )
    assert ("clubs" in page) == (lang == "en")  # the suits' spoken words too


def test_the_apis_refusal_follows_accept_language_and_keeps_its_code(app):
    client = app.test_client()
    body = {
        "attacker": {"army": 5, "fort": 3},
        "defender": {"army": 4},
        "target": {"card": "9H", "height": 2},
        "challenge": 1,
        "soldiers": {"attacker": ["7S"], "defender": ["AD"]},
    }
    for lang, message in REFUSED.items():
        answer = client.post("/api/v1/fort/battle", json=body, headers={"Accept-Language": lang})
        assert answer.status_code == 422
        assert answer.get_json()["error"] == {
            "code": "watchtower_needs_army",
            "message": message,
            "field": "attacker.army",
        }
    rank = client.post(
        "/api/v1/fort/showdown",
        headers={"Accept-Language": "fr"},
        json={"armies": {"a": ["5H"], "b": ["6H"]}, "watchtowers": {"a": "5", "b": "Z"}},
    )
    assert (
        rank.get_json()["error"]["message"]
        == "«"
        + NB
        + "watchtowers.b"
        + NB
        + "» doit être une valeur de carte"
        + NB
        + ": de 2 à 10, V, D, R ou A."
    )


def test_a_fort_table_in_polish_and_its_history_in_french(browser, other_browser):
    token = browser.create_table("fort", {"players": "2", "name_1": "Ann", "name_2": "Bob"})
    browser.get("/language/pl")
    dealt = browser.post(
        f"/t/{token}/act",
        {"version": "0", "type": "deal", **{f"fort_{p}": cards for p, cards in FORTS.items()}},
        htmx=True,
    )
    assert dealt.status_code == 200
    said = _words(text(dealt))
    assert "Przed grą każdy gracz może spalić jedną kartę. Potem zacznij." in said
    burned = _words(
        text(
            browser.post(
                f"/t/{token}/act", {"version": "1", "type": "burn", "card": "p1:KD", "draws": "2"}, htmx=True
            )
        )
    )
    assert "Ann pali króla karo przed grą i dobiera 2 karty." in burned
    browser.post(f"/t/{token}/act", {"version": "2", "type": "start"}, htmx=True)
    refused = browser.post(f"/t/{token}/act", {"version": "3", "type": "end_turn"}, htmx=True)
    assert refused.status_code == 422 and "Gracz najpierw dobiera kartę z koszar." in _words(text(refused))
    page = _words(text(browser.get(f"/t/{token}")))
    assert "Kolej gracza Ann: dobierz kartę z koszar." in page and "Koszary: 35 kart." in page
    history = _words(text(other_browser.get(f"/t/{token}/history", headers={"Accept-Language": "fr"})))
    assert "Ann a brûlé le roi de carreau avant la partie et a pioché 2 cartes." in history
    assert "Les cartes sont distribuées (4 cartes d'armée chacun)." in history


def test_typed_cards_are_read_in_the_pages_language(browser):
    token = browser.create_table("fort", {"players": "2", "name_1": "Ann", "name_2": "Bob"})
    browser.get("/language/fr")
    dealt = browser.post(
        f"/t/{token}/act",
        {"version": "0", "type": "deal", "fort_p1": "9C 9T 2P RK", "fort_p2": "5H 8C JS 4D"},
        htmx=True,
    )  # French, then the API's notation
    assert dealt.status_code == 200
    assert "Avant la partie, chaque joueur peut brûler une carte." in _words(text(dealt))


def _pdf_words(pdf: bytes) -> str:
    return " ".join(pdf_text(pdf).split())


def _sheet(slug: str, lang: str) -> bytes:
    return sheet_pdf(slug, lang=lang, base_url="http://192.168.1.20:5000")


def test_forts_sheets_in_polish_and_french():
    reference = _pdf_words(_sheet("fort-reference", "pl"))
    assert "Fort: ściągawka" in reference and "Dokąd trafiają karty" in reference
    assert (
        "podwójnej wieży wymaga 6 kart armii, potrójnej 10" in reference and "Najwyżej 3 próby" in reference
    )
    assert set("ąęłóśż") <= set(reference)
    tracker = _pdf_words(_sheet("fort-challenge-tracker", "fr"))
    assert "Fort de" in tracker and "Attaquant" in tracker and "3 au plus" in tracker


@pytest.mark.parametrize(
    "lang, laid, nothing",
    [
        ("en", "Ann laid 4♠ 9♥", "Player 2 laid no card."),
        ("fr", f"Ann a posé{NB}: 4♠ 9♥", "Joueur 2 n'a posé aucune carte."),
        ("pl", "Ann kładzie: 4♠ 9♥", "Gracz 2 nie kładzie żadnej karty."),
    ],
)
def test_a_free_for_all_says_who_laid_no_card_in_a_sentence_of_its_own(app, lang, laid, nothing):
    """A contender with no army card left lays nothing: never "Ann laid" with nothing after it."""
    from companion.i18n.language import say_name

    last = {"type": "free_for_all", "card": "QS", "table": {"p1": ["4S", "9H"], "p2": []}, "winner": "p1"}
    with app.test_request_context(headers={"Accept-Language": lang}):
        parts = app.jinja_env.get_template("fort/_parts.html").module
        drawn = str(parts.last_section(last, {"p1": "Ann", "p2": say_name("Player 2")}))
    lines = [
        re.sub(r"[ \n]+", " ", re.sub(r"<[^>]+>", "", item)).strip()
        for item in re.findall(r"<li>(.*?)</li>", drawn)
    ]
    assert lines == [laid, nothing]
