"""Castellan's three languages: English, French and Polish (docs/translating.md).

``language`` says a sentence in the reader's language and chooses that language per request;
``catalogs`` extracts, updates and compiles the translation catalogs in ``translations/``;
``grammar`` fits a French or Polish word to the name after it. The rules mark their sentences
and never import this package.
"""

from companion.i18n.language import (
    COOKIE,
    LANGUAGES,
    NAMES,
    card_in_words,
    card_label,
    card_placeholder,
    choose_language,
    current_language,
    lang_for_print,
    number,
    rank_label,
    say,
    say_name,
    select_language,
    translations,
    utc_time,
)

__all__ = [
    "COOKIE",
    "LANGUAGES",
    "NAMES",
    "card_in_words",
    "card_label",
    "card_placeholder",
    "choose_language",
    "current_language",
    "lang_for_print",
    "number",
    "rank_label",
    "say",
    "say_name",
    "select_language",
    "translations",
    "utc_time",
]
