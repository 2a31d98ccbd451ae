"""A page or its fragment, and a help page's table of contents."""

from __future__ import annotations

import re

from flask import make_response, render_template
from markupsafe import Markup, escape

from companion.http.requests import add_vary, is_htmx
from companion.i18n import say
from companion.rules.sentences import N_


def render(page: str, fragment: str, status: int = 200, **context):
    """Render the whole page, or only its fragment for htmx; the two vary by ``HX-Request``.

    The page ``{% include %}``s the fragment, so they cannot drift apart.
    """
    template = fragment if is_htmx() else page
    response = make_response(render_template(template, **context), status)
    add_vary(response, "HX-Request")
    return response


CONTENTS = N_("Contents")  # a help page's list of its sections, as a screen reader names it
_HEADING = re.compile(r'<h2(?: id="([\w-]+)")?>(.*?)</h2>', re.S)


def heading_id(title: str) -> str:
    """The in-page anchor of a help section: its title in lower case, words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", re.sub(r"<[^>]+>", "", title).lower()).strip("-")


def with_contents(html: str) -> Markup:
    """A help page's body with a table of contents first: one in-page link per ``<h2>``.

    A heading keeps its own ``id``; one without gets ``heading_id`` of its title, so every
    section can be linked to (a table page links to the section for its phase).
    """
    sections = []

    def anchor(match: re.Match) -> str:
        key = match.group(1) or heading_id(match.group(2))
        # Tags out, words as written: striptags would also make a French no-break space a plain one.
        sections.append((key, Markup(re.sub(r"<[^>]+>", "", match.group(2))).unescape().strip()))
        return f'<h2 id="{key}">{match.group(2)}</h2>'

    body = _HEADING.sub(anchor, str(html))
    links = "".join(f'<li><a href="#{key}">{escape(title)}</a></li>' for key, title in sections)
    label = escape(say(CONTENTS))
    return Markup(f'<nav class="contents" aria-label="{label}"><ol>{links}</ol></nav>\n{body}')


def clock_time(seconds: float) -> str:
    """A clock's time as a clock shows it, ``9:05`` or ``1:02:03`` (a time run out is ``0:00``): the
    same digits static/clock.js writes as it ticks on."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02}:{rest % 60:02}" if hours else f"{rest // 60}:{rest % 60:02}"
