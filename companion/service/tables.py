"""The table service: who may do what at a table, and each refusal said once, for every door.

The pages (``companion.web.views.tables``) and the JSON API (``companion.api.tables``) both call
it and only turn its answers and refusals into HTML or JSON. It is given what a request carries
as plain values (the database connection, the registry's games, a link's token, who asks) and
reads no request state: nothing of Flask here.

- **Roles.** A link's token decides: the referee's link acts, undoes, finishes, releases a seat
  and starts a rematch; the viewer's only watches; a seat's link is one player's (a team's, when
  the rules say ``TEAM_SEATS``) own view and moves.
- **Seat claims.** A player's seat is claimed by the first phone that opens its page (``Phone``);
  from then on only that phone, or a program holding the claim's secret (``Program``, ``claim``),
  may use the link, until the referee releases the seat. A poll or a move claims nothing
  (``Phone.claims``): the phone whose seat was released is told so (``SeatLost``) on its next poll.
  Before any claim a program may play every seat: the API client that made the table plays them
  all. A team's link is never claimed. A rematch keeps each seat's claim (``store.rematch``).
- **Finishing.** A table is over once its rules end it or its referee finished it (``over``); only
  a game with no end of its own but a standing when stopped (the score pad) can be finished
  (``can_finish``).
- **Refusals** are ``Refusal``, a ``RuleError`` carrying its HTTP ``status``: ``NoTable`` (404),
  ``NotAllowed`` (403; ``SeatClaimed`` for a seat another phone or program holds, ``SeatLost`` for
  a seat this phone no longer holds), else 422. Each
  has its code for programs and its sentence marked with ``N_``. ``status(refused)`` answers any
  refusal, the rules' own (422) included.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, NamedTuple

from companion import store
from companion.rules import clock
from companion.rules.errors import RuleError
from companion.rules.numbers import whole_number
from companion.rules.sentences import N_
from companion.service.games import Game

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

SEAT_TAKEN = N_(
    "%(seat)s's link is already open on another phone, and it shows that player's secrets there only. "
    "If that phone is lost, the referee can release the seat from the table's page."
)


class Refusal(RuleError):
    """A table's refusal: nothing was changed. ``status`` is the HTTP status both doors answer with."""

    status = 422


class NoTable(Refusal):
    """No table behind this link (or its game is not played here)."""

    status = 404


class NotAllowed(Refusal):
    """This link may not do that."""

    status = 403


class SeatClaimed(NotAllowed):
    """A player's seat that another phone (or program) has claimed."""


class SeatLost(SeatClaimed):
    """A player's seat that this phone, polling or moving, no longer holds: the referee released it."""


SEAT_LOST = N_(
    "%(seat)s's seat is no longer open on this phone: the referee freed it for another phone, "
    "so nothing of that player is shown here any more."
)


def status(refused: RuleError) -> int:
    """The HTTP status a refusal is answered with: a ``Refusal``'s own, 422 for the rules' refusals."""
    return refused.status if isinstance(refused, Refusal) else 422


class Phone(NamedTuple):
    """A phone on the pages. ``identity()`` is its browser's secret identity (made when first asked
    for). Opening a seat's page (``claims``) notes it as joined; a player's seat is claimed by the
    first phone to open it, and opens for that phone only. A poll or a move (not ``claims``) is let
    in only where the phone holds the seat already: a seat the referee released is never taken back
    by the tab still open on the phone that lost it."""

    identity: Callable[[], str]
    claims: bool = True

    def holds(self, conn: Connection, link: store.Link, shared: bool) -> bool:
        """Whether this phone may use the seat ``link``, claiming it if no one has and ``claims``
        (``shared``: a team's)."""
        if not self.claims:
            return shared or (
                link.claimed_by is not None and link.claimed_by == store.phone_digest(self.identity())
            )
        store.mark_joined(conn, link)
        return shared or store.claim_seat(conn, link, self.identity())


