"""A sentence said in a template (``_()``, ``{% trans %}``) with its parameters: ``i18n.said`` writes
text and whole-number parameters itself, and must write exactly what markupsafe's ``%`` would."""

from __future__ import annotations

import pytest
from markupsafe import Markup

VALUES = ["Ola", "<b>Kuba & Ada</b>", 'say "hi"', 7, -3, 0, Markup("<em>9</em>"), 2.5, None, True, ["a"]]


@pytest.mark.parametrize("value", VALUES, ids=repr)
@pytest.mark.parametrize("text", ["Round %(n)s: done.", "%(n)s and 100%% sure", "Points: %(n)d"])
def test_a_sentences_parameter_is_written_as_markupsafe_writes_it(app, text, value):
    with app.test_request_context("/"):
        template = app.jinja_env.from_string(
            "{{ _(text, n=value) }}|{% trans n=value %}x {{ n }} y{% endtrans %}"
        )
        try:
            expected = str(Markup(text) % {"n": value})
        except (TypeError, ValueError):
            with pytest.raises((TypeError, ValueError)):
                template.render(text=text, value=value)
            return
        said, trans = template.render(text=text, value=value).split("|")
        assert said == expected
        assert trans == str(Markup("x %(n)s y") % {"n": value})


@pytest.mark.parametrize("text", ["Undo", "Fully 100%% done", "<b>as it is</b>"])
def test_a_sentence_without_parameters_is_written_as_markupsafe_writes_it(app, text):
    with app.test_request_context("/"):
        said = app.jinja_env.from_string("{{ _(text) }}").render(text=text)
    assert said == str(Markup(text) % {})
