"""The competitions' refusal: a request refused with nothing written, its message saying what
to change (the pages show it, the API answers it as a 400)."""


class CompetitionError(ValueError):
    """A request refused with nothing written; the message says what to change."""
