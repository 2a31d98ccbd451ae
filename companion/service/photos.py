"""A play's photos: who may add and delete them, and each photo made safe to keep (Pillow).

- **Who.** A phone that opened the referee's link of the table the play was (the same phone that
  may delete the play, ``tables.may_delete_play``), or the link of one of its seats (a player's seat
  claimed by this phone, or a team's seat, which is never claimed). An imported play has no table
  here, so nobody adds photos to it through the pages.
- **Safe.** A photo is read by its content, never its name: Pillow must find a JPEG (or a phone's
  MPO, a JPEG with a hidden second picture), PNG or WebP picture of at most ``MOST_PIXELS``. It is turned as its EXIF orientation says, shrunk to at most
  ``LONG_SIDE`` pixels on its long side and written again without any of its metadata (EXIF with the
  GPS position, XMP, comments) but its colour profile. A photo that is already so (an import of
  Castellan's own export) is kept byte for byte, so that exporting again gives the same file.
"""

from __future__ import annotations

import base64
import binascii
import io
import struct
from collections.abc import Callable

from PIL import Image, ImageOps
from sqlalchemy.engine import Connection

from companion import store
from companion.rules.errors import RuleError
from companion.rules.sentences import N_
from companion.service import tables
from companion.store import photos as kept_photos
from companion.store.photos import Picture

ACCEPTED = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}
# What each kind Pillow finds is written as: a phone's MPO (a JPEG with a second, hidden picture, as a
# portrait mode or a 3D camera writes) is a JPEG to every browser, and kept as its first picture.
WRITTEN_AS = {"JPEG": "JPEG", "MPO": "JPEG", "PNG": "PNG", "WEBP": "WEBP"}
LONG_SIDE = 1600  # pixels: sharp on any phone, and a photo of about 300 KB
MOST_PIXELS = 50_000_000  # a 50-megapixel camera's full picture; past it, reading it takes too much memory
MOST_MEGABYTES = 10  # an upload's default bound (CASTELLAN_PHOTO_MEGABYTES), and an import's
JPEG_QUALITY = 85
MB = 1024 * 1024
# What Pillow reads from a picture that says nothing about where or by whom it was taken: a picture
# with anything else (exif, xmp, a comment, PNG text) is written again without it.
HARMLESS = frozenset(
    {
        "jfif",
        "jfif_version",
        "jfif_unit",
        "jfif_density",
        "dpi",
        "progressive",
        "progression",
        "icc_profile",
        "gamma",
        "srgb",
        "chromaticity",
        "aspect",
        "loop",
        "duration",
        "background",
        "timestamp",
    }
)

# What Pillow raises for a file it cannot read to its end: cut short, or broken inside.
UNREADABLE = (OSError, SyntaxError, ValueError, EOFError, IndexError, struct.error)
NOT_A_PICTURE = N_("This file is not a picture: Castellan takes photos in JPEG, PNG or WebP.")
DAMAGED = N_("This picture is damaged and cannot be read: take or choose it again.")


def may_add(conn: Connection, phone: str | None, play_id: str) -> bool:
    """Whether the browser whose identity is ``phone`` may add photos to this play and delete them:
    it opened the referee's link or a seat's link of the table the play was (see the module)."""
    table_id = store.table_of_play(conn, play_id)
    if phone is None or table_id is None:
        return False
    for link in kept_photos.remembered_links(conn, phone, table_id):
        if tables.may_delete_play(conn, link, play_id):
            return True
        if link.role == "seat" and link.claimed_by in (None, store.phone_digest(phone)):
            return True
    return False


def prepared(data: bytes, most_bytes: int = MOST_MEGABYTES * MB) -> Picture:
    """The photo ``data`` made safe to keep (see the module); ``RuleError`` in the player's words for
    a file too big, not a picture, a picture of another kind, too many pixels, or damaged."""
    if len(data) > most_bytes:
        raise too_big(len(data), most_bytes)
    try:
        picture = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:
        raise _too_many_pixels(None) from None
    except UNREADABLE:  # UnidentifiedImageError (an OSError) above all: no kind Pillow knows
        raise RuleError("not_a_photo", NOT_A_PICTURE, "photo") from None
    with picture:
        if picture.format not in WRITTEN_AS:
            raise RuleError(
                "not_a_photo",
                N_("This picture is a %(kind)s; Castellan takes photos in JPEG, PNG or WebP."),
                "photo",
                kind=picture.format or "?",
            )
        if picture.width * picture.height > MOST_PIXELS:
            raise _too_many_pixels(picture)
        try:
            if _clean(picture):
                picture.load()  # the whole of it read: a file cut short is refused here
                return Picture(data, ACCEPTED[picture.format], picture.width, picture.height)
            return _written_again(picture)
        except (*UNREADABLE, Image.DecompressionBombError):
            raise RuleError("damaged_photo", DAMAGED, "photo") from None


def too_big(size: int, most_bytes: int) -> RuleError:
    """The refusal of a photo of ``size`` bytes, more than ``most_bytes`` (a whole number of MB): its
    size in whole MB, the nearest, yet never said to be within the bound (10.2 MB, refused at 10, is 11)."""
    most = most_bytes // MB
    return RuleError(
        "photo_too_big",
        N_("This photo is %(size)s MB; the most is %(most)s MB."),
        "photo",
        size=max(round(size / MB), most + 1),
        most=most,
    )


