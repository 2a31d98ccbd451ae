"""Fort: each player shows a fort of face-up cards, hides an army and draws from a shared barracks.

Players stack watchtowers, challenge each other for fort cards in battles, go on campaigns
and end the game in a showdown. The rules as implemented: ../shared/rules/fort.md.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules.cards import ACE_HIGH, Card, copied, deck, parse, parse_distinct, rank_count
from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Message, then
from companion.rules.stored_sentences import dump

BATTLE_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
ROYALS_AND_ACES = frozenset({"J", "Q", "K", "A"})
LUCKY_RANK = "7"  # the 7 rule: any pair holding a 7 goes to the attacker
CHALLENGE_SIZES = (1, 2)
CAMPAIGN_BATTLE_SIZE = 3
ARMY_NEEDED = {1: 0, 2: 6, 3: 10}  # attacker army cards needed for the top of a watchtower of this height
COMPLETE = 4
MAX_CHALLENGES = 3
FORT_DEAL = 4
ARMY_DEAL = 4
DECK_SIZE = 52
MIN_PLAYERS, MAX_PLAYERS = 2, 4
NAME_LENGTH = 30
DESTINATIONS = ("attacker.army", "defender.army", "defender.fort", "barracks.bottom")
RESTOCK_FORT = 3  # fort cards after a lost campaign: 1 from the watchtower, 2 from the barracks
RESTOCK_DRAWS = 2  # army cards drawn after a lost campaign, besides the one from the watchtower
SEATS: tuple[str, ...] = ()  # forts are public and armies hidden from everyone: one referee, no seats
CHALLENGE_SIZE_WORDS = N_("A challenge is fought with 1 or 2 soldiers each.")
NAME_WORDS = N_("A player needs a name of 1 to %(most)s characters.")
# The rank letters of the royals and the ace, said in the reader's language (Q is D in French), where a
# player types a rank; a sentence says a rank in words (cards.rank_count).
RANK_LETTER_WORDS = {"J": N_("J"), "Q": N_("Q"), "K": N_("K"), "A": N_("A")}


@dataclass(frozen=True)
class Side:
    """One side of a battle as the requirements see it: army and fort sizes, and a campaign flag."""

    army: int
    fort: int = 1
    campaign: bool = False


# --- The game's own functions -------------------------------------------------------------


def _rank_said(rank: str) -> Message:
    """A rank as the player types it: its number, or the letter of a royal or an ace in the reader's language."""
    return Message(RANK_LETTER_WORDS.get(rank, rank))


def battle_rank(card: Card) -> int:
    """The card's strength in battles and showdowns: 2 lowest, aces highest."""
    return ACE_HIGH[card.rank]


def is_royal_or_ace(card: Card) -> bool:
    """True for a jack, queen, king or ace: the cards that leave a battle for the barracks."""
    return card.rank in ROYALS_AND_ACES


def pair_winner(attacker: Card, defender: Card) -> str:
    """Who wins one pair of soldiers: ``"attacker"``, ``"defender"`` or ``"tie"`` (7 rule first)."""
    if LUCKY_RANK in (attacker.rank, defender.rank):
        return "attacker"
    if battle_rank(attacker) == battle_rank(defender):
        return "tie"
    return "attacker" if battle_rank(attacker) > battle_rank(defender) else "defender"


def battle_result(pair_winners: Iterable[str]) -> str:
    """The battle from its pairs: the side that won more pairs, or ``"draw"``."""
    winners = list(pair_winners)
    attacker, defender = winners.count("attacker"), winners.count("defender")
    if attacker == defender:
        return "draw"
    return "attacker" if attacker > defender else "defender"


def check_challenge(attacker: Side, defender: Side, height: int, challenge: int, size: int) -> None:
    """Refuse a challenge for a fort card that breaks a requirement (checked before any card is shown)."""
    if defender.campaign:
        raise _campaign_defender()
    if height >= COMPLETE:
        raise RuleError(
            "complete_watchtower",
            N_("A complete watchtower of %(height)s cannot be challenged."),
            "target.height",
            height=COMPLETE,
        )
    if challenge > MAX_CHALLENGES:
        raise RuleError(
            "fourth_challenge",
            N_("A player may challenge for the same fort card only %(most)s times."),
            "challenge",
            most=MAX_CHALLENGES,
        )
    if attacker.army < ARMY_NEEDED[height]:
        raise RuleError(
            "watchtower_needs_army",
            NP_(
                "The top of a watchtower of %(height)s needs %(count)s army card to challenge, "
                "and the attacker holds %(army)s.",
                "The top of a watchtower of %(height)s needs %(count)s army cards to challenge, "
                "and the attacker holds %(army)s.",
            ),
            "attacker.army",
            height=height,
            count=ARMY_NEEDED[height],
            army=attacker.army,
        )
    if defender.army == 0:
        if size:
            raise RuleError(
                "soldiers_mismatch",
                N_("The defender has no army: the fort is vulnerable, there is no battle and no soldier."),
                "soldiers",
            )
        return
    _check_size(attacker, defender, size)


def campaign_battle_size(attacker: Side, defender: Side) -> int:
    """Soldiers each for a battle between two campaigns: 3, or the smaller army; refuse it otherwise."""
    if not (attacker.campaign and defender.campaign):
        raise RuleError(
            "not_on_campaign",
            N_("A battle of three cards is only fought between two players who are both on campaigns."),
            "attacker.campaign" if not attacker.campaign else "defender.campaign",
        )
    size = min(CAMPAIGN_BATTLE_SIZE, attacker.army, defender.army)
    if size == 0:
        raise RuleError(
            "empty_army",
            N_("A player on a campaign with no army card has lost the campaign: no battle."),
            "soldiers",
        )
    return size


def soldiers_needed(
    attacker: Side, defender: Side, for_card: bool, height: int = 1, challenge: int = 1, size: int = 1
) -> int:
    """Soldiers each side lays, once every requirement is met (checked before any card is shown).

    ``for_card`` is False for a battle between campaigns (3, or the smaller army); a vulnerable
    fort (no defending army) is taken with no soldier. Refuses with ``RuleError`` otherwise.
    """
    if not for_card:
        return campaign_battle_size(attacker, defender)
    size = 0 if defender.army == 0 else size
    check_challenge(attacker, defender, height, challenge, size)
    return size


def adjudicate(
    attacker: Side,
    defender: Side,
    soldiers: tuple[list[Card], list[Card]],
    target: Card | None = None,
    height: int = 1,
    challenge: int = 1,
    size: int | None = None,
) -> dict:
    """Settle a battle and say where every card goes, in the answer shape of ``/fort/battle``.

    ``soldiers`` are the attacker's and the defender's cards in laid-down pairs; ``target`` is
    ``None`` for a battle between two campaigns. ``size`` defaults to the attacker's soldiers.
    """
    attacking, defending = soldiers
    size = len(attacking) if size is None else size
    if target is None:
        expected = campaign_battle_size(attacker, defender)
        if size != expected:
            raise RuleError(
                "soldiers_mismatch",
                NP_(
                    "A battle between campaigns is fought with %(count)s soldier each.",
                    "A battle between campaigns is fought with %(count)s soldiers each.",
                ),
                "soldiers",
                count=expected,
            )
    else:
        check_challenge(attacker, defender, height, challenge, size)
    _check_soldiers(attacking, defending, target, size)
    if target is not None and defender.army == 0:
        return _taken(target)
    return _resolve(attacker, defender, soldiers, target, challenge)


def burn_draws(card: Card) -> tuple[int, ...]:
    """How many cards may be drawn for burning ``card``: one or two for a royal or an ace, else one."""
    return (1, 2) if is_royal_or_ace(card) else (1,)


def check_burn_draws(card: Card, draws: int) -> None:
    """Refuse a number of cards drawn that burning ``card`` does not allow."""
    if draws not in burn_draws(card):
        raise RuleError(
            "burn_draws",
            N_("Burning the %(card)s draws 1 card: only a jack, queen, king or ace may draw 2."),
            "draws",
            card=card.in_words,
        )


def check_pre_game_burn(card: Card, player: str, forts: dict[str, list[Card]]) -> None:
    """Refuse a burn before the game when another player's fort holds two or more of that rank."""
    for other, fort in forts.items():
        held = sum(1 for each in fort if each.rank == card.rank)
        if other != player and held >= 2:
            raise RuleError(
                "burn_not_allowed",
                N_("Before the game the %(card)s cannot be burned: another fort holds %(held)s."),
                "card",
                card=card.in_words,
                held=rank_count(card.rank, held),
            )


def free_for_all_highest(laid: dict[str, Card]) -> list[str]:
    """The players whose laid card has the highest rank (one of them: the winner). No 7 rule."""
    best = max(battle_rank(card) for card in laid.values())
    return [player for player, card in laid.items() if battle_rank(card) == best]


