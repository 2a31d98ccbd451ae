"""The balance simulator's fast engine gives what the rules module gives, and --jobs changes nothing."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from companion.rules import tactics, tactics_balance

SEATS = {"p1": "S", "p2": "N"}


def random_cards(rng: random.Random, count: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(rng.randint(1, 9) for _ in range(4)) for _ in range(count))


def rules_gain(board: dict, player: str, cell: str, edges) -> tuple[int, list[str]]:
    """The gain of a play and its captures, from ``tactics.process`` itself."""
    steps = tactics.process(board, SEATS, 3, cell, {"owner": player, "edges": list(edges)})
    captured = [step["cell"] for step in steps if step["result"] == "capture"]
    return tactics.cell_value(cell, 3) + sum(1 + tactics.cell_value(taken, 3) for taken in captured), captured


def reference_game(decks: tuple, rng: random.Random) -> tuple[int, int]:
    """The simulator's game written plainly on the rules module: same draws, same tie order."""
    draw = rng.random
    piles = [list(range(len(cards))) for cards in decks]
    hands = [[pile.pop(int(draw() * len(pile))) for _ in range(tactics.HAND_SIZE)] for pile in piles]
    board, captured, turn = {}, {"p1": 0, "p2": 0}, 0
    while len(board) < 9 and (hands[0] or hands[1]):
        number, turn = turn % 2, turn + 1
        player, hand = tactics_balance.PLAYERS[number], hands[number]
        if not hand:
            continue
        plays = [
            (rules_gain(board, player, cell, decks[number][card])[0], cell, index)
            for cell in tactics.cells(3)
            if cell not in board
            for index, card in enumerate(hand)
        ]
        best = max(gain for gain, _, _ in plays)
        ties = [(cell, index) for gain, cell, index in plays if gain == best]
        cell, index = ties[int(draw() * len(ties))]
        card = {"owner": player, "edges": list(decks[number][hand.pop(index)])}
        result = tactics.play(board, SEATS, 3, cell, card)
        board, captured[player] = result["board"], captured[player] + len(result["captured"])
        if piles[number]:
            hand.append(piles[number].pop(int(draw() * len(piles[number]))))
    scores = tactics.score(3, board, captured)["scores"]
    return scores["p1"]["total"], scores["p2"]["total"]


def test_fast_gains_and_captures_agree_with_the_rules_on_random_positions():
    rng = random.Random(7)
    checked = 0
    for _ in range(3000):
        board = {}
        for cell in rng.sample(tactics.cells(3), rng.randint(0, 8)):
            board[cell] = {"owner": rng.choice(("p1", "p2")), "edges": [rng.randint(1, 9) for _ in range(4)]}
        number = rng.randint(0, 1)
        cards = random_cards(rng, 3)
        side = tactics_balance.Side(number, cards)
        keys = tactics_balance.position_keys(board, number)
        assert sum(side.cells[key].bit_count() for key in keys) == 3 * (9 - len(board))  # one gain per card
        for position, cell in enumerate(tactics.cells(3)):
            if cell in board:
                assert side.gains(keys[position]) == (0, 0, 0)  # no card can be laid there
                continue
            for card, edges in enumerate(cards):
                gain, captured = rules_gain(board, tactics_balance.PLAYERS[number], cell, edges)
                assert side.gains(keys[position])[card] == gain, (board, cell, edges)
                taken = side.captures[keys[position] << 5 | card]
                assert [tactics.cells(3)[target] for target in taken] == captured
                checked += 1
    assert checked > 10_000


def test_whole_fast_games_give_the_totals_of_the_rules_module():
    factions = tactics.load_factions()
    decks = [tuple(tuple(card["edges"]) for card in faction["cards"]) for faction in factions.values()]
    rng = random.Random(3)
    decks += [random_cards(rng, rng.randint(12, 18)) for _ in range(4)]  # any deck, short ones too
    games = 0
    for first in decks:
        for second in decks:
            sides = (tactics_balance.Side(0, first), tactics_balance.Side(1, second))
            for seed in range(12):
                fast = tactics_balance.play_game(sides, random.Random(f"{seed}"))
                first_total, second_total = reference_game((first, second), random.Random(f"{seed}"))
                assert fast == first_total - second_total, (first, second, seed)
                games += 1
    assert games == 64 * 12


def test_the_result_is_the_same_whatever_the_number_of_processes():
    factions = tactics.load_factions()
    games = tactics_balance.BLOCK + 7  # two blocks per pairing and seating, the second a short one
    one = tactics_balance.balance(factions, games, 5, jobs=1)
    assert tactics_balance.balance(factions, games, 5, jobs=2) == one
    assert tactics_balance.balance(factions, games, 5, jobs=3) == one
    assert all(record["games"] == 2 * games for record in one.values())
    assert tactics_balance.balance(factions, games, 6, jobs=1) != one  # the seed matters


def test_jobs_on_the_command_line(capsys):
    assert tactics_balance.main(["--games", "4", "--jobs", "2"]) in (0, 1)
    out = capsys.readouterr().out
    assert "48 games in" in out and "with 2 processes" in out


def test_a_faction_of_your_own_joins_the_table_on_the_command_line(tmp_path, capsys):
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({**tactics.load_factions()["roost"], "name": "Ravens"}), encoding="utf-8")
    assert tactics_balance.main(["--games", "4", "--jobs", "1", "--faction", str(mine)]) in (0, 1)
    out = capsys.readouterr().out
    assert "| Ravens |" in out and "80 games in" in out  # ten pairings now, 8 games each
    mine.write_text(json.dumps({"name": "Empty", "cards": []}), encoding="utf-8")
    with pytest.raises(SystemExit):
        tactics_balance.main(["--games", "4", "--faction", str(mine)])
    assert "faction.cards: A faction has 12 to 18 cards." in capsys.readouterr().err


# Pinned from the simulator as it stood before its engine was rewritten for speed (issue 15):
# the same seeds must give the same tallies and the same game-by-game margins.
PINNED_TALLIES = {
    ("marches", "roost"): (274, 41, 285),
    ("marches", "shieldwall"): (310, 33, 257),
    ("marches", "wardens"): (332, 14, 254),
    ("roost", "shieldwall"): (257, 23, 320),
    ("roost", "wardens"): (297, 33, 270),
    ("shieldwall", "wardens"): (286, 18, 296),
}
PINNED_MARGINS = "708da097e98ee1692b40daf9bae15067920ff027ea1bbf2bc2808c4fa416b074"


def test_tallies_and_margins_are_those_pinned_before_the_engine_was_rewritten():
    factions = tactics.load_factions()
    table = tactics_balance.balance(factions, 300, 1)
    assert {
        pair: (record["wins"], record["draws"], record["losses"])
        for pair, record in table.items()
        if pair[0] < pair[1]
    } == PINNED_TALLIES
    decks = [tuple(tuple(card["edges"]) for card in faction["cards"]) for faction in factions.values()]
    margins = []
    for first in decks:
        for second in decks:
            sides = (tactics_balance.Side(0, first), tactics_balance.Side(1, second))
            rng = random.Random("pin")
            margins += [tactics_balance.play_game(sides, rng) for _ in range(50)]
    assert (len(margins), sum(margins)) == (800, -179)
    assert hashlib.sha256(repr(margins).encode()).hexdigest() == PINNED_MARGINS
