"""A photo of the end (issue 39, item 5): the table's referee and players add up to four photos to
a finished play; each is read back from the database to check what was kept (no EXIF, no GPS,
turned upright, at most 1,600 px, JPEG, PNG or WebP only); too big, not a picture, a picture of
another kind or of too many pixels is refused in words and changes nothing; the photos' address is
cached for good; they travel in Castellan's export and come back from its import, checked again;
forgetting a player, deleting a play and undoing its end delete them. On SQLite and PostgreSQL."""

from __future__ import annotations

import base64
import copy
import io
import json
import random

import pytest
import sqlalchemy as sa
from PIL import ExifTags, Image

from companion import store
from companion.app import create_app
from companion.http.context import get_db
from companion.rules import forteresse, scorepad
from companion.store import db
from companion.store import photos as kept
from tests.conftest import Browser, fresh_database, text

pytestmark = pytest.mark.both_backends

WARSAW = (52.0, 13.0, 43.0)  # degrees, minutes, seconds


@pytest.fixture
def app(database):
    """The app, with photos of at most 1 MB (so that a test's file can be too big quickly)."""
    return create_app(
        {
            "DATABASE": database,
            "SECRET_KEY": "test",
            "TESTING": True,
            "PHOTO_MEGABYTES": 1,
            "IMPORTS_PER_MINUTE": 10_000,
        }
    )


@pytest.fixture
def other_database(request, database, tmp_path):
    """A second fresh database on the same backend: the server a club moves to."""
    backend = "postgresql" if database.startswith("postgresql") else "sqlite"
    yield from fresh_database(request, tmp_path, backend, "other")


