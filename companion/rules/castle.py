"""Castle: two teams of two (or two players) lay cards on a 4x3 castle of face-up piles.

A card goes on a pile of its own colour, or takes a pile of the other colour when its
value beats the pile's total value; each team scores the opposing colour it holds at the end.
Rules as implemented: shared/rules/castle.md; the players' help page is docs/castle.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping

from companion.rules.cards import (
    COLOURS,
    RANKS,
    SUITS,
    Card,
    copied,
    deck,
    opposite_colour,
    parse,
)
from companion.rules.errors import RuleError
from companion.rules.sentences import COMPASS, N_, Either, Message, then

COLUMNS = "ABCD"
ROWS = (1, 2, 3)
# Sorted column, then row: the order of every list and mapping of piles in answers.
PILES = tuple(f"{column}{row}" for column in COLUMNS for row in ROWS)
NEIGHBOURS = {
    f"{column}{row}": tuple(
        f"{COLUMNS[c]}{r}"
        for c, r in ((ci - 1, row), (ci, row - 1), (ci, row + 1), (ci + 1, row))
        if 0 <= c < len(COLUMNS) and r in ROWS
    )
    for ci, column in enumerate(COLUMNS)
    for row in ROWS
}

DECK_SIZE = 52
HAND_SIZE = 10
PICKUP_POINTS = {"A": 9, "K": 4, "Q": 3, "J": 2}
OTHER_POINTS = 1

SEAT_ORDER = {4: ("N", "E", "S", "W"), 2: ("N", "S")}  # clockwise, so "left" is the next seat
SEAT_NAMES = {word[0]: word for word in COMPASS}  # "N": "North", the shared default names
TEAMS = {4: {"NS": ("N", "S"), "EW": ("E", "W")}, 2: {"N": ("N",), "S": ("S",)}}
TEAM_NAMES = {"NS": N_("North–South"), "EW": N_("East–West")}  # a played team, as the history says it
TURNS_EACH = {4: HAND_SIZE, 2: 2 * HAND_SIZE}
NAME_LENGTH = 40
# The score sheet counts captured cards by what they score: aces, kings, queens, jacks, the rest.
# The worked example of the help page and of the API document (docs/castle.md): each pile's top card.
EXAMPLE = dict(
    zip(
        (f"{column}{row}" for row in ROWS for column in COLUMNS),
        ("4C", "8D", "JS", "2S", "2H", "9H", "5C", "3S", "10C", "6S", "7D", "AH"),
        strict=True,
    )
)
COUNTED_RANKS = {"A": ("A",), "K": ("K",), "Q": ("Q",), "J": ("J",), "2-10": RANKS[1:10]}
# "Count the red aces with a whole number.": one whole sentence per colour and rank, as each
# language agrees its colour word with the rank's gender and number.
BAD_COUNT = {
    ("red", "A"): N_("Count the red aces with a whole number."),
    ("red", "K"): N_("Count the red kings with a whole number."),
    ("red", "Q"): N_("Count the red queens with a whole number."),
    ("red", "J"): N_("Count the red jacks with a whole number."),
    ("red", "2-10"): N_("Count the red cards from 2 to 10 with a whole number."),
    ("black", "A"): N_("Count the black aces with a whole number."),
    ("black", "K"): N_("Count the black kings with a whole number."),
    ("black", "Q"): N_("Count the black queens with a whole number."),
    ("black", "J"): N_("Count the black jacks with a whole number."),
    ("black", "2-10"): N_("Count the black cards from 2 to 10 with a whole number."),
}
TOO_MANY = {
    ("red", "A"): N_("The deck holds only %(most)s red aces, not %(typed)s."),
    ("red", "K"): N_("The deck holds only %(most)s red kings, not %(typed)s."),
    ("red", "Q"): N_("The deck holds only %(most)s red queens, not %(typed)s."),
    ("red", "J"): N_("The deck holds only %(most)s red jacks, not %(typed)s."),
    ("red", "2-10"): N_("The deck holds only %(most)s red cards from 2 to 10, not %(typed)s."),
    ("black", "A"): N_("The deck holds only %(most)s black aces, not %(typed)s."),
    ("black", "K"): N_("The deck holds only %(most)s black kings, not %(typed)s."),
    ("black", "Q"): N_("The deck holds only %(most)s black queens, not %(typed)s."),
    ("black", "J"): N_("The deck holds only %(most)s black jacks, not %(typed)s."),
    ("black", "2-10"): N_("The deck holds only %(most)s black cards from 2 to 10, not %(typed)s."),
}

TAKEN_BY_COLOUR = {"red": Message(N_("taken by red")), "black": Message(N_("taken by black"))}

# "A black jack needs more than this pile's 11.": the colour and a court card's rank in the sentence,
# for their agreement ("Une dame noire", "Czarny walet"); a number's card by its number.
NEEDS_MORE = {
    ("red", "A"): N_("A red ace needs more than this pile's %(needed)s."),
    ("red", "J"): N_("A red jack needs more than this pile's %(needed)s."),
    ("red", "Q"): N_("A red queen needs more than this pile's %(needed)s."),
    ("red", "K"): N_("A red king needs more than this pile's %(needed)s."),
    ("black", "A"): N_("A black ace needs more than this pile's %(needed)s."),
    ("black", "J"): N_("A black jack needs more than this pile's %(needed)s."),
    ("black", "Q"): N_("A black queen needs more than this pile's %(needed)s."),
    ("black", "K"): N_("A black king needs more than this pile's %(needed)s."),
    "red": N_("A red %(rank)s needs more than this pile's %(needed)s."),
    "black": N_("A black %(rank)s needs more than this pile's %(needed)s."),
}
# Who holds which colour once the first card is played, the first team named first.
COLOURS_FIXED = {
    "red": N_("Colours from now on: %(first)s red, %(second)s black."),
    "black": N_("Colours from now on: %(first)s black, %(second)s red."),
}

SEATS: tuple[str, ...] = ()  # nothing is secret: the companion tracks the table, not the hands


# --- The game's own rules -------------------------------------------------------------


def parse_pile(text: object, field: str | None = None) -> str:
    """Read a pile name (``"B2"``, ``" b2 "``) as its canonical form, or raise ``RuleError``."""
    if not isinstance(text, str):
        raise RuleError("unknown_pile", N_("A pile name is needed, like B2 (A1 to D3)."), field)
    pile = text.strip().upper()
    if pile not in NEIGHBOURS:
        raise RuleError(
            "unknown_pile",
            N_("“%(text)s” is not a pile of the castle: use A1 to D3 (columns A-D, rows 1-3)."),
            field,
            text=text.strip()[:20],
        )
    return pile


def neighbours(pile: str) -> tuple[str, ...]:
    """The piles beside ``pile`` (orthogonally): 2 for a corner, 3 for an edge, 4 for B2 and C2."""
    return NEIGHBOURS[parse_pile(pile)]


def pile_value(tops: Mapping[str, Card], pile: str) -> int:
    """Total value of the top of ``pile``: its own value, +1 per same-colour neighbour top, -1 per other."""
    top = tops[pile]
    return top.value + sum(1 if tops[near].colour == top.colour else -1 for near in NEIGHBOURS[pile])


def values(tops: Mapping[str, Card]) -> dict[str, int]:
    """The total value of every pile of a castle, given its 12 top cards."""
    return {pile: pile_value(tops, pile) for pile in PILES}


def refusal(tops: Mapping[str, Card], card: Card, pile: str) -> Message | None:
    """Why ``card`` may not go on ``pile`` (one sentence), or ``None`` when it may."""
    if tops[pile].colour == card.colour:
        return None
    needed = pile_value(tops, pile)
    if card.value > needed:
        return None
    if (card.colour, card.rank) in NEEDS_MORE:
        return Message(NEEDS_MORE[card.colour, card.rank], needed=needed)
    return Message(NEEDS_MORE[card.colour], rank=card.rank, needed=needed)


def placements(tops: Mapping[str, Card], card: Card) -> dict[str, Message | None]:
    """For every pile, why ``card`` may not go there, or ``None`` where it may."""
    return {pile: refusal(tops, card, pile) for pile in PILES}


def legal_piles(tops: Mapping[str, Card], card: Card) -> list[str]:
    """The piles where ``card`` may be placed, sorted column then row."""
    return [pile for pile, reason in placements(tops, card).items() if reason is None]


def check_placement(tops: Mapping[str, Card], card: Card, pile: str) -> None:
    """Raise ``RuleError("illegal_placement")`` with the reason if ``card`` may not go on ``pile``."""
    reason = refusal(tops, card, pile)
    if reason is not None:
        raise RuleError("illegal_placement", reason, "pile")


def card_points(card: Card) -> int:
    """What a captured card of the opposing colour scores: A 9, K 4, Q 3, J 2, any other 1."""
    return PICKUP_POINTS.get(card.rank, OTHER_POINTS)


def pickup(piles: Mapping[str, list[Card]], colour: str) -> list[Card]:
    """Every card of the piles whose top is ``colour`` (piles bottom to top)."""
    return [card for cards in piles.values() if cards[-1].colour == colour for card in cards]


def score(piles: Mapping[str, list[Card]], taken: Mapping[str, list[Card]]) -> dict[str, int]:
    """Each colour's score: the opposing-colour cards in its pickup and in the cards it took on passes."""
    scores = {}
    for colour in COLOURS:
        held = pickup(piles, colour) + list(taken.get(colour, []))
        scores[colour] = sum(card_points(card) for card in held if card.colour != colour)
    return scores


