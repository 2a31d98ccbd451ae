"""Square Tactics balance: greedy players play many two-player games between every pair of
factions, each faction starting half of them, and the win rate of each pairing is reported
(a draw counts half a win). Wired as ``castellan tactics-balance``; see docs/tactics-balance.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import combinations
from xml.sax.saxutils import escape

from companion.rules import tactics

DEFAULT_GAMES = 1000  # per pairing and seating
FAIR_LOW, FAIR_HIGH = 0.40, 0.60
SIZE = 3
SEATS = {"p1": "S", "p2": "N"}
PLAYERS = ("p1", "p2")
_VALUES = {cell: tactics.cell_value(cell, SIZE) for cell in tactics.cells(SIZE)}


def greedy_choice(board: dict, hand: list[list[int]], player: str, rng: random.Random) -> tuple[int, str]:
    """The play (hand index, cell) that gains the most points at once, ties drawn by ``rng``.

    A play gains its cell's value, and 1 plus the cell's value for each card it captures
    (the capture point for the player, the cell lost by the opponent).
    """
    best, choices = -1, []
    empty = [cell for cell in _VALUES if cell not in board]
    for index, edges in enumerate(hand):
        card = {"owner": player, "edges": edges}
        for cell in empty:
            gain = _VALUES[cell] + sum(
                1 + _VALUES[step["cell"]]
                for step in tactics.process(board, SEATS, SIZE, cell, card)
                if step["result"] == "capture"
            )
            if gain > best:
                best, choices = gain, [(index, cell)]
            elif gain == best:
                choices.append((index, cell))
    return rng.choice(choices)


def play_game(first: dict, second: dict, rng: random.Random) -> dict[str, int]:
    """One 3x3 game between greedy players; ``first`` sits S and starts. Returns the totals."""
    decks = {player: [card["edges"] for card in faction["cards"]] for player, faction in zip(PLAYERS, (first, second),
                                                                                              strict=True)}
    hands = {}
    for player, deck in decks.items():
        rng.shuffle(deck)
        hands[player], decks[player] = deck[: tactics.HAND_SIZE], deck[tactics.HAND_SIZE:]
    board, captured, turn = {}, dict.fromkeys(PLAYERS, 0), 0
    while len(board) < SIZE * SIZE and (hands["p1"] or hands["p2"]):
        player = PLAYERS[turn % 2]
        turn += 1
        if not hands[player]:
            continue  # no card in hand: pass
        index, cell = greedy_choice(board, hands[player], player, rng)
        result = tactics.play(board, SEATS, SIZE, cell, {"owner": player, "edges": hands[player].pop(index)})
        board, captured[player] = result["board"], captured[player] + len(result["captured"])
        if decks[player]:
            hands[player].append(decks[player].pop())
    return {player: totals["total"] for player, totals in tactics.score(SIZE, board, captured)["scores"].items()}


def pairing(first: dict, second: dict, games: int, rng: random.Random) -> dict:
    """``games`` games with each faction starting, from ``first``'s side: wins, draws, losses, rate."""
    tally = {"wins": 0, "draws": 0, "losses": 0}
    for seating in range(2):
        for _ in range(games):
            if seating == 0:
                totals = play_game(first, second, rng)
                mine, theirs = totals.get("p1", 0), totals.get("p2", 0)
            else:
                totals = play_game(second, first, rng)
                mine, theirs = totals.get("p2", 0), totals.get("p1", 0)
            tally["wins" if mine > theirs else "losses" if mine < theirs else "draws"] += 1
    played = 2 * games
    return {**tally, "games": played, "rate": (tally["wins"] + tally["draws"] / 2) / played}


def balance(factions: dict[str, dict], games: int, seed: int) -> dict[tuple[str, str], dict]:
    """Every pairing of distinct factions, both ways round: ``{(a, b): a's record against b}``."""
    rng = random.Random(seed)
    table = {}
    for a, b in combinations(sorted(factions), 2):
        record = pairing(factions[a], factions[b], games, rng)
        table[(a, b)] = record
        table[(b, a)] = {"wins": record["losses"], "draws": record["draws"], "losses": record["wins"],
                         "games": record["games"], "rate": 1 - record["rate"]}
    return table


