"""The application factory: one Flask app with the pages, the JSON API, languages and security.

``create_app`` wires the layers together (docs/architecture.md); it is the one module that
imports both the web pages and the JSON API.
"""

from __future__ import annotations

import functools
import hashlib
import os
import secrets
from datetime import timedelta
from pathlib import Path

import sqlalchemy as sa
from flask import Flask, current_app, g

from companion import api, i18n, store
from companion.api import plays as plays_api
from companion.api import tables as tables_api
from companion.http import compression, error_pages, netinfo, security
from companion.rules.numbers import whole_number
from companion.service import games
from companion.store import db, limits
from companion.web import languages, pagecache, rendering, templating, views
from companion.web import template_globals as page_globals
from companion.web.views import tables as table_views

PACKAGE_DIR = Path(__file__).resolve().parent
STATIC_DIR = PACKAGE_DIR / "web" / "static"
# How often a table's other phones ask whether it changed. A poll of an unchanged table is a
# cheap 304, and a move made at a random moment is seen after at most one interval plus an
# answer: 0.8 s keeps that under a second at the 95th percentile (docs/deploy.md has the figures).
POLL_SECONDS = 0.8


class Castellan(Flask):
    """Flask, finding out once per function whether it is a coroutine (``ensure_sync``), not at every
    call: Flask asks for every hook, view and context processor of every request (twenty for a move
    answer), and each answer cost ``inspect`` a few microseconds. Castellan has no async function."""

    SYNC_KEPT = 1024

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Flask's answer kept per function, the least recently used forgotten first: a function made
        # per request (after_this_request) is asked about once.
        self.ensure_sync = functools.lru_cache(maxsize=self.SYNC_KEPT)(super().ensure_sync)


# The whole-number settings (``CASTELLAN_<NAME>``): default, least, most, and what each counts. Each is
# checked when the app is made, so that ``castellan serve`` refuses a bad one in one line before it
# does anything (a sweep of -1 days deleted every open table).
SETTINGS = {
    "TABLES_PER_MINUTE": (20, 1, 1_000_000, "tables one address may create in a minute"),
    "PDFS_PER_MINUTE": (30, 1, 1_000_000, "sheets one address may have built in a minute"),
    "IMPORTS_PER_MINUTE": (5, 1, 1_000_000, "files of plays one address may import in a minute"),
    "TRUSTED_PROXIES": (0, 0, 10, "reverse proxies in front of Castellan"),
    "SWEEP_DAYS": (90, 0, 36_500, "days an untouched table is kept; 0 keeps it for ever"),
    "PHOTO_MEGABYTES": (10, 1, 50, "megabytes one photo of a play may have when it is uploaded"),
}


def setting(name: str) -> int:
    """The setting ``CASTELLAN_<name>`` from the environment, or its default; ``ValueError`` saying in
    one sentence what it may be when it is not a whole number in its range."""
    text = os.environ.get(f"CASTELLAN_{name}", "").strip()
    return SETTINGS[name][0] if not text else checked_setting(name, whole_number(text), text)


def checked_setting(name: str, value: object, given: object = None) -> int:
    """``value`` when it is a whole number within the setting's range; else ``ValueError``."""
    _default, least, most, what = SETTINGS[name]
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        shown = value if given is None else given
        raise ValueError(
            f"CASTELLAN_{name} is a whole number from {least:,} to {most:,} ({what}), not {str(shown)[:20]!r}."
        )
    return value


