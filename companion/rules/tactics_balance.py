"""Square Tactics balance: greedy players play many two-player games between every pair of
factions, each faction starting half of them, and the win rate of each pairing is reported
(a draw counts half a win). Wired as ``castellan tactics-balance``; see docs/tactics-balance.md.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from xml.sax.saxutils import escape

from companion.rules import tactics
from companion.rules.errors import RuleError

DEFAULT_GAMES = 1000  # per pairing and seating
BLOCK = 250  # games per unit of work; a unit's seed never depends on --jobs
FAIR_LOW, FAIR_HIGH = 0.40, 0.60
OWN = "~own"  # a faction of one's own among the shipped ones (no shipped id starts with ~)
SIZE = 3
SEATS = ("S", "N")  # player 0 sits S and starts, player 1 sits N
PLAYERS = ("p1", "p2")  # the rules module's names of players 0 and 1
CELLS = tactics.cells(SIZE)  # cell numbers 0-8 are these cells, column then row
VALUES = tuple(tactics.cell_value(cell, SIZE) for cell in CELLS)
OCCUPIED = 1 << 17  # added to a cell's key while a card lies on it (codes stay below 9 * 10,000)
# A player's nine keys in one integer, cell x's at bit 18 x: a key stays below 2 ** 18 and above
# 0, so adding a card's marks to the nine keys at once is adding two integers.
BITS = 18
KEY = (1 << BITS) - 1
AT = tuple(BITS * x for x in range(len(CELLS)))
START = sum(x << at for x, at in enumerate(AT))  # the empty board's keys
LAID = tuple(OCCUPIED << at for at in AT)  # what a card laid on a cell adds to both players' keys of it
GROUP = SIZE * BITS  # one column's three keys, in a player's nine keys
COLUMN = (1 << GROUP) - 1
POSITIONS_KEPT = 32_768  # the positions a side keeps (``_positions``): about 15 MB a side


# --- the board as integer tables, derived once from the rules module ---------------------


def _reach(player: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per cell, the edges a card of ``player`` laid there processes, in order: (its edge,
    the neighbouring cell, the edge of the opponent's card there that faces it)."""
    mine, theirs = SEATS[player], SEATS[1 - player]
    table = []
    for cell in CELLS:
        steps = []
        for edge, direction in enumerate(tactics.ORIENTATION[mine]):
            target = tactics.neighbour(cell, direction, SIZE)
            if target is not None:
                facing = tactics.edge_toward(theirs, tactics.OPPOSITE[direction])
                steps.append((edge, CELLS.index(target), facing))
        table.append(tuple(steps))
    return tuple(table)


REACH = (_reach(0), _reach(1))
# A cell's key, for one player: its number, plus 9 x the facing opponents' numbers as decimal
# digits in processing order (0: no opponent there), plus OCCUPIED while a card lies on it.
# A card laid on cell y changes the key of each cell x next to it by DIGIT x its facing number.
# A play gains less than GAINS: its cell's value, plus 1 and the cell's value per capture.
GAINS = 1 + max(
    VALUES[x] + sum(1 + VALUES[target] for _, target, _ in REACH[0][x]) for x in range(len(CELLS))
)
_DIGITS = tuple(
    tuple(
        tuple(
            (x, 9 * 10**place, facing)
            for x in range(len(CELLS))
            for place, (_, target, facing) in enumerate(REACH[player][x])
            if target == y
        )
        for y in range(len(CELLS))
    )
    for player in (0, 1)
)


def cell_gain(player: int, edges: tuple[int, ...], key: int) -> tuple[int, tuple[int, ...]]:
    """What laying a card with ``edges`` on the empty cell of ``key`` gains ``player`` at once,
    and the cells it captures: the cell's value, plus 1 and the cell's value per capture."""
    gain, captured = VALUES[key % 9], []
    for edge, theirs, target in _facing(player, key):
        if edges[edge] > theirs:
            gain += 1 + VALUES[target]
            captured.append(target)
        elif edges[edge] < theirs:
            break
    return gain, tuple(captured)


def _facing(player: int, key: int) -> list[tuple[int, int, int]]:
    """The opponents' cards that the cell of ``key`` faces, in processing order: (the edge of
    ``player``'s card, the opponent's number that edge meets, the opponent's cell)."""
    code, facing = key // 9, []
    for edge, target, _ in REACH[player][key % 9]:
        theirs, code = code % 10, code // 10
        if theirs:
            facing.append((edge, theirs, target))
    return facing


