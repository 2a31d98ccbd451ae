"""How a translated sentence's words meet the values put into it.

A sentence is translated whole, with its names as parameters ("Au tour de %(name)s"), but
some languages change the word before a name to suit the name:

- French drops a vowel before a vowel: "d'Ann", "qu'Émile", never "de Ann". A default name
  takes its article: "du joueur 2", "au joueur 2", "de l'équipe Ola", "par le joueur 2", "contre
  l'équipe Ola", never "de Joueur 2", and so does one that is the subject after a comma or a
  semicolon ("…, le joueur 2 poursuit"). A court card said in words is named by its own
  article: "pose la dame de cœur", "prend l'as de pique", not "la carte dame de cœur". The score
  pad's name is a common noun: "jouer au bloc de score", "les parties du bloc de score".
- Polish does not repeat the noun a default name starts with: "kolej gracza nr 2", "w drużynie
  Ola", never "gracza Gracz 2"; after a preposition a default name is that noun in the case the
  preposition asks for ("przeciw graczowi nr 2", "dla drużyny Ola", "przez gracza A"); a compass
  seat stands alone in the genitive ("kolej Wschodu", not "kolej gracza Wschód"); and a court
  card said in words takes the case of the "karta" before it, which then goes: "kładzie damę
  kier", "za spalenie króla pik", never "kartę dama kier".

When a catalog is loaded (``fit_catalog``), each of its sentences that puts a parameter right
after such a word (or after the word and an opening tag: "de <strong>%(name)s") becomes a
``Joined`` string; formatting it with ``%`` fits those words to the values given. Every other
sentence stays a plain ``str`` and costs nothing more. The rules are written for the way
Castellan's own sentences put names, numbers and cards into them: a value that is a number
never changes anything, and a name a person typed is only ever elided.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

# A tag around a value (a name in <b>) does not count: the first letter read is what matters.
_TAG = re.compile(r"<[^>]*>")
_VOWELS = frozenset("aeiouàâäéèêëîïôöùûüœæ")

# French: the word, its parameter. "à" and the other prepositions only change before a default
# name, and not between two names ("%(first)s contre %(second)s": a title keeps both as they are).
# A comma or semicolon counts when a lower-case word follows the name: the name is a subject
# ("…, %(name)s poursuit"), not an item of a list.
_FRENCH_PREPOSITIONS = "par|Par|pour|Pour|contre|Contre|avec|Avec|sur|Sur|dans|Dans"
_FRENCH = re.compile(
    rf"(?P<word>(?<![\w'’])(?:de|De|que|Que|à|À|(?<!\)s )(?:{_FRENCH_PREPOSITIONS})|(?<!de )la carte)"
    r"|(?P<mark>[,;])) (?P<tag><[a-z]+>)?%\((?P<name>\w+)\)s(?(mark)(?= [a-zàâçéèêëîïôûù]))"
)
# "la carte %(card)s" said of a court card in words is the card itself: "la dame de cœur", "l'as
# de pique" (a number's card keeps it: "la carte 7 de cœur"). Not "La carte" opening a sentence, nor
# "de la carte": what follows agrees with "carte" ("La carte … est déjà posée").
_FRENCH_COURT = {"as": "l'", "valet": "le ", "dame": "la ", "roi": "le "}
_FRENCH_CARDS = frozenset({"card", "covered"})
_FRENCH_PLAYER = re.compile(r"Joueur (?=(?:[0-9]+|[A-Z])$)")
_FRENCH_TEAM = re.compile(r"Équipe (?=.)", re.S)
# A game's name that is a common noun, not a title: "jouer au bloc de score", "les parties du bloc
# de score" (but "jouer à Forteresse").
_FRENCH_COMMON = re.compile(r"Bloc (?=de score\b)")
# The word before a default name, by what the name is: (a player, a team); the name itself is
# then written in lower case, "du joueur 2", "de l'équipe Ola".
_FRENCH_ARTICLES = {
    "de": ("du ", "de l'"),
    "De": ("Du ", "De l'"),
    "à": ("au ", "à l'"),
    "À": ("Au ", "À l'"),
    "que": ("que le ", "que l'"),
    "Que": ("Que le ", "Que l'"),
    **{word: (f"{word} le ", f"{word} l'") for word in (*_FRENCH_PREPOSITIONS.split("|"), ",", ";")},
}
_FRENCH_ELIDED = {"de": "d'", "De": "D'", "que": "qu'", "Que": "Qu'"}

# Polish: any form of "gracz" or "drużyna" right before the parameter, or "karta" in a case
# before a card ("kładzie kartę %(card)s"): a court card's rank then takes the case itself.
# Or a preposition a default name follows, which then takes the case the preposition asks for.
_POLISH = re.compile(
    r"(?<!\w)(?P<word>(?:[Gg]racz|[Dd]rużyn)\w*|[Kk]art[ęy]|[Kk]arcie|[Kk]artą"
    r"|[Pp]rzeciw(?:ko)?|[Pp]rzez|[Dd]la|[Oo]d|[Dd]o|[Bb]ez|[Uu])"
    r" (?P<tag><[a-z]+>)?%\((?P<name>\w+)\)s"
)
_POLISH_CARDS = frozenset({"card", "covered"})  # the parameters that are a card
# A court card's rank word in the case of the "karta" before it (the accusative, genitive,
# locative and instrumental); a number's card keeps its word: "kartę 7 kier".
_POLISH_RANKS = {
    "as": {"kartę": "asa", "karty": "asa", "karcie": "asie", "kartą": "asem"},
    "walet": {"kartę": "waleta", "karty": "waleta", "karcie": "walecie", "kartą": "waletem"},
    "dama": {"kartę": "damę", "karty": "damy", "karcie": "damie", "kartą": "damą"},
    "król": {"kartę": "króla", "karty": "króla", "karcie": "królu", "kartą": "królem"},
}
_POLISH_NUMBERED = re.compile(r"Gracz (?=[0-9]+$)")
_POLISH_LETTERED = re.compile(r"Gracz (?=[A-Z]$)")
_POLISH_TEAM = re.compile(r"Drużyna (?=.)", re.S)
# A seat named by its compass point (Castle's) is its own noun after "gracza": "kolej Wschodu",
# not "kolej gracza Wschód".
_POLISH_COMPASS = {"Północ": "Północy", "Wschód": "Wschodu", "Południe": "Południa", "Zachód": "Zachodu"}
# A default name after a preposition, by the case it asks for: (a player, a team, the compass
# seats' forms). "przeciw" takes the dative, "przez" the accusative, the others the genitive.
_DATIVE = (
    "graczowi",
    "drużynie",
    {"Północ": "Północy", "Wschód": "Wschodowi", "Południe": "Południu", "Zachód": "Zachodowi"},
)
_ACCUSATIVE = ("gracza", "drużynę", {})
_GENITIVE = ("gracza", "drużyny", _POLISH_COMPASS)
_POLISH_PREPOSITIONS = {
    "przeciw": _DATIVE,
    "przeciwko": _DATIVE,
    "przez": _ACCUSATIVE,
    **dict.fromkeys(("dla", "od", "do", "bez", "u"), _GENITIVE),
}


def _read(value: object) -> str | None:
    """The text a value shows (Markup without its tags); None for a value that is not text (a number)."""
    if not isinstance(value, str):
        return None
    return _TAG.sub("", value).lstrip() if hasattr(value, "__html__") and "<" in value else value


def _rewritten(value: str, word: str, by: str) -> str:
    """``value`` (plain or Markup, kept so) with its first ``word`` (the one its text starts
    with: a tag holds no such word) replaced by ``by``."""
    return type(value)(str(value).replace(word, by, 1))


def _french(word: str, value: object, name: str) -> tuple[str, object]:
    shown = _read(value)
    if not shown:
        return f"{word} ", value
    if word.endswith("carte"):
        article = _FRENCH_COURT.get(shown.split(" ", 1)[0]) if name in _FRENCH_CARDS else None
        if article is None:
            return f"{word} ", value
        return article, value
    if _FRENCH_PLAYER.match(shown):
        return _FRENCH_ARTICLES[word][0], _rewritten(value, "Joueur ", "joueur ")
    if name == "game" and _FRENCH_COMMON.match(shown):
        return _FRENCH_ARTICLES[word][0], _rewritten(value, "Bloc ", "bloc ")
    if _FRENCH_TEAM.match(shown):
        return _FRENCH_ARTICLES[word][1], _rewritten(value, "Équipe ", "équipe ")
    if word in _FRENCH_ELIDED and shown[0].lower() in _VOWELS:
        return _FRENCH_ELIDED[word], value
    return f"{word} ", value


def _polish(word: str, value: object, name: str) -> tuple[str, object]:
    shown = _read(value)
    if shown:
        if word.lower() in _POLISH_PREPOSITIONS:
            return _polish_after(word, value, shown)
        if word[0] in "Kk":
            rank = shown.split(" ", 1)[0]
            if name in _POLISH_CARDS and rank in _POLISH_RANKS:
                declined = _POLISH_RANKS[rank][word.lower()]
                declined = declined.capitalize() if word[0] == "K" else declined
                return "", _rewritten(value, rank, declined)  # "kładzie damę kier", not "kartę dama kier"
        elif word[0].lower() == "g":
            if word == "gracza" and shown in _POLISH_COMPASS:
                return "", _rewritten(value, shown, _POLISH_COMPASS[shown])
            if _POLISH_NUMBERED.match(shown):
                return f"{word} ", _rewritten(value, "Gracz ", "nr ")
            if _POLISH_LETTERED.match(shown):
                return f"{word} ", _rewritten(value, "Gracz ", "")
        elif _POLISH_TEAM.match(shown):
            return f"{word} ", _rewritten(value, "Drużyna ", "")
    return f"{word} ", value


def _polish_after(word: str, value: object, shown: str) -> tuple[str, object]:
    """A default name after a preposition as its noun in the preposition's case: "przeciw
    graczowi nr 2", "dla drużyny Ola", "u Wschodu"; any other name as it is."""
    player, team, compass = _POLISH_PREPOSITIONS[word.lower()]
    if _POLISH_NUMBERED.match(shown):
        return f"{word} ", _rewritten(value, "Gracz ", f"{player} nr ")
    if _POLISH_LETTERED.match(shown):
        return f"{word} ", _rewritten(value, "Gracz ", f"{player} ")
    if _POLISH_TEAM.match(shown):
        return f"{word} ", _rewritten(value, "Drużyna ", f"{team} ")
    if shown in compass:
        return f"{word} ", _rewritten(value, shown, compass[shown])
    return f"{word} ", value