class Program(NamedTuple):
    """A program through the JSON API, with the claim's secret it sent, if any (``claim``). Opening a
    seat claims nothing: a program may use a seat no one claimed, or the one whose claim it holds."""

    claim: str | None = None

    def holds(self, conn: Connection, link: store.Link, shared: bool) -> bool:
        """Whether this program may use the seat ``link``: shared, claimed by no one, or claimed by it."""
        return shared or link.claimed_by is None or self._claimed(link)

    def _claimed(self, link: store.Link) -> bool:
        return self.claim is not None and store.phone_digest(self.claim) == link.claimed_by


def shared_seats(game: Game) -> bool:
    """True when the game's seats are teams' links, shared by their phones and never claimed."""
    return getattr(game.rules, "TEAM_SEATS", False)


# --- Opening a link --------------------------------------------------------------------------


def open_link(conn: Connection, games: Mapping[str, Game], token: str, who: Phone | Program):
    """``(link, game)``: the link with this token and its table's game, ``who`` let in (``admit``).

    The table itself is not read: a move reads it once, under its lock."""
    found = store.link_and_game(conn, token)
    if found is None:
        raise NoTable("unknown_table", N_("There is no table behind this link: it may be mistyped."))
    link, game = found[0], game_of(games, found[1])
    admit(conn, link, game, who)
    return link, game


def open_table(conn: Connection, games: Mapping[str, Game], token: str, who: Phone | Program):
    """``(link, table, game)``: ``open_link``, and the table as it is now."""
    link, game = open_link(conn, games, token, who)
    return link, store.get_table(conn, link.table_id), game


def game_of(games: Mapping[str, Game], slug: str) -> Game:
    """The game a table is played with; ``NoTable`` for a game not played here."""
    game = games.get(slug)
    if game is None or game.rules is None:
        raise NoTable("unknown_table", N_("There is no table behind this link."))
    return game


def admit(conn: Connection, link: store.Link, game: Game, who: Phone | Program) -> None:
    """Let ``who`` in through ``link``, or ``SeatClaimed``: a referee's or viewer's link lets anyone
    in; a player's seat, its claimer (a phone claims a free seat by opening it). ``SeatLost`` for a
    phone's poll or move at a seat it does not hold."""
    if link.role == "seat" and not who.holds(conn, link, shared_seats(game)):
        if isinstance(who, Phone) and not who.claims:
            raise SeatLost("seat_lost", SEAT_LOST, seat=link.label)
        raise SeatClaimed("seat_claimed", SEAT_TAKEN, seat=link.label)


def opens_unchanged(link: store.Link, game: Game, identity: str | None) -> bool:
    """True when the phone whose browser's identity is ``identity`` (None: it has none yet) is let in
    through ``link`` with nothing to write: any link but a seat's, or a seat opened before that is a
    team's or claimed by this phone. A page kept whole is answered without the database then."""
    if link.role != "seat":
        return True
    if not link.joined:
        return False
    return shared_seats(game) or (identity is not None and link.claimed_by == store.phone_digest(identity))


def claim(conn: Connection, link: store.Link, game: Game, who: Program) -> str:
    """The secret of the claim on a player's seat for a program: a seat no one claimed is claimed now,
    with a fresh secret; a seat this program claimed keeps the secret it sent. ``SeatClaimed`` when
    another holds it; the referee's release frees it again."""
    if link.role != "seat" or shared_seats(game):
        raise Refusal(
            "not_claimable",
            N_(
                "Only a player's own seat can be claimed: the referee's, the viewer's and a team's links never are."
            ),
        )
    admit(conn, link, game, who)
    if link.claimed_by is not None:
        return who.claim  # admitted: the claim is its own
    secret = store.new_token()
    store.mark_joined(conn, link)
    if not store.claim_seat(conn, link, secret):  # another claimed it a moment ago
        raise SeatClaimed("seat_claimed", SEAT_TAKEN, seat=link.label)
    return secret


