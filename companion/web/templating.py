"""Jinja, made cheaper where a table page spends its time, with the same output.

A table page calls a few hundred macros and functions, reads a few thousand attributes of
its view (plain dicts) and writes a few thousand values. Jinja finds out at each call whether
the callable wants the context (three ``hasattr``), at each ``view.phase`` tries an attribute
first, which for a dict always fails with an exception, and makes a Markup of every value it
writes. These classes take the short way where the answer is known from the object's type,
and Jinja's own way everywhere else.
"""

from __future__ import annotations

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


# Pieces drawn by ``once``: (macro, language, arguments) -> the HTML. Emptied when it holds
# PIECES_MAX pieces or PIECES_CHARS characters of HTML (a Forteresse board is about 5,000).
PIECES_MAX = 8192
PIECES_CHARS = 8_000_000
_pieces: dict = {}
_pieces_chars = [0]


def once_per(variant: Callable[[], object]):
    """``once(macro)`` for templates: the macro, drawing its HTML once per ``variant()`` (the
    page's language) and arguments, and giving that HTML again for the same ones.

    For the pieces a table page draws dozens of times (a Square Tactics card, a playing card,
    a Forteresse cell's marks, a board whose cells did not change), whose HTML depends only on their arguments and the language:
    a macro call costs Jinja about as much as a small page. A template file wraps such a macro
    where it defines it (``{% set tcard = once(_tcard) %}``), so the templates importing it
    are unchanged. Arguments are told apart by type as well as value (``True`` is not ``1``);
    arguments that cannot be told apart that way (objects) draw anew each time.
    """

    def once(macro):
        code = getattr(getattr(macro, "_func", None), "__code__", macro)

        def drawn(*args, **kwargs):
            try:
                if _FLAT.issuperset(map(type, args)) and (
                    not kwargs or _FLAT.issuperset(map(type, kwargs.values()))
                ):
                    # Each argument is its own key, told apart by its type: five parts, never equal
                    # to the four below.
                    key = (
                        code,
                        variant(),
                        args,
                        tuple(kwargs.items()) if kwargs else None,
                        (*map(type, args), *map(type, kwargs.values())) if kwargs else tuple(map(type, args)),
                    )
                else:
                    key = (code, variant(), _frozen(args), _frozen(kwargs) if kwargs else None)
                html = _pieces.get(key)
            except TypeError:  # an argument that is not plain data
                return macro(*args, **kwargs)
            if html is None:
                html = macro(*args, **kwargs)
                if PIECES_MAX:
                    if len(_pieces) >= PIECES_MAX or _pieces_chars[0] >= PIECES_CHARS:
                        _pieces.clear()
                        _pieces_chars[0] = 0
                    _pieces[key] = html
                    _pieces_chars[0] += len(html)
            return html

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
