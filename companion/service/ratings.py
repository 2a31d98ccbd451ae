"""Ratings and rivalries: each player's skill at each game, with its uncertainty, and who they
beat and lose to, all recomputed from every play in the order the plays ended.

The ratings are openskill's Plackett-Luce model (Weng and Lin's Bayesian approximation), which
rates a play of any number of sides, a side being one player or a team (Castle's pairs, Zamek in
teams): each player starts at 25 ± 8.3, and each play moves its players' ratings by how far its
order of finish surprised the model. A side's place in a play is the rules' say: its winners
first, then the others by their score (the lowest first where the lowest total wins), equal
scores (or no score, at Fort) sharing a place. A play of one side alone (a score pad played
solo) rates nobody.

Since everything is recomputed from the plays, in the order they ended (then by play id), an
import, a merge or an undo gives the ratings the history would have had if those plays had
always been there. The result (a ``Ledger``) is kept per database until a play's result changes,
which a fingerprint of the results tells (``store.results_fingerprint``, one small query): a
hall of phones opening player pages computes it once.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field

from openskill.models import PlackettLuce
from sqlalchemy.engine import Connection

from companion.store.results import Result, every_result, results_fingerprint

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6
RANKED_PLAYS = 3  # plays of a game before a player appears in its ranking: one lucky evening is not a rank
RATING_SCHEMA = {
    "type": ["object", "null"],
    "required": ["mu", "sigma"],
    "properties": {"mu": {"type": "number"}, "sigma": {"type": "number"}},
    "description": "The player's rating at this game just after this play (openskill's Plackett-Luce:"
    " mu the estimate, sigma its uncertainty); null when the play rated nobody (played alone).",
}
DATABASES_KEPT = 8  # ledgers kept: one per database this process reads (one, but in the tests)


@dataclass(frozen=True)
class Rating:
    """A player's skill at a game: ``mu`` (the estimate) and ``sigma`` (how unsure it is), after
    ``plays`` rated plays. ``shown`` is the cautious figure the pages rank by: the skill the player
    has at least, almost surely (mu − 3σ)."""

    mu: float
    sigma: float
    plays: int

    @property
    def shown(self) -> float:
        """The conservative rating: mu − 3σ, which rises both by winning and by playing more."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Rival:
    """A player as another's opponent: plays on opposite sides, the wins of each, and the plays
    one won and the other did not (``beaten``: by the player; ``lost``: to this opponent)."""

    player_id: int
    plays: int
    wins: int
    their_wins: int
    beaten: int
    lost: int


@dataclass
class Ledger:
    """Everything the ratings pages read, computed in one pass over the plays."""

    ratings: dict[str, dict[int, Rating]] = field(default_factory=dict)  # game -> player -> now
    trends: dict[tuple[str, int], list[tuple[str, float, float]]] = field(
        default_factory=lambda: defaultdict(list)
    )  # (game, player) -> (finished, mu, sigma) after each rated play
    after: dict[str, dict[int, tuple[float, float]]] = field(
        default_factory=lambda: defaultdict(dict)
    )  # play -> seat position -> (mu, sigma) after it
    results: dict[int, list[bool]] = field(
        default_factory=lambda: defaultdict(list)
    )  # player -> won, in order
    rivals: dict[int, dict[int, list[int]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0, 0]))
    )  # player -> opponent -> [plays, wins, their wins, beaten, lost]

    def ranking(self, game: str, least: int = RANKED_PLAYS) -> list[tuple[int, Rating]]:
        """A game's players with at least ``least`` rated plays, best first (by the shown rating)."""
        rated = [
            (player, rating) for player, rating in self.ratings.get(game, {}).items() if rating.plays >= least
        ]
        return sorted(rated, key=lambda entry: (-entry[1].shown, entry[0]))

    def player_ratings(self, player_id: int) -> dict[str, Rating]:
        """A player's rating at each game they were rated at."""
        return {game: kept[player_id] for game, kept in self.ratings.items() if player_id in kept}

    def streaks(self, player_id: int) -> tuple[int, int]:
        """(the longest run of plays won in a row, the run going on now), over every rated play."""
        longest = current = 0
        for won in self.results.get(player_id, []):
            current = current + 1 if won else 0
            longest = max(longest, current)
        return longest, current

    def rivals_of(self, player_id: int) -> list[Rival]:
        """Everyone the player met on another side, most plays together first."""
        found = [Rival(other, *counts) for other, counts in self.rivals.get(player_id, {}).items()]
        return sorted(found, key=lambda rival: (-rival.plays, rival.player_id))

    def nemesis(self, player_id: int) -> Rival | None:
        """The opponent who won most often when the player did not (None if nobody ever did)."""
        return _most(self.rivals_of(player_id), lambda rival: rival.lost)

    def favourite_victim(self, player_id: int) -> Rival | None:
        """The opponent the player won against most often (None if they never did)."""
        return _most(self.rivals_of(player_id), lambda rival: rival.beaten)


