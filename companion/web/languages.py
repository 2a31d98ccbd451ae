"""The three languages on the web: Flask-Babel with Castellan's catalogs, the language switch, the
templates' ``_()`` and ``{% trans %}``, and the Vary that keeps a cache's languages apart.

``companion.i18n`` says the sentences; this module plugs it into Flask and Jinja.
"""

from __future__ import annotations

import functools
import logging
from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, Flask, redirect, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, Domain, get_locale
from jinja2 import pass_eval_context
from markupsafe import Markup

from companion.http.requests import add_vary
from companion.i18n import catalogs, grammar, language
from companion.i18n.language import (
    COOKIE,
    COOKIE_DAYS,
    LANGUAGES,
    NAMES,
    card_in_words,
    card_label,
    card_placeholder,
    current_language,
    number,
    rank_label,
    request_catalog,
    say,
    say_name,
    select_language,
    translations,
    utc_time,
)
from companion.rules.errors import RuleError
from companion.rules.sentences import Message
from companion.web.templating import escape_text

# Values a sentence's parameters are often given as, which ``said`` writes without markupsafe's helpers.
_PLAIN_TYPES = frozenset({str, int, Markup})

bp = Blueprint("language", __name__)


def init_app(app: Flask) -> None:
    """Flask-Babel with Castellan's catalogs and language choice, and the template helpers."""
    try:
        catalogs.compile_stale()
    except OSError as error:  # an installed package whose folder is read-only was compiled when built
        logging.getLogger("castellan").warning("Translations not compiled: %s", error)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(catalogs.TRANSLATIONS))
    fitted = app.config["BABEL_TRANSLATION_DIRECTORIES"] == str(catalogs.TRANSLATIONS)
    (_FittedBabel if fitted else Babel)(app, locale_selector=select_language)
    app.extensions[language.CATALOGS] = {}  # each language's catalog, as Flask-Babel gave it (``_words``)
    app.jinja_env.policies["ext.i18n.trimmed"] = True  # {% trans %} blocks span lines in the source
    _install_gettext(app.jinja_env)
    app.jinja_env.filters.update(
        say=say,
        card_label=card_label,
        card_in_words=card_in_words,
        rank_label=rank_label,
        utc_time=utc_time,
        number=number,
        seat_name=say_name,
    )
    app.jinja_env.globals.update(
        lang=current_language, language_names=NAMES, here=here, card_placeholder=card_placeholder
    )
    app.register_blueprint(bp)
    app.after_request(_vary)
    app.json = _JSONProvider(app)


class _FittedDomain(Domain):
    """Flask-Babel's message domain, whose catalogs in Castellan's languages are ``translations``',
    their sentences' words fitted to names (``grammar``)."""

    def get_translations(self):
        """The catalog of this request's language."""
        lang = str(get_locale())
        return translations(lang) if lang in LANGUAGES[1:] else super().get_translations()


class _FittedBabel(Babel):
    """Flask-Babel giving Castellan's own catalogs (``_FittedDomain``)."""

    @functools.cached_property
    def domain_instance(self):
        """The message domain for the translations: Castellan's."""
        return _FittedDomain(domain=self.domain)


