"""Send to BG Stats: the link a finished play's page and a table's end offer (``bgstats_link``),
built by ``service.bgstats_link`` as BG Stats documents it. A plain link: the phone opens BG Stats
with the play; this server never contacts BG Stats."""

from __future__ import annotations

from flask import Blueprint

from companion import store
from companion.http.context import registry
from companion.service import bgstats_link

bp = Blueprint("bgstats", __name__)


@bp.app_template_global("bgstats_link")
def play_link(play: store.Play) -> str:
    """The "Send to BG Stats" address of a play (its game named in English, as BG Stats' file has it)."""
    game = registry().games.get(play.game)
    return bgstats_link.link(play, str(game.name) if game else play.game, play.seconds)
