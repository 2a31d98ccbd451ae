"""Guards on what Castellan copies or relies on of other libraries' behaviour, through their public API.

No private name of another library is used by companion/ (docs/architecture.md, "Borrowed
internals"); these tests fail first, and say which library changed, when a behaviour copied or
relied on no longer holds. tests/web/test_templating.py compares whole pages with plain Jinja's.
"""

from __future__ import annotations

import flask_compress.flask_compress as flask_compress
import jinja2
from markupsafe import Markup

from companion.http import compression, sessions
from companion.web import templating

HEADERS = [
    "",
    "gzip, deflate",
    "gzip, deflate, br, zstd",
    "br;q=0.5, gzip",
    "identity",
    "identity, gzip;q=0.5",
    "*",
    "*;q=0",
    "gzip;q=0",
    "gzip;q=abc",
    "BR, GZIP",
    "x, *;q=0.1",
]


def test_the_encoding_chosen_is_flask_compress_s():
    for algorithms in (("br", "gzip"), ("gzip",)):
        for header in HEADERS:
            theirs = flask_compress._choose_algorithm(algorithms, header)
            assert compression._encoding(algorithms, header) == theirs, (
                f"Flask-Compress changed how it chooses an encoding (for {header!r}): "
                "compression._encoding, which the gzip hook answers by, must follow it"
            )


def test_the_session_notes_reads_and_changes():
    session = sessions.Session({"member": "Ola"})
    with sessions.noting() as reads:
        assert session.get("member") == "Ola" and "seat" not in session
    assert reads.read == {"member": "'Ola'", "seat": sessions.MISSING} and not reads.unkept
    with sessions.noting() as reads:
        session["seat"] = "p1"
    assert reads.unkept, (
        "Werkzeug's CallbackDict no longer calls on_update on a change: sessions.Session relies on it"
    )
    assert session.modified


def _environment(app, templates: dict[str, str]) -> templating.TemplateEnvironment:
    """The app's Jinja environment over ``templates``."""
    environment = app.jinja_env.overlay(loader=jinja2.DictLoader(templates))
    assert isinstance(environment, templating.TemplateEnvironment)
    return environment


def test_a_compiled_template_writes_each_value_through_its_modules_escape(app):
    environment = _environment(app, {"page.html": "{{ text }} {{ number }} {{ html }}"})
    template = environment.get_template("page.html")
    written = []
    namespace = template.root_render_func.__globals__
    assert namespace["escape"] is templating.escape_output, (
        "Jinja's Template.from_code no longer gives the compiled code's namespace to root_render_func: "
        "templating.TemplateClass writes values with escape_output through it"
    )
    namespace["escape"] = lambda value: written.append(value) or templating.escape_output(value)
    assert template.render(text="<b>", number=3, html=Markup("<i>")) == "&lt;b&gt; 3 <i>"
    assert written == ["<b>", 3, Markup("<i>")], (
        "Jinja's compiled templates no longer write {{ value }} with the name ``escape`` of their "
        "module: templating.TemplateClass replaces that name"
    )


def test_an_imported_template_s_module_is_made_once(app):
    environment = _environment(
        app,
        {
            "m.html": "{% macro f(x) %}<{{ x }}>{% endmacro %}",
            "page.html": '{% from "m.html" import f %}{{ f(1) }}',
        },
    )
    made = []
    make_module = templating.TemplateClass.make_module

    class Counted(templating.TemplateClass):
        def make_module(self, *args, **kwargs):
            made.append(self.name)
            return make_module(self, *args, **kwargs)

    environment.template_class = Counted
    page = environment.get_template("page.html")
    assert page.globals is environment.globals
    assert [page.render(), page.render()] == ["<1>", "<1>"]
    assert made == ["m.html"], (
        "Jinja makes an imported template's module anew at each import although the template's "
        "globals are the environment's (TemplateEnvironment.make_globals): a tenth of a page's rendering"
    )
