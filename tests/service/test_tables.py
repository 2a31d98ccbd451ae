"""The table service alone, without a Flask app or request: every role check and refusal with its
status, code and sentence, the finish rule, and the seat claims of a phone and of a program."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion import store
from companion.rules import castle, forteresse, scorepad, zamek
from companion.rules.errors import RuleError
from companion.service import tables as service
from companion.service.games import Game
from companion.store import db

FORTRESS = {
    "type": "setup",
    "walls": ["F2", "B2", "C3", "E3", "D4", "C5", "E5", "B6", "D6", "E6"],
    "besieged": ["D2", "B4", "F4", "C6", "F6"],
}


def _game(slug: str, rules) -> Game:
    """A game as the service sees it; its readers take the options and actions as they are."""
    return Game(
        slug,
        slug,
        "",
        "",
        0,
        rules=rules,
        table_options=lambda options: options,
        table_action=lambda form, viewer: form,
    )


GAMES = {
    game.slug: game
    for game in map(
        _game, ("scorepad", "forteresse", "zamek", "castle"), (scorepad, forteresse, zamek, castle)
    )
}
OPTIONS = {
    "scorepad": {"players": ["Ola", "Kuba"]},
    "forteresse": {"mode": "phones", "first": "a", "names": {"a": "Ola", "b": "Kuba"}},
    "zamek": {"variant": "extended", "players": ["Red", "Blue"], "teams": True, "deck": zamek.DEFAULT_DECK},
    "castle": {"players": 4, "dealer": "N"},
}


@pytest.fixture
def conn(database):
    store.migrate(database)
    with db.connect(database) as connection:
        yield connection


def _table(conn, slug: str) -> dict[str, store.Link]:
    """A new table of ``slug``'s links by role, and seats by seat."""
    _made, links = service.create(conn, GAMES[slug], OPTIONS[slug])
    return {link.seat or link.role: link for link in links}


def _refused(kind: type, status: int, code: str, sentence: str, change, *args, **kwargs) -> None:
    with pytest.raises(kind) as refused:
        change(*args, **kwargs)
    assert (refused.value.status, refused.value.code, refused.value.message) == (status, code, sentence)
    assert service.status(refused.value) == status


def _moves(conn, link: store.Link) -> list:
    return [entry["action"] for entry in store.history(conn, link.table_id)]


def _link(conn, link: store.Link) -> store.Link:
    """The link as the store has it now (its claim and whether it was opened)."""
    return store.find_link(conn, link.token)


def test_an_unknown_link_or_game_is_no_table(conn):
    _refused(
        service.NoTable,
        404,
        "unknown_table",
        "There is no table behind this link: it may be mistyped.",
        service.open_link,
        conn,
        GAMES,
        "x" * 22,
        service.Program(),
    )
    referee = _table(conn, "scorepad")["referee"]
    _refused(
        service.NoTable,
        404,
        "unknown_table",
        "There is no table behind this link.",
        service.open_table,
        conn,
        {},
        referee.token,
        service.Program(),
    )
    link, table, game = service.open_table(conn, GAMES, referee.token, service.Program())
    assert (link, table.id, game) == (referee, referee.table_id, GAMES["scorepad"])


def test_the_viewer_may_not_act_and_nothing_is_recorded(conn):
    viewer = _table(conn, "scorepad")["viewer"]
    sentence = "This is a viewer's link: it can watch the table but not play on it."
    _refused(service.NotAllowed, 403, "viewer_link", sentence, service.may_act, viewer)
    round_ = {"type": "round", "points": [1, 2]}
    _refused(
        service.NotAllowed,
        403,
        "viewer_link",
        sentence,
        service.act,
        conn,
        viewer,
        GAMES["scorepad"],
        round_,
        0,
    )
    assert _moves(conn, viewer) == []


@pytest.mark.parametrize(
    "change, sentence",
    [
        (lambda conn, link, table, game: service.undo(conn, link, game, 0), "Only the referee can undo."),
        (
            lambda conn, link, table, game: service.finish(conn, link, table, game, 0),
            "Only the referee can finish the table.",
        ),
        (
            lambda conn, link, table, game: service.rematch(conn, link, table, game),
            "Only the referee can start a rematch.",
        ),
        (
            lambda conn, link, table, game: service.release(conn, link, "a"),
            "Only the referee can release a seat.",
        ),
    ],
)
def test_only_the_referee_undoes_finishes_starts_a_rematch_and_releases_a_seat(conn, change, sentence):
    links = _table(conn, "forteresse")
    for link in (links["viewer"], links["a"]):
        table = store.get_table(conn, link.table_id)
        _refused(
            service.NotAllowed, 403, "referee_only", sentence, change, conn, link, table, GAMES["forteresse"]
        )
    assert store.get_table(conn, links["referee"].table_id).version == 0


