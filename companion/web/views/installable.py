"""The installable app: the web app manifest, the service worker, the offline page it keeps,
and the help page about phones at the table (the Wi-Fi, the screen, the app).

Browsers install an app and run a service worker only for a secure page (HTTPS, or the
computer's own localhost); castellan.js registers the worker there and nowhere else, so on
plain http over the Wi-Fi every page works as it does without it.

The worker (templates/installable/sw.js) keeps the static files (their fingerprinted URLs),
the help pages and the offline page. It never keeps a table page (``/t/...``), the home page
(its "Your tables" lists this browser's links) or any other page: those come from the network,
and a page that cannot be fetched is answered with the offline page. So no seat's page and
nothing behind a link's token is ever in the phone's cache, where another link could show it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, current_app, render_template, request, url_for

from companion.i18n import current_language, say
from companion.rules.sentences import N_

bp = Blueprint("installable", __name__)

ICON_SIZES = (192, 512)
DESCRIPTION = N_("Castellan keeps score for games played on paper.")
THEME = "#7a3b12"  # castellan.css's --accent, the castle's brown
BACKGROUND = "#faf8f3"  # castellan.css's --bg, the icons' background


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: the name, the icons, the home page as the app's start."""
    static_url = current_app.jinja_env.globals["static_url"]
    icons = [
        {
            "src": static_url(f"icons/castellan-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for purpose in ("any", "maskable")
        for size in ICON_SIZES
    ]
    body = {
        "name": "Castellan",
        "short_name": "Castellan",
        "description": say(DESCRIPTION),
        "lang": current_language(),
        "start_url": url_for("home.index"),
        "scope": url_for("home.index"),
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": icons,
    }
    return _fresh(json.dumps(body, ensure_ascii=False), "application/manifest+json")


@bp.get("/sw.js")
def worker():
    """The service worker, for the whole site; its cache is named after what it keeps, so a new
    static file, help page or language makes a new cache and the old one is deleted."""
    kept = _static_urls() + _pages()
    name = hashlib.sha256(json.dumps([current_language(), kept]).encode()).hexdigest()[:12]
    script = render_template(
        "installable/sw.js",
        cache=f"castellan-{name}",
        kept=kept,
        pages=_pages(),
        offline=url_for("installable.offline"),
    )
    return _fresh(script, "text/javascript")


@bp.get("/offline")
def offline():
    """What a phone shows for a page it cannot fetch: what still works without the Wi-Fi."""
    return render_template("installable/offline.html", help_pages=_help_pages())


@bp.get("/help")
def help_page():
    """Phones at the table: when the Wi-Fi drops, the screen kept on, Castellan as an app."""
    return render_template("installable/help.html")


def _fresh(body: str, mimetype: str):
    """An answer the browser asks for again each time (no-cache), a 304 when it is unchanged."""
    response = current_app.response_class(body, mimetype=mimetype)
    response.cache_control.no_cache = True
    response.add_etag()
    return response.make_conditional(request)


def _static_urls() -> list[str]:
    """Every static file's fingerprinted URL (about 120 kB in all)."""
    folder = Path(current_app.static_folder)
    static_url = current_app.jinja_env.globals["static_url"]
    return [
        static_url(path.relative_to(folder).as_posix())
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    ]


def _help_pages() -> list[tuple[str, str]]:
    """Each game's help page: its name in the reader's words and its address."""
    games = current_app.extensions["castellan.games"].ordered()
    endpoints = current_app.view_functions
    return [
        (say(game.name), url_for(f"{game.slug}.help_page"))
        for game in games
        if f"{game.slug}.help_page" in endpoints
    ]


def _pages() -> list[str]:
    """The pages the worker keeps to be read offline: the help pages and the offline page."""
    own = [url_for("installable.help_page"), url_for("installable.offline")]
    return [path for _, path in _help_pages()] + own