def position_keys(board: dict, player: int) -> list[int]:
    """The keys of the nine cells for ``player`` (0 sits S, 1 sits N), computed from a board of
    the rules module (``{cell: {"owner": "p1" | "p2", "edges"}}``)."""
    keys = []
    for x, cell in enumerate(CELLS):
        code = 0
        for place, (_, target, facing) in enumerate(REACH[player][x]):
            held = board.get(CELLS[target])
            if held is not None and held["owner"] != PLAYERS[player]:
                code += 10**place * held["edges"][facing]
        keys.append(x + 9 * code + (OCCUPIED if cell in board else 0))
    return keys


class _CellGains(dict):
    """Cell key -> what every card of a side gains there, as one integer: card ``h`` gaining ``g``
    on cell ``x`` sets bit ``g * side.level + x * side.stride + h`` (nothing on an occupied cell).
    Filled on demand, all cards at once: the cards are split into sets that capture alike, one
    facing opponent's card after another (``side.above`` and ``side.below`` say which cards beat
    or stop at a number)."""

    def __init__(self, side: Side):
        super().__init__()
        self.side = side

    def __missing__(self, key: int) -> int:
        side, bits = self.side, 0
        if key < OCCUPIED:
            x = key % 9
            going, stopped = [(side.every, VALUES[x])], []  # (cards, their gain so far)
            for edge, theirs, target in _facing(side.player, key):
                above, below, worth = side.above[edge][theirs], side.below[edge][theirs], 1 + VALUES[target]
                split = []
                for cards, gain in going:
                    if cards & above:
                        split.append((cards & above, gain + worth))
                    if cards & ~above & ~below:
                        split.append((cards & ~above & ~below, gain))
                    if cards & below:
                        stopped.append((cards & below, gain))
                going = split
            base = x * side.stride
            bits = sum(cards << (gain * side.level + base) for cards, gain in going + stopped)
        self[key] = bits
        return bits


class _GroupGains(dict):
    """Three cells' keys (one column of the board: ``GROUP`` bits of a position) -> the sum of their
    cell gains; a position's gains are the sum of its three columns', and columns come back far
    more often than whole positions."""

    def __init__(self, cells: _CellGains):
        super().__init__()
        self.cells = cells

    def __missing__(self, keys: int) -> int:
        cells = self.cells
        gains = self[keys] = cells[keys & KEY] + cells[keys >> BITS & KEY] + cells[keys >> 2 * BITS]
        return gains


def _positions(groups: _GroupGains):
    """A side's nine keys in one integer -> every card's gain on every cell (the sum of the cells'
    ``_CellGains``): the same positions come back game after game (three turns in four), so the
    last ``POSITIONS_KEPT`` are kept, the least recently used forgotten first."""

    @functools.lru_cache(maxsize=POSITIONS_KEPT)
    def gains(keys: int) -> int:
        return groups[keys & COLUMN] + groups[keys >> GROUP & COLUMN] + groups[keys >> 2 * GROUP]

    return gains


class _Captures(dict):
    """``key << 5 | card`` -> the cells that card captures there, filled on demand."""

    def __init__(self, player: int, cards: tuple):
        super().__init__()
        self.player, self.cards = player, cards

    def __missing__(self, packed: int) -> tuple[int, ...]:
        captured = self[packed] = cell_gain(self.player, self.cards[packed & 31], packed >> 5)[1]
        return captured


