"""The one exception every rules module raises: ``RuleError``, a refused move or input.

Its sentence is a marked template and its parameters (companion/rules/sentences.py), so that it
is said in the reader's language:
``RuleError("bad_round", N_("Only rounds 1 to %(last)s can be corrected."), "round", last=3)``.
"""

from __future__ import annotations

from companion.rules.sentences import Message, Plural


class RuleError(ValueError):
    """A refused move or input, said in the player's terms.

    ``code`` is a stable snake_case identifier for programs (the JSON API's
    ``error.code``, always English); ``sentence`` is the ``Message`` for a person, and
    ``message`` (and ``str()``) the same in English; ``field`` optionally names the input
    at fault (``"shot.from"``). Whoever raises it leaves the state untouched.
    """

    def __init__(self, code: str, message: str | Plural | Message, field: str | None = None, **params):
        self.sentence = message if isinstance(message, Message) else Message(message, **params)
        super().__init__(str(self.sentence))
        self.code = code
        self.field = field

    @property
    def message(self) -> str:
        """The sentence in English."""
        return str(self.sentence)

    def at(self, field: str | None) -> RuleError:
        """The same refusal naming another input (a rules module passing on a helper's refusal)."""
        return RuleError(self.code, self.sentence, field)

    def as_dict(self, say=str) -> dict:
        """The error as the API's ``error`` object, its message said by ``say`` (English by default)."""
        error = {"code": self.code, "message": say(self.sentence)}
        if self.field:
            error["field"] = self.field
        return error
