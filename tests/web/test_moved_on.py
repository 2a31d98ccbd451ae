"""A move refused because the table changed keeps what was chosen only while it means the same move:
chosen for a turn, phase or round that has passed, it is cleared and the refusal says what changed."""

from __future__ import annotations

import re

from tests.conftest import text
from tests.web.test_forteresse import KUBA, OLA, _act, _marks, _table

_MOMENT = re.compile(r'name="moment" value="([0-9a-f]+)"')
SHOT = {"type": "shot", "from": "G2", "direction": "W", "weapon": "cannon"}


def test_a_shot_refused_on_the_next_players_turn_is_cleared_and_says_whose_turn_it_is(browser, other_browser):
    token, links = _table(browser)
    assert _act(browser, links["Ola"], {"type": "setup", **_marks(OLA)}).status_code == 303
    assert _act(other_browser, links["Kuba"], {"type": "setup", **_marks(KUBA)}).status_code == 303
    # The referee's screen, on Ola's shot.
    seen = text(browser.get(f"/t/{token}"))
    moment = _MOMENT.search(seen).group(1)
    assert "Ola's turn to shoot." in seen
    assert _act(browser, links["Ola"], SHOT).status_code == 303
    late = browser.post(f"/t/{token}/act", {"version": "2", "moment": moment, **SHOT}, htmx=True)
    answer = text(late)
    assert late.status_code == 409
    assert "It is now Kuba's turn: your choices were cleared. Nothing was recorded." in answer
    # Nothing of the refused shot is chosen: the same choices as on a fresh screen of Kuba's turn.
    fresh = text(browser.get(f"/t/{token}"))
    page_only = 'id="awake-switch"'  # the screen-lock switch is the page's, never a move's answer's
    assert _chosen(answer) == [tag for tag in _chosen(fresh) if page_only not in tag]
    assert not any(tag for tag in _chosen(answer) if 'value="G2"' in tag)


def _chosen(page: str) -> list[str]:
    """The inputs drawn chosen (checked), without their tokens."""
    return sorted(tag for tag in re.findall(r"<input[^>]*>", page) if re.search(r"\bchecked\b", tag))


def test_a_move_refused_at_the_same_moment_keeps_what_was_chosen(browser):
    """Another round recorded meanwhile: the score pad's typed points were for the round that passed."""
    token = browser.create_table("scorepad", {"players": "Ola\nKuba"})
    moment = _MOMENT.search(text(browser.get(f"/t/{token}"))).group(1)
    assert (
        browser.post(f"/t/{token}/act", {"version": "0", "moment": moment, "points": ["3", "4"]}).status_code
        == 303
    )
    late = browser.post(
        f"/t/{token}/act", {"version": "0", "moment": moment, "points": ["7", "8"]}, htmx=True
    )
    assert late.status_code == 409
    assert "The game has moved on: your choices were cleared. Nothing was recorded." in text(late)
    assert 'value="7"' not in text(late)
    # A form that names no moment (sent by an older page) keeps its choices, as before.
    kept = browser.post(f"/t/{token}/act", {"version": "0", "points": ["7", "8"]}, htmx=True)
    assert kept.status_code == 409 and 'value="7"' in text(kept)
