"""The standard 52-card deck, shared by Castle and Fort.

Card names are rank + suit: ``AS``, ``10H``, ``QD``, ``7C`` (see ../shared/rules/castle.md).
Input also accepts ``T`` for 10, lower case and the suit symbols; output is canonical.
A player may also type and read the ranks and suits as their language names them (French
R D V for roi, dame, valet; Polish K D W for król, dama, walet): ``parse(text, lang=...)``
and ``Card.label(lang)``. The canonical names (the API's notation) are the same in every language.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Message

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
ROYALS = frozenset("JQK")

# Rank orders: ace low (A=1 ... K=13, Castle's intrinsic value) and ace high (Fort's battles).
ACE_LOW = {rank: value for value, rank in enumerate(RANKS, start=1)}
ACE_HIGH = {rank: value for value, rank in enumerate(RANKS[1:] + ("A",), start=2)}

_SYMBOL_TO_SUIT = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
_SYMBOL_TO_SUIT.update({"♤": "S", "♡": "H", "♢": "D", "♧": "C"})

# The letters each language writes and types for the ranks that are not numbers, and for the
# suits. French: as, valet, dame, roi; pique, cœur, carreau, trèfle (the bridge players' P C K T).
# Polish: as, walet, dama, król; its suits (pik, kier, karo, trefl) have no one-letter names of
# their own (kier and karo share K), so Polish players type the symbols or the English letters.
RANK_LETTERS = {
    "en": {"A": "A", "J": "J", "Q": "Q", "K": "K"},
    "fr": {"A": "A", "J": "V", "Q": "D", "K": "R"},
    "pl": {"A": "A", "J": "W", "Q": "D", "K": "K"},
}
SUIT_LETTERS = {
    "en": {"S": "S", "H": "H", "D": "D", "C": "C"},
    "fr": {"S": "P", "H": "C", "D": "K", "C": "T"},
    "pl": {"S": "S", "H": "H", "D": "D", "C": "C"},
}
# The card in words, as a list or a screen reader says it: "%(rank)s of %(suit)s" per language
# (``Card.in_words``), or in English (``Card.name``).
RANK_WORDS = {
    "A": N_("ace"),
    "J": N_("jack"),
    "Q": N_("queen"),
    "K": N_("king"),
}
SUIT_WORDS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
CARD_IN_WORDS = N_("%(rank)s of %(suit)s")
# So many cards of one rank, as a sentence says them: "4 queens" ("4 dames", "4 damy"). A rank in
# prose is a word with its plural, never a letter: a letter is for a card shown as a card (Q♠).
RANK_COUNTS = {
    "A": NP_("%(count)s ace", "%(count)s aces"),
    "2": NP_("%(count)s two", "%(count)s twos"),
    "3": NP_("%(count)s three", "%(count)s threes"),
    "4": NP_("%(count)s four", "%(count)s fours"),
    "5": NP_("%(count)s five", "%(count)s fives"),
    "6": NP_("%(count)s six", "%(count)s sixes"),
    "7": NP_("%(count)s seven", "%(count)s sevens"),
    "8": NP_("%(count)s eight", "%(count)s eights"),
    "9": NP_("%(count)s nine", "%(count)s nines"),
    "10": NP_("%(count)s ten", "%(count)s tens"),
    "J": NP_("%(count)s jack", "%(count)s jacks"),
    "Q": NP_("%(count)s queen", "%(count)s queens"),
    "K": NP_("%(count)s king", "%(count)s kings"),
}


def rank_count(rank: str, count: int) -> Message:
    """``count`` cards of ``rank`` in words, said in the reader's language: ``"4 queens"``."""
    return Message(RANK_COUNTS[rank], count=count)


