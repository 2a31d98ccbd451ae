"""A Castle table's view works out its piles from the stored names (rules/castle.py, _piles_view):
the same tops, heights, values and colours as ``castle_tops`` and ``values`` give, all game long."""

from __future__ import annotations

import random

from companion.rules import castle


def test_the_views_piles_are_the_castles_tops_and_values_all_game_long():
    checked = 0
    for number, (players, dealer) in enumerate([(4, "N"), (2, "S"), (4, "W")] * 3):
        rng = random.Random(number)
        state = castle.new_table({"players": players, "dealer": dealer}, number)
        while (chosen := castle.random_legal_action(state, rng)) is not None:
            state = castle.apply(state, chosen[1], chosen[0])
            tops = castle.castle_tops(state)
            totals = castle.values(tops) if tops else {}
            assert castle.view(state, "referee")["piles"] == {
                pile: {
                    "top": str(card),
                    "height": len(state["piles"][pile]),
                    "value": totals[pile],
                    "colour": card.colour,
                }
                for pile, card in tops.items()
            }
            checked += bool(tops)
    assert checked > 100
    assert castle.view(castle.new_table({"players": 4, "dealer": "N"}, 1), "referee")["piles"] == {}
