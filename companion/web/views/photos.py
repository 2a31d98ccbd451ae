"""A play's photos on its page: the form that adds them (the phone's camera or its files, a plain
form post that works without JavaScript), each photo with its text alternative and, for those who
may, its Delete; and the photos themselves, served by an address that names their bytes.

Who may add and what is kept is the service's (``companion.service.photos``); here are the forms,
the refusals said beside the form, and the answer's headers. Not a game: a blueprint, no ``GAME``.
"""

from __future__ import annotations

import functools
from datetime import datetime

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from werkzeug.exceptions import RequestEntityTooLarge

from companion import store
from companion.http import security
from companion.http.context import get_db
from companion.http.requests import form_dict
from companion.i18n import say
from companion.rules.errors import RuleError
from companion.rules.sentences import N_
from companion.service import photos as service
from companion.store import photos as kept
from companion.web.views import history

bp = Blueprint("photos", __name__)
MB = service.MB
SLACK = 64 * 1024  # the form's other fields and the multipart framing around the files
A_YEAR = 365 * 24 * 3600  # a photo's address names its bytes: it never changes, so it is kept for good

# Past 64 bits an id is held by no database (and would overflow the query): the route does not match, 404.
PHOTO_ID = "int(max=9223372036854775807)"


@bp.post("/history/<play_id>/photos")
def add(play_id: str):
    """Add the photos sent (the camera's and the files', up to the play's room) to the play; the play's
    page again at its photos, or with the refusal beside the form (422, nothing added)."""
    play = _play_for_photos(play_id)
    sent = [upload for upload in request.files.getlist("photo") if upload.filename]
    alt = None
    try:
        alt = service.typed_alt(form_dict().get("alt"))
        if not sent:
            raise RuleError("no_photo", NO_PHOTO, "photo")
        most = current_app.config["PHOTO_MEGABYTES"] * MB
        pictures = [service.prepared(_read(upload, most), most) for upload in sent]
        kept.add_photos(get_db(), play.id, pictures, [alt] * len(pictures))
    except RuleError as refused:
        return _refused(play.id, say(refused), alt)
    flash(say(ADDED if len(sent) == 1 else ADDED_MANY), "success")
    return redirect(url_for("history.play_page", play_id=play.id, _anchor="photos"), code=303)


@bp.post(f"/history/<play_id>/photos/<{PHOTO_ID}:photo_id>/delete")
def delete(play_id: str, photo_id: int):
    """Delete one photo of the play (those who may add photos only); the play's page again."""
    play = _play_for_photos(play_id)
    if not kept.delete_photo(get_db(), play.id, photo_id):
        abort(404)
    flash(gettext("The photo is deleted."), "success")
    return redirect(url_for("history.play_page", play_id=play.id, _anchor="photos"), code=303)


@bp.get(f"/photos/<{PHOTO_ID}:photo_id>/<digest>")
def picture(photo_id: int, digest: str):
    """A photo's bytes, kept by every cache for good (its address changes with its bytes), read as
    what it is and nothing else (``nosniff``)."""
    found = kept.content(get_db(), photo_id, digest) if len(digest) <= 64 else None
    if found is None:
        abort(404)
    media_type, content = found
    answer = Response(content, mimetype=media_type)
    answer.headers["Cache-Control"] = f"public, max-age={A_YEAR}, immutable"
    answer.headers["X-Content-Type-Options"] = "nosniff"
    answer.set_etag(digest)
    return answer.make_conditional(request)


def shown(play: store.Play, name: str, answer: dict | None = None) -> dict:
    """What the play's page shows of its photos (``history/_photos.html``): each photo with its
    address and text alternative, whether this phone may add and delete them, the room left, and
    after a refused form (``answer``) the refusal and the alternative text typed."""
    photos = kept.play_photos_of(get_db(), play.id)
    ended = datetime.fromisoformat(play.finished.replace("Z", "+00:00"))
    day = history.day_label(store.in_zone(ended, history.viewer_zone()).date())
    return {
        "photos": [
            {
                "id": photo.id,
                "url": url_for("photos.picture", photo_id=photo.id, digest=photo.digest),
                "alt": photo.alt
                or gettext(
                    "Photo %(number)s of the play of %(game)s, %(date)s",
                    number=photo.number,
                    game=name,
                    date=day,
                ),
                "width": photo.width,
                "height": photo.height,
            }
            for photo in photos
        ],
        "may_add": service.may_add(get_db(), session.get("member"), play.id),
        "room": kept.PER_PLAY - len(photos),
        "most": kept.PER_PLAY,
        "megabytes": current_app.config["PHOTO_MEGABYTES"],
        "error": (answer or {}).get("error"),
        "alt": (answer or {}).get("alt") or "",
    }


bp.add_app_template_global(shown, "play_photos")

NO_PHOTO = N_("Take a photo, or choose one on the phone, then tap Add to the play.")
ADDED = N_("The photo is added.")
ADDED_MANY = N_("The photos are added.")


def _play_for_photos(play_id: str) -> store.Play:
    """The play, when this phone may add its photos; else a 404 page (as for a mistyped link)."""
    play = store.play(get_db(), play_id)
    if play is None or not service.may_add(get_db(), session.get("member"), play.id):
        abort(404)
    return play


def _read(upload, most: int) -> bytes:
    """An uploaded file's bytes, or the refusal saying how big it is when it is bigger than ``most``."""
    data = upload.read(most + 1)
    if len(data) > most:
        upload.stream.seek(0, 2)  # to its end: how big it is, without reading the rest
        raise service.too_big(upload.stream.tell(), most)
    return data


def _refused(play_id: str, message: str, alt: str | None):
    """The play's page with the refusal beside the photos' form (422): nothing was added."""
    return history.play_answer(play_id, 422, photo_answer={"error": message, "alt": alt})


@bp.errorhandler(RequestEntityTooLarge)
def too_large(_error):
    """A post bigger than any photos the form may send (``upload_limit``): said beside the form, in
    the player's words, not as a bare 413."""
    play_id = (request.view_args or {}).get("play_id", "")
    sent = request.content_length or 0
    most = current_app.config["PHOTO_MEGABYTES"] * MB
    message = say(service.too_big(sent, most))
    if store.play(get_db(), play_id) is None:  # no play's page to say it on
        return render_template("errors/page.html", status=413, message=message), 413
    return history.play_answer(play_id, 413, photo_answer={"error": message, "alt": None})


def upload_limit(config) -> int:
    """The most a photos' post may carry: a full play's photos of the largest size, so that a photo too
    big is still read far enough to say how big it is; past that, ``too_large`` answers."""
    return kept.PER_PLAY * config["PHOTO_MEGABYTES"] * MB + SLACK


def _take_uploads(state) -> None:
    """Let ``add`` take this app's photos (``security.takes_upload``, with this app's setting)."""
    view = state.app.view_functions["photos.add"]

    @functools.wraps(view)
    def taking(*args, **kwargs):
        return view(*args, **kwargs)

    state.app.view_functions["photos.add"] = security.takes_upload(upload_limit(state.app.config))(taking)


bp.record(_take_uploads)
