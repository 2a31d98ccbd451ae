"""The table clock's arithmetic, pure: a table's pauses (the referee's Pause and Resume, for dinner),
the time in play they leave, and how long the player to move has been thinking.

A clock is plain JSON, kept beside its table: ``{"paused_at": ISO time or None, "pauses": [[start,
end], ...]}``, the pause going on and those that ended. Times are ISO 8601 with their zone (the
store's: UTC); every function takes the moment it is asked at (``now``): nothing here reads the time.
"""

from __future__ import annotations

from datetime import datetime

NEW = {"paused_at": None, "pauses": []}


def seconds_between(start: str, end: str) -> float:
    """Seconds from ``start`` to ``end`` (never negative: two servers' clocks may disagree a little)."""
    return max(0.0, (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds())


def is_paused(clock: dict | None) -> bool:
    """True while the referee has the table paused."""
    return bool(clock and clock["paused_at"])


def pause(clock: dict | None, now: str) -> dict:
    """The clock paused at ``now`` (a clock paused already stays as it was)."""
    clock = clock or NEW
    return clock if clock["paused_at"] else {**clock, "paused_at": now}


def resume(clock: dict | None, now: str) -> dict:
    """The clock going again at ``now``, its pause kept with the others (a running clock stays)."""
    clock = clock or NEW
    if not clock["paused_at"]:
        return clock
    return {**clock, "paused_at": None, "pauses": [*clock["pauses"], [clock["paused_at"], now]]}


def paused_seconds(clock: dict | None, now: str, since: str = "") -> float:
    """Seconds paused after ``since`` (ISO time; empty: ever) up to ``now``, the pause going on included."""
    clock = clock or NEW
    pauses = [*clock["pauses"], *([[clock["paused_at"], now]] if clock["paused_at"] else [])]
    return sum(seconds_between(max(start, since), min(end, now)) for start, end in pauses if end > since)


def in_play(clock: dict | None, started: str, now: str) -> float:
    """Seconds of play from ``started`` to ``now``: the pauses left out."""
    return max(0.0, seconds_between(started, now) - paused_seconds(clock, now, started))


def thinking(clock: dict | None, turn_began: str, now: str) -> float:
    """How long the player to move has been thinking at ``now``: since ``turn_began`` (the last
    change at the table), less the pauses since."""
    return in_play(clock, turn_began, now)


# The optional per-seat clock chosen at the start, kept in the same JSON: ``kind`` ("turn": a turn
# timer; "chess": a time bank per seat), ``bank`` and ``increment`` (seconds, a chess clock's),
# ``turn_began`` (ISO time) and ``to_move`` (the rules' seat key, or None), and per seat key
# ``used`` (seconds thought over the turns ended), ``added`` (increments and the referee's extra
# time) and ``names`` (as the table shows them).
KINDS = ("turn", "chess")
MOST_MINUTES = 600
MOST_INCREMENT = 600


def started(kind: str, minutes: int, increment: int, now: str) -> dict:
    """A new per-seat clock of ``kind`` at ``now``: nobody to move yet (``moved`` says who is)."""
    chess = kind == "chess"
    return {
        **NEW,
        "kind": kind,
        "bank": minutes * 60 if chess else 0,
        "increment": increment if chess else 0,
        "turn_began": now,
        "to_move": None,
        "used": {},
        "added": {},
        "names": {},
    }


def moved(clock: dict, to_move: tuple[str, str] | None, now: str, increment: bool = True) -> dict:
    """The clock after a change at the table at ``now``: the seat that was to move is charged its
    thinking (and, on a chess clock, given its increment when ``increment``), and ``to_move`` (the
    rules' ``(seat key, name)``, or None) begins thinking."""
    clock = {
        **clock,
        "used": dict(clock["used"]),
        "added": dict(clock["added"]),
        "names": dict(clock["names"]),
    }
    was = clock["to_move"]
    if was is not None:
        clock["used"][was] = clock["used"].get(was, 0.0) + thinking(clock, clock["turn_began"], now)
        if increment and clock["increment"]:
            clock["added"][was] = clock["added"].get(was, 0) + clock["increment"]
    key, name = to_move if to_move else (None, None)
    if key is not None:
        clock["names"][key] = name
    return {**clock, "turn_began": now, "to_move": key}


def add_time(clock: dict, seat: str, seconds: int) -> dict:
    """The chess clock with ``seconds`` more in ``seat``'s bank (the referee's choice)."""
    return {**clock, "added": {**clock["added"], seat: clock["added"].get(seat, 0) + seconds}}


def used(clock: dict, seat: str, now: str) -> float:
    """Seconds ``seat`` has thought in all, its turn going on included, pauses left out."""
    going = thinking(clock, clock["turn_began"], now) if clock["to_move"] == seat else 0.0
    return clock["used"].get(seat, 0.0) + going


def left(clock: dict, seat: str, now: str) -> float:
    """A chess clock's time left in ``seat``'s bank at ``now`` (below 0 once run out)."""
    return clock["bank"] + clock["added"].get(seat, 0) - used(clock, seat, now)


def run_out(clock: dict | None, now: str) -> list[str]:
    """The seats whose chess clock has run out at ``now``, in the order they first moved."""
    if not clock or clock.get("kind") != "chess":
        return []
    return [seat for seat in clock["names"] if left(clock, seat, now) <= 0]


def thinking_times(clock: dict | None, now: str) -> dict[str, int]:
    """Each seat's thinking time in whole seconds at ``now``, by name, for the play kept."""
    if not clock or clock.get("kind") not in KINDS:
        return {}
    return {name: int(used(clock, seat, now)) for seat, name in clock["names"].items()}