def read_tops(named: Mapping[str, object]) -> dict[str, Card]:
    """The top cards of a castle being entered, in PILES order: any of the 12 piles, each card once.

    An empty or missing name is a pile not entered yet; an unknown pile or card name, or a
    card named on two piles, is refused with ``RuleError`` (field: the pile).
    """
    tops: dict[str, Card] = {}
    seen: dict[Card, str] = {}
    for key, value in named.items():
        pile = parse_pile(key, str(key)[:20])
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        tops[pile] = _read_card(value, pile)
        _see(tops[pile], _on(pile), seen, pile)
    return {pile: tops[pile] for pile in PILES if pile in tops}


def counted_cards(colour: str, counts: Mapping[str, object], field: str = "") -> list[Card]:
    """The cards of ``colour`` that a count per rank describes (``{"A": 1, "2-10": 5}``).

    Keys are those of ``COUNTED_RANKS``; a count that is not a whole number, is negative or
    is more than the deck holds is refused with ``RuleError``.
    """
    cards = []
    for key, count in counts.items():
        if key not in COUNTED_RANKS:
            raise RuleError(
                "unknown_rank", N_("Count aces (A), kings (K), queens (Q), jacks (J) and 2-10."), field
            )
        pool = [Card(rank, suit) for rank in COUNTED_RANKS[key] for suit in SUITS]
        pool = [card for card in pool if card.colour == colour]
        where = f"{field}.{key}" if field else key
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RuleError("bad_count", BAD_COUNT[colour, key], where)
        if count > len(pool):
            raise RuleError(
                "impossible_count",
                TOO_MANY[colour, key],
                where,
                most=len(pool),
                typed=count,
            )
        cards += pool[:count]
    return cards