def _install_gettext(env) -> None:
    """Jinja's gettext functions on this request's catalog (``request_catalog``), as ``_()`` and ``{% trans %}`` use them.

    They do what Jinja's "newstyle" ones do (the sentence marked safe under autoescape, then
    its ``%(name)s`` filled in, escaped), taking only the evaluation context: Flask-Babel's
    looked up the request's catalog anew at each sentence, and Jinja's wrappers reach it
    through two context calls (``_`` looks ``gettext`` up by name first). A table page says
    hundreds of sentences.
    """
    env.install_gettext_callables(gettext=str, ngettext=str, newstyle=True)  # compiles {% trans %} newstyle

    def said(eval_ctx, text: str, variables: dict) -> str:
        if isinstance(
            text, grammar.Joined
        ):  # its words fitted to the values first: Markup(text) would drop them
            text, variables = text.fitted(variables)
        if not eval_ctx.autoescape:
            return text % variables
        if not variables and "%" not in text:
            return Markup(text)  # what ``Markup(text) % {}`` gives, without formatting it
        if _PLAIN_TYPES.issuperset(map(type, variables.values())):
            # What ``Markup(text) % variables`` gives: markupsafe wraps each value in a helper object
            # that escapes it when formatted (a microsecond a value); text escaped here, in C,
            # whole numbers and Markup written as they are.
            return Markup(
                text
                % {
                    name: escape_text(value) if type(value) is str else value
                    for name, value in variables.items()
                }
            )
        return Markup(text) % variables

    @pass_eval_context
    def gettext(eval_ctx, string: str, /, **variables) -> str:
        return said(eval_ctx, request_catalog().ugettext(string), variables)

    @pass_eval_context
    def ngettext(eval_ctx, singular: str, plural: str, num: int, /, **variables) -> str:
        num = variables.get("count", num)  # Jinja passes the block's first parameter; the form follows count
        variables.setdefault("num", num)
        return said(eval_ctx, request_catalog().ungettext(singular, plural, num), variables)

    @pass_eval_context
    def pgettext(eval_ctx, context: str, string: str, /, **variables) -> str:
        variables.setdefault("context", context)
        return said(eval_ctx, request_catalog().upgettext(context, string), variables)

    @pass_eval_context
    def npgettext(eval_ctx, context: str, singular: str, plural: str, num: int, /, **variables) -> str:
        variables.setdefault("context", context)
        num = variables.get("count", num)
        variables.setdefault("num", num)
        return said(eval_ctx, request_catalog().unpgettext(context, singular, plural, num), variables)

    env.globals.update(_=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext, npgettext=npgettext)


class _JSONProvider(DefaultJSONProvider):
    """Flask's JSON, with a sentence (a move's description) said in the reader's language."""

    @staticmethod
    def default(o):
        if isinstance(o, Message | RuleError):
            return say(o)
        return DefaultJSONProvider.default(o)


def here() -> str:
    """The page to come back to after choosing a language: this one, or for an answer to a form
    post, the page the form was on (a post cannot be repeated by a link)."""
    if request.method == "GET":
        return request.full_path.rstrip("?")
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path.startswith("/"):
        return referrer.path + (f"?{referrer.query}" if referrer.query else "")
    return "/"


@bp.get("/language/<lang>")
def choose(lang: str):
    """The language switch: remember ``lang`` in the cookie and go back to the page it was chosen on."""
    response = redirect(own_page(request.args.get("next", "/")), 303)
    if lang in LANGUAGES:
        response.set_cookie(
            COOKIE,
            lang,
            max_age=COOKIE_DAYS * 24 * 3600,
            samesite="Lax",
            httponly=True,
            secure=request.is_secure,  # as the session cookie: sent back over HTTPS only once it came by it
        )
    return response


# Characters a browser drops from a URL (every C0 control, DEL, and the C1 controls): "/\t/evil" is "//evil".
_DROPPED = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0)])


def own_page(text: str) -> str:
    """``text`` if it is a page of this site (a path, and a query), else ``/``.

    The controls a browser would drop are dropped first, and a backslash read as the slash a
    browser reads it as, so that no spelling of another site's address (``//evil``, ``/\\evil``,
    ``/%09/evil``, ``http:evil``) passes as a path.
    """
    cleaned = text.translate(_DROPPED).replace("\\", "/")
    parts = urlsplit(cleaned)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return "/"
    return urlunsplit(("", "", parts.path, parts.query, ""))


def _vary(response):
    # A page's words follow the cookie and the Accept-Language header: a cache must keep them apart.
    if request.endpoint != "static":
        add_vary(response, "Accept-Language", "Cookie")
    return response