def test_a_change_without_a_version_is_refused_unless_its_order_does_not_matter(conn):
    referee = _table(conn, "scorepad")["referee"]
    sentence = "Send the version of the table the action was chosen on."
    round_ = {"type": "round", "points": [1, 2]}
    game = GAMES["scorepad"]
    _refused(service.Refusal, 422, "bad_version", sentence, service.act, conn, referee, game, round_, None)
    _refused(service.Refusal, 422, "bad_version", sentence, service.undo, conn, referee, game, None)
    table = store.get_table(conn, referee.table_id)
    _refused(service.Refusal, 422, "bad_version", sentence, service.finish, conn, referee, table, game, None)
    assert service.act(conn, referee, game, round_, 0).version == 1


def test_a_seats_action_is_an_object_and_names_the_phone_that_acts(conn):
    links = _table(conn, "forteresse")
    game = GAMES["forteresse"]
    sentence = "An action is a JSON object naming its type."  # the games here have no action schema
    _refused(service.Refusal, 422, "bad_action", sentence, service.act, conn, links["a"], game, ["setup"], 0)
    service.act(conn, links["a"], game, FORTRESS, 0, member=lambda: ("phone-1", "Ola"))
    service.act(conn, links["b"], game, FORTRESS, 1)  # a program: its own member, else "api"
    assert [(move["member"], move["member_name"]) for move in _moves(conn, links["a"])] == [
        ("api", ""),
        ("phone-1", "Ola"),
    ]


def _stub(finished: bool, over_by_rules: bool, standing_when_stopped: bool):
    """A table and game for the finish rule: the rules' ``result`` as asked."""
    results = {
        False: {"players": []} if over_by_rules else None,
        True: {"players": []} if standing_when_stopped else None,
    }
    table = store.Table("t", "stub", "", {}, 0, 3, 3, {}, "", "", finished_at="now" if finished else None)
    game = Game(
        "stub", "", "", "", 0, rules=SimpleNamespace(result=lambda state, finished: results[finished])
    )
    return table, game


@pytest.mark.parametrize(
    "finished, over_by_rules, standing, over, can_finish",
    [
        (False, False, True, False, True),  # the score pad, still on: the referee finishes it
        (True, False, True, True, False),  # the score pad, finished
        (False, False, False, False, False),  # a game that ends by its rules, on
        (False, True, True, True, False),  # a game its rules ended
    ],
)
def test_the_finish_rule(finished, over_by_rules, standing, over, can_finish):
    table, game = _stub(finished, over_by_rules, standing)
    assert (service.over(table, game), service.can_finish(table, game)) == (over, can_finish)
    assert service.can_finish(table, game, over_now=True) is False


def test_finishing_a_table_that_ends_by_its_rules_is_refused_with_why(conn):
    referee = _table(conn, "castle")["referee"]
    table = store.get_table(conn, referee.table_id)
    _refused(
        service.Refusal,
        422,
        "ends_by_rules",
        "This table ends by the game's own rules: there is nothing to finish.",
        service.finish,
        conn,
        referee,
        table,
        GAMES["castle"],
        0,
    )
    over, game = _stub(False, True, True)
    _refused(
        service.Refusal,
        422,
        "table_finished",
        "This game is already over by its rules: there is nothing to finish.",
        service.finish,
        conn,
        referee,
        over,
        game,
        3,
    )


def test_a_score_pad_is_finished_once_and_a_rematch_waits_for_the_end(conn):
    referee = _table(conn, "scorepad")["referee"]
    game = GAMES["scorepad"]
    table = store.get_table(conn, referee.table_id)
    _refused(
        service.Refusal,
        422,
        "table_not_over",
        "A rematch starts once this table is finished.",
        service.rematch,
        conn,
        referee,
        table,
        game,
    )
    finished = service.finish(conn, referee, table, game, 0)
    assert service.over(finished, game) and service.result(finished, game) is not None
    with pytest.raises(RuleError, match="already finished"):  # the store's own refusal, under the lock
        service.finish(conn, referee, finished, game, finished.version)
    rematch, made = service.rematch(conn, referee, finished, game)
    assert made and rematch.role == "referee"
    assert service.rematch(conn, referee, finished, game) == (rematch, False)