def line_length(army_sizes: Iterable[int]) -> int:
    """Cards each player lays in a showdown: the smallest army, less one when that is even."""
    smallest = min(army_sizes)
    return smallest if smallest % 2 else max(smallest - 1, 0)


def even_out(armies: dict[str, list[Card]]) -> tuple[dict[str, list[Card]], list[Card]]:
    """The showdown's lines and the cards sent to the barracks (armies top card first).

    The first player with the fewest cards lays from the top and drops an even last card;
    every other player removes cards from the top until the lines are equal.
    """
    length = line_length(len(army) for army in armies.values())
    lead = min(armies, key=lambda player: len(armies[player]))
    laid, to_barracks = {}, []
    for player, army in armies.items():
        cut = length if player == lead else len(army) - length
        kept, removed = (army[:cut], army[cut:]) if player == lead else (army[cut:], army[:cut])
        laid[player] = kept
        to_barracks.extend(removed)
    return laid, to_barracks


def play_showdown(laid: dict[str, list[Card]]) -> dict:
    """Turn the lines over: positions, tricks, and the winner or the players tied on most tricks."""
    players = list(laid)
    length = min((len(line) for line in laid.values()), default=0)
    positions = [_position({player: laid[player][index] for player in players}) for index in range(length)]
    tricks = {player: sum(1 for position in positions if position["winner"] == player) for player in players}
    most = max(tricks.values(), default=0)
    leaders = [player for player in players if tricks[player] == most]
    winner = leaders[0] if len(leaders) == 1 else None
    return {"positions": positions, "tricks": tricks, "winner": winner, "tied": [] if winner else leaders}


def can_separate(lines: dict[str, list[Card]]) -> bool:
    """True when some shuffle of these same lines gives one player more tricks than anyone else.

    Only the pairing of cards across positions matters, so the first player's cards are
    taken highest first and every other player tries each rank they still hold (a search
    over rank multisets, remembered as it goes). When no shuffle can separate the tied
    players, replaying is pointless and they share the win.
    """
    hands = tuple(tuple(sorted(battle_rank(card) for card in line)) for line in lines.values())

    @functools.cache  # one cache per question: the search is small, and nothing outlives it
    def separates(hands: tuple[tuple[int, ...], ...], tricks: tuple[int, ...]) -> bool:
        if not hands[0]:
            return tricks.count(max(tricks)) == 1
        lead, rest = hands[0][-1], hands[1:]
        for choice in itertools.product(*(sorted(set(hand)) for hand in rest)):
            cards = (lead, *choice)
            won = [index for index, card in enumerate(cards) if card == max(cards)]
            counted = [count + (won == [index]) for index, count in enumerate(tricks)]
            left = (hands[0][:-1], *(_without(hand, card) for hand, card in zip(rest, choice, strict=True)))
            if separates(left, tuple(count - min(counted) for count in counted)):
                return True
        return False

    return separates(hands, (0,) * len(hands))