def picture(
    kind: str = "JPEG", size=(800, 600), mode: str = "RGB", gps: bool = False, orientation=None
) -> bytes:
    """A picture made here: a gradient (so that a wrong turn shows; the right half opaque where there is
    transparency), with GPS EXIF and an orientation if asked."""
    if mode == "1":
        image = Image.new("1", size)
    else:
        across = Image.linear_gradient("L").rotate(90).resize(size)
        down = Image.linear_gradient("L").resize(size)
        bands = [across, down, Image.new("L", size, 128)]
        if mode == "RGBA":
            alpha = Image.new("L", size, 0)
            alpha.paste(255, (size[0] // 2, 0, size[0], size[1]))
            bands.append(alpha)
        image = Image.merge(mode, bands)
    exif = Image.Exif()
    if gps:
        exif[ExifTags.Base.Make] = "Phone"
        exif[ExifTags.IFD.GPSInfo] = {
            ExifTags.GPS.GPSLatitudeRef: "N",
            ExifTags.GPS.GPSLatitude: WARSAW,
            ExifTags.GPS.GPSLongitudeRef: "E",
            ExifTags.GPS.GPSLongitude: WARSAW,
        }
    if orientation:
        exif[ExifTags.Base.Orientation] = orientation
    out = io.BytesIO()
    extra = {"exif": exif.tobytes()} if len(exif) else {}
    image.save(out, kind, **extra)
    return out.getvalue()


def _finished_pad(app, phone: Browser | None = None) -> tuple[str, str, Browser]:
    """A score pad made by a phone (its referee) and finished: (the play's id, the referee's token, the phone)."""
    phone = phone or Browser(app.test_client())
    token = phone.create_table("scorepad", {"players": "Ola\nKuba"})
    with app.app_context():
        conn = get_db()
        table = store.get_table(conn, store.find_link(conn, token).table_id)
        table = store.act(
            conn, scorepad, table.id, "referee", {"type": "round", "points": [3, 4]}, table.version
        )
        store.finish(conn, scorepad, table.id, table.version)
        play = store.table_play(conn, table.id)
    return play.id, token, phone


def _send(phone: Browser, play_id: str, *files: tuple[bytes, str], alt: str = "", field: str = "photo"):
    """Post these files (bytes, name) as the play page's form does."""
    return phone.post(
        f"/history/{play_id}/photos",
        data={"alt": alt, field: [(io.BytesIO(data), name) for data, name in files]},
        content_type="multipart/form-data",
    )


def _stored(app, play_id: str) -> list[tuple[kept.Photo, bytes]]:
    """The play's photos as the database holds them, bytes and all."""
    with app.app_context():
        return kept.photos_of_plays(get_db(), [play_id]).get(play_id, [])


def _read(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


# --- What is kept --------------------------------------------------------------------------------


def test_the_gps_position_and_every_exif_field_are_gone_from_the_stored_bytes(app):
    play_id, _token, phone = _finished_pad(app)
    sent = picture(gps=True)
    assert _read(sent).getexif().get_ifd(ExifTags.IFD.GPSInfo)  # the test's photo does carry a position
    answer = _send(phone, play_id, (sent, "end.jpg"))
    assert answer.status_code == 303, text(answer)[:400]
    [(photo, data)] = _stored(app, play_id)
    kept_image = _read(data)
    assert kept_image.format == "JPEG" and photo.media_type == "image/jpeg"
    assert not kept_image.getexif().get_ifd(ExifTags.IFD.GPSInfo)
    assert len(kept_image.getexif()) == 0 and "exif" not in kept_image.info
    assert b"Exif" not in data and b"GPS" not in data
    page = text(phone.get(f"/history/{play_id}"))
    assert "The photo is added." in page
    assert f'alt="Photo 1 of the play of Score pad, {photo_play_day(app, play_id)}"' in page


def photo_play_day(app, play_id: str) -> str:
    with app.app_context():
        return store.play(get_db(), play_id).finished[:10]


def test_a_photo_taken_sideways_is_kept_upright(app):
    play_id, _token, phone = _finished_pad(app)
    # Orientation 6: the camera held on its side, the picture to be turned 90° clockwise to be seen.
    assert _send(phone, play_id, (picture(size=(800, 600), orientation=6), "side.jpg")).status_code == 303
    [(photo, data)] = _stored(app, play_id)
    assert _read(data).size == (600, 800) and (photo.width, photo.height) == (600, 800)


def test_a_4000_px_photo_is_kept_at_1600_px_on_its_long_side(app):
    play_id, _token, phone = _finished_pad(app)
    big = picture(size=(4000, 3000))
    assert len(big) < 1024 * 1024  # a gradient: small enough for this app's 1 MB
    assert _send(phone, play_id, (big, "big.jpg")).status_code == 303
    [(photo, data)] = _stored(app, play_id)
    assert _read(data).size == (1600, 1200) == (photo.width, photo.height)
    assert 'width="1600" height="1200"' in text(phone.get(f"/history/{play_id}"))


def test_png_with_transparency_and_webp_are_kept_in_their_own_kind(app):
    play_id, _token, phone = _finished_pad(app)
    png = picture("PNG", size=(300, 200), mode="RGBA")
    webp = picture("WEBP", size=(300, 200))
    assert _send(phone, play_id, (png, "sheet.png"), (webp, "board.webp")).status_code == 303
    (first, first_data), (second, second_data) = _stored(app, play_id)
    kept_png, kept_webp = _read(first_data), _read(second_data)
    assert (first.media_type, kept_png.format, kept_png.mode) == ("image/png", "PNG", "RGBA")
    assert kept_png.getpixel((0, 0))[3] == 0 and kept_png.getpixel((299, 0))[3] == 255  # the see-through half
    assert (second.media_type, kept_webp.format) == ("image/webp", "WEBP")
    assert first_data == png  # already small and without metadata: kept byte for byte
    assert "The photos are added." in text(phone.get(f"/history/{play_id}"))


@pytest.mark.parametrize(
    "data, name, refusal",
    [
        (b"These are not the pixels you are looking for." * 10, "end.jpg", "This file is not a picture"),
        (
            picture("GIF", size=(50, 50)),
            "end.jpg",
            "This picture is a GIF; Castellan takes photos in JPEG, PNG or WebP.",
        ),
        (picture("JPEG")[:2000], "cut.jpg", "This picture is damaged and cannot be read"),
        (picture("PNG", size=(10_000, 6_000), mode="1"), "huge.png", "This photo is 10,000 × 6,000 pixels"),
        (picture("PNG", size=(20_000, 10_000), mode="1"), "bomb.png", "more pixels than Castellan reads"),
    ],
    ids=["not-a-picture", "gif", "cut-short", "too-many-pixels", "decompression-bomb"],
)
def test_what_is_not_a_photo_castellan_keeps_is_refused_in_words_and_nothing_is_kept(
    app, data, name, refusal
):
    play_id, _token, phone = _finished_pad(app)
    answer = _send(phone, play_id, (data, name))
    assert answer.status_code == 422
    page = text(answer)
    assert refusal in page and 'role="alert"' in page
    assert _stored(app, play_id) == []


def test_a_photo_too_big_is_refused_saying_how_big_it_is(app):
    play_id, _token, phone = _finished_pad(app)
    noise = random.Random(1).randbytes(1_600_000)  # read by its size first: what it holds is not looked at
    answer = _send(phone, play_id, (picture(size=(200, 100)), "small.jpg"), (noise, "big.jpg"))
    assert answer.status_code == 422
    assert "This photo is 2 MB; the most is 1 MB." in text(answer)
    assert _stored(app, play_id) == []  # the small one neither: a refused form adds nothing


def test_a_post_far_bigger_than_any_photos_gets_the_play_page_saying_so(app):
    play_id, _token, phone = _finished_pad(app)
    answer = _send(phone, play_id, (b"\0" * (5 * 1024 * 1024), "huge.jpg"))
    assert answer.status_code == 413
    page = text(answer)
    assert "This photo is 5 MB; the most is 1 MB." in page and "<h1>Score pad" in page
    assert _stored(app, play_id) == []


def test_a_form_without_a_photo_says_what_to_do(app):
    play_id, _token, phone = _finished_pad(app)
    answer = phone.post(f"/history/{play_id}/photos", data={"alt": "x"})
    assert answer.status_code == 422
    assert "Take a photo, or choose one on the phone, then tap Add to the play." in text(answer)


def test_a_play_keeps_four_photos_and_refuses_a_fifth(app):
    play_id, _token, phone = _finished_pad(app)
    small = picture(size=(120, 90))
    assert _send(phone, play_id, *[(small, f"{n}.jpg") for n in range(3)]).status_code == 303
    answer = _send(phone, play_id, (small, "4.jpg"), (small, "5.jpg"))
    assert answer.status_code == 422
    assert "This play has 3 photos already, and keeps at most 4: delete one to add another." in text(answer)
    assert _send(phone, play_id, (small, "4.jpg")).status_code == 303
    page = text(phone.get(f"/history/{play_id}"))
    assert "This play has its 4 photos: delete one to add another." in page
    assert 'name="photo"' not in page
    assert len(_stored(app, play_id)) == 4


def test_the_uploaders_words_are_the_photos_text_alternative(app):
    play_id, _token, phone = _finished_pad(app)
    assert (
        _send(phone, play_id, (picture(), "x.jpg"), alt="  The final   board: Ola's <castle>  ").status_code
        == 303
    )
    page = phone.get(f"/history/{play_id}").data.decode()
    assert 'alt="The final board: Ola&#39;s &lt;castle&gt;"' in page


# --- Who may ---------------------------------------------------------------------------------------


def _finished_forteresse(app) -> tuple[str, str, Browser]:
    """A Forteresse table on the players' phones made by a phone (its referee), played at random to its
    end: (the play's id, the referee's token, the phone). It has a seat per player, the score pad none."""
    phone = Browser(app.test_client())
    token = phone.create_table(
        "forteresse", {"mode": "phones", "first": "a", "name_a": "Ola", "name_b": "Kuba"}
    )
    rng = random.Random("forteresse")
    with app.app_context():
        conn = get_db()
        table = store.get_table(conn, store.find_link(conn, token).table_id)
        while (chosen := forteresse.random_legal_action(table.state, rng)) is not None:
            table = store.act(conn, forteresse, table.id, *chosen, table.version)
        play = store.table_play(conn, table.id)
    assert play is not None
    return play.id, token, phone


def test_only_the_tables_referee_and_its_players_may_add_and_delete_photos(app):
    play_id, token, referee = _finished_forteresse(app)
    with app.app_context():
        links = store.table_links(get_db(), store.find_link(get_db(), token).table_id)
    viewer = Browser(app.test_client())
    viewer.get(f"/t/{next(link.token for link in links if link.role == 'viewer')}")
    player = Browser(app.test_client())
    player.get(f"/t/{next(link.token for link in links if link.role == 'seat')}")
    stranger = Browser(app.test_client())

    for phone in (viewer, stranger):
        assert 'name="photo"' not in text(phone.get(f"/history/{play_id}"))
        assert _send(phone, play_id, (picture(), "x.jpg")).status_code == 404
    assert 'name="photo"' in text(player.get(f"/history/{play_id}"))
    assert _send(player, play_id, (picture(), "x.jpg")).status_code == 303
    [(photo, _data)] = _stored(app, play_id)

    assert stranger.post(f"/history/{play_id}/photos/{photo.id}/delete").status_code == 404
    assert "Delete photo 1" not in text(stranger.get(f"/history/{play_id}"))
    assert 'alt="Photo 1 of the play' in text(stranger.get(f"/history/{play_id}"))  # everyone sees it
    assert len(_stored(app, play_id)) == 1
    done = referee.post(f"/history/{play_id}/photos/{photo.id}/delete")
    assert done.status_code == 303
    assert "The photo is deleted." in text(referee.get(done.headers["Location"]))
    assert _stored(app, play_id) == []
    assert referee.post(f"/history/{play_id}/photos/{photo.id}/delete").status_code == 404


def test_an_imported_play_takes_no_photo_through_the_pages(app):
    phone = Browser(app.test_client())
    with db.connect(app.config["DATABASE"]) as conn:
        store.import_plays(conn, [_exported_play("imported-play-0001")])
    assert 'name="photo"' not in text(phone.get("/history/imported-play-0001"))
    assert _send(phone, "imported-play-0001", (picture(), "x.jpg")).status_code == 404


# --- The photo's address ----------------------------------------------------------------------------


def test_a_photo_is_served_as_what_it_is_and_cached_for_good(app):
    play_id, _token, phone = _finished_pad(app)
    _send(phone, play_id, (picture(), "x.jpg"))
    [(photo, data)] = _stored(app, play_id)
    address = f"/photos/{photo.id}/{photo.digest}"
    assert address in text(phone.get(f"/history/{play_id}"))
    served = Browser(app.test_client()).get(address)
    assert served.status_code == 200 and served.data == data
    assert served.headers["Content-Type"] == "image/jpeg"
    assert served.headers["X-Content-Type-Options"] == "nosniff"
    assert served.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    again = phone.get(address, headers={"If-None-Match": served.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert phone.get(f"/photos/{photo.id}/{'0' * 20}").status_code == 404  # another digest names no photo


# --- Export and import -------------------------------------------------------------------------------


def _exported_play(play_id: str, photos: list | None = None) -> dict:
    entry = {
        "id": play_id,
        "game": "scorepad",
        "started": "2026-10-01T18:00:00Z",
        "finished": "2026-10-01T19:00:00Z",
        "players": [
            {"name": "Ola", "team": None, "score": 12, "winner": True},
            {"name": "Kuba", "team": None, "score": 5, "winner": False},
        ],
        "details": {"rounds": [[12, 5]], "lowest_wins": False},
    }
    if photos is not None:
        entry["photos"] = photos
    return entry


def _photo_entry(data: bytes, kind: str = "image/jpeg", alt: str | None = None) -> dict:
    entry = {"type": kind, "data": base64.b64encode(data).decode()}
    if alt:
        entry["alt"] = alt
    return entry


def test_a_photo_survives_export_and_import_and_exports_again_the_same(app, other_database):
    play_id, _token, phone = _finished_pad(app)
    _send(phone, play_id, (picture(gps=True), "end.jpg"), alt="The end")
    _send(phone, play_id, (picture("PNG", size=(60, 40), mode="RGBA"), "sheet.png"))
    stored = _stored(app, play_id)
    exported = phone.get("/api/v1/plays/export.json").get_json()
    [entry] = exported["plays"]
    assert [photo["type"] for photo in entry["photos"]] == ["image/jpeg", "image/png"]
    assert entry["photos"][0]["alt"] == "The end" and "alt" not in entry["photos"][1]
    assert [base64.b64decode(photo["data"]) for photo in entry["photos"]] == [data for _photo, data in stored]
    assert "photo" not in phone.get("/api/v1/plays.csv").data.decode()  # the CSV leaves them out

    other = create_app({"DATABASE": other_database, "SECRET_KEY": "test", "TESTING": True})
    moved = Browser(other.test_client())
    answer = moved.post(
        "/history/files",
        data={"file": (io.BytesIO(json.dumps(exported).encode()), "plays.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 303, text(answer)[:400]
    assert [(photo.media_type, photo.alt, data) for photo, data in _stored(other, play_id)] == [
        (photo.media_type, photo.alt, data) for photo, data in stored
    ]
    assert moved.get("/api/v1/plays/export.json").get_json() == exported
    page = text(moved.get(f"/history/{play_id}"))
    assert 'alt="The end"' in page and 'alt="Photo 2 of the play of Score pad, 20' in page


def test_an_imported_photo_is_checked_again_and_a_bad_one_refuses_the_file(app):
    phone = Browser(app.test_client())
    with_gps = picture(gps=True, orientation=6)
    document = {
        "format": "castellan-plays",
        "version": 1,
        "plays": [_exported_play("imported-play-0001", [_photo_entry(with_gps)])],
    }
    answer = phone.client.post("/api/v1/plays/import", json=document)
    assert answer.status_code == 200 and answer.get_json()["imported"] == 1
    [(photo, data)] = _stored(app, "imported-play-0001")
    assert b"GPS" not in data and _read(data).size == (600, 800)  # written again, upright, without EXIF

    refused = {
        "not a picture": [_photo_entry(b"<svg/>", "image/svg+xml")],
        "not base64": [{"type": "image/jpeg", "data": "%%%"}],
        "not an object": ["picture"],
        "five": [_photo_entry(picture(size=(20, 20)))] * 5,
        "too big": [_photo_entry(random.Random(2).randbytes(11 * 1024 * 1024))],
    }
    for reason, photos in refused.items():
        bad = copy.deepcopy(document)
        bad["plays"].append(_exported_play("imported-play-0002", photos))
        answer = phone.client.post("/api/v1/plays/import", json=bad)
        assert answer.status_code == 422, reason
        message = answer.get_json()["error"]["message"]
        assert "play number 2 of the file" in message.lower(), (reason, message)
    with app.app_context():
        assert store.play(get_db(), "imported-play-0002") is None


# --- Gone with their play, or with a forgotten player -----------------------------------------------


def test_deleting_a_play_deletes_its_photos(app):
    play_id, token, phone = _finished_pad(app)
    _send(phone, play_id, (picture(), "x.jpg"))
    assert "Its 1 photo is deleted with it." in text(phone.get(f"/history/{play_id}/delete/{token}"))
    assert phone.post(f"/history/{play_id}/delete/{token}").status_code == 303
    assert _stored(app, play_id) == [] and _photo_rows(app) == 0


def test_forgetting_a_player_deletes_the_photos_of_every_play_they_were_in(app):
    play_id, _token, phone = _finished_pad(app)
    _send(phone, play_id, (picture(), "x.jpg"))
    with db.connect(app.config["DATABASE"]) as conn:
        store.import_plays(
            conn,
            [
                {
                    **_exported_play("other-play-0001"),
                    "players": [{"name": "Ada", "team": None, "score": 1, "winner": True}],
                }
            ],
        )
        kept.add_photos(
            conn, "other-play-0001", [kept.Picture(picture(size=(10, 10)), "image/jpeg", 10, 10)], [None]
        )
        kuba = store.find_player(conn, "Kuba")["id"]
    assert "The 1 photo of their plays is deleted too" in text(phone.get(f"/players/{kuba}/forget"))
    assert phone.post(f"/players/{kuba}/forget").status_code == 303
    assert _stored(app, play_id) == []
    assert len(_stored(app, "other-play-0001")) == 1  # Ada's play, without Kuba, keeps its photo


def test_undoing_the_end_withdraws_the_play_with_its_photos(app):
    play_id, token, phone = _finished_pad(app)
    _send(phone, play_id, (picture(), "x.jpg"))
    with app.app_context():
        conn = get_db()
        table = store.get_table(conn, store.find_link(conn, token).table_id)
        store.undo(conn, scorepad, table.id, table.version)
        assert store.play(conn, play_id) is None
    assert _photo_rows(app) == 0


def _photo_rows(app) -> int:
    with db.connect(app.config["DATABASE"]) as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(db.play_photos)).scalar_one()


# --- The export page -----------------------------------------------------------------------------------


def test_the_export_page_says_how_much_the_photos_take(app):
    play_id, _token, phone = _finished_pad(app)
    assert "of the plays take" not in text(phone.get("/history/files"))
    _send(phone, play_id, (picture(size=(1600, 1200)), "x.jpg"), (picture(size=(1600, 1200)), "y.jpg"))
    size = sum(len(data) for _photo, data in _stored(app, play_id))
    page = text(phone.get("/history/files"))
    here, in_file = f"{size / 1024 / 1024:.1f}", f"{-(-size // 3) * 4 / 1024 / 1024:.1f}"
    assert f"2 photos of the plays take {here} MB here, and about {in_file} MB in the file." in page
    french = text(phone.get("/history/files", headers={"Accept-Language": "fr"}))
    assert f"{here.replace('.', ',')}\u00a0Mo" in french


def test_a_photo_id_past_what_a_database_holds_is_not_there(browser):
    huge = "7" * 27
    assert browser.get(f"/photos/{huge}/abc").status_code == 404
    assert browser.post(f"/history/nowhere/photos/{huge}/delete", {}).status_code in (403, 404)
