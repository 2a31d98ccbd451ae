"""The one exception every rules module raises for a move or an input it refuses."""


class RuleError(ValueError):
    """A refused move or input, said in the player's terms.

    ``code`` is a stable snake_case identifier for programs (the JSON API's
    ``error.code``); ``message`` is one sentence for a person; ``field`` optionally
    names the input at fault (``"shot.from"``). Whoever raises it leaves the state
    untouched.
    """

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_dict(self) -> dict:
        """The error as the API's ``error`` object."""
        error = {"code": self.code, "message": self.message}
        if self.field:
            error["field"] = self.field
        return error
