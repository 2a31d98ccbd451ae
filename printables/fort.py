"""Fort on paper: a quick-reference card and a challenge tracker sheet.

The numbers on both (army cards for a watchtower's top, tries per card) come from the rules
module, so paper and phone cannot disagree. The deck the game is played with is ``printables.deck``.
"""

from __future__ import annotations

from companion.rules import fort
from companion.rules.sentences import N_, Message
from printables import Sheet
from printables.draw import MUTED, SHADE, Document
from printables.layout import Rect

FORTS = 4  # blocks on the tracker: one per player whose fort is challenged
FORT_ROWS = 7  # fort cards per block
ATTACKERS = fort.MAX_PLAYERS - 1
CARD_COLUMN = 30.0  # mm: the fort card's name, and in the head row the fort's owner
BOX = 4.2  # mm: one tick box
HEAD = 8.0  # mm: the head row, the owner's and the attackers' names


def draw_reference(doc: Document) -> None:
    """Two copies of the quick-reference card, one above the other, with a cut line between."""
    doc.two_up(_reference, inset=2.5)


def draw_tracker(doc: Document) -> None:
    """A block per fort: one row per fort card, and for each attacker three boxes to tick per try."""
    content = doc.frame()
    note = 9.0
    block_h = (content.h - note) / FORTS
    for index in range(FORTS):
        top = content.top - index * block_h
        _tracker_block(doc, Rect(content.x, top - block_h + 2, content.w, block_h - 3))
    doc.text_block(
        Rect(content.x, content.y, content.w, note),
        doc.say(
            Message(
                N_(
                    "Tick a box each time an attacker challenges for that card: %(most)s at most. "
                    "Lose the third and the card goes to the barracks, replaced from its top. "
                    "A card that leaves the fort starts again with empty boxes."
                ),
                most=fort.MAX_CHALLENGES,
            )
        ),
        size=8,
        color=MUTED,
    )


def _tracker_block(doc: Document, rect: Rect) -> None:
    """One fort: a head row with its owner's name (shaded) and the attackers' names, then fort cards
    down and attackers across, three boxes in each cell. The owner's name shares the head row, so
    that the rows keep the height of a ruled line for a pencil."""
    attacker_w = (rect.w - CARD_COLUMN) / ATTACKERS
    row_h = (rect.h - HEAD) / FORT_ROWS
    owner = Rect(rect.x, rect.top - HEAD, CARD_COLUMN, HEAD)
    doc.background(owner, SHADE)
    doc.box(owner)
    doc.label(owner.inset(1.5), doc.say(N_("Fort of:")), size=8, bold=True)
    doc.grid(Rect(rect.x, rect.y, CARD_COLUMN, rect.h - HEAD), 1, FORT_ROWS)
    for column in range(ATTACKERS):
        left = rect.x + CARD_COLUMN + column * attacker_w
        doc.box(Rect(left, rect.top - HEAD, attacker_w, HEAD))
        doc.label(
            Rect(left + 1.5, rect.top - HEAD, attacker_w - 3, HEAD),
            doc.say(N_("Attacker:")),
            size=8,
            color=MUTED,
        )
        cells = doc.grid(Rect(left, rect.y, attacker_w, rect.h - HEAD), 1, FORT_ROWS)
        for (cell,) in cells:
            _tries(doc, cell, row_h)


def _tries(doc: Document, cell: Rect, row_h: float) -> None:
    """Three tick boxes centred in a cell, one per try."""
    size = min(BOX, row_h - 1.2)
    gap = 2.0
    width = fort.MAX_CHALLENGES * size + (fort.MAX_CHALLENGES - 1) * gap
    x = cell.cx - width / 2
    for n in range(fort.MAX_CHALLENGES):
        doc.box(Rect(x + n * (size + gap), cell.cy - size / 2, size, size), radius=0.6)


