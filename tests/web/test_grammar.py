"""A translated sentence's words fit the names and cards put into it (companion/grammar.py): French "d'Ann",
"du joueur 2", Polish "gracza nr 2", through every way a sentence is said (a template, a view's
gettext, a stored move's description, a printed sheet), and across the whole catalogs."""

from __future__ import annotations

import re

import flask_babel
import pytest
from flask import render_template_string
from markupsafe import Markup

from companion import i18n
from companion.i18n import grammar
from companion.rules import cards
from companion.rules.sentences import Message

FORGET = "Forget %(name)s's name…"  # fr "Oublier le nom de %(name)s…", pl "Zapomnij imię gracza %(name)s…"
TURN = "%(name)s's turn: turn over a card."  # pl "Kolej gracza %(name)s: odkryj kartę."


@pytest.mark.parametrize(
    "name, said",
    [
        ("Ann", "Au tour d'Ann, pas de Bob."),
        ("Émile", "Au tour d'Émile, pas de Bob."),
        ("Ouest", "Au tour d'Ouest, pas de Bob."),
        ("Kuba", "Au tour de Kuba, pas de Bob."),
        ("Joueur 2", "Au tour du joueur 2, pas de Bob."),
        ("Joueur B", "Au tour du joueur B, pas de Bob."),
        ("Équipe Ola", "Au tour de l'équipe Ola, pas de Bob."),
        ("Joueur fou", "Au tour de Joueur fou, pas de Bob."),  # a typed name is only ever elided
        ("8", "Au tour de 8, pas de Bob."),
    ],
)
def test_french_de_fits_the_name_after_it(name, said):
    sentence = grammar.joined("Au tour de %(name)s, pas de %(other)s.", "fr")
    assert sentence % {"name": name, "other": "Bob"} == said


def test_french_que_and_a_and_capitals():
    assert grammar.joined("Cartes que %(name)s joue", "fr") % {"name": "Ewa"} == "Cartes qu'Ewa joue"
    assert (
        grammar.joined("Cartes que %(name)s joue", "fr") % {"name": "Joueur 3"}
        == "Cartes que le joueur 3 joue"
    )
    assert (
        grammar.joined("C'est à %(name)s de tirer.", "fr") % {"name": "Joueur A"}
        == "C'est au joueur A de tirer."
    )
    assert grammar.joined("C'est à %(name)s de tirer.", "fr") % {"name": "Ann"} == "C'est à Ann de tirer."
    assert grammar.joined("À %(name)s de tirer.", "fr") % {"name": "Joueur A"} == "Au joueur A de tirer."
    assert grammar.joined("De %(name)s.", "fr") % {"name": "Ola"} == "D'Ola."
    assert (
        grammar.joined("de 1 à %(most)s", "fr") % {"most": 12} == "de 1 à 12"
    )  # numbers never change a word


@pytest.mark.parametrize(
    "sentence, name, said",
    [
        ("Coup joué par %(name)s.", "Joueur 2", "Coup joué par le joueur 2."),
        ("Coup joué par %(name)s.", "Équipe Ola", "Coup joué par l'équipe Ola."),
        ("Coup joué par %(name)s.", "Ann", "Coup joué par Ann."),  # a typed name: never elided here
        ("Points pour %(name)s", "Joueur A", "Points pour le joueur A"),
        ("Défi contre %(name)s", "Joueur 3", "Défi contre le joueur 3"),
        ("Ola joue avec %(name)s.", "Équipe Kuba", "Ola joue avec l'équipe Kuba."),
        ("Vote sur %(name)s", "Joueur 2", "Vote sur le joueur 2"),
        ("Déjà dans %(name)s.", "Équipe Ola", "Déjà dans l'équipe Ola."),
        ("Pour <strong>%(name)s</strong>", "Joueur 2", "Pour le <strong>joueur 2</strong>"),
        ("Ola s'arrête, %(name)s poursuit.", "Joueur 2", "Ola s'arrête, le joueur 2 poursuit."),
        ("Ola prend ; %(name)s joue.", "Équipe Ola", "Ola prend ; l'équipe Ola joue."),
        ("Ola s'arrête, %(name)s poursuit.", "Ewa", "Ola s'arrête, Ewa poursuit."),
    ],
)
def test_french_prepositions_and_a_subject_mid_sentence_give_a_default_name_its_article(sentence, name, said):
    assert grammar.joined(sentence, "fr") % {"name": name} == said


def test_french_leaves_names_side_by_side_and_lists_as_they_are():
    assert grammar.joined("%(first)s contre %(second)s", "fr") % {
        "first": "Joueur 1",
        "second": "Joueur 2",
    } == ("Joueur 1 contre Joueur 2")  # a table's title
    assert grammar.joined("%(first)s, %(second)s", "fr") % {"first": "Joueur 1", "second": "Joueur 2"} == (
        "Joueur 1, Joueur 2"
    )  # a list
    assert grammar.joined("Vainqueurs : %(a)s, %(b)s.", "fr") % {"a": "Ola", "b": "Joueur 2"} == (
        "Vainqueurs : Ola, Joueur 2."
    )
    assert grammar.joined("sur %(count)s", "fr") % {"count": 4} == "sur 4"