class Side:
    """One faction in one seat, with what its cards gain and capture on each cell key (cached).

    A position's gains are one integer (see ``_CellGains``): bit ``g * level + x * stride + h``
    is set when card ``h`` gains ``g`` on cell ``x``. So a turn ANDs it with the hand's cards'
    ``cardmask``, the highest bit left gives the best gain, and the bits of that gain, spread by
    hand slot (``spread``), list the equal best plays cell by cell, then in hand order.
    """

    def __init__(self, player: int, cards: tuple[tuple[int, ...], ...]):
        self.player, self.cards = player, cards
        self.stride = max(len(cards), tactics.HAND_SIZE)  # bits per cell in one gain's row
        self.level = len(CELLS) * self.stride  # bits per gain
        self.every = (1 << len(cards)) - 1
        # Per edge and opponent's number, the cards whose edge beats it (above) or is stopped by it (below).
        numbers = range(tactics.MAX_EDGE + 1)
        self.above = tuple(
            tuple(
                sum(1 << card for card, edges in enumerate(cards) if edges[edge] > number)
                for number in numbers
            )
            for edge in range(len(tactics.EDGES))
        )
        self.below = tuple(
            tuple(
                sum(1 << card for card, edges in enumerate(cards) if edges[edge] < number)
                for number in numbers
            )
            for edge in range(len(tactics.EDGES))
        )
        self.cells = _CellGains(self)
        self.positions = _positions(_GroupGains(self.cells))
        self.cardmask = tuple(
            sum(
                1 << (gain * self.level + x * self.stride + card)
                for gain in range(GAINS)
                for x in range(len(CELLS))
            )
            for card in range(len(cards))
        )
        self.spread = sum(1 << (x * self.stride) for x in range(len(CELLS)))  # bit 0 of each cell
        # The play that bit ``b - 1`` of a best gain's row spread by hand slot stands for: (cell, slot).
        self.place = (None, *((x, slot) for x in range(len(CELLS)) for slot in range(self.stride)))
        self.captures = _Captures(player, cards)
        self.deck = list(range(len(cards)))
        # What a card laid on a cell adds to the opponent's keys (its cell's, and those of the
        # cells next to it), as one integer to add to their nine.
        self.marks = tuple(
            tuple(
                LAID[cell]
                | sum(digit * edges[facing] << AT[x] for x, digit, facing in _DIGITS[1 - player][cell])
                for edges in cards
            )
            for cell in range(len(CELLS))
        )
        self.turn = (
            self.positions,
            self.cardmask,
            self.level,
            self.spread,
            self.place,
            self.captures,
            self.marks,
        )

    def gains(self, key: int) -> tuple[int, ...]:
        """What each card gains on the cell of ``key`` (0 where a card lies: a real gain is at least 1)."""
        x, bits = key % 9, self.cells[key]
        return tuple(
            next(
                (gain for gain in range(GAINS) if bits >> (gain * self.level + x * self.stride + card) & 1), 0
            )
            for card in range(len(self.cards))
        )


# --- playing -----------------------------------------------------------------------------


def play_game(sides: tuple[Side, Side], rng: random.Random) -> int:
    """One 3x3 game between greedy players; ``sides[0]`` sits S and starts. Returns its total
    minus the other's (positive: it won).

    Each deck is drawn from at random (a uniform shuffle, drawn card by card). Each turn the
    player lays the card and cell that gain the most points at once; equal best plays are
    listed cell by cell (A1, A2, ... C3), then in hand order, and one is drawn at random.
    A play's gain is exactly what it adds to the difference between the two totals.
    """
    draw = rng.random
    first, second = sides
    decks, hands = (first.deck[:], second.deck[:]), ([], [])
    for deck, hand in zip(decks, hands, strict=True):  # a loop, not a comprehension: no call per game
        for _ in range(tactics.HAND_SIZE):
            hand.append(deck.pop(int(draw() * len(deck))))
    keys = [START, START]  # each player's nine keys (see AT)
    marks = [0] * len(CELLS)  # what the card on each cell added to its opponent's keys
    margin, empty, left = 0, len(CELLS), len(decks[0]) + len(decks[1]) + 2 * tactics.HAND_SIZE
    turns = ((0, 1, 1, hands[0], decks[0], *first.turn), (1, 0, -1, hands[1], decks[1], *second.turn))
    while True:
        for (
            player,
            other,
            sign,
            hand,
            deck,
            positions,
            cardmask,
            level,
            spread,
            place,
            captures,
            side_marks,
        ) in turns:
            if not hand:
                continue  # no card in hand: pass
            mine = keys[player]
            gains = positions(mine)
            try:
                card0, card1, card2 = hand
            except ValueError:  # fewer cards in hand, at the end
                best, plays = _best_plays(gains, hand, cardmask, level, spread)
            else:
                gains &= cardmask[card0] | cardmask[card1] | cardmask[card2]
                best = (gains.bit_length() - 1) // level
                row = gains >> best * level  # bit x * stride + card: that card gains best on cell x
                plays = (row >> card0 & spread) | (row >> card1 & spread) << 1 | (row >> card2 & spread) << 2
            ties = int(draw() * plays.bit_count())
            while ties:
                plays &= plays - 1
                ties -= 1
            cell, index = place[(plays & -plays).bit_length()]
            card = hand.pop(index)
            margin += sign * best
            theirs = keys[other]
            if best != VALUES[cell]:  # something was captured
                for target in captures[(mine >> AT[cell] & KEY) << 5 | card]:
                    empty += 1
                    theirs -= LAID[target]
                    mine -= marks[target]
            marks[cell] = laid = side_marks[cell][card]
            keys[player] = mine + LAID[cell]
            keys[other] = theirs + laid
            if deck:
                hand.append(deck.pop(int(draw() * len(deck))))
            empty -= 1
            left -= 1
            if not empty or not left:
                return margin