def score_breakdown(held: Iterable[Card], colour: str) -> dict[str, dict[str, int]]:
    """What the cards a ``colour`` side holds score, by counted rank (the keys of ``COUNTED_RANKS``).

    Only the opposing colour scores: ``{"A": {"cards": 1, "each": 9, "points": 9}, ...,
    "2-10": {"cards": 5, "each": 1, "points": 5}}``.
    """
    captured = [card for card in held if card.colour != colour]
    lines = {}
    for key, ranks in COUNTED_RANKS.items():
        count = sum(1 for card in captured if card.rank in ranks)
        each = PICKUP_POINTS.get(key, OTHER_POINTS)
        lines[key] = {"cards": count, "each": each, "points": count * each}
    return lines


def score_counts(counts: Mapping[str, Mapping[str, object]]) -> dict:
    """Score a game that was not tracked, from each colour's captured cards of the other colour.

    ``counts`` is ``{"red": {"A": 1, "K": 0, ..., "2-10": 7}, "black": {...}}`` (the red side
    counts the black cards it holds, and the other way round); the answer is shaped like
    ``api_score``'s: ``{"scores": {"red": 12, "black": 7}, "winner": "red" | "black" | None}``.
    """
    taken = {side: counted_cards(opposite_colour(side), counts.get(side, {}), side) for side in COLOURS}
    scores = score({}, taken)
    return {"scores": scores, "winner": winner(scores)}


def winner(scores: Mapping[str, int]) -> str | None:
    """The side with the highest score, or ``None`` for a draw."""
    best = max(scores.values())
    leaders = [side for side, points in scores.items() if points == best]
    return leaders[0] if len(leaders) == 1 else None


# --- JSON API (shared/api.md) ---------------------------------------------------------


def api_values(body: object) -> dict:
    """``POST /api/v1/castle/values``: every pile's total value, and where ``card`` may go if given."""
    body = _read_object(body, None)
    tops = _read_castle(_required(body, "castle"), "castle")
    answer: dict = {"values": values(tops)}
    if body.get("card") is not None:
        card = _read_card(body["card"], "card")
        _check_unseen(card, _places_on_castle(tops), "card")
        answer["legal"] = legal_piles(tops, card)
    return answer


def api_score(body: object) -> dict:
    """``POST /api/v1/castle/score``: each colour's score from the piles and the pass-taken cards."""
    body = _read_object(body, None)
    piles = _read_pile_map(_required(body, "piles"), "piles", _read_pile_cards)
    seen: dict[Card, str] = {}
    for pile, cards in piles.items():
        for index, card in enumerate(cards):
            _see(card, _on(pile), seen, f"piles.{pile}[{index}]")
    taken = _read_taken(body.get("taken"), seen)
    scores = score(piles, taken)
    return {"scores": scores, "winner": winner(scores)}


