"""Castellan in English, French and Polish: the language of each request, and saying sentences in it.

A page's language is the ``lang`` cookie (set by the switch every page carries), else the
best match of the phone's Accept-Language, else English; the JSON API follows
Accept-Language alone. Rules modules raise ``RuleError``s and describe moves with ``Message``s
(companion/rules/sentences.py); ``say`` turns either into a sentence in the reader's language,
here or, given a language, outside a request (printed sheets). docs/translating.md says how
to mark and translate a sentence.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime

from babel.core import Locale
from babel.dates import format_date, format_time
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from flask import current_app, has_request_context, request
from flask_babel import get_translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from companion.i18n import catalogs, grammar
from companion.rules import cards
from companion.rules.cards import Card
from companion.rules.errors import RuleError
from companion.rules.sentences import Either, Message, Plural, seat_name
from companion.rules.stored_sentences import load

LANGUAGES = catalogs.LANGUAGES
NAMES = {"en": "English", "fr": "Français", "pl": "Polski"}  # each language in its own words
COOKIE = "lang"
COOKIE_DAYS = 365


def select_language() -> Locale:
    """This request's language: the cookie's choice (pages only), else Accept-Language's best, else English.

    Given to Flask-Babel as its Locale, made once per language (Flask-Babel would parse the
    language's name at each request).
    """
    return _locale(_language_of(request))


def _language_of(asked) -> str:
    """The language a request (``asked``) is answered in: ``select_language``'s choice, as its name."""
    api = asked.path.startswith("/api/")
    return choose_language(None if api else asked.cookies.get(COOKIE), asked.headers.get("Accept-Language"))


@functools.cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@functools.lru_cache(maxsize=1024)
def choose_language(cookie: str | None, accept_language: str | None) -> str:
    """The language a ``lang`` cookie chose, else the best match of an Accept-Language header, else
    English (also for a poll answered before Flask, see ``views.tables.UnchangedPolls``).

    Remembered: a hall's phones send a handful of different headers, and reading one costs
    more than answering an unchanged poll.
    """
    if cookie in LANGUAGES:
        return cookie
    return parse_accept_header(accept_language, LanguageAccept).best_match(LANGUAGES, default=LANGUAGES[0])


def current_language() -> str:
    """The language this request is answered in (``"en"`` outside a request)."""
    words = _words()
    return words[0] if words else LANGUAGES[0]


def _words() -> tuple[str, NullTranslations] | None:
    """This request's language and catalog, or None outside a request of an app with Castellan's
    languages (a bare Flask app in a test has none).

    Flask-Babel finds both anew at each call (its context on ``g``, the locale, the catalog
    cache's key: a tenth of a table page); they are found once per request and kept on the
    request. The language is ``select_language``'s, and its catalog Flask-Babel's,
    asked once per language and kept on the app (``CATALOGS``): asking Flask-Babel took 20 µs
    of a move's answer.
    """
    if not has_request_context():
        return None
    asked = request._get_current_object()  # the request itself, for the proxy's look-up once
    words = getattr(asked, "castellan_words", None)
    if words is None:
        catalogs = current_app.extensions.get(CATALOGS)
        if catalogs is None:
            return None
        lang = _language_of(asked)
        catalog = catalogs.get(lang)
        if catalog is None:
            catalog = catalogs[lang] = get_translations()  # this request's language: ``select_language``'s
        words = asked.castellan_words = (lang, catalog)
    return words


def request_catalog() -> NullTranslations:
    """This request's catalog (none outside a request: English)."""
    words = _words()
    return words[1] if words else _UNTRANSLATED


_UNTRANSLATED = NullTranslations()
CATALOGS = "castellan_catalogs"  # app.extensions' key: each language's catalog as Flask-Babel gave it


@functools.cache
def translations(lang: str) -> NullTranslations:
    """The catalog of ``lang``, for saying things outside a request (printed sheets, the command line)."""
    if lang not in LANGUAGES[1:]:
        return NullTranslations()
    catalogs.compile_stale()
    return grammar.fit_catalog(Translations.load(str(catalogs.TRANSLATIONS), [lang], catalogs.DOMAIN), lang)


def say(value: object, lang: str | None = None) -> str:
    """``value`` in ``lang`` (this request's language by default): a ``RuleError``'s or a ``Message``'s
    sentence with its parameters, or a sentence marked with ``N_`` (any other string is looked up as is)."""
    words = _words() if lang is None else None
    if words:
        lang, catalog = words
    else:
        lang = lang if lang in LANGUAGES else LANGUAGES[0]
        catalog = translations(lang)
    return _said(value, lang, catalog)


def _said(value: object, lang: str, catalog: NullTranslations) -> str:
    if value is None:  # nothing to say (an optional sentence of a view)
        return ""
    if isinstance(value, RuleError):
        value = value.sentence
    if isinstance(value, str) and value.startswith(
        '{"sentence":'
    ):  # a sentence kept in a view (stored_sentences.dump)
        value = load(value)
    if isinstance(value, Message):
        return value.render(functools.partial(_translate, catalog), functools.partial(_param, lang, catalog))
    if isinstance(value, str):
        return catalog.gettext(value) if value else value
    return str(value)


def say_name(name: str, lang: str | None = None) -> str:
    """A stored player's or link's name in ``lang`` (this request's by default): an unnamed seat's
    default name ("Player 2", "North") in the reader's words, a name a person typed as typed."""
    named = seat_name(name)
    return say(named, lang) if isinstance(named, Message) else named


def _translate(catalog: NullTranslations, template: str | Plural, count: int | None) -> str:
    if isinstance(template, Plural):
        return catalog.ngettext(template.singular, template.plural, count)
    return catalog.gettext(template)


def _param(lang: str, catalog: NullTranslations, value: object) -> object:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):  # "1,5 mm" in French and Polish
        return _decimal(value, lang)
    if isinstance(value, Message):
        return value.render(functools.partial(_translate, catalog), functools.partial(_param, lang, catalog))
    if isinstance(value, Card):
        return value.label(lang)
    if isinstance(value, str) and isinstance(named := seat_name(value), Message):  # "Player 2": "Joueur 2"
        return _param(lang, catalog, named)
    if isinstance(value, Either):  # English keeps its own "a, b or c"
        words = [str(_param(lang, catalog, _as_message(item))) for item in value]
        return format_list(words, "or", lang) if lang != LANGUAGES[0] else str(Either(words))
    return value


