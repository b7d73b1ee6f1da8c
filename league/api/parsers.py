"""The API's JSON parser: DRF's, after ``league.nesting`` has checked the body's depth (a
body nested thousands deep was a ``RecursionError``, a server error, inside ``json``)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from league.nesting import nesting_problem


class NestingCappedJSONParser(JSONParser):
    def parse(self, stream: IO[bytes], media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        raw = stream.read()  # its size is capped already (league.bots.uploads, MAX_BODY)
        if problem := nesting_problem(raw):
            raise ParseError(problem)
        return super().parse(io.BytesIO(raw), media_type, parser_context)
