"""What the table needs on paper: the list of every sheet, and each sheet as a PDF."""

from __future__ import annotations

import io
from itertools import groupby

from flask import Blueprint, abort, current_app, render_template, request, send_file
from flask_babel import gettext

import printables
from companion.http import security
from companion.http.context import registry
from companion.http.requests import printed_base_url
from companion.i18n import lang_for_print
from companion.rules.sentences import N_
from companion.web.pdf_cache import Busy, SheetCache
from printables.draw import QRTooLarge
from printables.layout import DUPLEX, PAPER_NAMES

bp = Blueprint("printing", __name__)
QR_TOO_LONG = N_(
    "The address %(address)s is too long for a sheet's QR code to scan. "
    "Open Castellan by a shorter address, or set CASTELLAN_BASE_URL to one."
)


@bp.get("/print")
def index():
    """Every sheet of every game, with a link per paper (a mat's says how many pages) and the printing options."""
    order = {game.slug: game.order for game in registry().ordered()}
    sheets = sorted(printables.all_sheets(), key=lambda sheet: order.get(sheet.game, 1000))
    by_game = [(game, list(group)) for game, group in groupby(sheets, key=lambda sheet: sheet.game)]
    options = {
        key: value
        for key, value in (("ink", "saver"), ("duplex", "short"), ("back", "rich"))
        if request.args.get(key) == value
    }
    return render_template(
        "print/page.html",
        by_game=by_game,
        paper_names=PAPER_NAMES,
        options=options,
        edge=options.get("duplex", "long"),
        address=printed_base_url() + "/",
    )


@bp.get("/print/<slug>.pdf")
@security.limited("pdfs")
def sheet(slug: str):
    """One sheet as a PDF: ``?paper=a4|letter`` (a mat also ``a3|tabloid``), ``&ink=saver``,
    ``&duplex=long|short``, ``&back=rich``, ``&lang=en|fr|pl`` (else the page's language); its
    QR codes carry ``printed_base_url``."""
    try:
        chosen = printables.get_sheet(slug)
    except KeyError:
        abort(404)
    paper = request.args.get("paper", "a4")
    duplex = request.args.get("duplex", "long")
    if paper not in chosen.papers or duplex not in DUPLEX:
        abort(404)
    base_url = printed_base_url()
    options = {
        "paper": paper,
        "base_url": base_url,
        "ink_saver": request.args.get("ink") == "saver",
        "duplex": duplex,
        "rich_backs": request.args.get("back") == "rich",
        "lang": lang_for_print(request.args.get("lang")),
    }

    def build() -> bytes:
        out = io.BytesIO()
        printables.build(chosen, out, **options)
        return out.getvalue()

    try:
        sheets = current_app.extensions.setdefault("castellan.sheets", SheetCache())
        pdf, built = sheets.get((slug, *sorted(options.items())), build)
    except QRTooLarge:
        abort(400, description=gettext(QR_TOO_LONG, address=base_url[:80]))
    except Busy:
        abort(503)
    if built:
        security.count("pdfs")
    return send_file(
        io.BytesIO(pdf), mimetype="application/pdf", download_name=f"{slug}-{paper}.pdf", max_age=0
    )