def _without(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    index = hand.index(rank)
    return hand[:index] + hand[index + 1 :]


def watchtower_draws(rank: str) -> int:
    """Cards a tied player draws for the battle of the watchtowers: 2-10 at face value, J Q K A count 10."""
    return int(rank) if rank.isdigit() else 10


def showdown(armies: dict[str, list[Card]], watchtowers: dict[str, str] | None = None) -> dict:
    """A whole showdown from the armies, in the answer shape of ``/fort/showdown``."""
    laid, to_barracks = even_out(armies)
    outcome = play_showdown(laid)
    draws = {}
    if outcome["winner"] is None and watchtowers:
        draws = {player: watchtower_draws(watchtowers[player]) for player in outcome["tied"]}
    return {
        "laid": {player: [str(card) for card in line] for player, line in laid.items()},
        "to_barracks": [str(card) for card in to_barracks],
        **outcome,
        "draws": draws,
    }


# --- The JSON API contract ----------------------------------------------------------------


def api_battle(body: object) -> dict:
    """``POST /api/v1/fort/battle``: check the challenge, settle the battle, say where each card goes."""
    body = _object(body, None)
    attacker = _side(body, "attacker", fort_required=True)
    defender = _side(body, "defender", fort_required=False)
    target, height, challenge = _target(body)
    soldiers = _object(_required(body, "soldiers", None), "soldiers")
    attacking = parse_distinct(_required(soldiers, "attacker", "soldiers"), "soldiers.attacker")
    defending = parse_distinct(_required(soldiers, "defender", "soldiers"), "soldiers.defender")
    size = None if body.get("size") is None else _integer(body["size"], "size", 0, DECK_SIZE)
    return adjudicate(attacker, defender, (attacking, defending), target, height, challenge, size)


def api_showdown(body: object) -> dict:
    """``POST /api/v1/fort/showdown``: even out the armies, play the positions, name the winner."""
    body = _object(body, None)
    armies = _armies(_required(body, "armies", None))
    watchtowers = None
    if body.get("watchtowers") is not None:
        watchtowers = _watchtowers(body["watchtowers"], armies)
    return showdown(armies, watchtowers)


# --- The table protocol -------------------------------------------------------------------


def seats(options: dict) -> list[tuple[str, str]]:
    """No private links: fort cards are public and the referee tracks armies as counts."""
    return []


def new_table(options: dict, seed: int) -> dict:
    """The first state of a table: players named, nothing dealt yet (the referee deals)."""
    options = _object(options, "options")
    count = _integer(_required(options, "players", "options"), "options.players", MIN_PLAYERS, MAX_PLAYERS)
    players = [f"p{index}" for index in range(1, count + 1)]
    names = _names(options.get("names"), count)
    return {
        "game": "fort",
        "seed": seed,
        "players": players,
        "names": dict(zip(players, names, strict=True)),
        "phase": "deal",
        "turn": None,
        "step": None,
        "burned": False,
        "challenged": False,
        "armies": {player: 0 for player in players},
        "forts": {player: [] for player in players},
        "campaigns": {player: None for player in players},
        "challenges": {player: {} for player in players},
        "pre_burned": [],
        "out": [],
        "pending": [],
        "showdown": None,
        "last": None,
        "winner": None,
        "shared": [],
    }


def rematch_options(options: dict, state: dict) -> dict:
    """The options of a new game: the same players in the same turn order (the rules page does not
    say who plays first in the next game, so the start form's order stands)."""
    return dict(options)


def first_player(state: dict) -> int | None:
    """The place, in ``result``'s list, of the player who began: the first in the start form's
    order, who plays the first turn."""
    return 0


def to_move(state: dict) -> tuple[str, str] | None:
    """The player to move, ``(seat key, name)`` as the table clock keeps them; None when nobody is
    (the referee's turn, the game over)."""
    turn = state.get("turn")
    return None if turn is None or state["phase"] == "over" else (turn, state["names"][turn])


def apply(state: dict, action: dict, actor: str) -> dict:
    """The state after the referee's ``action`` (a new state; the input is never changed)."""
    if actor != "referee":
        raise RuleError("referee_only", N_("Only the referee records what happens at a Fort table."), "actor")
    action = _object(action, "action")
    kind = action.get("type")
    change = _APPLY.get(kind) if isinstance(kind, str) else None
    if change is None:
        raise RuleError(
            "unknown_action",
            N_("“%(kind)s” is not an action of a Fort table."),
            "action.type",
            kind=str(kind),
        )
    if state["phase"] == "over":
        raise RuleError("game_over", N_("The game is over."), "action.type")
    _check_pending(state, kind)
    new = copied(state)
    change(new, action)
    _settle(new)
    return new


def describe(state: dict, action: dict, actor: str, after: dict | None = None) -> Message:
    """The action in plain words, as it reads in the table's history. ``after`` is the state
    ``apply`` made of these, when the caller has it (the store does)."""
    kind = action.get("type") if isinstance(action, dict) else None
    words = _DESCRIBE.get(kind) if isinstance(kind, str) else None
    if words is None:
        return Message(N_("An unknown action."))
    try:
        after = apply(state, action, actor) if after is None else after
    except RuleError as refused:
        return Message(N_("Refused: %(reason)s"), reason=refused.sentence)
    return words(state, action, after)


def view(state: dict, viewer: str) -> dict:
    """What anyone at the table may see: everything tracked here is public (armies only as counts)."""
    return {
        "phase": state["phase"],
        "players": [_player_view(state, player) for player in state["players"]],
        "turn": state["turn"],
        "step": state["step"],
        "burned": state["burned"],
        "challenged": state["challenged"],
        "barracks": _barracks(state),
        "pending": state["pending"][0] if state["pending"] else None,
        "showdown": state["showdown"],
        "last": state["last"],
        "winner": state["winner"],
        "shared": state["shared"],
        "can_share": _can_share(state),
        "burnable": _burnable(state),
        "completing": _completing(state),
        "challenges": _challenges(state),
    }


def _challenges(state: dict) -> list[dict]:
    """Every challenge the player to play could name now, each checked before any card is shown.

    ``soldiers`` is fixed for a vulnerable fort (0) and a battle of campaigns; otherwise
    ``sizes`` says, for 1 and 2 soldiers each, ``None`` when allowed or the reason it is not.
    ``refusal`` is set when no size is allowed: the target is shown, not offered. Reasons are in
    English; ``said`` holds each as a stored sentence (``stored_sentences.dump``), for a page to say in its language.
    """
    attacker = state["turn"]
    if state["phase"] != "play" or state["step"] != "main" or state["challenged"] or state["pending"]:
        return []
    options = []
    for defender in _in_game(state):
        if defender == attacker:
            continue
        if state["campaigns"][defender]:
            if state["campaigns"][attacker]:
                options.append(_campaign_option(state, attacker, defender))
            continue
        fort = state["forts"][defender]
        ranks = [parse(card).rank for card in fort]
        tops = dict(zip(ranks, fort, strict=True))  # each rank's last card: the top of its watchtower
        heights: dict[str, int] = {}
        for rank in ranks:
            heights[rank] = heights.get(rank, 0) + 1
        for rank, card in zip(ranks, fort, strict=True):
            if tops[rank] == card:
                options.append(_card_option(state, attacker, defender, card, heights[rank]))
    return options


def _campaign_option(state: dict, attacker: str, defender: str) -> dict:
    option = {"key": f"{defender}:", "defender": defender, "target": None, "height": 0, "tries": 0}
    size, refusal, said = _campaign_check(_table_side(state, attacker), _table_side(state, defender))
    if refusal is not None:
        return {**option, "soldiers": None, "sizes": {}, "refusal": refusal, "said": {"refusal": said}}
    return {**option, "soldiers": size, "sizes": {}, "refusal": None, "said": {"refusal": None}}


def _card_option(state: dict, attacker: str, defender: str, card: str, height: int) -> dict:
    tries = state["challenges"][attacker].get(card, 0)
    option = {
        "key": f"{defender}:{card}",
        "defender": defender,
        "target": card,
        "height": height,
        "tries": tries,
    }
    vulnerable = state["armies"][defender] == 0
    checked = _sizes_check(
        _table_side(state, attacker), _table_side(state, defender), height, tries, vulnerable
    )
    sizes = {size: reason for size, reason, _ in checked}
    said = {size: sentence for size, _, sentence in checked}
    allowed = any(reason is None for reason in sizes.values())
    return {
        **option,
        "soldiers": 0 if vulnerable else None,
        "sizes": {} if vulnerable else sizes,
        "refusal": None if allowed else next(iter(sizes.values())),
        "said": {**({} if vulnerable else said), "refusal": None if allowed else next(iter(said.values()))},
    }


# A challenge's checks depend on the sides' sizes, the height and the tries alone, and every view of a
# table makes them for each target: each answer (the reasons as text) is worked out once.
@functools.lru_cache(maxsize=4096)
def _sizes_check(attacker: Side, defender: Side, height: int, tries: int, vulnerable: bool) -> tuple:
    """``(size, reason in English or None, the reason as a stored sentence or None)`` for each challenge
    size a target may be challenged with (0 alone for a vulnerable fort)."""
    checked = []
    for size in (0,) if vulnerable else CHALLENGE_SIZES:
        try:
            check_challenge(attacker, defender, height, tries + 1, size)
            checked.append((str(size), None, None))
        except RuleError as refused:
            checked.append((str(size), refused.message, dump(refused.sentence)))
    return tuple(checked)


@functools.lru_cache(maxsize=1024)
def _campaign_check(attacker: Side, defender: Side) -> tuple:
    """``(soldiers, None, None)`` for a battle of campaigns, or ``(None, reason in English, stored sentence)``."""
    try:
        return campaign_battle_size(attacker, defender), None, None
    except RuleError as refused:
        return None, refused.message, dump(refused.sentence)


def result(state: dict, finished: bool) -> dict | None:
    """Once the game is over: Fort counts no points, so a winner (or each who shares the win)
    scores 1 and the others 0; else None (``finished``: the referee closed the table early)."""
    if state["phase"] != "over":
        return None
    winners = set(state["shared"]) | ({state["winner"]} if state["winner"] else set())
    return {
        "players": [
            {
                "name": state["names"][player],
                "score": int(player in winners),
                "winner": player in winners,
                "team": None,
            }
            for player in state["players"]
        ]
    }


def names(state: dict) -> list[str]:
    """The names typed at the table's start ("Player 2" for an unnamed player is not a name)."""
    return [
        state["names"][player]
        for number, player in enumerate(state["players"], start=1)
        if state["names"][player] != f"Player {number}"
    ]


def play_details(state: dict) -> dict:
    """What the history keeps of a finished game: how it ended (the last player standing, or a
    showdown: its stage and each player's tricks, by their place in the result's list; None
    for a player not in it), and whether the win was shared."""
    if state["phase"] != "over":
        return {}
    last = state["last"] or {}
    if last.get("type") != "showdown":
        return {"ended_by": "last_standing", "shared": bool(state["shared"])}
    return {
        "ended_by": "showdown",
        "shared": bool(state["shared"]),
        "showdown": {
            "stage": last["stage"],
            "tricks": [last["tricks"].get(player) for player in state["players"]],
        },
    }


def _burnable(state: dict) -> dict[str, list[str]]:
    """The fort cards each player may burn now: before the game, or the player whose turn it is. A
    player with no card to burn is left out, so that no burn is offered to them."""
    if state["pending"]:
        return {}
    if state["phase"] == "setup":
        forts = {player: _cards(fort) for player, fort in state["forts"].items()}
        allowed = {}
        for player in state["players"]:
            if player not in state["pre_burned"]:
                allowed[player] = [
                    card for card in state["forts"][player] if _pre_burn_ok(card, player, forts)
                ]
        return {player: cards for player, cards in allowed.items() if cards}
    player = state["turn"]
    if state["phase"] != "play" or state["step"] != "main" or state["burned"] or state["campaigns"][player]:
        return {}
    return {player: list(state["forts"][player])} if state["forts"][player] else {}


def _pre_burn_ok(card: str, player: str, forts: dict[str, list[Card]]) -> bool:
    try:
        check_pre_game_burn(parse(card), player, forts)
    except RuleError:
        return False
    return True


def _completing(state: dict) -> list[str]:
    """The cards whose draw would complete a watchtower of the player to draw (a free-for-all)."""
    if state["phase"] != "play" or state["step"] != "draw" or state["pending"] or not _barracks(state):
        return []
    fort, public = state["forts"][state["turn"]], _public(state)
    ranks = {parse(card).rank for card in fort if _rank_count(fort, parse(card).rank) == COMPLETE - 1}
    return [str(card) for card in deck() if card.rank in ranks and str(card) not in public]


def random_legal_action(state: dict, rng: random.Random) -> tuple[str, dict] | None:
    """A legal ``("referee", action)``, the cards invented consistently with what is public; None at the end."""
    if state["phase"] == "over":
        return None
    if state["pending"]:
        return "referee", _RANDOM_PENDING[state["pending"][0]["type"]](state, rng)
    return "referee", _RANDOM_PHASE[state["phase"]](state, rng)


# --- Private helpers: battles --------------------------------------------------------------


def _campaign_defender() -> RuleError:
    return RuleError(
        "defender_on_campaign",
        N_(
            "A player on a campaign has no fort to challenge: two campaigns may only fight a battle of three."
        ),
        "defender.campaign",
    )


def _check_size(attacker: Side, defender: Side, size: int) -> None:
    if size == CAMPAIGN_BATTLE_SIZE:
        raise RuleError(
            "not_on_campaign",
            N_("A battle of three cards is only fought between two players who are both on campaigns."),
            "soldiers",
        )
    if size not in CHALLENGE_SIZES:
        raise RuleError("challenge_size", CHALLENGE_SIZE_WORDS, "soldiers")
    if size > attacker.army or size > defender.army:
        raise RuleError(
            "army_too_small",
            NP_(
                "A challenge of %(count)s needs %(count)s army card on each side; "
                "the attacker holds %(attacker)s and the defender %(defender)s.",
                "A challenge of %(count)s needs %(count)s army cards on each side; "
                "the attacker holds %(attacker)s and the defender %(defender)s.",
            ),
            "soldiers",
            count=size,
            attacker=attacker.army,
            defender=defender.army,
        )


def _check_soldiers(attacking: list[Card], defending: list[Card], target: Card | None, size: int) -> None:
    for side, cards in (("attacker", attacking), ("defender", defending)):
        if len(cards) != size:
            raise RuleError(
                "soldiers_mismatch", _MUST_LAY[side], f"soldiers.{side}", count=size, laid=len(cards)
            )
    seen = set() if target is None else {target}
    for side, cards in (("attacker", attacking), ("defender", defending)):
        for index, card in enumerate(cards):
            if card in seen:
                raise RuleError(
                    "duplicate_card",
                    N_("The %(card)s is named twice in one battle: a deck holds each card once."),
                    f"soldiers.{side}[{index}]",
                    card=card.in_words,
                )
            seen.add(card)


def _taken(target: Card) -> dict:
    return {
        "kind": "taken",
        "pairs": [],
        "result": "attacker",
        "moves": [{"card": str(target), "to": "attacker.army"}],
        "replaced": False,
        "attacker_out": False,
    }


def _resolve(
    attacker: Side,
    defender: Side,
    soldiers: tuple[list[Card], list[Card]],
    target: Card | None,
    challenge: int,
) -> dict:
    pairs = [
        {"attacker": str(mine), "defender": str(theirs), "winner": pair_winner(mine, theirs)}
        for mine, theirs in zip(*soldiers, strict=True)
    ]
    result = battle_result(pair["winner"] for pair in pairs)
    moves = []
    for mine, theirs in zip(*soldiers, strict=True):
        moves.append({"card": str(mine), "to": _soldier_place(mine, "attacker", result, attacker.campaign)})
        moves.append(
            {"card": str(theirs), "to": _soldier_place(theirs, "defender", result, defender.campaign)}
        )
    replaced = target is not None and result == "defender" and challenge == MAX_CHALLENGES
    if target is not None:
        moves.append({"card": str(target), "to": _target_place(result, replaced)})
    return {
        "kind": "battle",
        "pairs": pairs,
        "result": result,
        "moves": moves,
        "replaced": replaced,
        "attacker_out": target is not None
        and result == "defender"
        and attacker.fort == 0
        and not attacker.campaign,
    }


def _soldier_place(card: Card, owner: str, result: str, campaign: bool) -> str:
    # A campaign's royals and aces can be used over and over; everyone else's go to the barracks.
    if is_royal_or_ace(card) and not campaign:
        return "barracks.bottom"
    return f"{owner if result == 'draw' else result}.army"


def _target_place(result: str, replaced: bool) -> str:
    if result == "attacker":
        return "attacker.army"
    return "barracks.bottom" if replaced else "defender.fort"


def _position(cards: dict[str, Card]) -> dict:
    best = max(battle_rank(card) for card in cards.values())
    leaders = [player for player, card in cards.items() if battle_rank(card) == best]
    return {
        "cards": {player: str(card) for player, card in cards.items()},
        "winner": leaders[0] if len(leaders) == 1 else None,
    }


# --- Private helpers: reading JSON bodies ----------------------------------------------------


def _path(parent: str | None, key: str) -> str:
    return f"{parent}.{key}" if parent else key


def _object(value: object, field: str | None) -> dict:
    if not isinstance(value, dict):
        if field:
            raise RuleError("not_an_object", N_("“%(key)s” must be a JSON object."), field, key=field)
        raise RuleError("not_an_object", N_("The request body must be a JSON object."), field)
    return value


def _required(container: dict, key: str, parent: str | None) -> object:
    if key not in container:
        raise RuleError(
            "missing_field", N_("“%(key)s” is missing."), _path(parent, key), key=_path(parent, key)
        )
    return container[key]


def _integer(value: object, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("not_an_integer", N_("“%(key)s” must be a whole number."), field, key=field)
    if not low <= value <= high:
        raise RuleError(
            "out_of_range",
            N_("“%(key)s” must be between %(low)s and %(high)s."),
            field,
            key=field,
            low=low,
            high=high,
        )
    return value


def _boolean(container: dict, key: str, parent: str) -> bool:
    value = container.get(key, False)
    if not isinstance(value, bool):
        raise RuleError(
            "not_a_boolean",
            N_("“%(key)s” must be true or false."),
            _path(parent, key),
            key=_path(parent, key),
        )
    return value


def _side(body: dict, name: str, fort_required: bool) -> Side:
    side = _object(_required(body, name, None), name)
    army = _integer(_required(side, "army", name), f"{name}.army", 0, DECK_SIZE)
    fort = 1
    if fort_required or "fort" in side:
        fort = _integer(_required(side, "fort", name), f"{name}.fort", 0, DECK_SIZE)
    return Side(army, fort, _boolean(side, "campaign", name))


def _target(body: dict) -> tuple[Card | None, int, int]:
    raw = body.get("target")
    if raw is None:
        if body.get("challenge") is not None:
            _challenge(body["challenge"])
        return None, 1, 1
    target = _object(raw, "target")
    card = parse(_required(target, "card", "target"), "target.card")
    height = _integer(_required(target, "height", "target"), "target.height", 1, COMPLETE)
    return card, height, _challenge(_required(body, "challenge", None))


def _challenge(value: object) -> int:
    # Any number past the third is a fourth challenge, however large.
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_CHALLENGES:
        return MAX_CHALLENGES + 1
    return _integer(value, "challenge", 1, MAX_CHALLENGES)


def _armies(raw: object) -> dict[str, list[Card]]:
    armies = _object(raw, "armies")
    if not MIN_PLAYERS <= len(armies) <= MAX_PLAYERS:
        raise RuleError(
            "player_count",
            N_("A showdown is between %(least)s and %(most)s players."),
            "armies",
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
        )
    parsed: dict[str, list[Card]] = {}
    seen: set[Card] = set()
    for player, cards in armies.items():
        field = f"armies.{player}"
        if not player.strip() or len(player) > NAME_LENGTH:
            raise RuleError("bad_player", NAME_WORDS, field, most=NAME_LENGTH)
        army = parse_distinct(cards, field)
        if not army:
            raise RuleError(
                "empty_army", N_("A player on a campaign with no army card has lost the campaign."), field
            )
        for index, card in enumerate(army):
            if card in seen:
                raise RuleError(
                    "duplicate_card",
                    N_("The %(card)s is in two armies: a deck holds each card once."),
                    f"{field}[{index}]",
                    card=card.in_words,
                )
            seen.add(card)
        parsed[player] = army
    return parsed


def _watchtowers(raw: object, armies: dict[str, list[Card]]) -> dict[str, str]:
    towers = _object(raw, "watchtowers")
    if set(towers) != set(armies):
        raise RuleError(
            "watchtower_players",
            N_("Give one watchtower rank for each player of the showdown."),
            "watchtowers",
        )
    ranks = {player: _rank(towers[player], f"watchtowers.{player}") for player in armies}
    if len(set(ranks.values())) != len(ranks):
        raise RuleError(
            "duplicate_watchtower",
            N_("Two complete watchtowers cannot share a rank: there are 4 of each."),
            "watchtowers",
        )
    for player, army in armies.items():
        for index, card in enumerate(army):
            if card.rank in ranks.values():
                raise RuleError(
                    "card_in_watchtower",
                    N_("The %(card)s cannot be in an army: a watchtower holds all %(ranks)s."),
                    f"armies.{player}[{index}]",
                    card=card.in_words,
                    ranks=rank_count(card.rank, 4),
                )
    return ranks


def _rank(value: object, field: str) -> str:
    rank = value.strip().upper() if isinstance(value, str) else None
    rank = "10" if rank == "T" else rank
    if rank not in BATTLE_ORDER:
        raise RuleError(
            "unknown_rank",
            N_("“%(key)s” must be a rank: 2-10, %(j)s, %(q)s, %(k)s or %(a)s."),
            field,
            key=field,
            **{letter.lower(): _rank_said(letter) for letter in ROYALS_AND_ACES},
        )
    return rank


def _names(raw: object, count: int) -> list[str]:
    if raw is None:
        return [f"Player {index}" for index in range(1, count + 1)]
    if not isinstance(raw, list) or len(raw) != count:
        raise RuleError(
            "bad_names", N_("Give %(count)s names, one for each player."), "options.names", count=count
        )
    names = [name.strip() if isinstance(name, str) else "" for name in raw]
    if not all(0 < len(name) <= NAME_LENGTH for name in names):
        raise RuleError(
            "bad_names",
            N_("Each player needs a name of 1 to %(most)s characters."),
            "options.names",
            most=NAME_LENGTH,
        )
    return names


# --- Private helpers: the table ----------------------------------------------------------


def _cards(names: Iterable[str]) -> list[Card]:
    return [parse(name) for name in names]


def _public(state: dict) -> set[str]:
    """Cards whose place the table knows: forts, set-aside watchtowers and cards held aside."""
    known = {card for fort in state["forts"].values() for card in fort}
    known.update(card for tower in state["campaigns"].values() if tower for card in tower)
    return known | set(_held(state))


def _held(state: dict) -> list[str]:
    held = []
    for item in state["pending"]:
        if item["type"] == "free_for_all":
            held.append(item["card"])
    if state["showdown"] and state["showdown"]["previous"]:
        held.extend(card for line in state["showdown"]["previous"].values() for card in line)
    return held


def _barracks(state: dict) -> int:
    placed = sum(state["armies"].values()) + sum(len(fort) for fort in state["forts"].values())
    placed += sum(len(tower) for tower in state["campaigns"].values() if tower)
    return DECK_SIZE - placed - len(_held(state))


def _unknown(state: dict, value: object, field: str) -> Card:
    """A named card that may come from an army or the barracks: not one the table can see elsewhere."""
    card = parse(value, field)
    if str(card) in _public(state):
        raise RuleError(
            "card_in_play", N_("The %(card)s is already on the table."), field, card=card.in_words
        )
    return card


def _unknown_list(state: dict, value: object, field: str) -> list[Card]:
    cards = parse_distinct(value, field)
    for index, card in enumerate(cards):
        _unknown(state, str(card), f"{field}[{index}]")
    return cards


def _player(state: dict, value: object, field: str) -> str:
    if value not in state["players"]:
        raise RuleError(
            "unknown_player", N_("“%(player)s” is not a player at this table."), field, player=str(value)
        )
    if value in state["out"]:
        raise RuleError("player_out", N_("%(name)s is out of the game."), field, name=state["names"][value])
    return value


def _name(state: dict, player: str) -> str:
    return state["names"][player]


def _in_game(state: dict) -> list[str]:
    return [player for player in state["players"] if player not in state["out"]]


def _rank_count(fort: list[str], rank: str) -> int:
    return sum(1 for card in fort if parse(card).rank == rank)


def _top_of_tower(fort: list[str], card: str) -> bool:
    rank = parse(card).rank
    return [held for held in fort if parse(held).rank == rank][-1] == card


def _leave_fort(state: dict, player: str, card: str) -> None:
    state["forts"][player].remove(card)
    for counts in state["challenges"].values():
        counts.pop(card, None)  # a card that leaves a fort is a new card for the 3-challenge limit


def _check_pending(state: dict, kind: str) -> None:
    pending = state["pending"][0]["type"] if state["pending"] else None
    if pending and kind != pending and not (pending == "showdown" and kind == "share"):
        raise RuleError("pending", _PENDING_WORDS[pending], "action.type")
    if not pending and kind in _PENDING_KINDS:
        raise RuleError("nothing_pending", _NOTHING_PENDING[kind], "action.type")


def _need_phase(state: dict, *phases: str) -> None:
    if state["phase"] not in phases:
        raise RuleError("wrong_phase", _PHASE_WORDS[state["phase"]], "action.type")


def _need_main(state: dict) -> str:
    _need_phase(state, "play")
    if state["step"] != "main":
        raise RuleError("draw_first", N_("The player draws from the barracks first."), "action.type")
    return state["turn"]


def _apply_deal(state: dict, action: dict) -> None:
    _need_phase(state, "deal")
    forts = _object(action.get("forts"), "forts")
    if set(forts) != set(state["players"]):
        raise RuleError("deal_players", N_("Deal a fort to every player, and only to them."), "forts")
    seen: set[Card] = set()
    for player in state["players"]:
        cards = parse_distinct(forts[player], f"forts.{player}")
        if len(cards) != FORT_DEAL or seen & set(cards):
            raise RuleError(
                "bad_deal",
                NP_("Each fort is dealt %(count)s card.", "Each fort is dealt %(count)s different cards."),
                f"forts.{player}",
                count=FORT_DEAL,
            )
        seen.update(cards)
        state["forts"][player] = [str(card) for card in cards]
        state["armies"][player] = ARMY_DEAL
    state["phase"] = "setup"


def _apply_burn(state: dict, action: dict) -> None:
    if state["phase"] == "setup":
        player = _player(state, action.get("player"), "player")
        if player in state["pre_burned"]:
            raise RuleError(
                "burned_already",
                N_("%(name)s already burned before the game."),
                "player",
                name=_name(state, player),
            )
        card = _fort_card_burned(state, player, action.get("card"))
        forts = {other: _cards(fort) for other, fort in state["forts"].items()}
        check_pre_game_burn(card, player, forts)
        state["pre_burned"].append(player)
    else:
        player = _need_main(state)
        if action.get("player", player) != player:
            raise RuleError("not_your_turn", N_("Only the player whose turn it is may burn now."), "player")
        if state["burned"]:
            raise RuleError("burned_already", N_("A player may burn only once per turn."), "card")
        card = _fort_card_burned(state, player, action.get("card"))
        state["burned"] = True
    draws = action.get("draws")
    draws = max(burn_draws(card)) if draws is None else _integer(draws, "draws", 1, 2)
    check_burn_draws(card, draws)
    _leave_fort(state, player, str(card))
    state["armies"][player] += min(draws, _barracks(state))


def _fort_card_burned(state: dict, player: str, value: object) -> Card:
    """The card a player burns: only a card of their own fort (a campaign has none)."""
    if state["campaigns"][player]:
        raise RuleError(
            "on_campaign",
            N_("%(name)s is on a campaign and has no fort card to burn."),
            "card",
            name=_name(state, player),
        )
    card = parse(value, "card")
    if str(card) not in state["forts"][player]:
        raise RuleError(
            "not_in_fort",
            N_("Only a fort card can be burned, and the %(card)s is not in %(name)s's fort."),
            "card",
            card=card.in_words,
            name=_name(state, player),
        )
    return card


def _apply_start(state: dict, action: dict) -> None:
    _need_phase(state, "setup")
    state["phase"] = "play"
    _begin_turn(state, state["players"][0])


def _begin_turn(state: dict, player: str) -> None:
    state.update(turn=player, burned=False, challenged=False)
    state["step"] = "main" if state["campaigns"][player] else "draw"


def _apply_draw(state: dict, action: dict) -> None:
    _need_phase(state, "play")
    if state["step"] != "draw":
        raise RuleError("drawn_already", N_("The draw comes once, at the start of a turn."), "action.type")
    player = state["turn"]
    state["step"] = "main"
    if action.get("card") is None:
        state["armies"][player] += min(1, _barracks(state))
        return
    card = _unknown(state, action["card"], "card")
    if _rank_count(state["forts"][player], card.rank) != COMPLETE - 1 or _barracks(state) < 1:
        raise RuleError(
            "not_completing",
            N_("Name the drawn card only when it completes a watchtower: the %(card)s does not."),
            "card",
            card=card.in_words,
        )
    _start_free_for_all(state, player, str(card))


def _start_free_for_all(state: dict, player: str, card: str) -> None:
    contenders = [other for other in _in_game(state) if state["armies"][other] > 0]
    state["pending"].insert(
        0,
        {
            "type": "free_for_all",
            "card": card,
            "player": player,
            "contenders": contenders,
            "table": {other: [] for other in contenders},
        },
    )
    _settle_free_for_all(state, contenders)


def _settle_free_for_all(state: dict, contenders: list[str]) -> None:
    pending = state["pending"][0]
    if len(contenders) > 1:
        pending["contenders"] = contenders
        return
    state["pending"].pop(0)
    winner = contenders[0] if contenders else None
    state["last"] = {
        "type": "free_for_all",
        "card": pending["card"],
        "table": pending["table"],
        "winner": winner,
    }
    if winner == pending["player"]:
        _start_campaign(state, winner, pending["card"])
    elif winner:
        state["armies"][winner] += 1
    # Nobody left to lay a card: the completing card goes to the bottom of the barracks.


def _apply_free_for_all(state: dict, action: dict) -> None:
    pending = state["pending"][0]
    laid = _object(action.get("laid"), "laid")
    if set(laid) != set(pending["contenders"]):
        raise RuleError(
            "free_for_all_players", N_("Each player still in the free-for-all lays exactly one card."), "laid"
        )
    on_table = {card for cards in pending["table"].values() for card in cards}
    cards: dict[str, Card] = {}
    for player in pending["contenders"]:
        card = _unknown(state, laid[player], f"laid.{player}")
        if str(card) in on_table or card in cards.values():
            raise RuleError(
                "duplicate_card", N_("The %(card)s is already laid."), f"laid.{player}", card=card.in_words
            )
        cards[player] = card
        pending["table"][player].append(str(card))
    tied = free_for_all_highest(cards)
    able = [p for p in tied if len(tied) == 1 or state["armies"][p] > len(pending["table"][p])]
    _settle_free_for_all(state, able)


def _start_campaign(state: dict, player: str, card: str) -> None:
    rank = parse(card).rank
    fort = list(state["forts"][player])
    tower = [held for held in fort if parse(held).rank == rank] + [card]
    for held in fort:
        _leave_fort(state, player, held)
    state["armies"][player] += len(fort) - (len(tower) - 1)  # the rest of the fort joins the army
    state["campaigns"][player] = tower


def _apply_fortify(state: dict, action: dict) -> None:
    player = _need_main(state)
    if state["campaigns"][player]:
        raise RuleError("on_campaign", N_("A player on a campaign has no fort to build."), "cards")
    cards = _unknown_list(state, action.get("cards"), "cards")
    if not cards or len(cards) > state["armies"][player]:
        raise RuleError(
            "army_too_small",
            NP_(
                "%(name)s can move %(count)s army card into the fort.",
                "%(name)s can move 1 to %(count)s army cards into the fort.",
            ),
            "cards",
            name=_name(state, player),
            count=state["armies"][player],
        )
    state["armies"][player] -= len(cards)
    state["forts"][player].extend(str(card) for card in cards)


def _apply_challenge(state: dict, action: dict) -> None:
    attacker = _need_main(state)
    if state["challenged"]:
        raise RuleError("challenged_already", N_("A player challenges at most once per turn."), "action.type")
    defender = _player(state, action.get("defender"), "defender")
    if defender == attacker:
        raise RuleError("self_challenge", N_("A player cannot challenge their own fort."), "defender")
    target, height, count = _table_target(state, attacker, defender, action.get("target"))
    soldiers = _object(action.get("soldiers"), "soldiers")
    attacking = _unknown_list(state, soldiers.get("attacker"), "soldiers.attacker")
    defending = _unknown_list(state, soldiers.get("defender"), "soldiers.defender")
    size = action.get("size")
    size = None if size is None else _integer(size, "size", 0, DECK_SIZE)
    answer = adjudicate(
        _table_side(state, attacker),
        _table_side(state, defender),
        (attacking, defending),
        target,
        height,
        count + 1,
        size,
    )
    _apply_battle(state, attacker, defender, answer, target)


def _table_target(state: dict, attacker: str, defender: str, raw: object) -> tuple[Card | None, int, int]:
    if raw is None:
        return None, 1, 0
    card = parse(raw, "target")
    fort = state["forts"][defender]
    if state["campaigns"][defender]:
        raise _campaign_defender()
    if str(card) not in fort:
        raise RuleError(
            "not_in_fort",
            N_("The %(card)s is not in %(name)s's fort."),
            "target",
            card=card.in_words,
            name=_name(state, defender),
        )
    if not _top_of_tower(fort, str(card)):
        raise RuleError(
            "not_on_top", N_("The %(card)s is not on top of its watchtower."), "target", card=card.in_words
        )
    return card, _rank_count(fort, card.rank), state["challenges"][attacker].get(str(card), 0)


def _table_side(state: dict, player: str) -> Side:
    return Side(state["armies"][player], len(state["forts"][player]), bool(state["campaigns"][player]))


def _apply_battle(state: dict, attacker: str, defender: str, answer: dict, target: Card | None) -> None:
    owners = {"attacker": attacker, "defender": defender}
    state["armies"][attacker] -= len(answer["pairs"])
    state["armies"][defender] -= len(answer["pairs"])
    for move in answer["moves"]:
        place, _, zone = move["to"].partition(".")
        if target is not None and move["card"] == str(target) and move["to"] != "defender.fort":
            _leave_fort(state, defender, move["card"])
        if zone == "army":
            state["armies"][owners[place]] += 1
    if target is not None and str(target) in state["forts"][defender]:
        counts = state["challenges"][attacker]
        counts[str(target)] = counts.get(str(target), 0) + 1
    state["challenged"] = True
    state["last"] = {
        "type": "battle",
        "attacker": attacker,
        "defender": defender,
        "target": None if target is None else str(target),
        **answer,
    }
    if answer["replaced"]:
        state["pending"].append({"type": "replace", "player": defender})
    for player in (attacker, defender):
        if state["campaigns"][player] and state["armies"][player] == 0:
            state["pending"].append({"type": "restock", "player": player})
    if answer["attacker_out"]:
        state["out"].append(attacker)
        _next_turn(state)


def _apply_replace(state: dict, action: dict) -> None:
    pending = state["pending"][0]
    card = _unknown(state, action.get("card"), "card")
    state["forts"][pending["player"]].append(str(card))
    state["pending"].pop(0)


def _apply_restock(state: dict, action: dict) -> None:
    player = state["pending"][0]["player"]
    tower = state["campaigns"][player]
    cards = parse_distinct(action.get("fort"), "fort")
    from_tower = [card for card in cards if str(card) in tower]
    if len(cards) != RESTOCK_FORT or len(from_tower) != 1:
        raise RuleError(
            "bad_restock",
            N_("Name %(count)s fort cards: 1 from the watchtower and %(drawn)s drawn from the barracks."),
            "fort",
            count=RESTOCK_FORT,
            drawn=RESTOCK_FORT - 1,
        )
    for index, card in enumerate(cards):
        if card not in from_tower:
            _unknown(state, str(card), f"fort[{index}]")
    state["campaigns"][player] = None
    state["forts"][player] = [str(card) for card in cards]
    state["armies"][player] += 1
    state["armies"][player] += min(RESTOCK_DRAWS, _barracks(state))
    state["pending"].pop(0)


def _apply_end_turn(state: dict, action: dict) -> None:
    _need_main(state)
    _next_turn(state)


def _next_turn(state: dict) -> None:
    players = state["players"]
    index = players.index(state["turn"])
    for step in range(1, len(players) + 1):
        candidate = players[(index + step) % len(players)]
        if candidate not in state["out"]:
            _begin_turn(state, candidate)
            return


def _settle(state: dict) -> None:
    """After every action: a last player standing wins; campaigns everywhere start the showdown."""
    if state["phase"] != "play" or state["pending"]:
        return
    _drop_empty_handed(state)
    active = _in_game(state)
    if len(active) == 1:
        _finish(state, active[0], [])
    elif all(state["campaigns"][player] for player in active):
        state.update(phase="showdown", turn=None, step=None)
        _stage(state, "showdown", active)


def _drop_empty_handed(state: dict) -> None:
    # With the barracks empty, a player holding no card at all can never get one back.
    if _barracks(state):
        return
    for player in _in_game(state):
        if not (state["forts"][player] or state["armies"][player] or state["campaigns"][player]):
            state["out"].append(player)
    if state["turn"] in state["out"] and len(_in_game(state)) > 1:
        _next_turn(state)


def _finish(state: dict, winner: str | None, shared: list[str]) -> None:
    state.update(phase="over", turn=None, step=None, winner=winner, shared=shared, pending=[])


def _stage(
    state: dict, stage: str, players: list[str], previous: dict | None = None, replays: int = 0
) -> None:
    if previous is None:
        length = line_length(state["armies"][player] for player in players)
    else:
        length = len(next(iter(previous.values())))
    state["showdown"] = {
        "stage": stage,
        "players": players,
        "line": length,
        "previous": previous,
        "replays": replays,
    }
    state["pending"] = [{"type": "showdown", "players": players, "line": length}]


def _apply_showdown(state: dict, action: dict) -> None:
    if state["phase"] != "showdown":
        waiting = [player for player in _in_game(state) if not state["campaigns"][player]]
        raise RuleError(
            "not_on_campaign",
            N_("A showdown needs every player on a campaign, and %(name)s is not."),
            "action.type",
            name=_name(state, waiting[0]),
        )
    show = state["showdown"]
    laid = _showdown_lines(state, _object(action.get("laid"), "laid"))
    outcome = play_showdown(laid)
    state["last"] = {
        "type": "showdown",
        "stage": show["stage"],
        "laid": {player: [str(card) for card in line] for player, line in laid.items()},
        **outcome,
    }
    for player in show["players"]:
        state["armies"][player] = 0  # laid and removed cards all end in the barracks, save a replay's
    show["previous"] = None
    state["pending"] = []
    if outcome["winner"]:
        _finish(state, outcome["winner"], [])
    elif show["stage"] == "showdown":
        _watchtower_battle(state, outcome["tied"])
    else:
        lines = {player: [str(card) for card in laid[player]] for player in outcome["tied"]}
        _stage(state, "replay", outcome["tied"], lines, show["replays"] + (show["stage"] == "replay"))


def _showdown_lines(state: dict, laid: dict) -> dict[str, list[Card]]:
    show = state["showdown"]
    if set(laid) != set(show["players"]):
        raise RuleError("showdown_players", N_("Give the line of every player in the showdown."), "laid")
    lines: dict[str, list[Card]] = {}
    seen: set[Card] = set()
    for player in show["players"]:
        field = f"laid.{player}"
        cards = parse_distinct(laid[player], field)
        if len(cards) != show["line"]:
            raise RuleError(
                "bad_line",
                NP_("Each line holds %(count)s card.", "Each line holds %(count)s cards."),
                field,
                count=show["line"],
            )
        if show["previous"]:
            if sorted(map(str, cards)) != sorted(show["previous"][player]):
                raise RuleError("not_same_cards", N_("A replay uses the same cards, shuffled."), field)
        else:
            for index, card in enumerate(cards):
                _unknown(state, str(card), f"{field}[{index}]")
        if seen & set(cards):
            raise RuleError("duplicate_card", N_("A card is named in two lines."), field)
        seen.update(cards)
        lines[player] = cards
    return lines


def _watchtower_battle(state: dict, tied: list[str]) -> None:
    for player in tied:
        rank = parse(state["campaigns"][player][0]).rank
        state["armies"][player] = min(watchtower_draws(rank), _barracks(state))
    _stage(state, "watchtowers", tied, None)


def _apply_share(state: dict, action: dict) -> None:
    if not _can_share(state):
        raise RuleError(
            "no_share",
            N_(
                "The win is shared only when no shuffle of the tied players' lines can separate them: "
                "shuffle the same cards and play them again."
            ),
            "action.type",
        )
    _finish(state, None, list(state["showdown"]["players"]))


def _can_share(state: dict) -> bool:
    """A shared win is due: a replay is pending and no shuffle of the tied lines can separate them."""
    show = state["showdown"]
    if not show or show["stage"] != "replay" or state["phase"] != "showdown":
        return False
    return not can_separate({player: _cards(line) for player, line in show["previous"].items()})


def _player_view(state: dict, player: str) -> dict:
    fort = state["forts"][player]
    towers: dict[str, list[str]] = {}
    for card in fort:
        towers.setdefault(parse(card).rank, []).append(card)
    return {
        "id": player,
        "name": state["names"][player],
        "army": state["armies"][player],
        "fort": list(fort),
        "watchtowers": [
            {"rank": rank, "cards": cards, "height": len(cards), "top": cards[-1]}
            for rank, cards in towers.items()
        ],
        "campaign": state["campaigns"][player],
        "out": player in state["out"],
        "challenges": dict(state["challenges"][player]),
    }


_PENDING_KINDS = ("free_for_all", "replace", "restock")
_PENDING_WORDS = {
    "free_for_all": N_("First record the free-for-all: the card each player lays."),
    "replace": N_("First name the card the defender takes from the barracks into the fort."),
    "restock": N_("First record the end of the campaign: the three new fort cards."),
    "showdown": N_("The showdown is on: record each player's line."),
}
_NOTHING_PENDING = {
    "free_for_all": N_("There is no free-for-all to record now."),
    "replace": N_("There is no replace to record now."),
    "restock": N_("There is no restock to record now."),
}
_PHASE_WORDS = {
    "deal": N_("Deal the forts first."),
    "setup": N_("The game has not started: burn before the game, or start."),
    "play": N_("The game is under way."),
    "showdown": N_("The showdown is on: record each player's line."),
    "over": N_("The game is over."),
}
_MUST_LAY = {
    "attacker": NP_(
        "The attacker must lay %(count)s soldier, not %(laid)s.",
        "The attacker must lay %(count)s soldiers, not %(laid)s.",
    ),
    "defender": NP_(
        "The defender must lay %(count)s soldier, not %(laid)s.",
        "The defender must lay %(count)s soldiers, not %(laid)s.",
    ),
}
_APPLY = {
    "deal": _apply_deal,
    "burn": _apply_burn,
    "start": _apply_start,
    "draw": _apply_draw,
    "fortify": _apply_fortify,
    "challenge": _apply_challenge,
    "replace": _apply_replace,
    "free_for_all": _apply_free_for_all,
    "restock": _apply_restock,
    "end_turn": _apply_end_turn,
    "showdown": _apply_showdown,
    "share": _apply_share,
}


# --- Private helpers: the table's history ----------------------------------------------------


def _names_of(state: dict, players: Iterable[str]) -> object:
    """Players' names one after the other, each its own parameter (a seat nobody named is said in words)."""
    return _listed([_name(state, player) for player in players])


def _listed(items: list, template: str = N_("%(first)s, %(rest)s")) -> object:
    """Items said one after the other (cards in words, forts): each said in the reader's language."""
    if len(items) <= 1:
        return items[0] if items else ""
    return Message(template, first=items[0], rest=_listed(items[1:], template))


def _card_names(cards: Iterable[str]) -> object:
    return _listed([parse(card).in_words for card in cards])


def _describe_deal(state: dict, action: dict, after: dict) -> Message:
    forts = [
        Message(
            N_("%(name)s: %(cards)s"),
            name=_name(after, p),
            cards=_listed([parse(card) for card in after["forts"][p]], N_("%(first)s %(rest)s")),
        )
        for p in after["players"]
    ]
    return Message(
        NP_(
            "The cards are dealt (%(count)s army card each). Forts: %(forts)s.",
            "The cards are dealt (%(count)s army cards each). Forts: %(forts)s.",
        ),
        count=ARMY_DEAL,
        forts=_listed(forts, N_("%(first)s; %(rest)s")),
    )


def _describe_burn(state: dict, action: dict, after: dict) -> Message:
    player = action.get("player") if state["phase"] == "setup" else state["turn"]
    card = parse(action["card"])
    drawn = after["armies"][player] - state["armies"][player]
    if state["phase"] == "setup":
        sentence = NP_(
            "%(name)s burned the %(card)s before the game and drew %(count)s card.",
            "%(name)s burned the %(card)s before the game and drew %(count)s cards.",
        )
    else:
        sentence = NP_(
            "%(name)s burned the %(card)s and drew %(count)s card.",
            "%(name)s burned the %(card)s and drew %(count)s cards.",
        )
    return Message(sentence, name=_name(state, player), card=card.in_words, count=drawn)


def _describe_start(state: dict, action: dict, after: dict) -> Message:
    return Message(N_("The game starts: %(name)s plays first."), name=_name(after, after["turn"]))


def _describe_draw(state: dict, action: dict, after: dict) -> Message:
    player = _name(state, state["turn"])
    if action.get("card") is None:
        return Message(N_("%(name)s drew a card from the barracks."), name=player)
    card = parse(action["card"])
    return Message(
        N_("%(name)s drew the %(card)s, completing a watchtower of %(ranks)s: free-for-all! %(then)s"),
        name=player,
        card=card.in_words,
        ranks=rank_count(card.rank, 4),
        then=_describe_ffa_end(state, after),
    )


def _describe_ffa_end(state: dict, after: dict) -> Message:
    if after["pending"] and after["pending"][0]["type"] == "free_for_all":
        return Message(
            N_("Still in the free-for-all: %(names)s."),
            names=_names_of(after, after["pending"][0]["contenders"]),
        )
    last = after["last"]
    if last["winner"] is None:
        return Message(N_("Nobody can lay another card: the card goes to the bottom of the barracks."))
    if after["campaigns"][last["winner"]] and not state["campaigns"][last["winner"]]:
        sentence = N_("%(name)s wins the %(card)s and goes on a campaign.")
    else:
        sentence = N_("%(name)s wins the %(card)s.")
    return Message(sentence, name=_name(after, last["winner"]), card=parse(last["card"]).in_words)


def _describe_free_for_all(state: dict, action: dict, after: dict) -> Message:
    laid = action["laid"]
    shown = [
        Message(N_("%(name)s %(card)s"), name=_name(state, p), card=parse(laid[p]).in_words)
        for p in state["pending"][0]["contenders"]
    ]
    return Message(
        N_("Free-for-all: %(laid)s. %(then)s"),
        laid=_listed(shown, N_("%(first)s; %(rest)s")),
        then=_describe_ffa_end(state, after),
    )


def _describe_fortify(state: dict, action: dict, after: dict) -> Message:
    cards = [str(parse(card)) for card in action["cards"]]
    return Message(
        N_("%(name)s moved the %(cards)s into the fort."),
        name=_name(state, state["turn"]),
        cards=_card_names(cards),
    )


def _describe_challenge(state: dict, action: dict, after: dict) -> Message:
    last = after["last"]
    attacker, defender = _name(state, last["attacker"]), _name(state, last["defender"])
    if last["kind"] == "taken":
        return Message(
            N_("%(attacker)s took the %(card)s from %(defender)s's vulnerable fort."),
            attacker=attacker,
            defender=defender,
            card=parse(last["target"]).in_words,
        )
    outcome = {
        "attacker": Message(N_("%(name)s won"), name=attacker),
        "defender": Message(N_("%(name)s repelled the attack"), name=defender),
        "draw": Message(N_("a draw")),
    }[last["result"]]
    if last["target"]:
        said = Message(
            NP_(
                "%(attacker)s challenged %(defender)s for the %(card)s with %(count)s soldier: %(outcome)s.",
                "%(attacker)s challenged %(defender)s for the %(card)s with %(count)s soldiers: %(outcome)s.",
            ),
            attacker=attacker,
            defender=defender,
            card=parse(last["target"]).in_words,
            count=len(last["pairs"]),
            outcome=outcome,
        )
    else:
        said = Message(
            NP_(
                "%(attacker)s challenged %(defender)s in a battle of campaigns with %(count)s soldier: %(outcome)s.",
                "%(attacker)s challenged %(defender)s in a battle of campaigns with %(count)s soldiers: %(outcome)s.",
            ),
            attacker=attacker,
            defender=defender,
            count=len(last["pairs"]),
            outcome=outcome,
        )
    more = []
    if last["replaced"]:
        more.append(Message(N_("The card goes to the barracks and is replaced.")))
    if last["attacker_out"]:
        more.append(Message(N_("%(name)s has no fort and is out of the game."), name=attacker))
    return then(said, *more)


def _describe_replace(state: dict, action: dict, after: dict) -> Message:
    player = state["pending"][0]["player"]
    return Message(
        N_("%(name)s took the %(card)s from the barracks into the fort."),
        name=_name(state, player),
        card=parse(action["card"]).in_words,
    )


def _describe_restock(state: dict, action: dict, after: dict) -> Message:
    player = state["pending"][0]["player"]
    fort = [str(parse(card)) for card in action["fort"]]
    return Message(
        N_("%(name)s lost the campaign; the new fort is %(cards)s."),
        name=_name(state, player),
        cards=_card_names(fort),
    )


def _describe_end_turn(state: dict, action: dict, after: dict) -> Message:
    return Message(
        N_("%(name)s ended the turn; %(next)s to play."),
        name=_name(state, state["turn"]),
        next=_name(after, after["turn"]),
    )


def _describe_showdown(state: dict, action: dict, after: dict) -> Message:
    last = after["last"]
    tricks = _listed(
        [
            Message(N_("%(name)s %(tricks)s"), name=_name(state, p), tricks=n)
            for p, n in last["tricks"].items()
        ]
    )
    if last["winner"]:
        return Message(
            N_("Showdown: tricks %(tricks)s. %(name)s wins the game!"),
            tricks=tricks,
            name=_name(state, last["winner"]),
        )
    return Message(
        N_("Showdown: tricks %(tricks)s. Tied: %(names)s."),
        tricks=tricks,
        names=_names_of(state, last["tied"]),
    )


def _describe_share(state: dict, action: dict, after: dict) -> Message:
    return Message(
        N_("The same cards cannot settle it: %(names)s share the win."),
        names=_names_of(state, after["shared"]),
    )


# --- Private helpers: random legal actions ----------------------------------------------------


def _random_unknown(state: dict, rng: random.Random, count: int, exclude: Iterable[str] = ()) -> list[str]:
    taken = _public(state) | set(exclude)
    return rng.sample([str(card) for card in deck() if str(card) not in taken], count)


def _random_deal(state: dict, rng: random.Random) -> dict:
    cards = _random_unknown(state, rng, FORT_DEAL * len(state["players"]))
    return {
        "type": "deal",
        "forts": {p: cards[i * FORT_DEAL : (i + 1) * FORT_DEAL] for i, p in enumerate(state["players"])},
    }


def _random_setup(state: dict, rng: random.Random) -> dict:
    waiting = [p for p in state["players"] if p not in state["pre_burned"]]
    if waiting and rng.random() < 0.3:
        player = rng.choice(waiting)
        allowed = _burnable(state).get(player)
        if allowed:
            card = rng.choice(allowed)
            return {"type": "burn", "player": player, "card": card, "draws": _random_draws(parse(card), rng)}
    return {"type": "start"}


def _random_play(state: dict, rng: random.Random) -> dict:
    if state["step"] == "draw":
        return _random_draw(state, rng)
    player = state["turn"]
    challenge = 0.2 if state["campaigns"][player] else 2.0
    fortify = 1.5 if state["armies"][player] > 3 or _barracks(state) > 8 else 0.2
    options = [("end", 1.0), ("fortify", fortify), ("burn", 0.5), ("challenge", challenge)]
    for _ in range(6):
        choice = rng.choices([o for o, _ in options], [w for _, w in options])[0]
        action = _RANDOM_MAIN[choice](state, rng)
        if action:
            return action
    return {"type": "end_turn"}


def _random_draw(state: dict, rng: random.Random) -> dict:
    completing = _completing(state)
    if completing and rng.random() < 0.8:
        return {"type": "draw", "card": completing[0]}
    return {"type": "draw"}


def _random_fortify(state: dict, rng: random.Random) -> dict | None:
    player = state["turn"]
    army = state["armies"][player]
    if state["campaigns"][player] or army < 1:
        return None
    ranks = {parse(card).rank for card in state["forts"][player]}
    public = _public(state)
    cards: list[str] = []
    for _ in range(rng.randint(1, min(2, army))):
        matching = [
            str(c) for c in deck() if c.rank in ranks and str(c) not in public and str(c) not in cards
        ]
        if matching and rng.random() < 0.8:
            cards.append(rng.choice(matching))
        else:
            cards.extend(_random_unknown(state, rng, 1, cards))
    return {"type": "fortify", "cards": cards}


def _random_burn(state: dict, rng: random.Random) -> dict | None:
    allowed = _burnable(state).get(state["turn"])
    if not allowed:
        return None
    card = rng.choice(allowed)
    return {"type": "burn", "card": card, "draws": _random_draws(parse(card), rng)}


def _random_draws(card: Card, rng: random.Random) -> int:
    return rng.choice(burn_draws(card))


def _random_challenge(state: dict, rng: random.Random) -> dict | None:
    attacker = state["turn"]
    if state["challenged"]:
        return None
    defenders = [p for p in _in_game(state) if p != attacker]
    rng.shuffle(defenders)
    for defender in defenders:
        action = _random_target(state, rng, attacker, defender)
        if action:
            return action
    return None


def _random_target(state: dict, rng: random.Random, attacker: str, defender: str) -> dict | None:
    mine, theirs = state["armies"][attacker], state["armies"][defender]
    if state["campaigns"][defender]:
        if not state["campaigns"][attacker] or not mine or not theirs:
            return None
        return _random_soldiers(state, rng, defender, None, min(CAMPAIGN_BATTLE_SIZE, mine, theirs))
    fort = state["forts"][defender]
    targets = [
        card
        for card in fort
        if _top_of_tower(fort, card)
        and _rank_count(fort, parse(card).rank) < COMPLETE
        and mine >= ARMY_NEEDED[_rank_count(fort, parse(card).rank)]
        and state["challenges"][attacker].get(card, 0) < MAX_CHALLENGES
    ]
    if not targets or (theirs and not mine):
        return None
    size = rng.randint(1, min(2, mine, theirs)) if theirs else 0
    return _random_soldiers(state, rng, defender, rng.choice(targets), size)


def _random_soldiers(state: dict, rng: random.Random, defender: str, target: str | None, size: int) -> dict:
    cards = _random_unknown(state, rng, 2 * size)
    return {
        "type": "challenge",
        "defender": defender,
        "target": target,
        "soldiers": {"attacker": cards[:size], "defender": cards[size:]},
    }


def _random_end(state: dict, rng: random.Random) -> dict:
    return {"type": "end_turn"}


def _random_free_for_all(state: dict, rng: random.Random) -> dict:
    pending = state["pending"][0]
    on_table = [card for cards in pending["table"].values() for card in cards]
    cards = _random_unknown(state, rng, len(pending["contenders"]), on_table)
    laid = dict(zip(pending["contenders"], cards, strict=True))
    if pending["player"] in laid and rng.random() < 0.6:
        # Lean towards the completing player winning, so random games reach campaigns and the showdown.
        best = max(laid.values(), key=lambda card: battle_rank(parse(card)))
        drawer = laid[pending["player"]]
        laid = {
            p: drawer if card == best else best if p == pending["player"] else card
            for p, card in laid.items()
        }
    return {"type": "free_for_all", "laid": laid}


def _random_replace(state: dict, rng: random.Random) -> dict:
    return {"type": "replace", "card": _random_unknown(state, rng, 1)[0]}


def _random_restock(state: dict, rng: random.Random) -> dict:
    tower = state["campaigns"][state["pending"][0]["player"]]
    return {"type": "restock", "fort": [rng.choice(tower)] + _random_unknown(state, rng, RESTOCK_FORT - 1)}


def _random_showdown(state: dict, rng: random.Random) -> dict:
    show = state["showdown"]
    if _can_share(state):
        return {"type": "share"}
    if show["previous"]:
        return {
            "type": "showdown",
            "laid": {p: rng.sample(line, len(line)) for p, line in show["previous"].items()},
        }
    cards = _random_unknown(state, rng, show["line"] * len(show["players"]))
    line = show["line"]
    return {
        "type": "showdown",
        "laid": {p: cards[i * line : (i + 1) * line] for i, p in enumerate(show["players"])},
    }


_DESCRIBE = {
    "deal": _describe_deal,
    "burn": _describe_burn,
    "start": _describe_start,
    "draw": _describe_draw,
    "fortify": _describe_fortify,
    "challenge": _describe_challenge,
    "replace": _describe_replace,
    "free_for_all": _describe_free_for_all,
    "restock": _describe_restock,
    "end_turn": _describe_end_turn,
    "showdown": _describe_showdown,
    "share": _describe_share,
}
_RANDOM_MAIN = {
    "end": _random_end,
    "fortify": _random_fortify,
    "burn": _random_burn,
    "challenge": _random_challenge,
}
_RANDOM_PHASE = {"deal": _random_deal, "setup": _random_setup, "play": _random_play}
_RANDOM_PENDING = {
    "free_for_all": _random_free_for_all,
    "replace": _random_replace,
    "restock": _random_restock,
    "showdown": _random_showdown,
}