def _as_message(item: object) -> object:
    return Message(item) if isinstance(item, str) else item


def card_label(card: Card | str, lang: str | None = None) -> str:
    """A card as the reader's language writes it (``"D♠"`` in French), from a ``Card`` or its canonical name."""
    return _card_label(str(card), lang or current_language())


def card_in_words(card: Card | str) -> str:
    """A card in words in this request's language (a screen reader's name for it): ``"dame de pique"``."""
    lang, catalog = _words() or (LANGUAGES[0], translations(LANGUAGES[0]))
    return _card_in_words(str(card), lang, catalog)


# A table page names dozens of cards and numbers, each the same every time in the same language.
@functools.lru_cache(maxsize=1024)
def _card_label(name: str, lang: str) -> str:
    return cards.parse(name).label(lang)


@functools.lru_cache(maxsize=1024)
def _card_in_words(name: str, lang: str, catalog: NullTranslations) -> str:
    return _said(cards.parse(name).in_words, lang, catalog)


def _decimal(value: int | float, lang: str) -> str:
    # 0 to 999 are their digits in every language Castellan speaks (no grouping, no sign): a move's
    # notice names a new round number every time, which Babel took a tenth of a move to write.
    return str(value) if type(value) is int and 0 <= value < 1000 else _grouped(value, lang)


@functools.lru_cache(maxsize=4096, typed=True)
def _grouped(value: int | float, lang: str) -> str:
    return format_decimal(value, locale=lang)


def rank_label(rank: str) -> str:
    """A rank (canonical: ``"Q"``) as this request's language writes it: ``"D"`` in French and Polish."""
    return cards.letters(current_language())[0].get(rank, rank)


def card_placeholder() -> str:
    """Examples of typed cards in this request's language, for a card field's placeholder."""
    ranks, suits = cards.letters(current_language())
    return f"10{suits['H']}, {ranks['Q'].lower()}♠, 7{suits['C'].lower()}"


def number(value: int | float, lang: str | None = None) -> str:
    """A number with the language's digit grouping and decimal sign (``12 345,5`` in French)."""
    return _decimal(value, lang or current_language())


def utc_time(iso: str, date: bool = False, lang: str | None = None) -> str:
    """A moment stored in UTC (ISO 8601), still in UTC, on the 24-hour clock: the time, or with ``date``
    the day as the language writes it and the time (castellan.js then rewrites it in the phone's
    own time zone). English keeps the ISO day, which reads the same on both sides of the Atlantic."""
    moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    lang = lang or current_language()
    if not date:
        return format_time(moment, "HH:mm:ss", tzinfo=UTC, locale=lang)
    day = moment.date().isoformat() if lang == LANGUAGES[0] else format_date(moment, "short", locale=lang)
    return f"{day} {format_time(moment, 'HH:mm', tzinfo=UTC, locale=lang)}"


def lang_for_print(value: str | None) -> str:
    """The language a printed sheet asked for (``?lang=``), else this request's."""
    return value if value in LANGUAGES else current_language()
