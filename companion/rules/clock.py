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
    return {"paused_at": None, "pauses": [*clock["pauses"], [clock["paused_at"], now]]}


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