# --- What a link sees ------------------------------------------------------------------------


def seen(link: store.Link, table: store.Table, game: Game) -> dict:
    """The table as this link may see it: the rules' view for its seat, role or the viewer."""
    return game.rules.view(table.state, link.viewer)


def over(table: store.Table, game: Game) -> bool:
    """True once the table is over: ended by its rules, or finished by its referee."""
    return table.finished or game.rules.result(table.state, False) is not None


def can_finish(table: store.Table, game: Game, over_now: bool | None = None) -> bool:
    """True for a table still on whose game has no end of its own but a standing once finished (the
    score pad); a game that ends by its rules has no result when stopped early, and is not finished.
    ``over_now``: ``over`` of the table, when the caller has it."""
    return (
        not (over(table, game) if over_now is None else over_now)
        and game.rules.result(table.state, True) is not None
    )


def result(table: store.Table, game: Game) -> dict | None:
    """The players' final score once the table is over (the rules' ``result``), else None."""
    return game.rules.result(table.state, table.finished)


def log(conn: Connection, link: store.Link, game: Game) -> list[dict]:
    """The table's log, newest first, in plain words (each entry's ``description``, which never holds a
    secret); an entry's raw ``action`` is left out for a game whose actions may (``SECRET_ACTIONS``:
    a Zamek turn names where a card lies)."""
    entries = store.history(conn, link.table_id)
    if getattr(game.rules, "SECRET_ACTIONS", False):
        for entry in entries:
            entry.pop("action")
    return entries


# --- The moment a move is chosen for ---------------------------------------------------------

# What says which move a form is for: the game of a match, the phase, the step, the player to move.
_MOMENT_KEYS = ("game", "phase", "step", "turn", "over", "match_over")


def moment(state: dict) -> str:
    """A short text naming the moment of ``state`` a move is chosen for (the player to move, the phase,
    the round), carried by every table form: a move refused because the table changed keeps what
    was chosen only while the moment is the same (``moved_on``)."""
    rounds = state.get("rounds")
    parts = [state.get(key) for key in _MOMENT_KEYS] + [len(rounds) if isinstance(rounds, list) else None]
    text = json.dumps(parts, sort_keys=True, default=str).encode()
    return hashlib.blake2s(text, digest_size=6).hexdigest()


def moved_on(sent: object, table: store.Table) -> Refusal | None:
    """The refusal of a move chosen at the moment ``sent`` (``moment``) on a table that has since
    moved on to another (None when it is the same, or when the form named none): what was chosen
    then no longer means the same move, so it is cleared, and this says what changed."""
    if not isinstance(sent, str) or not sent or sent == moment(table.state):
        return None
    player = _to_move(table.state)
    if player:
        return Refusal(
            "moved_on",
            N_("It is now %(player)s's turn: your choices were cleared. Nothing was recorded."),
            player=player,
        )
    return Refusal("moved_on", N_("The game has moved on: your choices were cleared. Nothing was recorded."))


def _to_move(state: dict) -> str | None:
    """The name of the player (or team) to move in ``state``, when the rules name one."""
    names, turn = state.get("names"), state.get("turn")
    if isinstance(names, dict) and isinstance(turn, str):
        return names.get(turn)
    if (
        isinstance(names, list)
        and isinstance(turn, int)
        and not isinstance(turn, bool)
        and 0 <= turn < len(names)
    ):
        return names[turn]
    return None


# --- Changes ---------------------------------------------------------------------------------


def create(
    conn: Connection,
    game: Game,
    options: dict,
    private: bool = False,
    per_seat: tuple[str, int, int] | None = None,
):
    """``(table, links)``: a new table of ``game`` and its links (referee, viewer, the seats), from its
    creation options as typed values (``Game.table_options``; a ``RuleError`` creates nothing), with
    the per-seat clock chosen at the start (``per_seat_clock``)."""
    made = game.table_options(options)
    return store.create_table(
        conn, game.rules, game.slug, made, game.stored_title(made), private, per_seat=per_seat
    )