def _reference(doc: Document, rect: Rect) -> float:
    """One quick-reference card: two columns of short rules, in the order a game needs them;
    returns the lowest y its words reach."""
    doc.box(rect, radius=2, width=0.4)
    inner = rect.inset(3.5)
    doc.text(inner.x, inner.top - 4.5, doc.say(N_("Fort: quick reference")), size=12, bold=True)
    gap = 5.0
    column_w = (inner.w - gap) / 2
    columns = [
        (
            Rect(inner.x + column * (column_w + gap), inner.y, column_w, inner.h - 8),
            [(doc.say(head), doc.say(body)) for head, body in sections],
        )
        for column, sections in enumerate((_REFERENCE[:4], _REFERENCE[4:]))
    ]
    return doc.headed_paragraphs(columns, head=8.8, body=8.4, leading=1.25, gap=1.4)


_REFERENCE = (
    (
        N_("Your turn"),
        N_(
            "1. Draw the top card of the barracks into your army (not on a campaign). "
            "2. Move any army cards into your fort; burn at most one card. "
            "3. You may challenge one other player for one card of their fort."
        ),
    ),
    (
        N_("Burning"),
        N_(
            "Put a card of your fort at the bottom of the barracks and draw one into your army: one or two "
            "for a jack, queen, king or ace. Once per turn, and once before the game. No fort, no burning."
        ),
    ),
    (
        N_("A challenge"),
        Message(
            N_(
                "Name the defender and a single card or a watchtower's top. Fight with 1 or 2 soldiers each; "
                "both armies need that many. The top of a double needs %(double)s army cards, "
                "of a triple %(triple)s; a complete watchtower is safe. "
                "At most %(most)s tries per card. No army? The fort is vulnerable: the card is simply taken."
            ),
            double=fort.ARMY_NEEDED[2],
            triple=fort.ARMY_NEEDED[3],
            most=fort.MAX_CHALLENGES,
        ),
    ),
    (
        N_("The battle and the 7 rule"),
        N_(
            "Each side draws the other's soldiers blind; they fight in pairs, aces high. A pair with a 7 "
            "in it always goes to the attacker. The side that wins more pairs wins the battle; equal counts are a draw."
        ),
    ),
    (
        N_("Where the cards go"),
        N_(
            "The winner takes every soldier (a draw sends each home); an attacker who wins takes the card. "
            "Royals and aces that fought go to the bottom of the barracks, unless their owner is on a "
            "campaign. Third try lost: the card goes to the barracks, replaced from its top. Attack without "
            "a fort and lose: you are out."
        ),
    ),
    (
        N_("Free-for-all and campaigns"),
        N_(
            "Draw a watchtower's fourth card: everyone lays one blind army card, highest wins the drawn card "
            "(no 7 rule; ties lay again). Win the free-for-all you started and you go on a campaign: the watchtower is set aside, the "
            "fort joins the army. A campaigner draws nothing and challenges forts; only another campaigner "
            "may fight them, 3 soldiers each, winner keeps all. Empty army: 2 tower cards to the barracks, "
            "1 to the fort, 1 to the army; draw 2 fort cards and 2 army cards."
        ),
    ),
    (
        N_("The showdown"),
        N_(
            "When all are on campaigns, the smallest army is laid in a line (an even count drops its last "
            "card); the others trim from the top to match. Each position's single highest card takes a "
            "trick. Most tricks wins; a tie draws cards equal to each watchtower's rank (royals and aces 10) "
            "and plays again. Tied again: shuffle the same cards and replay. The win is shared only when no "
            "shuffle can separate them."
        ),
    ),
)

SHEETS = [
    Sheet(
        slug="fort-reference",
        kind="reference",
        game="fort",
        title=N_("Fort quick reference"),
        description=N_(
            "Two reference cards: the turn, challenges and the 7 rule, watchtowers, where the cards go, "
            "campaigns and the showdown."
        ),
        draw=draw_reference,
    ),
    Sheet(
        slug="fort-challenge-tracker",
        game="fort",
        title=N_("Fort challenge tracker"),
        description=N_(
            "For each fort card and each attacker, three boxes: tick one per challenge, so nobody tries "
            "a fourth time."
        ),
        draw=draw_tracker,
    ),
]
