"""The standard 52-card deck, shared by Castle and Fort.

Card names are rank + suit: ``AS``, ``10H``, ``QD``, ``7C`` (see ../shared/rules/castle.md).
Input also accepts ``T`` for 10, lower case and the suit symbols; output is canonical.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.rules.errors import RuleError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
ROYALS = frozenset("JQK")
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}

# Rank orders: ace low (A=1 ... K=13, Castle's intrinsic value) and ace high (Fort's battles).
ACE_LOW = {rank: value for value, rank in enumerate(RANKS, start=1)}
ACE_HIGH = {rank: value for value, rank in enumerate(RANKS[1:] + ("A",), start=2)}

_SYMBOL_TO_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})


@dataclass(frozen=True, order=True)
class Card:
    """One card of the standard deck; ``str(card)`` is its canonical name."""

    rank: str
    suit: str

    def __str__(self) -> str:
        return self.rank + self.suit

    @property
    def colour(self) -> str:
        """``"red"`` for hearts and diamonds, ``"black"`` for spades and clubs."""
        return "red" if self.suit in RED_SUITS else "black"

    @property
    def value(self) -> int:
        """Intrinsic value, ace low: A = 1, 2-10 face value, J = 11, Q = 12, K = 13."""
        return ACE_LOW[self.rank]

    @property
    def is_royal(self) -> bool:
        """True for a jack, queen or king."""
        return self.rank in ROYALS

    @property
    def name(self) -> str:
        """The card in words: ``"queen of spades"``, ``"10 of hearts"``."""
        return f"{RANK_NAMES.get(self.rank, self.rank)} of {SUIT_NAMES[self.suit]}"


def parse(text: object, field: str | None = None) -> Card:
    """Read one card name in any accepted spelling, or raise ``RuleError``.

    >>> str(parse("th")), str(parse("Q♠")), str(parse(" 10d "))
    ('10H', 'QS', '10D')
    """
    if not isinstance(text, str) or not text.strip():
        raise RuleError("unknown_card", "A card name is needed, like 7S, 10H or QD.", field)
    # Phones type suits as emoji: a symbol followed by an invisible variation selector.
    raw = text.replace("\ufe0f", "").replace("\ufe0e", "").strip()
    if len(raw) > 4:
        raise RuleError("unknown_card", f"“{raw[:12]}…” is not a card: write one card, like 7S or 10H.", field)
    suit = _SYMBOL_TO_SUIT.get(raw[-1], raw[-1].upper())
    rank = raw[:-1].strip().upper()
    if rank == "T":
        rank = "10"
    if rank not in ACE_LOW or suit not in SUITS:
        raise RuleError(
            "unknown_card",
            f"“{raw}” is not a card: write a rank (A, 2-10, J, Q, K) "
            "and a suit (S, H, D, C), like 7S or 10H.",
            field,
        )
    return Card(rank, suit)


def from_picker(
    typed: object, rank: object = None, suit: object = None, field: str | None = None
) -> Card | None:
    """The card chosen on a card picker: the typed name if there is one, else the tapped rank and suit.

    ``None`` when nothing was chosen; half a choice (a rank without a suit) or a bad name
    is refused with ``RuleError``.
    """
    if isinstance(typed, str) and typed.strip():
        return parse(typed, field)
    if typed is not None and not isinstance(typed, str):
        raise RuleError("unknown_card", "Type one card name, like 7S or 10H.", field)
    rank = rank.strip() if isinstance(rank, str) else rank
    suit = suit.strip() if isinstance(suit, str) else suit
    if not rank and not suit:
        return None
    if not suit:
        raise RuleError("missing_suit", "Pick the card's suit as well as its rank.", field)
    if not rank:
        raise RuleError("missing_rank", "Pick the card's rank as well as its suit.", field)
    if not isinstance(rank, str) or not isinstance(suit, str):
        raise RuleError("unknown_card", "Pick one rank and one suit.", field)
    return parse(rank + suit, field)


def parse_distinct(texts: object, field: str | None = None) -> list[Card]:
    """Read a list of card names, refusing any card named twice (a deck holds each card once)."""
    if not isinstance(texts, list):
        raise RuleError("not_a_list", "A list of card names is needed.", field)
    seen: set[Card] = set()
    cards = []
    for index, text in enumerate(texts):
        card = parse(text, f"{field}[{index}]" if field else None)
        if card in seen:
            raise RuleError(
                "duplicate_card", f"The {card.name} is named twice: a deck holds each card once.", field
            )
        seen.add(card)
        cards.append(card)
    return cards


def deck() -> list[Card]:
    """The 52 cards in a fixed order (suits S H D C, ranks A to K)."""
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A new deck shuffled by ``rng`` (chance is explicit: the caller owns the seed)."""
    cards = deck()
    rng.shuffle(cards)
    return cards


COLOURS = ("red", "black")


def opposite_colour(colour: str) -> str:
    """The other colour of the deck: ``"black"`` for ``"red"`` and the other way round."""
    if colour not in COLOURS:
        raise RuleError("unknown_colour", f"“{colour}” is not a colour of the deck: use red or black.")
    return "black" if colour == "red" else "red"
