"""Castellan: a paper-play companion and scorer for five castle-themed games.

``create_app`` is the Flask application factory (``flask --app companion run`` finds it).
"""

from __future__ import annotations

import functools
import hashlib
import os
import secrets
from datetime import timedelta
from pathlib import Path

import sqlalchemy as sa
from flask import Flask, current_app, g, url_for
from flask.globals import _cv_app, _cv_request
from markupsafe import Markup

from companion import db, games, i18n, netinfo, pagecache, ratelimit, security, store, templating, web

PACKAGE_DIR = Path(__file__).resolve().parent
# How often a table's other phones ask whether it changed. A poll of an unchanged table is a
# cheap 304, and a move made at a random moment is seen after at most one interval plus an
# answer: 0.8 s keeps that under a second at the 95th percentile (docs/deploy.md has the figures).
POLL_SECONDS = 0.8


class Castellan(Flask):
    """Flask, finding out once per function whether it is a coroutine (``ensure_sync``), not at every
    call: Flask asks for every hook, view and context processor of every request (twenty for a move
    answer), and each answer cost ``inspect`` a few microseconds. Castellan has no async function."""

    SYNC_KEPT = 1024
    request_class = web.Request  # a posted form read the short way

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync: dict = {}

    def ensure_sync(self, func):
        sync = self._sync.get(func)
        if sync is None:
            if len(self._sync) >= self.SYNC_KEPT:  # a function made per request (after_this_request)
                self._sync.clear()
            sync = self._sync[func] = super().ensure_sync(func)
        return sync


def default_database(instance_path: str | None = None) -> str:
    """The database Castellan uses: ``CASTELLAN_DATABASE``, else ``castellan.sqlite3`` in Flask's
    instance folder (``instance_path``; by default the app's: ``instance/`` beside the package in a
    source checkout, ``<prefix>/var/companion-instance`` once installed), wherever it is run from."""
    if instance_path is None:
        instance_path = Flask(__name__, instance_relative_config=True).instance_path
    return os.environ.get("CASTELLAN_DATABASE") or os.path.join(instance_path, "castellan.sqlite3")


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: configuration, database, security, and every game's blueprint."""
    app = Castellan(__name__, instance_relative_config=True, template_folder=str(_templates_dir()))
    app.jinja_environment = templating.TemplateEnvironment  # before anything makes app.jinja_env
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE=default_database(app.instance_path),
        BASE_URL=os.environ.get("CASTELLAN_BASE_URL", ""),
        POLL_SECONDS=POLL_SECONDS,
        TABLES_PER_MINUTE=int(os.environ.get("CASTELLAN_TABLES_PER_MINUTE", "20")),
        PDFS_PER_MINUTE=int(os.environ.get("CASTELLAN_PDFS_PER_MINUTE", "30")),
        IMPORTS_PER_MINUTE=int(os.environ.get("CASTELLAN_IMPORTS_PER_MINUTE", "5")),
        RATELIMIT_STORAGE_URI=os.environ.get("CASTELLAN_RATELIMIT_STORAGE"),  # None: counted in the database
        TRUSTED_PROXIES=int(os.environ.get("CASTELLAN_TRUSTED_PROXIES", "0")),
        SWEEP_DAYS=int(os.environ.get("CASTELLAN_SWEEP_DAYS", "90")),
        LOCATION_NAME=os.environ.get("CASTELLAN_LOCATION", "Castellan"),  # where the plays happened, for BG Stats
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,
    )
    app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or _instance_secret(app.instance_path)
    if test_config:
        app.config.update(test_config)
    if app.config["BASE_URL"]:
        app.config["BASE_URL"] = netinfo.check_base_url(app.config["BASE_URL"])

    db.migrate(app.config["DATABASE"])
    if not app.config["RATELIMIT_STORAGE_URI"]:  # shared by every worker and machine
        app.config["RATELIMIT_STORAGE_URI"] = ratelimit.storage_uri(app.config["DATABASE"])
    app.teardown_appcontext(_close_db)

    registry = games.discover()
    app.extensions["castellan.games"] = registry
    if app.config["SWEEP_DAYS"]:
        with db.connect(app.config["DATABASE"]) as conn:
            store.sweep(conn, timedelta(days=app.config["SWEEP_DAYS"]), registry.game_over)
    from companion import api, errors, plays_api, plays_files, tables_api  # noqa: F401 (plays_files' routes join api.bp)
    from companion.views import tables as table_views

    # Inside the host check (security.init_app wraps it): a poll from a bad host is refused first.
    # Within it, a kept table page or live fragment is answered before Flask too (KeptPages).
    app.wsgi_app = table_views.UnchangedPolls(app, table_views.KeptPages(app, app.wsgi_app))
    security.init_app(app)
    i18n.init_app(app)

    tables_api.describe(registry.ordered())
    plays_api.describe()

    for blueprint in registry.blueprints:
        app.register_blueprint(blueprint)
    app.register_blueprint(api.bp)
    errors.init_app(app)
    security.apply_limits(app)
    web.init_compression(app)
    _init_templates(app, registry)
    return app


