"""What one address may import: plays and new players per file and per hour (``ImportBounds``),
counted in the ``rate_limits`` table before the work, in one short write of its own, so that two
imports at once cannot both pass the bound, and a refused file counts nothing.

The hour is a fixed window per address and kind, as the ``limits`` storage keeps its minutes
(``store.limits``): keys of their own (``imported-plays/192.0.2.7``), in the same table.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy.engine import Connection

from companion.rules.errors import RuleError
from companion.rules.sentences import NP_
from companion.store import base, limits

HOUR = 3600.0


@dataclass(frozen=True)
class ImportBounds:
    """How much one file, and one address in an hour, may bring: plays, and players new to this server."""

    plays_per_file: int = 5_000
    players_per_file: int = 500
    plays_per_hour: int = 20_000
    players_per_hour: int = 1_000

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> ImportBounds:
        """The bounds the environment sets (``CASTELLAN_IMPORT_PLAYS_PER_FILE`` …, see ``SETTINGS``),
        the defaults for the others; ``ValueError`` in one sentence for a setting that is not a
        whole number of 1 or more."""
        chosen = {}
        for field, variable in SETTINGS.items():
            text = environ.get(variable, "").strip()
            if not text:
                continue
            if not (text.isascii() and text.isdigit() and int(text) >= 1):
                raise ValueError(f"{variable} must be a whole number of 1 or more, not {text[:40]!r}.")
            chosen[field] = int(text)
        return cls(**chosen)


# Each bound's setting: the environment variable that sets it, and its config key.
SETTINGS = {
    "plays_per_file": "CASTELLAN_IMPORT_PLAYS_PER_FILE",
    "players_per_file": "CASTELLAN_IMPORT_PLAYERS_PER_FILE",
    "plays_per_hour": "CASTELLAN_IMPORT_PLAYS_PER_HOUR",
    "players_per_hour": "CASTELLAN_IMPORT_PLAYERS_PER_HOUR",
}


class OverQuota(RuleError):
    """A file that would take this address past an hour's bound: ``retry_after`` seconds until the
    hour's window ends (the API's Retry-After)."""

    def __init__(self, code: str, message, retry_after: int, **params):
        super().__init__(code, message, "plays", **params)
        self.retry_after = retry_after


def check_file(bounds: ImportBounds, new_players: int) -> None:
    """Refuse (``RuleError``) a file that would add more new players than one file may."""
    if new_players > bounds.players_per_file:
        raise RuleError(
            "too_many_new_players",
            NP_(
                "This file would add %(count)s new player; one import adds at most %(most)s.",
                "This file would add %(count)s new players; one import adds at most %(most)s.",
            ),
            "plays",
            count=new_players,
            most=bounds.players_per_file,
        )


def take(conn: Connection, bounds: ImportBounds, address: str, plays: int, players: int) -> None:
    """Count ``plays`` and ``players`` (new ones) against this address's hour, or refuse the file
    (``OverQuota``) and count nothing: in one write transaction, so imports at once count in turn."""
    now = time.time()
    with base.write(conn):
        for kind, amount, most in (
            ("plays", plays, bounds.plays_per_hour),
            ("players", players, bounds.players_per_hour),
        ):
            if not amount:
                continue
            used, ends = limits.add_hits(conn, f"imported-{kind}/{address}", amount, HOUR, now)
            if used > most:  # raised inside the transaction: rolled back, nothing counted
                raise _over(kind, amount, most - (used - amount), most, math.ceil(ends - now))


def _over(kind: str, count: int, left: int, most: int, retry_after: int) -> OverQuota:
    """The refusal of a file that would pass this hour's bound of ``kind``."""
    if kind == "plays":
        message = NP_(
            "This file would add %(count)s play, but this address may import only %(left)s more this hour (%(most)s an hour). Try again later, or import a smaller file.",
            "This file would add %(count)s plays, but this address may import only %(left)s more this hour (%(most)s an hour). Try again later, or import a smaller file.",
        )
    else:
        message = NP_(
            "This file would add %(count)s new player, but this address may add only %(left)s more this hour (%(most)s an hour). Try again later.",
            "This file would add %(count)s new players, but this address may add only %(left)s more this hour (%(most)s an hour). Try again later.",
        )
    return OverQuota(
        f"too_many_{kind}_this_hour",
        message,
        max(1, retry_after),
        count=count,
        left=max(0, left),
        most=most,
    )