# --- Table protocol (docs/rules-modules.md) -------------------------------------------


def seats(options: dict) -> list[tuple[str, str]]:
    """No private links: nothing at a Castle table is secret from the companion's point of view."""
    _read_options(options)
    return []


def new_table(options: dict, seed: int) -> dict:
    """The state of a new table, before the deal; refuses bad options with ``RuleError``.

    Options: ``players`` 4 (default) or 2, ``dealer`` (N, E, S, W; N or S with 2 players;
    default N), ``names`` optional ``{seat: name}``.
    """
    players, dealer, names = _read_options(options)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RuleError("bad_seed", N_("The table's seed must be a whole number."), "seed")
    order = SEAT_ORDER[players]
    return {
        "game": "castle",
        "seed": seed,
        "players": players,
        "dealer": dealer,
        "names": names,
        "phase": "deal",
        "turn": None,
        "deals": 0,
        "to_deal": DECK_SIZE,
        "hands": dict.fromkeys(order, 0),
        "turns_left": dict.fromkeys(order, TURNS_EACH[players]),
        "piles": {},
        "colours": None,
        "taken": {team: [] for team in TEAMS[players]},
        "last": None,
    }


def rematch_options(options: dict, state: dict) -> dict:
    """The options of a new game at the same table: the same players and names, and the deal
    passed to the dealer's left (the next seat clockwise), as a deal goes round in card games."""
    order = SEAT_ORDER[state["players"]]
    return {**options, "dealer": order[(order.index(state["dealer"]) + 1) % len(order)]}


def first_player(state: dict) -> int | None:
    """The place, in ``result``'s list, of the player who began: the dealer's left (the next seat
    clockwise), who plays the first card."""
    first = _next_seat(state, state["dealer"])
    return [seat for members in TEAMS[state["players"]].values() for seat in members].index(first)


def to_move(state: dict) -> tuple[str, str] | None:
    """The player to move, ``(seat key, name)`` as the table clock keeps them; None when nobody is
    (the referee's turn, the game over)."""
    turn = state.get("turn")
    return None if turn is None else (turn, state["names"].get(turn, SEAT_NAMES[turn]))


def apply(state: dict, action: dict, actor: str) -> dict:
    """The state after the referee's ``action`` (deal, play or pass); the input is never changed."""
    if actor != "referee":
        raise RuleError("referee_only", N_("Only the referee enters the moves at a Castle table."))
    if not isinstance(action, dict):
        raise RuleError("bad_action", N_("An action must be an object with a type: deal, play or pass."))
    kind = action.get("type")
    if kind not in _APPLY:
        raise RuleError("unknown_action", N_("The action's type must be deal, play or pass."), "type")
    return _APPLY[kind](state, action)


def describe(state: dict, action: dict, actor: str, after: dict | None = None) -> Message:
    """The action in plain words, as the table's history shows it, given the state before it."""
    try:
        if action["type"] == "deal":
            return _describe_deal(state)
        if action["type"] == "play":
            return _describe_play(state, action)
        return _describe_pass(state, action)
    except (RuleError, KeyError, TypeError):
        return Message(N_("An action the rules could not read."))


def view(state: dict, viewer: str) -> dict:
    """What anyone at the table sees: piles, values, whose turn, colours, turns left, final score."""
    piles = _piles_view(state["piles"])
    return {
        "game": "castle",
        "players": state["players"],
        "phase": state["phase"],
        "dealer": state["dealer"],
        "turn": state["turn"],
        "deals": state["deals"],
        "to_deal": state["to_deal"],
        "seats": [_seat_view(state, seat) for seat in SEAT_ORDER[state["players"]]],
        "teams": {team: _team_view(state, team) for team in TEAMS[state["players"]]},
        "colours": copied(state["colours"]),
        "piles": piles,
        "last": copied(state.get("last")),  # tables started before moves were kept have none
        "score": final_score(state),
    }


def result(state: dict, finished: bool) -> dict | None:
    """Each player's team score once the game is over, else None (``finished``: the referee closed
    the table, which scores nothing by itself)."""
    final = final_score(state)
    if final is None:
        return None
    names = {**SEAT_NAMES, **{seat: name for seat, name in state["names"].items() if name}}
    teams = TEAMS[state["players"]]
    return {
        "players": [
            {
                "name": names[seat],
                "score": final["teams"][team],
                "winner": team == final["winning_team"],
                "team": team if len(members) > 1 else None,
            }
            for team, members in teams.items()
            for seat in members
        ]
    }


