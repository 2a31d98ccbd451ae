"""Score pad: a running score for any game played on paper, shared between phones.

Not one of the five games: a general table tool (and the smallest user of the table
machinery). Players are named at the start, and whether the highest or the lowest total
wins; the referee records points per player per round, and may correct a past round (a
move of its own, undone like any other); totals and the leader follow. No secrets, no chance.
"""

from __future__ import annotations

import random

from companion.rules.errors import RuleError
from companion.rules.sentences import N_, NP_, Message

MIN_PLAYERS = 1
MAX_PLAYERS = 8
MAX_POINTS = 100_000
NAME_LENGTH = 24
# ``apply`` shares with its input what a move leaves unchanged: the store writes only the new parts
# (companion.jsontext).
SHARED_STATES = True


def seats(options: dict) -> list[tuple[str, str]]:
    """The score pad keeps no secrets: no private seats."""
    return []


def new_table(options: dict, seed: int) -> dict:
    """A pad for the named players, round 1, nothing scored."""
    names = options.get("players") if isinstance(options, dict) else None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise RuleError("bad_players", N_("Name the players, one per line."), "players")
    names = [name.strip() for name in names if name.strip()]
    if any(len(name) > NAME_LENGTH for name in names):
        raise RuleError(
            "bad_players", N_("A player's name is at most %(most)s characters."), "players", most=NAME_LENGTH
        )
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(
            "bad_players",
            N_("A score pad takes %(least)s to %(most)s players."),
            "players",
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
        )
    if len(set(names)) != len(names):
        raise RuleError("bad_players", N_("Two players have the same name; tell them apart."), "players")
    lowest_wins = options.get("lowest_wins", False)
    if not isinstance(lowest_wins, bool):
        raise RuleError(
            "bad_lowest_wins", N_("Say whether the lowest total wins: true or false."), "lowest_wins"
        )
    return {
        "players": names,
        "rounds": [],
        "corrected": [],
        "lowest_wins": lowest_wins,
        "seed": seed,
        "first": _first(options.get("first"), names),
    }


def _first(typed: object, names: list[str]) -> int | None:
    """The place of the player who begins, typed as their name (any capitals and spaces); None when
    left empty."""
    if typed is None or (isinstance(typed, str) and not typed.strip()):
        return None
    keys = [" ".join(name.split()).casefold() for name in names]
    key = " ".join(typed.split()).casefold() if isinstance(typed, str) else None
    if key not in keys:
        raise RuleError(
            "bad_first",
            N_("Who begins is one of the players: type their name as in the list, or leave it empty."),
            "first",
        )
    return keys.index(key)


def rematch_options(options: dict, state: dict) -> dict:
    """The options of a new pad: the same players in the same order, and the same way of winning."""
    return dict(options)


def first_player(state: dict) -> int | None:
    """The place of the player the referee said begins, as typed on the start form; None when
    nobody was named."""
    return state.get("first")


def to_move(state: dict) -> tuple[str, str] | None:
    """Nobody: the score pad records rounds, not turns, so its table clock never runs."""
    return None


def round_scores(details: dict) -> tuple[str, list[list[int]]]:
    """A finished pad's points round by round (``details`` is its play's ``play_details``), for the
    history's chart: ``("round", [[points per player] per round])``."""
    return "round", [list(points) for points in details.get("rounds", [])]


def apply(state: dict, action: dict, actor: str) -> dict:
    """Record a round, ``{"type": "round", "points": [int per player]}``, or correct one,
    ``{"type": "correct", "round": n, "points": [...]}`` (round 1 first); the referee only."""
    if actor != "referee":
        raise RuleError("not_referee", N_("Only the referee writes on the score pad."))
    kind = action.get("type") if isinstance(action, dict) else None
    if kind not in ("round", "correct"):
        raise RuleError("unknown_action", N_("The score pad records a round or corrects one."))
    points = _points(state, action.get("points"))
    if kind == "round":
        return {**state, "rounds": [*state["rounds"], points]}
    number = action.get("round")
    played = len(state["rounds"])
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= played:
        raise RuleError(
            "bad_round",
            NP_("Only round %(count)s can be corrected.", "Only rounds 1 to %(count)s can be corrected.")
            if played
            else N_("No round is recorded yet: there is nothing to correct."),
            "round",
            count=played,
        )
    if points == state["rounds"][number - 1]:
        raise RuleError(
            "same_points",
            N_("Round %(round)s already has these points: nothing to correct."),
            "points",
            round=number,
        )
    rounds = [list(row) for row in state["rounds"]]
    rounds[number - 1] = points
    corrected = sorted({*state.get("corrected", []), number})
    return {**state, "rounds": rounds, "corrected": corrected}


