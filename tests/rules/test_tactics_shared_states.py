"""Square Tactics' ``apply`` shares with the state it was given every list a move leaves unchanged
(the store then reuses their JSON text, companion/jsontext.py) and never changes that state: a kept
state is what the next move, the undo and every phone's answer are made from."""

from __future__ import annotations

import copy
import random

import pytest

from companion.rules import tactics

PER_PLAYER = ("unplayed", "hands", "captured", "set_aside")


def _table(players: int, seed: int) -> dict:
    ids = sorted(tactics.load_factions())
    factions = {f"p{n + 1}": ids[n % len(ids)] for n in range(players)}
    return tactics.new_table({"players": players, "factions": factions}, seed)


@pytest.mark.parametrize("seed", range(8))
def test_a_move_leaves_the_state_before_untouched_and_shares_what_it_does_not_change(seed):
    rng = random.Random(f"shared {seed}")
    state = _table(rng.choice([2, 4]), seed)
    plays = 0
    while (choice := tactics.random_legal_action(state, rng)) is not None:
        actor, action = choice
        before = copy.deepcopy(state)
        after = tactics.apply(state, action, actor)
        assert state == before, f"{action} changed the state it was given"
        if action["type"] == "next_game":
            state = after
            continue
        # A play changes the mover's lists (and no other's); a hand, only that player's hand.
        changed = state["turn"] if action["type"] == "play" else action["player"]
        for key in PER_PLAYER:
            for player in state["players"]:
                if player != changed or (
                    action["type"] == "play" and after[key][player] == state[key][player]
                ):
                    assert after[key][player] is state[key][player], (action, key, player)
        if "edges" not in action or len(after["cards"]) == len(state["cards"]):  # else a new typed card
            assert after["cards"] is state["cards"], action
        if not after["over"]:
            assert after["results"] is state["results"] and after["totals"] is state["totals"]
        plays += action["type"] == "play"
        state = after
    assert state["match_over"] and plays > 20
