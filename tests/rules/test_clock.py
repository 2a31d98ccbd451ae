"""The table clock's arithmetic (companion/rules/clock.py): pauses left out of the time in play and
of the thinking time, a pause going on counted up to now, a pause or resume tapped twice kept once."""

from __future__ import annotations

from companion.rules import clock


def at(minute: int, second: int = 0) -> str:
    return f"2026-11-23T20:{minute:02d}:{second:02d}.000+00:00"


def test_a_table_never_paused_is_in_play_from_its_start():
    assert clock.in_play(None, at(0), at(30)) == 1800
    assert not clock.is_paused(None)


def test_pause_and_resume_leave_the_pause_out_of_the_time_in_play():
    paused = clock.pause(None, at(10))
    assert clock.is_paused(paused)
    assert clock.in_play(paused, at(0), at(25)) == 600, "a pause going on counts up to now"
    resumed = clock.resume(paused, at(40))
    assert not clock.is_paused(resumed)
    assert resumed["pauses"] == [[at(10), at(40)]]
    assert clock.in_play(resumed, at(0), at(50)) == 1200
    again = clock.resume(clock.pause(resumed, at(51)), at(52))
    assert clock.in_play(again, at(0), at(55)) == 1200 + 5 * 60 - 60


def test_pausing_twice_keeps_the_first_moment_and_resuming_a_running_clock_changes_nothing():
    paused = clock.pause(None, at(10))
    assert clock.pause(paused, at(12)) is paused
    resumed = clock.resume(paused, at(20))
    assert clock.resume(resumed, at(30)) is resumed
    assert clock.paused_seconds(resumed, at(59)) == 600


def test_thinking_counts_from_the_last_move_without_the_pauses_since():
    kept = clock.resume(clock.pause(None, at(5)), at(15))  # dinner, before and across the move
    assert clock.thinking(kept, at(10), at(20)) == 300, "only the pause after the move is left out"
    assert clock.thinking(kept, at(16), at(20)) == 240
    assert clock.thinking(clock.pause(kept, at(21)), at(16), at(40)) == 300, "paused: it stands still"


def test_a_moment_before_the_start_counts_nothing_negative():
    assert clock.in_play(None, at(30), at(10)) == 0


def test_resuming_keeps_the_per_seat_clock_and_its_player_is_charged_only_the_time_in_play():
    begun = clock.moved(clock.started("chess", 10, 5, at(0)), ("a", "Ola"), at(0))
    resumed = clock.resume(clock.pause(begun, at(2)), at(42))  # forty minutes of dinner on Ola's turn
    assert {key: resumed[key] for key in begun if key not in ("paused_at", "pauses")} == {
        key: begun[key] for key in begun if key not in ("paused_at", "pauses")
    }, "the chess clock outlives the pause"
    assert clock.left(resumed, "a", at(43)) == 600 - 180
    after = clock.moved(resumed, ("b", "Kuba"), at(43))
    assert clock.thinking_times(after, at(50)) == {"Ola": 180, "Kuba": 420}