def per_seat_clock(kind: str, minutes: str, increment: str) -> tuple[str, int, int] | None:
    """The per-seat clock the start form chose: ``kind`` "" (none), "turn" (a turn timer) or "chess"
    (a chess clock of ``minutes`` per seat and ``increment`` seconds per move, as typed); a
    ``RuleError`` for anything else."""
    if kind in ("", "none"):
        return None
    if kind not in clock.KINDS:
        raise RuleError("bad_clock", N_("Choose no clock, a turn timer or a chess clock."), "clock")
    if kind == "turn":
        return ("turn", 0, 0)
    bank = whole_number(minutes, 4)
    if bank is None or not 1 <= bank <= clock.MOST_MINUTES:
        raise RuleError(
            "bad_clock_minutes",
            N_("A chess clock gives each player %(least)s to %(most)s minutes."),
            "clock_minutes",
            least=1,
            most=clock.MOST_MINUTES,
        )
    extra = 0 if not increment.strip() else whole_number(increment, 4)
    if extra is None or extra > clock.MOST_INCREMENT:
        raise RuleError(
            "bad_clock_increment",
            N_("The increment is 0 to %(most)s seconds per move, or left empty."),
            "clock_increment",
            most=clock.MOST_INCREMENT,
        )
    return ("chess", bank, extra)


def can_act(link: store.Link) -> bool:
    """True for a link that may act: the referee's and a seat's, not the viewer's."""
    return link.role != "viewer"


def may_act(link: store.Link) -> None:
    """``NotAllowed`` for a link that may not act (``can_act``)."""
    if not can_act(link):
        raise NotAllowed(
            "viewer_link", N_("This is a viewer's link: it can watch the table but not play on it.")
        )


def may_delete_play(conn: Connection, link: store.Link | None, play_id: str) -> bool:
    """True when ``link`` is the referee's link of the table that became this play: its referee may
    take the play out of the history (an imported play has no table here, so no referee)."""
    if link is None or link.role != "referee":
        return False
    return store.table_of_play(conn, play_id) == link.table_id


def act(
    conn: Connection,
    link: store.Link,
    game: Game,
    action: object,
    version: int | None,
    once: store.Once | None = None,
    member: Callable[[], tuple[str, str]] | None = None,
) -> store.Table:
    """Apply one action made on ``version`` through ``link``: the table after it.

    The action is held to the game's schema first (``Game.checked_action``), whoever made it. A
    seat's action names the phone of the seat that acts: ``member()``, a phone's identity and its
    player's name; without it, the action's own (a program names its team's phone), else "api".
    ``version`` may be None only for an action the rules take in any order (``store.order_free``).
    Raises as ``store.act`` does, and ``Refusal``.
    """
    may_act(link)
    action = game.checked_action(action)
    if link.role == "seat":
        action = _at_seat(action, member)
    version = None if store.order_free(game.rules, action) else _sent(version)
    return store.act(conn, game.rules, link.table_id, link.viewer, action, version, once)


def _at_seat(action: object, member: Callable[[], tuple[str, str]] | None) -> dict:
    """A seat's action with the phone that acts at the seat."""
    if not isinstance(action, dict):
        raise Refusal("bad_action", N_("An action is a JSON object naming its type."), "action")
    if member is None:
        return {
            **action,
            "member": action.get("member") or "api",
            "member_name": action.get("member_name", ""),
        }
    phone, name = member()
    return {**action, "member": phone, "member_name": name}


def undo(
    conn: Connection, link: store.Link, game: Game, version: int | None, once: store.Once | None = None
) -> store.Table:
    """The referee takes back the last entry still in force (undoing a finish reopens the table)."""
    if link.role != "referee":
        raise NotAllowed("referee_only", N_("Only the referee can undo."))
    return store.undo(conn, game.rules, link.table_id, _sent(version), once)