def compute(results: list[Result]) -> Ledger:
    """The ledger of these results: every seat of every play, the plays in the order they ended
    and each play's seats in the result's order (as ``store.every_result`` gives them)."""
    ledger = Ledger()
    play: list[Result] = []
    for result in results:
        if play and result.play_id != play[0].play_id:
            _rate(ledger, play)
            play = []
        play.append(result)
    if play:
        _rate(ledger, play)
    return ledger


def ledger(conn: Connection) -> Ledger:
    """The ledger of this database's plays as they are now, computed again only when a result changed."""
    key = str(conn.engine.url)
    fingerprint = results_fingerprint(conn)
    kept = _KEPT.get(key)
    if kept is not None and kept[0] == fingerprint:
        return kept[1]
    with _COMPUTING:  # a hall of phones after a change: one computes, the others wait and find it
        kept = _KEPT.get(key)
        if kept is None or kept[0] != fingerprint:
            if len(_KEPT) >= DATABASES_KEPT and key not in _KEPT:
                _KEPT.pop(next(iter(_KEPT)))
            _KEPT[key] = (fingerprint, compute(every_result(conn)))
        return _KEPT[key][1]


_KEPT: dict[str, tuple[tuple, Ledger]] = {}  # database -> (fingerprint, its ledger): only the latest
_COMPUTING = threading.Lock()


def _rate(ledger: Ledger, seats: list[Result]) -> None:
    """Rate one play (its seats, in the result's order) and count its streaks and rivalries."""
    once, seen = [], set()
    for seat in seats:  # a player seated twice (two names merged) plays once, at their first seat
        if seat.player_id not in seen:
            seen.add(seat.player_id)
            once.append(seat)
    sides: dict[object, list[Result]] = {}
    for seat in once:
        sides.setdefault(seat.team if seat.team else ("seat", seat.position), []).append(seat)
    if len(sides) < 2:
        return
    game = once[0].game
    kept = ledger.ratings.setdefault(game, {})
    teams = [
        [
            MODEL.rating(mu=kept[s.player_id].mu, sigma=kept[s.player_id].sigma)
            if s.player_id in kept
            else MODEL.rating()
            for s in side
        ]
        for side in sides.values()
    ]
    rated = MODEL.rate(teams, ranks=_places(list(sides.values()), once[0].lowest_wins))
    for side, new in zip(sides.values(), rated, strict=True):
        for seat, rating in zip(side, new, strict=True):
            before = kept.get(seat.player_id)
            kept[seat.player_id] = Rating(rating.mu, rating.sigma, (before.plays if before else 0) + 1)
            ledger.trends[(game, seat.player_id)].append((seat.finished, rating.mu, rating.sigma))
            ledger.after[seat.play_id][seat.position] = (rating.mu, rating.sigma)
    won = {seat.player_id: any(s.winner for s in side) for side in sides.values() for seat in side}
    side_of = {seat.player_id: key for key, side in sides.items() for seat in side}
    for seat in once:
        ledger.results[seat.player_id].append(won[seat.player_id])
        for other in once:
            if side_of[other.player_id] == side_of[seat.player_id]:
                continue
            counts = ledger.rivals[seat.player_id][other.player_id]
            mine, theirs = won[seat.player_id], won[other.player_id]
            counts[0] += 1
            counts[1] += mine
            counts[2] += theirs
            counts[3] += mine and not theirs
            counts[4] += theirs and not mine


def _places(sides: list[list[Result]], lowest_wins: bool) -> list[int]:
    """Each side's place (0 first): winners first, then by the side's best score, which way the
    play's scores count; equal scores, or none, share a place."""

    def standing(side: list[Result]) -> tuple:
        scores = [seat.score for seat in side if seat.score is not None]
        best = (min(scores) if lowest_wins else max(scores)) if scores else None
        won = any(seat.winner for seat in side)
        if best is None:
            return (not won, 1, 0)
        return (not won, 0, best if lowest_wins else -best)

    order = sorted({standing(side) for side in sides})
    return [order.index(standing(side)) for side in sides]


def _most(rivals: list[Rival], count) -> Rival | None:
    """The rival with the highest ``count`` (more than none), the one met most among equals."""
    best = max(rivals, key=lambda rival: (count(rival), rival.plays, -rival.player_id), default=None)
    return best if best is not None and count(best) > 0 else None


def with_ratings(conn: Connection, plays: list[dict]) -> list[dict]:
    """Plays in the API's or the export's shape (``{"id", "players": [...]}``), each player given
    ``"rating": {"mu", "sigma"}``, their rating at the play's game just after it (None for a play
    that rated nobody, played alone, or a second seat of one player). The same list, for chaining."""
    after = ledger(conn).after
    for play in plays:
        kept = after.get(play["id"], {})
        for position, seat in enumerate(play["players"]):
            rated = kept.get(position)
            seat["rating"] = (
                None if rated is None else {"mu": round(rated[0], 4), "sigma": round(rated[1], 4)}
            )
    return plays