def test_releasing_a_seat_no_one_holds_is_refused(conn):
    links = _table(conn, "forteresse")
    _refused(
        service.Refusal,
        422,
        "seat_not_claimed",
        "That seat is not taken by any phone: there is nothing to release.",
        service.release,
        conn,
        links["referee"],
        "a",
    )


def test_a_phone_claims_the_seat_it_opens_first_and_it_opens_for_no_one_else(conn):
    links = _table(conn, "forteresse")
    game = GAMES["forteresse"]
    ola = service.Phone(lambda: "ola's phone")
    link, _game_ = service.open_link(conn, GAMES, links["a"].token, ola)
    assert link == links["a"]
    seat = _link(conn, links["a"])
    assert seat.joined and seat.claimed_by == store.phone_digest("ola's phone")
    service.open_link(conn, GAMES, links["a"].token, ola)  # again: the same phone
    sentence = (
        "Ola's link is already open on another phone, and it shows that player's secrets there only. "
        "If that phone is lost, the referee can release the seat from the table's page."
    )
    for other in (service.Phone(lambda: "a thief"), service.Program(), service.Program("guessed")):
        _refused(
            service.SeatClaimed,
            403,
            "seat_claimed",
            sentence,
            service.open_link,
            conn,
            GAMES,
            links["a"].token,
            other,
        )
    assert service.opens_unchanged(seat, game, "ola's phone")
    assert not service.opens_unchanged(seat, game, "a thief") and not service.opens_unchanged(
        seat, game, None
    )
    assert not service.opens_unchanged(links["b"], game, "ola's phone")  # never opened: opening it writes
    assert service.opens_unchanged(links["referee"], game, None)


def test_a_program_plays_every_free_seat_and_claims_one_with_a_secret(conn):
    links = _table(conn, "forteresse")
    game = GAMES["forteresse"]
    service.open_link(conn, GAMES, links["b"].token, service.Program())  # free: a program plays it ...
    assert _link(conn, links["b"]).claimed_by is None  # ... and claims nothing by opening it
    secret = service.claim(conn, links["b"], game, service.Program())
    held = _link(conn, links["b"])
    assert held.claimed_by == store.phone_digest(secret) and held.joined
    assert service.claim(conn, held, game, service.Program(secret)) == secret  # asked again: the same
    service.open_link(conn, GAMES, links["b"].token, service.Program(secret))
    for other in (service.Program(), service.Program("guessed"), service.Phone(lambda: "a phone")):
        with pytest.raises(service.SeatClaimed):
            service.open_link(conn, GAMES, links["b"].token, other)
    with pytest.raises(service.SeatClaimed):
        service.claim(conn, held, game, service.Program())
    released = service.release(conn, links["referee"], "b")
    assert released.seat == "b" and _link(conn, links["b"]).claimed_by is None
    service.open_link(conn, GAMES, links["b"].token, service.Program())  # free again


@pytest.mark.parametrize("role", ["referee", "viewer", "p1"])
def test_only_a_players_own_seat_is_claimed(conn, role):
    link = _table(conn, "zamek")[role]  # a team's seat is shared by its phones: never claimed
    sentence = (
        "Only a player's own seat can be claimed: the referee's, the viewer's and a team's links never are."
    )
    _refused(
        service.Refusal,
        422,
        "not_claimable",
        sentence,
        service.claim,
        conn,
        link,
        GAMES["zamek"],
        service.Program(),
    )
    for phone in ("one", "two"):
        service.open_link(conn, GAMES, link.token, service.Phone(lambda phone=phone: phone))
    assert _link(conn, link).claimed_by is None
    assert service.opens_unchanged(_link(conn, link), GAMES["zamek"], None)


def test_the_log_keeps_a_secret_games_actions_out(conn):
    links = _table(conn, "forteresse")
    service.act(conn, links["a"], GAMES["forteresse"], FORTRESS, 0)
    [entry] = service.log(conn, links["viewer"], GAMES["forteresse"])
    assert "action" not in entry and entry["actor"] == "a"
    referee = _table(conn, "scorepad")["referee"]
    service.act(conn, referee, GAMES["scorepad"], {"type": "round", "points": [5, 3]}, 0)
    [entry] = service.log(conn, referee, GAMES["scorepad"])
    assert entry["action"] == {"type": "round", "points": [5, 3]}