def get_db():
    """This request's database connection: the serving thread's own (``db.thread_connection``),
    left at teardown without a transaction."""
    app_ctx = _cv_app.get(None)  # the context ``g`` and ``current_app`` stand for, looked up once
    if app_ctx is None:
        raise RuntimeError("Working outside of application context.")
    conn = app_ctx.g.__dict__.get("db")
    if conn is None:
        conn = app_ctx.g.db = db.thread_connection(app_ctx.app.config["DATABASE"])
    return conn


def registry() -> games.Registry:
    """The games of the running app."""
    from flask import current_app

    return current_app.extensions["castellan.games"]


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
        return template_url_for("static", filename=filename, v=digests[filename])

    def game_stylesheet(slug: str) -> str | None:
        """The URL of a game's own small stylesheet, if it has one."""
        name = f"games/{slug}.css"
        if slug not in stylesheets:
            stylesheets[slug] = (Path(app.static_folder) / name).exists()
        return static_url(name) if stylesheets[slug] else None

    app.jinja_env.template_class = templating.TemplateClass
    app.jinja_env.filters["with_contents"] = web.with_contents
    app.jinja_env.filters["table_title"] = registry.said_title  # in the reader's language
    app.jinja_env.globals.update(
        url_for=template_url_for,
        static_url=static_url,
        game_stylesheet=game_stylesheet,
        all_games=registry.ordered,
        # a move form's Idempotency-Key: the form sent twice acts once (a placeholder in a kept page)
        new_token=pagecache.template_token(store.new_token),
        table_form_start=table_form_start,
        games_by_slug=registry.games,
        once=templating.once_per(i18n.current_language),
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True


def template_url_for(endpoint: str, **values) -> str:
    """``url_for`` for templates, remembering what it built: a table page builds about twenty URLs,
    the same on every view of it, and building one cost about as much as rendering its line.

    A URL is the same for the same endpoint, values and script root (Castellan has no URL
    defaults or subdomains); relative endpoints, ``_external`` and the like, values that are
    not text or numbers, and calls outside a routed request are built as ``url_for`` does.
    """
    request_ctx = _cv_request.get(None)
    if (
        request_ctx is None
        or request_ctx.url_adapter is None
        or endpoint[:1] == "."
        or not all(type(value) in (str, int) and name[:1] != "_" for name, value in values.items())
    ):
        return url_for(endpoint, **values)
    return _built_url(request_ctx.app, request_ctx.request.script_root, endpoint, tuple(values.items()))


_new_key = pagecache.template_token(store.new_token)


def table_form_start(token: str, version, action: str, cls: str) -> Markup:
    """What ``table_form`` (templates/_macros.html) writes before its fields: the form posting to the
    table's ``action`` (plain and htmx), the session's CSRF token, the version the form was drawn
    from and a fresh idempotency key, each escaped as ``{{ }}`` would.

    A move answer draws three of them or more; in the macro each cost a dozen Jinja calls, for text
    that only its address and class decide (kept, ``_form_start``) but for the tokens.
    """
    return Markup(
        _form_start(template_url_for("tables." + action, token=token), cls)
        + templating.escape_text(security.csrf_token())
        + '">\n  <input type="hidden" name="version" value="'
        + str(templating.escape_output(version))
        + '">\n  <input type="hidden" name="idempotency_key" value="'
        + templating.escape_text(_new_key())
        + '">'
    )


@functools.lru_cache(maxsize=4096)
def _form_start(url: str, cls: str) -> str:
    url, cls = templating.escape_text(url), templating.escape_text(cls)
    return (
        f'<form method="post" action="{url}" class="{cls}"\n      hx-post="{url}" hx-target="#live" hx-swap="outerHTML">'
        '\n  <input type="hidden" name="csrf_token" value="'
    )


@functools.lru_cache(maxsize=8192)
def _built_url(_app: Flask, _script_root: str, endpoint: str, values: tuple) -> str:
    return url_for(endpoint, **dict(values))