def unfair(table: dict[tuple[str, str], dict]) -> list[tuple[str, str]]:
    """The pairings whose win rate lies outside 40-60%."""
    return [pair for pair, record in table.items() if not FAIR_LOW <= record["rate"] <= FAIR_HIGH]


def render_table(factions: dict[str, dict], table: dict[tuple[str, str], dict]) -> str:
    """A Markdown table: the row faction's win rate (%) against each column faction."""
    ids = sorted(factions)
    lines = ["| row vs column | " + " | ".join(factions[i]["name"] for i in ids) + " | mean |",
             "|---" * (len(ids) + 2) + "|"]
    for a in ids:
        rates = [table[(a, b)]["rate"] for b in ids if b != a]
        cells = ["—" if a == b else f"{100 * table[(a, b)]['rate']:.1f}" for b in ids]
        lines.append(f"| {factions[a]['name']} | " + " | ".join(cells) + f" | {100 * sum(rates) / len(rates):.1f} |")
    return "\n".join(lines)


def render_svg(factions: dict[str, dict], table: dict[tuple[str, str], dict]) -> str:
    """A heatmap of win rates as an SVG document: rows against columns, 50% white, blue wins, red losses."""
    ids = sorted(factions)
    cell, left, top = 70, 170, 120
    width, height = left + cell * len(ids) + 20, top + cell * len(ids) + 50
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             '<text x="10" y="22" font-size="16">Square Tactics: row faction\'s win rate against column '
             'faction</text>']
    for index, faction_id in enumerate(ids):
        name = escape(factions[faction_id]["name"])
        x, y = left + cell * index + cell / 2, top + cell * index + cell / 2
        parts.append(f'<text x="{x}" y="{top - 8}" text-anchor="start" '
                     f'transform="rotate(-35 {x} {top - 8})">{name}</text>')
        parts.append(f'<text x="{left - 8}" y="{y + 4}" text-anchor="end">{name}</text>')
    for row, a in enumerate(ids):
        for column, b in enumerate(ids):
            parts.append(_svg_cell(left + cell * column, top + cell * row, cell, None if a == b else table[(a, b)]))
    parts.append(f'<text x="10" y="{height - 15}">Greedy players, 3x3, each faction starting half the games; '
                 'a draw counts half.</text>')
    return "\n".join([*parts, "</svg>", ""])


def main(argv: list[str] | None = None) -> int:
    """Command line: ``castellan tactics-balance [--games N] [--seed S] [--svg PATH]``."""
    parser = argparse.ArgumentParser(prog="castellan tactics-balance", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per pairing and seating")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random shuffles and tie breaks")
    parser.add_argument("--svg", metavar="PATH", help="also write a heatmap of the win rates as SVG")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    factions = tactics.load_factions()
    started = time.perf_counter()
    table = balance(factions, args.games, args.seed)
    elapsed = time.perf_counter() - started
    total = sum(record["games"] for record in table.values()) // 2
    print(render_table(factions, table))
    print(f"\n{total} games in {elapsed:.1f} s (seed {args.seed}); a draw counts half a win.")
    outside = unfair(table)
    print("Every pairing lies within 40-60%." if not outside else f"Outside 40-60%: {outside}")
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as out:
            out.write(render_svg(factions, table))
    return 0 if not outside else 1


def _svg_cell(x: float, y: float, size: int, record: dict | None) -> str:
    if record is None:
        return f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#ddd" stroke="white"/>'
    rate = record["rate"]
    shade = min(1.0, abs(rate - 0.5) / 0.2)  # full colour at 30% or 70%
    fade = round(255 * (1 - shade))
    colour = f"rgb({fade},{fade},255)" if rate >= 0.5 else f"rgb(255,{fade},{fade})"
    return (f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{colour}" stroke="white"/>'
            f'<text x="{x + size / 2}" y="{y + size / 2 + 5}" text-anchor="middle">{100 * rate:.1f}%</text>')


if __name__ == "__main__":
    sys.exit(main())