def finish(
    conn: Connection,
    link: store.Link,
    table: store.Table,
    game: Game,
    version: int | None,
    once: store.Once | None = None,
) -> store.Table:
    """The referee finishes ``table`` (as read before the change), which ``can_finish``: its standing
    becomes the final score. A table finished already is refused by the store, under its lock."""
    if link.role != "referee":
        raise NotAllowed("referee_only", N_("Only the referee can finish the table."))
    version = _sent(version)
    if not table.finished and not can_finish(table, game):
        if over(table, game):
            raise Refusal(
                "table_finished", N_("This game is already over by its rules: there is nothing to finish.")
            )
        raise Refusal(
            "ends_by_rules", N_("This table ends by the game's own rules: there is nothing to finish.")
        )
    return store.finish(conn, game.rules, table.id, version, once)


def rematch(conn: Connection, link: store.Link, table: store.Table, game: Game) -> tuple[store.Link, bool]:
    """From a table that is over, the referee's link to its rematch (the same options and players, the
    seats rotated as the rules say who starts next), and whether it was made now: the first call
    makes it, every later one finds it. Each player's seat stays claimed by the phone that held it,
    and every phone of the finished table is offered the rematch (``rematch_offer``)."""
    if link.role != "referee":
        raise NotAllowed("referee_only", N_("Only the referee can start a rematch."))
    if not over(table, game):
        raise Refusal("table_not_over", N_("A rematch starts once this table is finished."))
    options = game.rules.rematch_options(table.options, table.state)
    return store.rematch(conn, game.rules, table.id, options, game.stored_title(options))


def rematch_offer(conn: Connection, link: store.Link, table: store.Table, game: Game) -> store.Link | None:
    """The link of the rematch offered to ``link``'s holder on the finished ``table``: the same role's,
    for a player's seat the same player's seat (claimed by the same phone), or None while no
    rematch was started (or the table is not over)."""
    if not over(table, game):
        return None
    return store.rematch_link(conn, table.id, link)


def release(conn: Connection, link: store.Link, seat: str) -> store.Link:
    """The referee frees a player's seat whose phone is lost: the next phone to open its link takes it
    (and a program's claim on it ends). The released seat's link."""
    if link.role != "referee":
        raise NotAllowed("referee_only", N_("Only the referee can release a seat."))
    try:
        return store.release_seat(conn, link.table_id, seat)
    except KeyError:
        raise Refusal(
            "seat_not_claimed", N_("That seat is not taken by any phone: there is nothing to release.")
        ) from None


def set_paused(conn: Connection, link: store.Link, paused: bool) -> bool:
    """The referee pauses (``paused``) or resumes the table's clock, for dinner: the time paused is left
    out of the play's length. False when the table was so already (a second tap changes nothing)."""
    if link.role != "referee":
        raise NotAllowed("referee_only", N_("Only the referee can pause or resume the table."))
    return store.set_paused(conn, link.table_id, paused)


def add_time(conn: Connection, link: store.Link, seat: str, minutes: str) -> None:
    """The referee gives a seat more minutes on the table's chess clock, as typed (1 to 60)."""
    if link.role != "referee":
        raise NotAllowed("referee_only", N_("Only the referee can add time."))
    added = whole_number(minutes, 3)
    if added is None or not 1 <= added <= 60:
        raise Refusal("bad_minutes", N_("Add %(least)s to %(most)s minutes."), "minutes", least=1, most=60)
    if not store.add_time(conn, link.table_id, seat, added):
        raise Refusal("no_chess_clock", N_("This table has no chess clock for that player."), "seat")


def _sent(version: int | None) -> int:
    """The version a change was chosen on; a change sent without one is refused."""
    if version is None:
        raise Refusal("bad_version", N_("Send the version of the table the action was chosen on."), "version")
    return version
