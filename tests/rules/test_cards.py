"""The standard deck shared by Castle and Fort: spellings, names, colours, rank orders."""

import random

import pytest

from companion.rules import cards
from companion.rules.cards import Card, parse
from companion.rules.errors import RuleError


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("10h", "10H"),
        ("t♥", "10H"),
        ("10♥", "10H"),
        ("qs", "QS"),
        ("Q♠", "QS"),
        ("q♤", "QS"),
        ("ad", "AD"),
        ("A♦", "AD"),
        ("a♢", "AD"),
        ("7c", "7C"),
        ("7♣", "7C"),
        ("7♧", "7C"),
        ("K♡", "KH"),
        (" 10 d ", "10D"),
        ("j♣", "JC"),
    ],
)
def test_every_accepted_spelling_reads_as_the_canonical_name(text, canonical):
    assert str(parse(text)) == canonical


def test_every_card_of_the_deck_reads_back_from_its_own_name():
    assert [parse(str(card)) for card in cards.deck()] == cards.deck()


@pytest.mark.parametrize(
    "text", ["", "   ", "1H", "11H", "0S", "10", "H", "10X", "QQ", "JOKER", "♠", "1 0H", "10H10H", "T"]
)
def test_anything_else_is_an_unknown_card_with_a_clear_message(text):
    with pytest.raises(RuleError) as refused:
        parse(text, "card")
    assert refused.value.code == "unknown_card"
    assert refused.value.field == "card"
    assert "like 7S" in refused.value.message


@pytest.mark.parametrize("junk", [None, 10, 7.5, ["QS"], {"card": "QS"}, True])
def test_a_card_name_must_be_text(junk):
    with pytest.raises(RuleError) as refused:
        parse(junk)
    assert refused.value.code == "unknown_card"


def test_names_in_words():
    assert parse("QS").name == "queen of spades"
    assert parse("10H").name == "10 of hearts"
    assert parse("AD").name == "ace of diamonds"
    assert parse("JC").name == "jack of clubs"
    assert parse("KH").name == "king of hearts"


def test_hearts_and_diamonds_are_red_spades_and_clubs_black():
    assert {parse(name).colour for name in ("AH", "5D", "KH", "10D")} == {"red"}
    assert {parse(name).colour for name in ("AS", "5C", "KS", "10C")} == {"black"}


def test_colours_and_their_opposites():
    assert cards.COLOURS == ("red", "black")
    assert cards.opposite_colour("red") == "black"
    assert cards.opposite_colour("black") == "red"
    with pytest.raises(RuleError) as refused:
        cards.opposite_colour("green")
    assert refused.value.code == "unknown_colour"


def test_ace_low_order_is_castles_intrinsic_value():
    assert [parse(rank + "S").value for rank in cards.RANKS] == list(range(1, 14))
    assert cards.ACE_LOW["A"] == 1 and cards.ACE_LOW["K"] == 13


def test_ace_high_order_puts_the_ace_above_the_king():
    assert sorted(cards.ACE_HIGH, key=cards.ACE_HIGH.get) == [*cards.RANKS[1:], "A"]
    assert cards.ACE_HIGH["2"] == 2 and cards.ACE_HIGH["K"] == 13 and cards.ACE_HIGH["A"] == 14


def test_royals():
    assert [rank for rank in cards.RANKS if Card(rank, "S").is_royal] == ["J", "Q", "K"]


def test_the_deck_holds_52_different_cards_in_a_fixed_order():
    full = cards.deck()
    assert len(full) == len(set(full)) == 52
    assert [str(card) for card in full[:2]] == ["AS", "2S"]
    assert str(full[-1]) == "KC"


def test_a_shuffle_is_a_permutation_fixed_by_its_seed():
    first = cards.shuffled_deck(random.Random(7))
    assert first == cards.shuffled_deck(random.Random(7))
    assert sorted(first) == sorted(cards.deck())


def test_parse_distinct_refuses_a_card_named_twice_in_any_spelling():
    assert [str(card) for card in cards.parse_distinct(["QS", "th"])] == ["QS", "10H"]
    with pytest.raises(RuleError) as refused:
        cards.parse_distinct(["10H", "th"], "hand")
    assert refused.value.code == "duplicate_card"
    with pytest.raises(RuleError) as refused:
        cards.parse_distinct(["QS", "ZZ"], "hand")
    assert refused.value.field == "hand[1]"
    with pytest.raises(RuleError) as refused:
        cards.parse_distinct("QS", "hand")
    assert refused.value.code == "not_a_list"


def test_suits_typed_as_phone_emoji_are_read():
    assert str(cards.parse("Q\u2660\ufe0f")) == "QS"
    assert str(cards.parse("10\u2665\ufe0f")) == "10H"


def test_a_long_junk_name_is_not_repeated_in_full():
    with pytest.raises(RuleError) as refused:
        cards.parse("x" * 5000)
    assert len(refused.value.message) < 100