class Joined(str):
    """A translated sentence with a word that changes with the value after it (see the module);
    each language's sentences are of its own subclass, which says how its words fit.

    ``sentence % values`` fits each such word to its value; ``fitted(values)`` gives the sentence
    and values to format instead, for formatting done elsewhere (markupsafe's).
    """

    __slots__ = ()
    pattern: re.Pattern
    fit: Callable[[str, object, str], tuple[str, object]]

    def fitted(self, values: Mapping) -> tuple[str, Mapping]:
        """The plain sentence and its values, each fitted word written out; a value the fitting
        changes ("Joueur 2" read as "joueur 2" after "du") is passed under a key of its own, so
        that the same name elsewhere in the sentence is left as it is."""
        fit = type(self).fit
        changed: dict[str, object] = {}

        def one(match: re.Match) -> str:
            word, tag, name = match["word"], match["tag"] or "", match["name"]
            if name not in values:
                return match.group(0)  # formatting says what is missing
            before, value = fit(word, values[name], name)
            if value is values[name]:
                return f"{before}{tag}%({name})s"
            key = f"{name}|{len(changed)}"
            changed[key] = value
            return f"{before}{tag}%({key})s"

        text = self.pattern.sub(one, str(self))
        return text, ({**values, **changed} if changed else values)

    def __mod__(self, values):
        if not isinstance(values, Mapping):
            return str.__mod__(str(self), values)
        return str.__mod__(*self.fitted(values))


class _FrenchJoined(Joined):
    __slots__ = ()
    pattern = _FRENCH
    fit = staticmethod(_french)


class _PolishJoined(Joined):
    __slots__ = ()
    pattern = _POLISH
    fit = staticmethod(_polish)


_JOINED: dict[str, type[Joined]] = {"fr": _FrenchJoined, "pl": _PolishJoined}


def joined(text: str, lang: str) -> str:
    """``text`` as a ``Joined`` sentence if ``lang`` fits words to values and ``text`` has such a
    word before a parameter, else ``text`` itself."""
    kind = _JOINED.get(lang)
    if kind is None or type(text) is not str or "%(" not in text or not kind.pattern.search(text):
        return text
    return kind(text)


def fit_catalog(catalog, lang: str):
    """Make each sentence of a loaded catalog (a ``gettext.GNUTranslations``, ``_catalog`` its
    table of translated sentences, singular and plural forms alike) that needs it ``Joined``.
    Doing it again changes nothing."""
    table = getattr(catalog, "_catalog", None)
    if table and lang in _JOINED:
        for key, text in table.items():
            if type(text) is str:
                table[key] = joined(text, lang)
    return catalog