def describe(state: dict, action: dict, actor: str, after: dict | None = None) -> Message:
    """The move in words: ``Round 2: Ola 5, Kuba 3.`` or ``Round 2 corrected: Ola 5, Kuba 3.``"""
    scores = ", ".join(
        f"{name} {value}" for name, value in zip(state["players"], action["points"], strict=True)
    )
    if action["type"] == "correct":
        return Message(N_("Round %(round)s corrected: %(scores)s."), round=action["round"], scores=scores)
    return Message(N_("Round %(round)s: %(scores)s."), round=len(state["rounds"]) + 1, scores=scores)


def view(state: dict, viewer: str) -> dict:
    """Everyone sees the whole pad: rounds, totals and who leads (highest or lowest total)."""
    totals = (
        [sum(column) for column in zip(*state["rounds"], strict=True)]
        if state["rounds"]
        else [0] * len(state["players"])
    )
    lowest_wins = state.get("lowest_wins", False)
    best = min(totals) if lowest_wins else max(totals)
    leaders = [name for name, total in zip(state["players"], totals, strict=True) if total == best]
    return {
        "players": state["players"],
        "rounds": state["rounds"],
        "corrected": state.get("corrected", []),
        "totals": totals,
        "lowest_wins": lowest_wins,
        "leaders": leaders if state["rounds"] else [],
        "can_act": viewer == "referee",
    }


def result(state: dict, finished: bool) -> dict | None:
    """Each player's total once the referee has ``finished`` the pad (it has no end of its own), else None.

    The winners are the players the pad shows as leading: highest total, or lowest when chosen.
    """
    if not finished:
        return None
    shown = view(state, "viewer")
    return {
        "players": [
            {"name": name, "score": total, "winner": name in shown["leaders"], "team": None}
            for name, total in zip(state["players"], shown["totals"], strict=True)
        ]
    }


def names(state: dict) -> list[str]:
    """The names typed at the table's start: the pad's players."""
    return list(state["players"])


def play_details(state: dict) -> dict:
    """What the history keeps of a finished pad: each round's points (in the players' order) and
    whether the lowest total won."""
    return {"rounds": [list(points) for points in state["rounds"]], "lowest_wins": bool(state["lowest_wins"])}


def random_legal_action(state: dict, rng: random.Random) -> tuple[str, dict] | None:
    """Any round of small scores, now and then a correction; the pad ends after 12 rounds."""
    if len(state["rounds"]) >= 12:
        return None
    points = [rng.randint(-5, 20) for _ in state["players"]]
    if state["rounds"] and rng.random() < 0.2:
        number = rng.randint(1, len(state["rounds"]))
        if points != state["rounds"][number - 1]:
            return "referee", {"type": "correct", "round": number, "points": points}
    return "referee", {"type": "round", "points": points}


def _points(state: dict, points) -> list[int]:
    """One whole number per player, within bounds, or a RuleError naming the player."""
    players = state["players"]
    if not isinstance(points, list) or len(points) != len(players):
        raise RuleError(
            "bad_points",
            NP_("Give the player's points.", "Give points for each of the %(count)s players."),
            "points",
            count=len(players),
        )
    for name, value in zip(players, points, strict=True):
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_POINTS:
            raise RuleError(
                "bad_points",
                N_("Points for %(name)s must be a whole number (at most %(most)s)."),
                "points",
                name=name,
                most=MAX_POINTS,
            )
    return list(points)