def names(state: dict) -> list[str]:
    """The names typed at the table's start (a seat left unnamed is "North" and so on: not a name)."""
    return [
        state["names"][seat]
        for seat in SEAT_NAMES
        if state["names"].get(seat, SEAT_NAMES[seat]) != SEAT_NAMES[seat]
    ]


def play_details(state: dict) -> dict:
    """What the history keeps of a finished game besides the score: each side (its players by
    their place in the result's list), its colour, score and the ranks it captured."""
    final = final_score(state)
    if final is None:
        return {}
    order = [seat for members in TEAMS[state["players"]].values() for seat in members]
    colours = state["colours"] or {}
    return {
        "sides": [
            {
                "players": [order.index(seat) for seat in members],
                "colour": colours.get(team),
                "score": final["teams"][team],
                "captured": {rank: line["cards"] for rank, line in final["breakdown"][team].items()},
            }
            for team, members in TEAMS[state["players"]].items()
        ]
    }


def random_legal_action(state: dict, rng: random.Random) -> tuple[str, dict] | None:
    """A legal ``("referee", action)`` drawn with ``rng``, or ``None`` once the game is over."""
    if state["phase"] == "over":
        return None
    unseen = unseen_cards(state)
    if state["phase"] == "deal":
        return "referee", {
            "type": "deal",
            "castle": dict(zip(PILES, rng.sample(unseen, len(PILES)), strict=True)),
        }
    card = rng.choice(unseen)
    legal = legal_piles(castle_tops(state), parse(card))
    if legal and rng.random() < 0.9:
        return "referee", {"type": "play", "card": card, "pile": rng.choice(legal)}
    return "referee", {"type": "pass", "taken": card}


def play_marks(state: dict, card: Card) -> dict[str, Message | None]:
    """For a table in play: for every pile, why ``card`` may not be played there, or ``None`` where it may.

    A card Castellan has already seen (on the castle, or taken on a pass) may go nowhere:
    ``RuleError("card_elsewhere")`` says where it is.
    """
    _check_unseen_on_table(state, card, "card")
    return placements(castle_tops(state), card)


def castle_tops(state: dict) -> dict[str, Card]:
    """The top card of every pile of a table (empty before the deal)."""
    return {pile: parse(cards[-1]) for pile, cards in state["piles"].items()}


def unseen_cards(state: dict) -> list[str]:
    """The cards not yet on the castle nor taken on a pass (in hands or still to deal), in deck order."""
    seen = _table_places(state)
    return [str(card) for card in deck() if card not in seen]


def final_score(state: dict) -> dict | None:
    """The final score once the game is over, else ``None``.

    ``{"scores": {"red": 12, "black": 7}, "winner": "red" | "black" | None,
    "teams": {"NS": 12, "EW": 7}, "winning_team": "NS" | None,
    "breakdown": {"NS": {"A": {"cards": 1, "points": 9}, ...}, "EW": {...}}}`` (see ``score_breakdown``).
    """
    if state["phase"] != "over":
        return None
    colours = state["colours"]
    # The teams in the game's own order (north and south first), never in the order a state's
    # dicts happen to hold them: the store writes a state with its keys sorted, so a table read
    # back would list its teams the other way round from the one that made the last move.
    teams = list(TEAMS[state["players"]])
    if colours is None:  # nobody ever played a card: no colours, nothing picked up
        return {
            "scores": dict.fromkeys(COLOURS, 0),
            "winner": None,
            "teams": dict.fromkeys(teams, 0),
            "winning_team": None,
            "breakdown": {team: score_breakdown([], COLOURS[0]) for team in teams},
        }
    piles = {pile: [parse(card) for card in cards] for pile, cards in state["piles"].items()}
    taken = {colours[team]: [parse(card) for card in cards] for team, cards in state["taken"].items()}
    scores = score(piles, taken)
    best = winner(scores)
    return {
        "scores": scores,
        "winner": best,
        "teams": {team: scores[colours[team]] for team in teams},
        "winning_team": next((team for team in teams if colours[team] == best), None),
        "breakdown": {
            team: score_breakdown(pickup(piles, colours[team]) + taken[colours[team]], colours[team])
            for team in teams
        },
    }


# --- Private helpers: reading the API's bodies ----------------------------------------


def _read_object(value: object, field: str | None) -> dict:
    if not isinstance(value, dict):
        if field:
            raise RuleError("wrong_type", N_("%(name)s must be a JSON object."), field, name=field)
        raise RuleError("wrong_type", N_("The request must be a JSON object."), field)
    return value


def _required(body: dict, key: str) -> object:
    if key not in body or body[key] is None:
        raise RuleError("missing_field", N_("The request needs “%(name)s”."), key, name=key)
    return body[key]