def test_the_same_name_twice_is_fitted_only_where_a_word_asks():
    sentence = grammar.joined("%(name)s joue ; au tour de %(name)s.", "fr")
    assert sentence % {"name": "Joueur 2"} == "Joueur 2 joue ; au tour du joueur 2."


def test_polish_names_a_compass_seat_by_itself():
    sentence = grammar.joined("Kolej gracza %(name)s (%(name)s gra).", "pl")
    assert sentence % {"name": "Wschód"} == "Kolej Wschodu (Wschód gra)."
    assert sentence % {"name": "Południe"} == "Kolej Południa (Południe gra)."
    assert (
        grammar.joined("z graczem %(name)s", "pl") % {"name": "Zachód"} == "z graczem Zachód"
    )  # "gracza" only


@pytest.mark.parametrize(
    "sentence, name, said",
    [
        ("Ola przeciw %(name)s", "Gracz 2", "Ola przeciw graczowi nr 2"),
        ("Ola przeciwko %(name)s", "Gracz B", "Ola przeciwko graczowi B"),
        ("Ola przeciw %(name)s", "Drużyna Kuba", "Ola przeciw drużynie Kuba"),
        ("Ola przeciw %(name)s", "Wschód", "Ola przeciw Wschodowi"),
        ("wygrane przez %(name)s", "Gracz 3", "wygrane przez gracza nr 3"),
        ("wygrane przez %(name)s", "Drużyna Ola", "wygrane przez drużynę Ola"),
        ("wygrane przez %(name)s", "Zachód", "wygrane przez Zachód"),
        ("Punkty dla %(name)s", "Gracz 2", "Punkty dla gracza nr 2"),
        ("Punkty dla %(name)s", "Drużyna Ola", "Punkty dla drużyny Ola"),
        ("Karta od %(name)s", "Północ", "Karta od Północy"),
        ("Dla <strong>%(name)s</strong>", "Gracz A", "Dla <strong>gracza A</strong>"),
        ("Ola przeciw %(name)s", "Kuba", "Ola przeciw Kuba"),  # a typed name: never declined
        ("Ola przeciw %(name)s", "Gracz Kuba", "Ola przeciw Gracz Kuba"),
        ("Strony od %(name)s do %(name)s", "7", "Strony od 7 do 7"),
    ],
)
def test_polish_puts_a_default_name_after_a_preposition_in_its_case(sentence, name, said):
    assert grammar.joined(sentence, "pl") % {"name": name} == said


@pytest.mark.parametrize(
    "values, said",
    [
        ({"name": "Gracz 2", "team": "Drużyna Ola"}, "Kolej gracza nr 2 w drużynie Ola; Gracz 2 gra."),
        ({"name": "Gracz B", "team": "Ola"}, "Kolej gracza B w drużynie Ola; Gracz B gra."),
        ({"name": "Ann", "team": "Drużyna Gracz 2"}, "Kolej gracza Ann w drużynie Gracz 2; Ann gra."),
    ],
)
def test_polish_does_not_repeat_a_default_names_noun(values, said):
    sentence = grammar.joined("Kolej gracza %(name)s w drużynie %(team)s; %(name)s gra.", "pl")
    assert sentence % values == said


@pytest.mark.parametrize(
    "sentence, game, said",
    [
        ("Jouer à %(game)s", "Bloc de score", "Jouer au bloc de score"),
        ("Toutes les parties de %(game)s", "Bloc de score", "Toutes les parties du bloc de score"),
        ("Toutes les parties de %(game)s", "Forteresse", "Toutes les parties de Forteresse"),
        ("Jouer à %(game)s", "Castle", "Jouer à Castle"),
        ("Les parties de %(name)s", "Bloc de score", "Les parties de Bloc de score"),  # typed: as typed
    ],
)
def test_french_says_the_score_pad_as_a_common_noun(sentence, game, said):
    values = {"game": game} if "%(game)s" in sentence else {"name": game}
    assert grammar.joined(sentence, "fr") % values == said


def test_a_name_in_markup_is_read_past_its_tags_and_stays_safe():
    sentence = grammar.joined("Au tour de %(name)s", "fr")
    assert sentence % {"name": Markup("<b>Joueur 2</b>")} == Markup("Au tour du <b>joueur 2</b>")
    assert sentence % {"name": Markup("<b>Ola</b>")} == Markup("Au tour d'<b>Ola</b>")
    text, values = sentence.fitted({"name": Markup("<b>Joueur 2</b>")})
    assert type(values["name|0"]) is Markup