def letters(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """The rank letters and suit letters of ``lang`` (English for a language without its own)."""
    return RANK_LETTERS.get(lang, RANK_LETTERS["en"]), SUIT_LETTERS.get(lang, SUIT_LETTERS["en"])


@dataclass(frozen=True, order=True)
class Card:
    """One card of the standard deck; ``str(card)`` is its canonical name."""

    rank: str
    suit: str

    def __str__(self) -> str:
        return self.rank + self.suit

    def label(self, lang: str = "en") -> str:
        """The card as a player of ``lang`` reads it: its rank letter and suit symbol, ``"D♠"`` in French."""
        ranks, _suits = letters(lang)
        return ranks.get(self.rank, self.rank) + SUIT_SYMBOLS[self.suit]

    @property
    def in_words(self) -> Message:
        """The card in words, to say in the reader's language: ``"queen of spades"``."""
        return Message(
            CARD_IN_WORDS,
            rank=Message(RANK_WORDS.get(self.rank, self.rank)),
            suit=Message(SUIT_WORDS[self.suit]),
        )

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
        return f"{RANK_WORDS.get(self.rank, self.rank)} of {SUIT_WORDS[self.suit]}"


def parse(text: object, field: str | None = None, lang: str = "en") -> Card:
    """Read one card name in any accepted spelling of ``lang``, or raise ``RuleError``.

    >>> str(parse("th")), str(parse("Q♠")), str(parse(" 10d ")), str(parse("dc", lang="fr"))
    ('10H', 'QS', '10D', 'QH')
    """
    if lang == "en" and type(text) is str:
        known = _CANONICAL.get(text)
        if known is not None:  # a card as the rules store it ("10H"), read thousands of times a page
            return known
    ranks, suits = letters(lang)
    examples = {"seven": f"7{suits['S']}", "ten": f"10{suits['H']}"}
    if not isinstance(text, str) or not text.strip():
        raise RuleError(
            "unknown_card", N_("A card name is needed, like %(seven)s or %(ten)s."), field, **examples
        )
    # Phones type suits as emoji: a symbol followed by an invisible variation selector.
    raw = text.replace("\ufe0f", "").replace("\ufe0e", "").strip()
    if len(raw) > 4:
        raise RuleError(
            "unknown_card",
            N_("“%(text)s…” is not a card: write one card, like %(seven)s or %(ten)s."),
            field,
            text=raw[:12],
            **examples,
        )
    typed_rank = raw[:-1].strip().upper()
    rank = {letter: rank for rank, letter in ranks.items()}.get(typed_rank, typed_rank)
    rank = "10" if rank == "T" else rank
    suit = _SYMBOL_TO_SUIT.get(raw[-1]) or {letter: suit for suit, letter in suits.items()}.get(
        raw[-1].upper()
    )
    if rank not in ACE_LOW or rank in ranks and ranks[rank] != typed_rank or suit is None:
        raise RuleError(
            "unknown_card",
            N_(
                "“%(text)s” is not a card: write a rank (%(ranks)s) and a suit (%(suits)s), like %(seven)s or %(ten)s."
            ),
            field,
            text=raw,
            **examples,
            ranks=f"{ranks['A']}, 2-10, {ranks['J']}, {ranks['Q']}, {ranks['K']}",
            suits=", ".join(suits.values()),
        )
    return Card(rank, suit)


def from_picker(
    typed: object, rank: object = None, suit: object = None, field: str | None = None, lang: str = "en"
) -> Card | None:
    """The card chosen on a card picker: the typed name if there is one, else the tapped rank and suit.

    ``None`` when nothing was chosen; half a choice (a rank without a suit) or a bad name
    is refused with ``RuleError``.
    """
    if isinstance(typed, str) and typed.strip():
        return parse(typed, field, lang)
    if typed is not None and not isinstance(typed, str):
        _ranks, suits = letters(lang)
        raise RuleError(
            "unknown_card",
            N_("Type one card name, like %(seven)s or %(ten)s."),
            field,
            seven=f"7{suits['S']}",
            ten=f"10{suits['H']}",
        )
    rank = rank.strip() if isinstance(rank, str) else rank
    suit = suit.strip() if isinstance(suit, str) else suit
    if not rank and not suit:
        return None
    if not suit:
        raise RuleError("missing_suit", N_("Pick the card's suit as well as its rank."), field)
    if not rank:
        raise RuleError("missing_rank", N_("Pick the card's rank as well as its suit."), field)
    if not isinstance(rank, str) or not isinstance(suit, str):
        raise RuleError("unknown_card", N_("Pick one rank and one suit."), field)
    return parse(rank + suit, field)


def parse_distinct(texts: object, field: str | None = None, lang: str = "en") -> list[Card]:
    """Read a list of card names, refusing any card named twice (a deck holds each card once)."""
    if not isinstance(texts, list):
        raise RuleError("not_a_list", N_("A list of card names is needed."), field)
    seen: set[Card] = set()
    cards = []
    for index, text in enumerate(texts):
        card = parse(text, f"{field}[{index}]" if field else None, lang)
        if card in seen:
            raise RuleError(
                "duplicate_card",
                N_("The card %(card)s is named twice: a deck holds each card once."),
                field,
                card=card,
            )
        seen.add(card)
        cards.append(card)
    return cards


def deck() -> list[Card]:
    """The 52 cards in a fixed order (suits S H D C, ranks A to K)."""
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]


# Each card by its canonical name, which ``parse`` reads in English as this very card (a Card is
# never changed, so one is shared).
_CANONICAL = {str(card): card for card in deck()}


def copied(value):
    """A deep copy of plain data (dicts, lists, tuples of text, numbers, None), as ``copy.deepcopy``
    makes it (without its bookkeeping, several times faster): a rules' ``apply`` changes the copy
    of a state, never the state."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _ATOMS else copied(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _ATOMS else copied(item) for item in value]
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple([copied(item) for item in value])
    return copy.deepcopy(value)


_ATOMS = frozenset({str, int, float, bool, type(None)})


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A new deck shuffled by ``rng`` (chance is explicit: the caller owns the seed)."""
    cards = deck()
    rng.shuffle(cards)
    return cards


COLOURS = ("red", "black")


def opposite_colour(colour: str) -> str:
    """The other colour of the deck: ``"black"`` for ``"red"`` and the other way round."""
    if colour not in COLOURS:
        raise RuleError(
            "unknown_colour", N_("“%(colour)s” is not a colour of the deck: use red or black."), colour=colour
        )
    return "black" if colour == "red" else "red"