LOST, TAKEN = str(service.SEAT_LOST), str(service.SEAT_TAKEN)


def _phone(name: str, claims: bool = True) -> service.Phone:
    return service.Phone(lambda: name, claims)


def test_a_poll_claims_no_seat_and_the_phone_that_lost_its_seat_is_told(conn):
    links = _table(conn, "forteresse")
    game, seat, referee = GAMES["forteresse"], links["b"], links["referee"]
    _refused(  # a poll before the page was opened: nothing is claimed
        service.SeatLost,
        403,
        "seat_lost",
        LOST % {"seat": "Kuba"},
        service.admit,
        conn,
        seat,
        game,
        _phone("wrong", False),
    )
    assert store.find_link(conn, seat.token).claimed_by is None
    service.admit(conn, seat, game, _phone("wrong"))  # the wrong phone opens Kuba's page: it claims it
    held = store.find_link(conn, seat.token)
    service.admit(conn, held, game, _phone("wrong", False))  # and its polls are let in
    service.release(conn, referee, "b")
    freed = store.find_link(conn, seat.token)
    for _poll in range(2):  # its polls claim the freed seat back no more
        _refused(
            service.SeatLost,
            403,
            "seat_lost",
            LOST % {"seat": "Kuba"},
            service.admit,
            conn,
            freed,
            game,
            _phone("wrong", False),
        )
    service.admit(conn, freed, game, _phone("right"))  # the right phone opens it
    taken = store.find_link(conn, seat.token)
    assert taken.claimed_by == store.phone_digest("right")
    _refused(
        service.SeatLost,
        403,
        "seat_lost",
        LOST % {"seat": "Kuba"},
        service.admit,
        conn,
        taken,
        game,
        _phone("wrong", False),
    )
    _refused(
        service.SeatClaimed,
        403,
        "seat_claimed",
        TAKEN % {"seat": "Kuba"},
        service.admit,
        conn,
        taken,
        game,
        _phone("wrong"),
    )


def test_opening_claiming_and_freeing_a_seat_change_what_the_referees_poll_depends_on(conn):
    links = _table(conn, "forteresse")
    game, seat, referee = GAMES["forteresse"], links["b"], links["referee"]
    polled = [store.version_by_token(conn, referee.token)]
    service.admit(conn, seat, game, _phone("kuba"))  # opened and claimed: one new links' version
    polled.append(store.version_by_token(conn, referee.token))
    service.admit(conn, store.find_link(conn, seat.token), game, _phone("kuba"))  # opened again: nothing
    polled.append(store.version_by_token(conn, referee.token))
    service.release(conn, referee, "b")  # freed: a new version for every phone
    polled.append(store.version_by_token(conn, referee.token))
    assert polled == [(0, 0), (0, 2), (0, 2), (1, 3)]
    assert store.version_by_token(conn, seat.token) == (1, 0)  # a seat's poll: the table's version only
    assert store.find_link(conn, seat.token).joined_at is not None


def test_a_rematch_is_offered_to_every_link_with_each_seat_still_its_phones(conn):
    links = _table(conn, "forteresse")
    game, referee = GAMES["forteresse"], links["referee"]
    service.admit(conn, links["a"], game, _phone("ola"))
    table = store.get_table(conn, referee.table_id)
    store.finish(conn, game.rules, table.id, table.version)  # over, for the test: the referee's word
    finished = store.get_table(conn, table.id)
    assert all(service.rematch_offer(conn, link, finished, game) is None for link in links.values())
    made, _new = service.rematch(conn, referee, finished, game)
    after = store.get_table(conn, table.id)
    assert after.version == finished.version + 1  # every phone's next poll draws the offer
    offers = {key: service.rematch_offer(conn, link, after, game) for key, link in links.items()}
    assert offers["referee"] == made
    assert offers["viewer"].role == "viewer" and offers["viewer"].table_id == made.table_id
    for seat in ("a", "b"):
        assert offers[seat].role == "seat" and offers[seat].label == links[seat].label
    assert offers["a"].claimed_by == store.phone_digest("ola")  # still private to Ola's phone
    assert offers["b"].claimed_by is None
    service.admit(conn, offers["a"], game, _phone("ola", False))  # her phone's poll is let in there
    _refused(
        service.SeatClaimed,
        403,
        "seat_claimed",
        TAKEN % {"seat": "Ola"},
        service.admit,
        conn,
        offers["a"],
        game,
        _phone("thief"),
    )