def _read_card(value: object, field: str) -> Card:
    if not isinstance(value, str):
        raise RuleError("wrong_type", N_("%(name)s must be a card name, like 7S or 10H."), field, name=field)
    return parse(value, field)


def _read_pile_map(raw: object, field: str, read: Callable[[object, str], object]) -> dict:
    """A mapping of all 12 piles, each value read by ``read``, in PILES order."""
    found = {}
    for key, value in _read_object(raw, field).items():
        pile = parse_pile(key, f"{field}.{key}")
        if pile in found:
            raise RuleError(
                "duplicate_pile", N_("Pile %(pile)s is given twice."), f"{field}.{key}", pile=pile
            )
        found[pile] = read(value, f"{field}.{key}")
    missing = [pile for pile in PILES if pile not in found]
    if missing:
        raise RuleError(
            "castle_size",
            N_("The castle has 12 piles, A1 to D3; missing: %(missing)s."),
            field,
            missing=", ".join(missing),
        )
    return {pile: found[pile] for pile in PILES}


def _read_castle(raw: object, field: str) -> dict[str, Card]:
    """The 12 top cards of a castle, each card once."""
    tops = _read_pile_map(raw, field, _read_card)
    seen: dict[Card, str] = {}
    for pile, card in tops.items():
        _see(card, _on(pile), seen, f"{field}.{pile}")
    return tops


def _read_pile_cards(value: object, field: str) -> list[Card]:
    if not isinstance(value, list):
        raise RuleError(
            "wrong_type", N_("%(name)s must be a list of cards, bottom to top."), field, name=field
        )
    if not value:
        raise RuleError(
            "empty_pile",
            N_("%(name)s is empty: every pile of the castle must hold a card."),
            field,
            name=field,
        )
    return [_read_card(text, f"{field}[{index}]") for index, text in enumerate(value)]


def _read_taken(raw: object, seen: dict[Card, str]) -> dict[str, list[Card]]:
    taken: dict[str, list[Card]] = {colour: [] for colour in COLOURS}
    if raw is None:
        return taken
    for colour, cards in _read_object(raw, "taken").items():
        if colour not in COLOURS:
            raise RuleError("unknown_colour", N_("taken holds only “red” and “black”."), f"taken.{colour}")
        field = f"taken.{colour}"
        if not isinstance(cards, list):
            raise RuleError("wrong_type", N_("%(name)s must be a list of cards."), field, name=field)
        for index, text in enumerate(cards):
            card = _read_card(text, f"{field}[{index}]")
            _see(card, TAKEN_BY_COLOUR[colour], seen, f"{field}[{index}]")
            taken[colour].append(card)
    return taken


def _see(card: Card, where: Message, seen: dict[Card, Message], field: str) -> None:
    """Record where ``card`` is, refusing a card already somewhere else."""
    _check_unseen(card, seen, field)
    seen[card] = where


def _check_unseen_on_table(state: dict, card: Card, field: str) -> None:
    """``_check_unseen`` against the table's cards, saying where only for a card that is there."""
    name = str(card)
    if any(name in cards for cards in state["piles"].values()) or any(
        name in cards for cards in state["taken"].values()
    ):
        _check_unseen(card, _table_places(state), field)


def _check_unseen(card: Card, seen: Mapping[Card, Message], field: str) -> None:
    if card in seen:
        raise RuleError(
            "card_elsewhere",
            N_("The %(card)s is already elsewhere (%(where)s): a deck holds each card once."),
            field,
            card=card.in_words,
            where=seen[card],
        )


def _places_on_castle(tops: Mapping[str, Card]) -> dict[Card, Message]:
    return {card: _on(pile) for pile, card in tops.items()}


def _on(pile: str) -> Message:
    return Message(N_("on %(pile)s"), pile=pile)


# --- Private helpers: the table -------------------------------------------------------


def _read_options(options: object) -> tuple[int, str, dict[str, str]]:
    options = _read_object({} if options is None else options, "options")
    players = options.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, int) or players not in SEAT_ORDER:
        raise RuleError("bad_players", N_("Castle is played by 4 players in two teams, or by 2."), "players")
    order = SEAT_ORDER[players]
    dealer = options.get("dealer", order[0])
    if dealer not in order:
        raise RuleError(
            "unknown_seat",
            N_("The dealer sits at %(seats)s."),
            "dealer",
            seats=Either(SEAT_NAMES[seat] for seat in order),
        )
    return players, dealer, _read_names(options.get("names"), order)