def test_a_sentence_with_no_such_word_stays_a_plain_string():
    assert type(grammar.joined("%(name)s a gagné.", "fr")) is str
    assert type(grammar.joined("Au tour de %(name)s", "en")) is str
    assert type(grammar.joined("Ataki %(name)s", "pl")) is str


def _parameters(template: str) -> dict:
    return dict.fromkeys(re.findall(r"%\((\w+)\)s", template))


@pytest.mark.parametrize(
    "lang, name, wrong",
    [
        ("fr", "Ann", r"(?<![\w'])(de|que|De|Que) Ann\b"),
        ("fr", "Joueur 2", r"(?<![\w'])(de|que|à|De|Que|À) Joueur 2\b"),
        ("fr", "Joueur 2", r"(?<!Joueur 2 )\b(?i:par|pour|contre|avec|sur|dans) Joueur 2\b"),
        ("fr", "Joueur 2", r"[,;] Joueur 2 [a-zé]"),
        ("pl", "Gracz 2", r"(?i)gracz\w* Gracz 2\b"),
        ("pl", "Gracz 2", r"(?i)\b(przeciw|przeciwko|przez|dla|od|do|bez|u) Gracz 2\b"),
        ("pl", "Drużyna Ola", r"(?i)drużyn\w* Drużyna Ola\b"),
    ],
)
def test_no_sentence_of_a_catalog_glues_a_name_wrongly(lang, name, wrong):
    catalog = i18n.translations(lang)
    glued = []
    for key, template in catalog._catalog.items():
        if not key or "%(" not in template:
            continue
        values = {parameter: name for parameter in _parameters(template)}
        if re.search(wrong, re.sub(r"<[^>]+>", "", template % values)):  # "de <strong>%(name)s" too
            glued.append(template)
    assert glued == []
    assert any(isinstance(template, grammar.Joined) for template in catalog._catalog.values())


def test_every_way_a_french_sentence_is_said_fits_it(app):
    with app.test_request_context("/", headers={"Accept-Language": "fr"}):
        assert render_template_string("{{ _(s, name=n) }}", s=FORGET, n="Ola") == "Oublier le nom d'Ola…"
        assert (
            render_template_string("{{ _(s, name=n) }}", s=FORGET, n="Joueur 2")
            == "Oublier le nom du joueur 2…"
        )
        unsafe = render_template_string("{{ _(s, name=n) }}", s=FORGET, n="Ola<b>")
        assert unsafe == "Oublier le nom d'Ola&lt;b&gt;…"
        assert (
            render_template_string("{{ _(s, name=n) }}", s=FORGET, n="<Ola>")
            == "Oublier le nom de &lt;Ola&gt;…"
        )
        assert flask_babel.gettext(FORGET, name="Ola") == "Oublier le nom d'Ola…"
        assert i18n.say(Message(FORGET, name="Player 2")) == "Oublier le nom du joueur 2…"
    assert i18n.say(Message(FORGET, name="Ola"), "fr") == "Oublier le nom d'Ola…"  # a printed sheet's way
    assert i18n.say(Message(TURN, name="Player 2"), "pl") == "Kolej gracza nr 2: odkryj kartę."


PLAYS = "%(player)s plays the %(card)s on %(pile)s, over the %(covered)s."  # Castle's move


@pytest.mark.parametrize(
    "lang, card, said",
    [
        ("fr", "QH", "Ewa pose la dame de cœur sur C2, par-dessus l'as de pique."),
        ("fr", "KD", "Ewa pose le roi de carreau sur C2, par-dessus l'as de pique."),
        ("fr", "7C", "Ewa pose la carte 7 de trèfle sur C2, par-dessus l'as de pique."),
        ("pl", "QH", "Ewa kładzie damę kier na stos C2, przykrywając asa pik."),
        ("pl", "JH", "Ewa kładzie waleta kier na stos C2, przykrywając asa pik."),
        ("pl", "7C", "Ewa kładzie kartę 7 trefl na stos C2, przykrywając asa pik."),
    ],
)
def test_a_court_card_in_words_takes_the_place_of_the_word_card(lang, card, said):
    move = Message(
        PLAYS, player="Ewa", card=cards.parse(card).in_words, pile="C2", covered=cards.parse("AS").in_words
    )
    assert i18n.say(move, lang) == said


def test_a_court_card_keeps_the_word_card_where_the_sentence_agrees_with_it():
    assert grammar.joined("La carte %(card)s est déjà posée.", "fr") == "La carte %(card)s est déjà posée."
    assert grammar.joined("Vérification de la carte %(card)s", "fr") % {"card": "roi de pique"} == (
        "Vérification de la carte roi de pique"
    )
    assert (
        grammar.joined("Karty %(card)s nie ma w ręce.", "pl") % {"card": "król pik"}
        == "Króla pik nie ma w ręce."
    )
    assert (
        grammar.joined("Spalić karty %(rank)s", "pl") % {"rank": "dama"} == "Spalić karty dama"
    )  # a rank, not a card
