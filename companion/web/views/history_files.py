"""The plays as files, for people: download them for BG Stats or for another Castellan server,
and upload a Castellan export here (a club moving its server). The files themselves are the
API's (companion.api.plays_files); this page is their forms, and works without JavaScript.
"""

from __future__ import annotations

import json

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_babel import gettext

from companion import store
from companion.http import security
from companion.http.context import get_db, registry
from companion.i18n import say
from companion.rules.errors import RuleError
from companion.rules.numbers import whole_number
from companion.rules.sentences import N_, NP_, Message
from companion.service import plays_export
from companion.store import photos as kept_photos

bp = Blueprint("history_files", __name__)
UPLOAD_LIMIT = (
    2 * plays_export.MAX_FILE_BYTES
)  # beyond the file's own cap, so that the page can say how big it was
MB = 1024 * 1024


@bp.get("/history/files")
def page():
    """The download forms and the import form; after an import, what it did."""
    imported, skipped = _count("imported"), _count("skipped")
    notices = []
    if imported is not None and skipped is not None:
        notices.append(("success", _imported_sentence(imported, skipped)))
    return _render(notices)


@bp.post("/history/files")
@security.takes_upload(UPLOAD_LIMIT)
@security.limited("imports")
def upload():
    """Import the uploaded Castellan export; the page again, saying what was added (or why nothing was)."""
    try:
        document = _uploaded()
        security.count("imports")  # a file was read: the page's and the API's imports share one limit
        added, total = plays_export.import_document(
            get_db(), document, registry().games, current_app.config["IMPORT_BOUNDS"], request.remote_addr
        )
    except store.OverQuota as over:  # this address's hour is used up
        page, status = _render([("error", say(over))], status=429)
        return page, status, {"Retry-After": str(over.retry_after)}
    except RuleError as refused:
        return _render([("error", say(refused))], status=422)
    return redirect(url_for("history_files.page", imported=added, skipped=total - added), 303)


def _uploaded() -> object:
    """The uploaded file's JSON; ``RuleError`` when there is none, or it is too big or not JSON."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        raise RuleError(
            "no_file", N_("Choose the file to import: a Castellan export of plays, ending in .json."), "file"
        )
    data = upload.read(plays_export.MAX_FILE_BYTES + 1)
    if len(data) > plays_export.MAX_FILE_BYTES:
        raise RuleError(
            "file_too_large",
            N_("This file is larger than %(megabytes)s MB, the most Castellan imports at once."),
            "file",
            megabytes=plays_export.MAX_FILE_BYTES // MB,
        )
    try:
        return json.loads(data.decode("utf-8-sig"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RuleError(
            "not_json",
            N_(
                "This file is not a Castellan export of plays: export one on the other server's Export and import plays page."
            ),
            "file",
        ) from None


def _render(notices: list[tuple[str, str]], status: int = 200):
    games = [game for game in registry().ordered() if game.has_tables]
    count, size = kept_photos.total(get_db())
    return render_template(
        "history/files.html",
        notices=notices,
        games=games,
        max_mb=plays_export.MAX_FILE_BYTES // MB,
        photos={"count": count, "megabytes": size / MB, "in_file": _in_file(size) / MB},
    ), status


def _in_file(size: int) -> int:
    """About how many bytes photos of ``size`` bytes take in the export, written in base64 (4 for 3)."""
    return -(-size // 3) * 4


def _imported_sentence(imported: int, skipped: int) -> str:
    if imported == 0 and skipped == 0:
        return gettext("The file held no plays, so nothing was added.")
    if imported == 0:
        return say(
            Message(
                NP_(
                    "Nothing was added: the file's play was here already (%(count)s in all).",
                    "Nothing was added: the file's plays were all here already (%(count)s in all).",
                ),
                count=skipped,
            )
        )
    return say(
        Message(
            N_("Plays added: %(imported)s. Plays of the file already here, left as they were: %(skipped)s."),
            imported=imported,
            skipped=skipped,
        )
    )


def _count(name: str) -> int | None:
    value = request.args.get(name, "")
    return whole_number(value, most_digits=9)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")