def _read_names(raw: object, order: tuple[str, ...]) -> dict[str, str]:
    names = {seat: SEAT_NAMES[seat] for seat in order}
    for seat, name in _read_object({} if raw is None else raw, "names").items():
        field = f"names.{seat}"
        if seat not in order:
            raise RuleError("unknown_seat", N_("The seats are %(seats)s."), field, seats=Either(order))
        if not isinstance(name, str) or len(name.strip()) > NAME_LENGTH:
            raise RuleError(
                "bad_name", N_("A name is text of at most %(most)s characters."), field, most=NAME_LENGTH
            )
        names[seat] = name.strip() or names[seat]
    return names


def _apply_deal(state: dict, action: dict) -> dict:
    if state["phase"] != "deal":
        raise RuleError("already_dealt", N_("The castle is already laid out: the cards are dealt once."))
    tops = _read_castle(_required(action, "castle"), "castle")
    new = copied(state)
    new["piles"] = {pile: [str(card)] for pile, card in tops.items()}
    for seat in new["hands"]:
        new["hands"][seat] = HAND_SIZE
    new["to_deal"] = DECK_SIZE - len(PILES) - HAND_SIZE * len(new["hands"])
    new["deals"] = 1
    new["phase"] = "play"
    new["turn"] = _next_seat(state, state["dealer"])
    return new


def _apply_play(state: dict, action: dict) -> dict:
    seat = _check_turn(state, action)
    card = _read_card(_required(action, "card"), "card")
    pile = parse_pile(_required(action, "pile"), "pile")
    _check_unseen_on_table(state, card, "card")
    check_placement(castle_tops(state), card, pile)
    new = copied(state)
    new["piles"][pile].append(str(card))
    if new["colours"] is None:
        new["colours"] = _colours_fixed_by(state, _team_of(state, seat), card.colour)
    new["last"] = {"type": "play", "seat": seat, "card": str(card), "pile": pile}
    _end_turn(new, seat)
    return new


def _apply_pass(state: dict, action: dict) -> dict:
    seat = _check_turn(state, action)
    card = _read_card(_required(action, "taken"), "taken")
    _check_unseen_on_table(state, card, "taken")
    new = copied(state)
    new["taken"][_team_of(state, _next_seat(state, seat))].append(str(card))
    new["last"] = {"type": "pass", "seat": seat, "card": str(card), "taker": _next_seat(state, seat)}
    _end_turn(new, seat)
    return new


_APPLY = {"deal": _apply_deal, "play": _apply_play, "pass": _apply_pass}


def _check_turn(state: dict, action: dict) -> str:
    """The seat whose turn it is, refusing a move before the deal, after the end or out of turn."""
    if state["phase"] == "deal":
        raise RuleError("not_dealt", N_("The castle must be laid out (the deal) before anyone plays."))
    if state["phase"] == "over":
        raise RuleError("no_cards_left", N_("The game is over: every player has played all their cards."))
    seat = action.get("seat", state["turn"])
    if not isinstance(seat, str) or seat not in state["hands"]:
        raise RuleError(
            "unknown_seat", N_("The seats are %(seats)s."), "seat", seats=Either(tuple(state["hands"]))
        )
    if state["hands"][seat] == 0:
        raise RuleError(
            "no_cards_left", N_("%(player)s has no cards left."), "seat", player=state["names"][seat]
        )
    if seat != state["turn"]:
        raise RuleError(
            "out_of_turn",
            N_("It is %(player)s's turn, not %(other)s's."),
            "seat",
            player=state["names"][state["turn"]],
            other=state["names"][seat],
        )
    return seat


def _end_turn(state: dict, seat: str) -> None:
    """Count the turn (one card out of the hand), deal again or end the game, pass the turn on."""
    state["hands"][seat] -= 1
    state["turns_left"][seat] -= 1
    if not any(state["hands"].values()) and state["to_deal"]:
        _second_deal(state)
    if any(state["turns_left"].values()):
        state["turn"] = _next_seat(state, seat)
    else:
        state["phase"], state["turn"] = "over", None


def _second_deal(state: dict) -> None:
    """Two players: the dealer deals the other 20 cards, 10 each, and play goes on."""
    for player in state["hands"]:
        state["hands"][player] = HAND_SIZE
    state["to_deal"] -= HAND_SIZE * len(state["hands"])
    state["deals"] = 2


def _next_seat(state: dict, seat: str) -> str:
    order = SEAT_ORDER[state["players"]]
    return order[(order.index(seat) + 1) % len(order)]


def _team_of(state: dict, seat: str) -> str:
    return next(team for team, members in TEAMS[state["players"]].items() if seat in members)


def _colours_fixed_by(state: dict, team: str, colour: str) -> dict[str, str]:
    return {other: colour if other == team else opposite_colour(colour) for other in TEAMS[state["players"]]}