def exported(photo: kept_photos.Photo, content: bytes) -> dict:
    """One photo as Castellan's export carries it: its media type, its bytes in base64, and its text
    alternative where its uploader typed one."""
    entry = {"type": photo.media_type, "data": base64.b64encode(content).decode("ascii")}
    if photo.alt:
        entry["alt"] = photo.alt
    return entry


def imported(entries: object, number: int) -> list[tuple[Picture, str | None]]:
    """The photos of play ``number`` of an imported file (``[{"type", "data", "alt"}]``), each checked
    by its content again as an upload is; ``RuleError`` naming the play and the photo otherwise."""
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise _bad_import(number, 1)
    kept_photos.check_room(0, len(entries), number)
    found = []
    for place, entry in enumerate(entries, start=1):
        alt = entry.get("alt") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not (alt is None or _typed_alt(alt)):
            raise _bad_import(number, place)
        try:
            data = base64.b64decode(entry.get("data", ""), validate=True)
            found.append((prepared(data), alt))
        except (RuleError, binascii.Error, TypeError, ValueError):
            raise _bad_import(number, place) from None
    return found


def typed_alt(text: object) -> str | None:
    """A text alternative as typed: spaces tidied, cut to ``ALT_LENGTH``; None when empty."""
    tidy = " ".join(str(text or "").split())[: kept_photos.ALT_LENGTH]
    return tidy or None


def _typed_alt(alt: object) -> bool:
    """Whether an imported text alternative is one the pages could have kept."""
    return isinstance(alt, str) and typed_alt(alt) == alt


def _bad_import(number: int, place: int) -> RuleError:
    return RuleError(
        "bad_photo",
        N_(
            "Photo %(photo)s of play number %(number)s of the file is not one Castellan can keep: a JPEG, PNG or WebP picture of at most %(most)s MB."
        ),
        f"plays.{number - 1}.photos",
        photo=place,
        number=number,
        most=MOST_MEGABYTES,
    )


def _too_many_pixels(picture: Image.Image | None) -> RuleError:
    if picture is None:
        return RuleError(
            "too_many_pixels",
            N_(
                "This picture has more pixels than Castellan reads: take photos of up to %(most)s million pixels."
            ),
            "photo",
            most=MOST_PIXELS // 1_000_000,
        )
    return RuleError(
        "too_many_pixels",
        N_(
            "This photo is %(width)s × %(height)s pixels; Castellan takes photos of up to %(most)s million pixels."
        ),
        "photo",
        width=picture.width,
        height=picture.height,
        most=MOST_PIXELS // 1_000_000,
    )


def _clean(picture: Image.Image) -> bool:
    """Whether a picture is already as Castellan keeps photos: small enough, nothing but harmless
    metadata (so no EXIF orientation either)."""
    return picture.format in ACCEPTED and max(picture.size) <= LONG_SIDE and set(picture.info) <= HARMLESS


def _written_again(picture: Image.Image) -> Picture:
    """The picture turned upright, shrunk to ``LONG_SIDE`` and written in its own format, its
    metadata left behind but for the colour profile."""
    kind = WRITTEN_AS[picture.format]
    width, height = picture.size
    scale = min(1.0, LONG_SIDE / max(width, height))
    target = (max(1, round(width * scale)), max(1, round(height * scale)))
    picture.draft(None, target)  # a JPEG decoded at a half, a quarter or an eighth: less memory
    upright = ImageOps.exif_transpose(picture)
    upright.thumbnail((LONG_SIDE, LONG_SIDE), Image.Resampling.LANCZOS)
    profile = upright.info.get("icc_profile")
    shown = _in_mode(upright, kind)
    shown.info.clear()  # EXIF, GPS, XMP, comments: nothing of it is written
    out = io.BytesIO()
    _WRITERS[kind](shown, out, profile)
    return Picture(out.getvalue(), ACCEPTED[kind], shown.width, shown.height)


def _in_mode(picture: Image.Image, kind: str) -> Image.Image:
    """The picture in a mode its format writes and every browser shows: RGB, or RGBA where it has
    transparency (never for a JPEG), or grey."""
    alpha = picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info
    if kind == "JPEG":
        wanted = "L" if picture.mode == "L" else "RGB"
    elif alpha:
        wanted = "RGBA"
    else:
        wanted = picture.mode if picture.mode in ("L", "RGB") else "RGB"
    return picture if picture.mode == wanted else picture.convert(wanted)


def _jpeg(picture: Image.Image, out: io.BytesIO, profile: bytes | None) -> None:
    picture.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True, icc_profile=profile)


def _png(picture: Image.Image, out: io.BytesIO, profile: bytes | None) -> None:
    picture.save(out, "PNG", icc_profile=profile)


def _webp(picture: Image.Image, out: io.BytesIO, profile: bytes | None) -> None:
    picture.save(out, "WEBP", quality=JPEG_QUALITY, icc_profile=profile or b"")


_WRITERS: dict[str, Callable[[Image.Image, io.BytesIO, bytes | None], None]] = {
    "JPEG": _jpeg,
    "PNG": _png,
    "WEBP": _webp,
}