def default_database(instance_path: str | None = None) -> str:
    """The database Castellan uses: ``CASTELLAN_DATABASE``, else ``castellan.sqlite3`` in Flask's
    instance folder (``instance_path``; by default the app's: ``instance/`` beside the package in a
    source checkout, ``<prefix>/var/companion-instance`` once installed), wherever it is run from."""
    if instance_path is None:
        instance_path = Flask("companion", instance_relative_config=True).instance_path
    return os.environ.get("CASTELLAN_DATABASE") or os.path.join(instance_path, "castellan.sqlite3")


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: configuration, database, security, and every game's blueprint."""
    app = Castellan(
        "companion",
        instance_relative_config=True,
        template_folder=str(_templates_dir()),
        static_folder=str(STATIC_DIR),
    )
    app.jinja_environment = templating.TemplateEnvironment  # before anything makes app.jinja_env
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE=default_database(app.instance_path),
        BASE_URL=os.environ.get("CASTELLAN_BASE_URL", ""),
        POLL_SECONDS=POLL_SECONDS,
        **{name: setting(name) for name in SETTINGS},
        IMPORT_BOUNDS=store.ImportBounds.from_environment(os.environ),  # plays and players per file and hour
        RATELIMIT_STORAGE_URI=os.environ.get("CASTELLAN_RATELIMIT_STORAGE"),  # None: counted in the database
        LOCATION_NAME=os.environ.get(
            "CASTELLAN_LOCATION", "Castellan"
        ),  # where the plays happened, for BG Stats
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,
    )
    app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or _instance_secret(app.instance_path)
    if test_config:
        app.config.update(test_config)
    for name in SETTINGS:
        checked_setting(name, app.config[name])
    if app.config["BASE_URL"]:
        app.config["BASE_URL"] = netinfo.check_base_url(app.config["BASE_URL"])

    store.migrate(app.config["DATABASE"])
    if not app.config["RATELIMIT_STORAGE_URI"]:  # shared by every worker and machine
        app.config["RATELIMIT_STORAGE_URI"] = limits.storage_uri(app.config["DATABASE"])
    app.teardown_appcontext(_close_db)

    registry = games.discover(views)
    api.discover()  # every module of companion.api adds its routes to api.bp
    app.extensions["castellan.games"] = registry
    if app.config["SWEEP_DAYS"]:
        untouched = timedelta(days=app.config["SWEEP_DAYS"])
        with db.connect(app.config["DATABASE"]) as conn:
            store.sweep(conn, untouched, registry.game_over)
            store.forget_untouched(conn, untouched)
    # Inside the host check (security.init_app wraps it): a poll from a bad host is refused first.
    # Within it, a cached table page or live fragment is answered before Flask too (CachedPages).
    app.wsgi_app = table_views.UnchangedPolls(app, table_views.CachedPages(app, app.wsgi_app))
    security.init_app(app)
    languages.init_app(app)

    tables_api.describe(registry.ordered())
    plays_api.describe()

    for blueprint in registry.blueprints:
        app.register_blueprint(blueprint)
    app.register_blueprint(api.bp)
    error_pages.init_app(app)
    security.apply_limits(app)
    compression.init_compression(app)
    _init_templates(app, registry)
    templating.run_per_reader(app.jinja_env.filters)  # after every blueprint has added its own
    return app


def _close_db(_exc: BaseException | None) -> None:
    conn = g.pop("db", None)
    if conn is not None and conn.in_transaction():
        try:
            conn.rollback()  # a read's transaction (a write's is always ended by the store)
        except sa.exc.SQLAlchemyError:
            db.drop_thread_connection(current_app.config["DATABASE"])


def _templates_dir() -> Path:
    # Installed from a wheel, the templates are the package companion.templates;
    # in a source checkout they are the repository's top-level templates/.
    installed = PACKAGE_DIR / "templates"
    return installed if (installed / "base.html").exists() else PACKAGE_DIR.parent / "templates"


def _instance_secret(instance_path: str) -> str:
    """The secret key kept in the instance folder, made on first run."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


def _init_templates(app: Flask, registry: games.Registry) -> None:
    """Globals every template uses: the games, and static URLs that change with their content."""
    digests: dict[str, str] = {}
    stylesheets: dict[str, bool] = {}

    def static_url(filename: str) -> str:
        if filename not in digests:
            content = (Path(app.static_folder) / filename).read_bytes()
            digests[filename] = hashlib.sha256(content).hexdigest()[:10]
        return page_globals.template_url_for("static", filename=filename, v=digests[filename])

    def game_stylesheet(slug: str) -> str | None:
        """The URL of a game's own small stylesheet, if it has one."""
        name = f"games/{slug}.css"
        if slug not in stylesheets:
            stylesheets[slug] = (Path(app.static_folder) / name).exists()
        return static_url(name) if stylesheets[slug] else None

    app.jinja_env.template_class = templating.TemplateClass
    app.jinja_env.filters["with_contents"] = rendering.with_contents
    app.jinja_env.filters["table_title"] = registry.said_title  # in the reader's language
    app.jinja_env.filters["clock_time"] = rendering.clock_time
    app.jinja_env.globals.update(
        url_for=page_globals.template_url_for,
        static_url=static_url,
        game_stylesheet=game_stylesheet,
        all_games=registry.ordered,
        # a move form's Idempotency-Key: the form sent twice acts once (a placeholder in a cached page)
        new_token=pagecache.template_token(store.new_token),
        table_form_start=page_globals.table_form_start,
        csrf_token=page_globals.csrf_token,
        games_by_slug=registry.games,
        once=templating.once_per(i18n.current_language),
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