def _team_name(state: dict, team: str) -> str | Message:
    """A side's name, "Ola & South", with each seat's name a parameter (said in the reader's language)."""
    names = [state["names"][seat] for seat in TEAMS[state["players"]][team]]
    return (
        Message(N_("%(first)s & %(second)s"), first=names[0], second=names[1])
        if len(names) == 2
        else names[0]
    )


def _table_places(state: dict) -> dict[Card, Message]:
    """Where every card the companion has seen is: on a pile, or taken on a pass."""
    places = {}
    for pile, cards in state["piles"].items():
        places.update(dict.fromkeys(map(parse, cards), Message(N_("in pile %(pile)s"), pile=pile)))
    for team, cards in state["taken"].items():
        taken = Message(N_("taken by %(team)s"), team=_team_name(state, team))
        places.update(dict.fromkeys(map(parse, cards), taken))
    return places


def _seat_view(state: dict, seat: str) -> dict:
    return {
        "seat": seat,
        "name": state["names"][seat],
        "team": _team_of(state, seat),
        "cards": state["hands"][seat],
        "turns_left": state["turns_left"][seat],
    }


def _team_view(state: dict, team: str) -> dict:
    return {
        "name": str(_team_name(state, team)),  # the stored names, as the API gives them
        "seats": list(TEAMS[state["players"]][team]),
        "colour": state["colours"][team] if state["colours"] else None,
        "taken": list(state["taken"][team]),
    }


# Each card's value and colour by its canonical name, as the piles store it: a table's view works
# out the castle's values from the names, without a Card per top and its properties per neighbour.
_WORTH = {str(card): (card.value, card.colour) for card in deck()}


def _piles_view(piles: dict[str, list[str]]) -> dict[str, dict]:
    """Each pile's top, height, value (``pile_value``) and colour; none before the deal."""
    if not piles:
        return {}
    tops = {}
    for pile, cards in piles.items():
        worth = _WORTH.get(cards[-1])
        if worth is None:  # a name not as the rules store it: read as castle_tops reads it
            card = parse(cards[-1])
            tops[pile] = (str(card), card.value, card.colour)
        else:
            tops[pile] = (cards[-1], *worth)
    totals = {}
    for pile in PILES:  # every pile, as ``values`` does
        _top, value, colour = tops[pile]
        totals[pile] = value + sum(1 if tops[near][2] == colour else -1 for near in NEIGHBOURS[pile])
    return {
        pile: {"top": top, "height": len(piles[pile]), "value": totals[pile], "colour": colour}
        for pile, (top, _value, colour) in tops.items()
    }


def _describe_deal(state: dict) -> Message:
    dealer = state["names"][state["dealer"]]
    if state["players"] == 2:
        return Message(
            N_("%(dealer)s deals 10 cards each and lays out the castle; 20 cards wait for the second deal."),
            dealer=dealer,
        )
    return Message(N_("%(dealer)s deals 10 cards each and lays out the castle."), dealer=dealer)


def _describe_play(state: dict, action: dict) -> Message:
    seat, card, pile = state["turn"], parse(action["card"]), parse_pile(action["pile"])
    covered = parse(state["piles"][pile][-1])
    words = Message(
        N_("%(player)s plays the %(card)s on %(pile)s, over the %(covered)s."),
        player=state["names"][seat],
        card=card.in_words,
        pile=pile,
        covered=covered.in_words,
    )
    if state["colours"] is None:
        colours = _colours_fixed_by(state, _team_of(state, seat), card.colour)
        (first, colour), (second, _other) = colours.items()
        fixed = Message(
            COLOURS_FIXED[colour], first=_team_name(state, first), second=_team_name(state, second)
        )
        words = then(words, fixed)
    return then(words, _describe_after(state, seat))


def _describe_pass(state: dict, action: dict) -> Message:
    seat, card = state["turn"], parse(action["taken"])
    words = Message(
        N_("%(player)s passes; %(taker)s takes the %(card)s."),
        player=state["names"][seat],
        taker=state["names"][_next_seat(state, seat)],
        card=card.in_words,
    )
    return then(words, _describe_after(state, seat))


def _describe_after(state: dict, seat: str) -> Message | None:
    """What happens after the turn: the second deal of a two-player game, or the end."""
    hands = dict(state["hands"], **{seat: state["hands"][seat] - 1})
    if not any(hands.values()) and state["to_deal"]:
        return Message(N_("Both hands are empty: the other 20 cards are dealt, 10 each."))
    if sum(state["turns_left"].values()) == 1:
        return Message(N_("That was the last turn: the game is over."))
    return None
