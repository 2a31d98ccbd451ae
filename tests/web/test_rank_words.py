"""A rank in a sentence is a word with its plural, said as each language says it (issue 41): "a
watchtower of 4 queens", « une tour de guet de 4 dames », „wieżę strażniczą (4 damy)”; Castle names
a court card with the adjective agreeing ("Une dame noire", "Czarny walet"). Letters stay where a
card is shown as a card (Q♠). A move stored with the old "watchtower of Qs" is said the new way."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.rules import castle, fort
from companion.rules.cards import RANK_COUNTS, parse, rank_count
from companion.rules.errors import RuleError
from companion.rules.sentences import Message
from companion.rules.stored_sentences import dump, load

NB = "\u00a0"


@pytest.mark.parametrize(
    "rank, count, said",
    [
        ("Q", 4, {"en": "4 queens", "fr": "4 dames", "pl": "4 damy"}),
        ("K", 2, {"en": "2 kings", "fr": "2 rois", "pl": "2 króle"}),
        ("A", 5, {"en": "5 aces", "fr": "5 as", "pl": "5 asów"}),
        ("7", 1, {"en": "1 seven", "fr": "1 sept", "pl": "1 siódemka"}),
        ("10", 3, {"en": "3 tens", "fr": "3 dix", "pl": "3 dziesiątki"}),
    ],
)
def test_a_rank_is_counted_in_words_in_each_language(rank, count, said):
    assert {lang: i18n.say(rank_count(rank, count), lang) for lang in said} == said


def test_every_rank_has_its_words_and_no_sentence_glues_an_s_to_a_rank():
    assert sorted(RANK_COUNTS) == sorted(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    for lang in ("fr", "pl"):
        said = {i18n.say(rank_count(rank, 4), lang) for rank in RANK_COUNTS}
        assert len(said) == 13 and all(not word.endswith(("4", "4s")) for word in said)
    catalog = (i18n.catalogs.po_path("fr")).read_text(encoding="utf-8")
    assert "%(rank)ss" not in catalog


def _refusal(call, *args) -> RuleError:
    with pytest.raises(RuleError) as caught:
        call(*args)
    return caught.value


def test_a_burn_before_the_game_names_the_card_and_how_many_another_fort_holds():
    forts = {"a": [parse("5H")], "b": [parse("QS"), parse("QD"), parse("2C")]}
    refused = _refusal(fort.check_pre_game_burn, parse("QC"), "a", forts)
    assert refused.code == "burn_not_allowed"
    assert str(refused) == "Before the game the queen of clubs cannot be burned: another fort holds 2 queens."
    assert i18n.say(refused.sentence, "fr") == (
        f"Avant la partie, on ne peut pas brûler la dame de trèfle{NB}: un autre fort contient 2 dames."
    )
    assert i18n.say(refused.sentence, "pl") == "Przed grą nie można spalić damy trefl: inny fort ma 2 damy."


def test_a_card_of_a_complete_watchtower_in_an_army_is_refused_in_words():
    body = {"armies": {"a": ["5H"], "b": ["8H"]}, "watchtowers": {"a": "8", "b": "9"}}
    refused = _refusal(fort.api_showdown, body)
    assert str(refused) == "The 8 of hearts cannot be in an army: a watchtower holds all 4 eights."
    assert i18n.say(refused.sentence, "fr").endswith(f"armée{NB}: une tour de guet contient les 4 huit.")
    assert i18n.say(refused.sentence, "pl") == (
        "Karta 8 kier nie może być w armii: wszystkie 4 ósemki są w wieży strażniczej."
    )


def test_a_free_for_all_stored_with_a_rank_letter_is_said_with_the_rank_in_words():
    old = "%(name)s drew the %(card)s, completing a watchtower of %(rank)ss: free-for-all! %(then)s"
    stored = dump(Message(old, name="Ola", card=parse("QS").in_words, rank=Message("Q"), then=""))
    sentence = load(stored)
    assert (
        str(sentence) == "Ola drew the queen of spades, completing a watchtower of 4 queens: free-for-all! "
    )
    assert "tour de guet de 4 dames" in i18n.say(sentence, "fr")
    assert "(4 damy)" in i18n.say(sentence, "pl")
    assert load(dump(sentence)) == sentence  # stored again, the new way
    numbered = dump(Message(old, name="Ola", card=parse("7S").in_words, rank="7", then=""))
    assert "a watchtower of 4 sevens" in str(load(numbered))


@pytest.mark.parametrize(
    "key, said",
    [
        (("black", "Q"), {"en": "A black queen", "fr": "Une dame noire", "pl": "Czarna dama"}),
        (("black", "J"), {"en": "A black jack", "fr": "Un valet noir", "pl": "Czarny walet"}),
        (("red", "K"), {"en": "A red king", "fr": "Un roi rouge", "pl": "Czerwony król"}),
        (("red", "A"), {"en": "A red ace", "fr": "Un as rouge", "pl": "Czerwony as"}),
        ("black", {"en": "A black 9", "fr": "Un 9 noir", "pl": "Czarna karta 9"}),
    ],
)
def test_castle_says_the_card_that_needs_more_with_its_adjective_agreeing(key, said):
    sentence = Message(castle.NEEDS_MORE[key], rank="9", needed=12)
    words = {lang: i18n.say(sentence, lang) for lang in said}
    assert {lang: text[: len(said[lang])] for lang, text in words.items()} == said
    assert all(text.endswith(("12.", "(12).")) for text in words.values())  # Polish: „(12)”


def test_castle_refuses_a_court_card_with_its_own_sentence():
    tops = {pile: parse("KH") for pile in castle.PILES}  # red kings: every pile is worth more than a queen
    refused = castle.refusal(tops, parse("QS"), "B2")
    assert refused is not None and refused.template == castle.NEEDS_MORE["black", "Q"]
    assert i18n.say(refused, "fr").startswith("Une dame noire doit dépasser la valeur de ce tas")
