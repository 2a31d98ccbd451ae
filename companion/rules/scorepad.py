"""Score pad: a running score for any game played on paper, shared between phones.

Not one of the five games: a general table tool (and the smallest user of the table
machinery). Players are named at the start; the referee records points per player per
round; totals and the leader follow. No secrets, no chance.
"""

from __future__ import annotations

import random

from companion.rules.errors import RuleError

MIN_PLAYERS = 1
MAX_PLAYERS = 8
MAX_POINTS = 100_000
MAX_NAME = 24


def seats(options: dict) -> list[tuple[str, str]]:
    """The score pad keeps no secrets: no private seats."""
    return []


def new_table(options: dict, seed: int) -> dict:
    """A pad for the named players, round 1, nothing scored."""
    names = options.get("players") if isinstance(options, dict) else None
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise RuleError("bad_players", "Name the players, one per line.", "players")
    names = [name.strip() for name in names if name.strip()]
    if any(len(name) > MAX_NAME for name in names):
        raise RuleError("bad_players", f"A player's name is at most {MAX_NAME} characters.", "players")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(
            "bad_players", f"A score pad takes {MIN_PLAYERS} to {MAX_PLAYERS} players.", "players"
        )
    if len(set(names)) != len(names):
        raise RuleError("bad_players", "Two players have the same name; tell them apart.", "players")
    return {"players": names, "rounds": [], "seed": seed}


def apply(state: dict, action: dict, actor: str) -> dict:
    """Record a round: ``{"type": "round", "points": [int per player]}`` (referee only)."""
    if actor != "referee":
        raise RuleError("not_referee", "Only the referee writes on the score pad.")
    if not isinstance(action, dict) or action.get("type") != "round":
        raise RuleError("unknown_action", "The score pad only records rounds.")
    points = action.get("points")
    players = state["players"]
    if not isinstance(points, list) or len(points) != len(players):
        raise RuleError("bad_points", f"Give points for each of the {len(players)} players.", "points")
    for name, value in zip(players, points, strict=True):
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_POINTS:
            raise RuleError(
                "bad_points", f"Points for {name} must be a whole number (at most {MAX_POINTS:,}).", "points"
            )
    return {**state, "rounds": [*state["rounds"], list(points)]}


def describe(state: dict, action: dict, actor: str) -> str:
    """The round in words: ``Round 2: Ola 5, Kuba 3.``"""
    number = len(state["rounds"]) + 1
    scores = ", ".join(
        f"{name} {value}" for name, value in zip(state["players"], action["points"], strict=True)
    )
    return f"Round {number}: {scores}."


def view(state: dict, viewer: str) -> dict:
    """Everyone sees the whole pad: rounds, totals and who leads."""
    totals = (
        [sum(column) for column in zip(*state["rounds"], strict=True)]
        if state["rounds"]
        else [0] * len(state["players"])
    )
    best = max(totals)
    leaders = [name for name, total in zip(state["players"], totals, strict=True) if total == best]
    return {
        "players": state["players"],
        "rounds": state["rounds"],
        "totals": totals,
        "leaders": leaders if state["rounds"] else [],
        "can_act": viewer == "referee",
    }


def result(state: dict, finished: bool) -> dict | None:
    """Each player's total once the referee has ``finished`` the pad (it has no end of its own), else None."""
    if not finished:
        return None
    totals = view(state, "viewer")["totals"]
    best = max(totals) if state["rounds"] else None
    return {
        "players": [
            {"name": name, "score": total, "winner": total == best, "team": None}
            for name, total in zip(state["players"], totals, strict=True)
        ]
    }


def random_legal_action(state: dict, rng: random.Random) -> tuple[str, dict] | None:
    """Any round of small scores; the pad ends after 12 rounds for the random-game test."""
    if len(state["rounds"]) >= 12:
        return None
    return "referee", {"type": "round", "points": [rng.randint(-5, 20) for _ in state["players"]]}
