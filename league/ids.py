"""A row's id as a person sends it: in an address (the ``<id:…>`` path converter) and in a
form's field (``parse_id``). One rule for both: ASCII digits only, 1 to the largest
``bigint`` (the models' ``BigAutoField``).

Python's ``int()`` and ``str.isdigit()`` take far more than that: ``"٣"`` (Arabic-Indic
three) is 3 to ``int()``, ``"²"`` is a digit to ``isdigit()`` but not to ``int()``, and an
id past the database's integers fails inside the driver. Each was a server error or a
different bot than the one meant."""

from __future__ import annotations

import re

from django.urls import register_converter

ID_MAX = 2**63 - 1
"""The largest id a row can have (PostgreSQL's and SQLite's 64-bit integer)."""

_ID = re.compile(r"[0-9]{1,19}")  # [0-9], not \d: \d matches every script's digits


def parse_id(text: object) -> int | None:
    """The id ``text`` spells, or None when it spells none (not ASCII digits, 0, too large).
    Surrounding spaces are allowed, as a form's field strips them."""
    value = str(text).strip()
    if not _ID.fullmatch(value):
        return None
    number = int(value)
    return number if 1 <= number <= ID_MAX else None


class IdConverter:
    """``<id:name>`` in an address: an id ``parse_id`` accepts, else the address matches
    nothing (404), before any view or query sees it."""

    regex = _ID.pattern

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(f"not an id: {value}")  # Django: this pattern does not match
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
