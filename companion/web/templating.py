"""Jinja, made cheaper where a table page spends its time, with the same output.

A table page calls a few hundred macros and functions, reads a few thousand attributes of
its view (plain dicts) and writes a few thousand values. Jinja finds out at each call whether
the callable wants the context (three ``hasattr``), at each ``view.phase`` tries an attribute
first, which for a dict always fails with an exception, and makes a Markup of every value it
writes. These classes take the short way where the answer is known from the object's type,
and Jinja's own way everywhere else.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import FunctionType

import jinja2
import markupsafe
from flask.templating import Environment as FlaskEnvironment
from jinja2.runtime import Context, Macro

_DICT_ATTRIBUTES = frozenset(dir(dict))
# What ``pass_eval_context`` marks a function with (the gettext functions): the evaluation context only.
_EVAL_CONTEXT_ONLY = jinja2.pass_eval_context(lambda _eval_ctx: None).jinja_pass_arg
_STOPPED = "value was undefined because a callable raised a StopIteration exception"


class TemplateContext(Context):
    """A context whose ``call`` passes a macro, or a function that takes no context (or only the
    evaluation context: the gettext functions), its arguments directly (without the loop's
    and block's variables, which only a function taking the context would get); anything
    else as Jinja does."""

    def call(__self, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        kind = type(__obj)
        if kind is Macro:
            wants = None
        elif kind is FunctionType:
            wants = __obj.__dict__.get("jinja_pass_arg")
            if wants is not None and wants is not _EVAL_CONTEXT_ONLY:
                return super().call(__obj, *args, **kwargs)
        else:
            return super().call(__obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_loop_vars", None)
            kwargs.pop("_block_vars", None)
        try:
            return __obj(__self.eval_ctx, *args, **kwargs) if wants is not None else __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(_STOPPED)


class TemplateEnvironment(FlaskEnvironment):
    """Flask's environment, with the context above, a direct look-up of a plain dict's keys, and
    the environment's globals as every template's."""

    context_class = TemplateContext

    def make_globals(self, d):
        """A template's globals: the environment's own dict when it is given none of its own.

        Jinja gives each template a ChainMap over the environment's globals, and reads it name by
        name in Python where a dict is read in C: at each rendering (a context copies its forty
        names) and at each ``{% from ... import %}`` (to find whether the importing context has
        globals the imported template lacks, which would make its module anew): a tenth of a
        table page's rendering. Nothing in Castellan gives a template globals of its own.
        """
        return super().make_globals(d) if d else self.globals

    def getattr(self, obj, attribute):
        """``obj.attribute``: for a plain dict, and a name that is none of dict's own (``items``,
        ``get``...), its key straight away, where Jinja would first look for an attribute a dict
        cannot have."""
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def run_per_reader(filters: dict) -> None:
    """Make each of Castellan's own filters run at every rendering, for its reader.

    Jinja runs a filter given a constant (``'king' | zamek_picture_name``, ``3 | number``) once,
    when it compiles the template, and writes its answer into the compiled template for every
    later reader: a French page then named Zamek's king in Polish when a Polish reader came
    first. Jinja never does that to a filter that takes the context, so each of Castellan's
    filters (they say words, numbers and names in the reader's language) is given one."""
    for name, function in list(filters.items()):
        if getattr(function, "__module__", "").startswith("companion.") and not hasattr(
            function, "jinja_pass_arg"
        ):
            filters[name] = _per_reader(function)


def _per_reader(function: Callable) -> Callable:
    @functools.wraps(function)
    def per_reader(_context, *args, **kwargs):
        return function(*args, **kwargs)

    return jinja2.pass_context(per_reader)


class TemplateClass(jinja2.Template):
    """Jinja's template, writing ``{{ value }}`` with ``escape_output``."""

    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        """Jinja's template made from its compiled code, whose ``escape`` (the name the code writes
        each value with) is ``escape_output``."""
        template = super().from_code(environment, code, globals, uptodate)
        template.root_render_func.__globals__["escape"] = escape_output
        return template


def escape_text(text: str) -> str:
    """``text`` escaped for HTML as ``{{ text }}`` writes it, as plain text (a Markup added to a str
    would escape the str)."""
    return str(markupsafe.escape(text))


def escape_output(value):
    """``{{ value }}`` under autoescape: what ``markupsafe.escape`` writes, as plain text.

    Compiled templates call it for every value they write (thousands on a Square Tactics
    table) only to join the results into the page: a whole number is written as it is, and a
    Markup (a kept piece, a macro's HTML) not copied.
    """
    kind = type(value)
    if kind is int:
        return str(value)  # digits and a minus sign: nothing to escape
    if kind is markupsafe.Markup:
        return value  # already safe (a kept piece, a macro's HTML): escape would copy it
    return markupsafe.escape(value)


# Pieces drawn by ``once``, kept per macro (each wrapped macro has a cache of its own, made with the
# template's module, so a template reloaded starts anew), by language and arguments: at most
# PIECES_KEPT pieces a macro, the least recently used forgotten first (65 macros are wrapped;
# a piece is a few hundred characters, a Square Tactics score sheet a few thousand).
PIECES_KEPT = 2048


def once_per(variant: Callable[[], object]):
    """``once(macro)`` for templates: the macro, drawing its HTML once per ``variant()`` (the
    page's language) and arguments, and giving that HTML again for the same ones.

    For the pieces a table page draws dozens of times (a Square Tactics card, a playing card,
    a Forteresse cell's marks, a board whose cells did not change), whose HTML depends only on their arguments and the language:
    a macro call costs Jinja about as much as a small page. A template file wraps such a macro
    where it defines it (``{% set tcard = once(_tcard) %}``), so the templates importing it
    are unchanged. Arguments are told apart by type as well as value (``True`` is not ``1``);
    arguments that cannot be told apart that way (objects) draw anew each time. The key is
    values only: the macro is the cache's own, never part of its key.
    """

    def once(macro):
        @functools.lru_cache(maxsize=PIECES_KEPT, typed=True)
        def drawn_flat(_variant, *args, **kwargs):
            return macro(*args, **kwargs)

        @functools.lru_cache(maxsize=PIECES_KEPT)
        def drawn_frozen(_variant, args: tuple, kwargs: tuple):
            return macro(*map(_thawed, args), **{name: _thawed(value) for name, value in kwargs})

        def drawn(*args, **kwargs):
            if _FLAT.issuperset(map(type, args)) and (
                not kwargs or _FLAT.issuperset(map(type, kwargs.values()))
            ):
                return drawn_flat(variant(), *args, **kwargs)  # each argument its own key, with its type
            try:
                frozen = (
                    tuple(map(_frozen, args)),
                    tuple([(name, _frozen(value)) for name, value in kwargs.items()]),
                )
            except TypeError:  # an argument that is not plain data
                return macro(*args, **kwargs)
            return drawn_frozen(variant(), *frozen)

        return drawn

    return once


_AS_THEY_ARE = frozenset({str, int, type(None)})  # a key as they are: no two of them compare equal
_KEYED_AS_THEY_ARE: set[type] = set()  # types whose values are their own key (``keyed_as_they_are``)


# Arguments that are their own key once their type is known (True == 1, but not as a bool).
_FLAT: set[type] = {str, int, type(None), bool, float, markupsafe.Markup}


def keyed_as_they_are(kind: type) -> type:
    """Declare the values of ``kind`` (a named tuple, say) their own key for ``once``: immutable,
    holding only text, whole numbers, None, and values of its own fields' fixed types (so that
    values that compare equal draw alike), and hashed by Python in C instead of taken apart.
    A board of 49 cells given as such values is a key in a few microseconds."""
    _KEYED_AS_THEY_ARE.add(kind)
    _FLAT.add(kind)
    return kind


def _frozen(value):
    """``value`` as a key: plain data (text, numbers, lists, dicts) told apart by type."""
    kind = type(value)
    if kind in _AS_THEY_ARE:
        return value
    if kind is dict:
        if _AS_THEY_ARE.issuperset(map(type, value.values())):  # all text, whole numbers or None: as they are
            return (dict, tuple(value.items()))
        return (
            dict,
            tuple(
                [(key, item if type(item) in _AS_THEY_ARE else _frozen(item)) for key, item in value.items()]
            ),
        )
    if kind is list or kind is tuple:
        if _AS_THEY_ARE.issuperset(map(type, value)):
            return (kind, tuple(value))
        return (kind, tuple([item if type(item) in _AS_THEY_ARE else _frozen(item) for item in value]))
    if kind is bool or kind is float or kind is markupsafe.Markup or kind in _KEYED_AS_THEY_ARE:
        return (kind, value)
    raise TypeError(kind)


def _thawed(frozen):
    """The value ``_frozen`` made ``frozen`` from (an equal copy): what a kept piece's macro is given
    when it draws it."""
    if type(frozen) is not tuple:
        return frozen  # text, a whole number, None
    kind, value = frozen
    if kind is dict:
        return {key: _thawed(item) for key, item in value}
    if kind is list:
        return list(map(_thawed, value))
    if kind is tuple:
        return tuple(map(_thawed, value))
    return value  # a bool, a float, a Markup, a value keyed as it is