def _best_plays(gains: int, hand: list[int], cardmask: tuple, level: int, spread: int) -> tuple[int, int]:
    """``play_game``'s best gain and its plays (bit ``x * stride + slot``) for a hand of any size."""
    mask = 0
    for card in hand:
        mask |= cardmask[card]
    gains &= mask
    best = (gains.bit_length() - 1) // level
    row, plays = gains >> best * level, 0
    for slot, card in enumerate(hand):
        plays |= (row >> card & spread) << slot
    return best, plays


def units(factions: dict[str, dict], games: int, seed: int) -> list[tuple]:
    """The work: for each pairing and seating, blocks of at most BLOCK games, each with its own seed."""
    work = []
    for a, b in combinations(sorted(factions), 2):
        decks = {name: tuple(tuple(card["edges"]) for card in factions[name]["cards"]) for name in (a, b)}
        for seating in (0, 1):
            for block, start in enumerate(range(0, games, BLOCK)):
                count = min(BLOCK, games - start)
                work.append((a, b, seating, decks[a], decks[b], count, f"{seed}/{a}/{b}/{seating}/{block}"))
    return work


def run_unit(unit: tuple) -> tuple[str, str, int, int, int]:
    """Play one unit of work; returns ``(a, b, wins, draws, losses)`` from ``a``'s side."""
    a, b, seating, cards_a, cards_b, count, seed = unit
    rng = random.Random(seed)
    seated = (cards_a, cards_b) if seating == 0 else (cards_b, cards_a)
    sides = (_side(0, seated[0]), _side(1, seated[1]))
    tally = [0, 0, 0]
    for _ in range(count):
        margin = play_game(sides, rng) * (1 if seating == 0 else -1)
        tally[0 if margin > 0 else 2 if margin < 0 else 1] += 1
    return (a, b, *tally)


def balance(factions: dict[str, dict], games: int, seed: int, jobs: int = 1) -> dict[tuple[str, str], dict]:
    """Every pairing of distinct factions, both ways round: ``{(a, b): a's record against b}``.

    ``jobs`` processes share the work; the result is the same whatever ``jobs`` is.
    """
    work = units(factions, games, seed)
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(run_unit, work))
    else:
        results = [run_unit(unit) for unit in work]
    return records(results)


def records(results) -> dict[tuple[str, str], dict]:
    """The records of ``run_unit``'s results, summed per pairing: ``{(a, b): a's record against b}``,
    both ways round."""
    tallies: dict[tuple[str, str], list[int]] = {}
    for a, b, *tally in results:
        total = tallies.setdefault((a, b), [0, 0, 0])
        for index, count in enumerate(tally):
            total[index] += count
    table = {}
    for (a, b), (wins, draws, losses) in tallies.items():
        played = wins + draws + losses
        table[(a, b)] = {
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "games": played,
            "rate": (wins + draws / 2) / played,
        }
        table[(b, a)] = {
            "wins": losses,
            "draws": draws,
            "losses": wins,
            "games": played,
            "rate": (losses + draws / 2) / played,
        }
    return table


def _own_faction(parser: argparse.ArgumentParser, path: str) -> dict:
    """The faction of one's own that the file at ``path`` holds; the parser's error when it cannot be read
    or the rules refuse it (naming the field)."""
    try:
        with open(path, encoding="utf-8") as file:
            return tactics.validate_faction(json.load(file), "faction")
    except RuleError as refused:  # before ValueError, which it is
        parser.error(f"{path}: {refused.field}: {refused}")
    except (OSError, ValueError) as unread:
        parser.error(f"{path}: {unread}")
    raise AssertionError("parser.error exits")


def units_against(own: dict, games: int, seed: int) -> list[tuple]:
    """The work of pitting a faction of one's own (validated: ``tactics.validate_faction``) against
    each shipped faction, ``games`` games per pairing and seating; it is known as ``OWN``."""
    factions = {**tactics.load_factions(), OWN: own}
    return [unit for unit in units(factions, games, seed) if OWN in unit[:2]]


def unfair(table: dict[tuple[str, str], dict]) -> list[tuple[str, str]]:
    """The pairings whose win rate lies outside 40-60%."""
    return [pair for pair, record in table.items() if not FAIR_LOW <= record["rate"] <= FAIR_HIGH]


