"""How deep a JSON body a person may send: ``MAX_DEPTH`` arrays and objects, checked on the
raw text before any parser sees it.

Python's ``json`` parses nesting by recursion: ten thousand ``[`` end in a ``RecursionError``
(a server error) after a deep descent, not in a refusal. No body the league takes nests
anywhere near ``MAX_DEPTH``. The API's parser (``league.api.parsers``) and every form field
that parses JSON check here first."""

from __future__ import annotations

import itertools
import re

MAX_DEPTH = 64

_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting_problem(text: str | bytes) -> str | None:
    """Why ``text`` is refused (nested deeper than ``MAX_DEPTH``), or None. Brackets inside
    strings do not count; an unclosed one does (the parser descends before it finds the
    end missing); anything else malformed is left to the parser to say."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")  # '"', '\\' and brackets are ASCII
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None  # the common case: too few brackets to be too deep
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    # the running depth, summed in C (a megabyte of brackets in well under 0.1 s)
    deepest = max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0)
    if deepest > MAX_DEPTH:
        return (f"the JSON is nested deeper than {MAX_DEPTH} arrays and objects; send a "
                "flatter body")
    return None