def render_table(factions: dict[str, dict], table: dict[tuple[str, str], dict]) -> str:
    """A Markdown table: the row faction's win rate (%) against each column faction."""
    ids = sorted(factions)
    lines = [
        "| row vs column | " + " | ".join(factions[i]["name"] for i in ids) + " | mean |",
        "|---" * (len(ids) + 2) + "|",
    ]
    for a in ids:
        rates = [table[(a, b)]["rate"] for b in ids if b != a]
        cells = ["—" if a == b else f"{100 * table[(a, b)]['rate']:.1f}" for b in ids]
        lines.append(
            f"| {factions[a]['name']} | " + " | ".join(cells) + f" | {100 * sum(rates) / len(rates):.1f} |"
        )
    return "\n".join(lines)


def render_svg(factions: dict[str, dict], table: dict[tuple[str, str], dict]) -> str:
    """A heatmap of win rates as an SVG document: rows against columns, 50% white, blue wins, red losses."""
    ids = sorted(factions)
    cell, left, top = 70, 170, 120
    width, height = left + cell * len(ids) + 20, top + cell * len(ids) + 50
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        '<text x="10" y="22" font-size="16">Square Tactics: row faction\'s win rate against column '
        "faction</text>",
    ]
    for index, faction_id in enumerate(ids):
        name = escape(factions[faction_id]["name"])
        x, y = left + cell * index + cell / 2, top + cell * index + cell / 2
        parts.append(
            f'<text x="{x}" y="{top - 8}" text-anchor="start" '
            f'transform="rotate(-35 {x} {top - 8})">{name}</text>'
        )
        parts.append(f'<text x="{left - 8}" y="{y + 4}" text-anchor="end">{name}</text>')
    for row, a in enumerate(ids):
        for column, b in enumerate(ids):
            parts.append(
                _svg_cell(left + cell * column, top + cell * row, cell, None if a == b else table[(a, b)])
            )
    parts.append(
        f'<text x="10" y="{height - 15}">Greedy players, 3x3, each faction starting half the games; '
        "a draw counts half.</text>"
    )
    return "\n".join([*parts, "</svg>", ""])


def main(argv: list[str] | None = None) -> int:
    """Command line: ``castellan tactics-balance [--games N] [--seed S] [--jobs N] [--svg PATH]``."""
    parser = argparse.ArgumentParser(prog="castellan tactics-balance", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per pairing and seating")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random draws and tie breaks")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="processes to play in (default: one per core); the result does not depend on it",
    )
    parser.add_argument("--svg", metavar="PATH", help="also write a heatmap of the win rates as SVG")
    parser.add_argument(
        "--faction",
        metavar="FILE.json",
        help="a faction of your own (the JSON a table takes), played against the shipped ones too",
    )
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    factions = tactics.load_factions()
    if args.faction:
        factions[OWN] = _own_faction(parser, args.faction)
    started = time.perf_counter()
    table = balance(factions, args.games, args.seed, args.jobs)
    elapsed = time.perf_counter() - started
    total = sum(record["games"] for record in table.values()) // 2
    print(render_table(factions, table))
    print(
        f"\n{total} games in {elapsed:.1f} s with {args.jobs} processes (seed {args.seed}); "
        "a draw counts half a win."
    )
    outside = unfair(table)
    print("Every pairing lies within 40-60%." if not outside else f"Outside 40-60%: {outside}")
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as out:
            out.write(render_svg(factions, table))
    return 0 if not outside else 1


@functools.lru_cache(maxsize=16)  # the shipped 4 factions in 2 seats, twice over: each side's caches are MBs
def _side(player: int, cards: tuple) -> Side:
    """The side of these cards in this seat, kept: its caches fill once."""
    return Side(player, cards)


def _svg_cell(x: float, y: float, size: int, record: dict | None) -> str:
    if record is None:
        return f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="#ddd" stroke="white"/>'
    rate = record["rate"]
    shade = min(1.0, abs(rate - 0.5) / 0.2)  # full colour at 30% or 70%
    fade = round(255 * (1 - shade))
    colour = f"rgb({fade},{fade},255)" if rate >= 0.5 else f"rgb(255,{fade},{fade})"
    return (
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{colour}" stroke="white"/>'
        f'<text x="{x + size / 2}" y="{y + size / 2 + 5}" text-anchor="middle">{100 * rate:.1f}%</text>'
    )


if __name__ == "__main__":
    sys.exit(main())
