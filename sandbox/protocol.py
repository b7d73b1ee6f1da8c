"""The bot protocol (``docs/protocol.md``): JSON lines in, one move line out.

Referee → bot: ``start``, then ``turn`` per move the bot must make, then ``end``.
Bot → referee: one line per ``turn``, the move in the game's notation.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sandbox.limits import Limits

PROTOCOL_VERSION = 1

_encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


class MalformedReply(ValueError):
    """A reply line that is not text at all (bad UTF-8, control bytes, empty)."""


def encode(message: dict[str, Any]) -> bytes:
    return (_encoder.encode(message) + "\n").encode()


def bot_seed(match_seed: int, seat: int) -> int:
    """A seed for the bot's own randomness: fixed per match and seat, yet not the match seed.

    Telling a bot the match seed would let it foresee the game's chance events.
    """
    digest = hashlib.sha256(f"botleague-bot-seed:{match_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def start_message(game_id: str, options: dict[str, Any], seat: int, players: int,
                  seed: int, limits: Limits) -> dict[str, Any]:
    return {"type": "start", "protocol": PROTOCOL_VERSION, "game": game_id,
            "options": options, "seat": seat, "players": players, "seed": seed,
            "limits": limits.for_bot()}


def turn_message(number: int, observation: dict[str, Any], time_left: float,
                 time_bank: float) -> dict[str, Any]:
    return {"type": "turn", "turn": number, "observation": observation,
            "legal_moves": observation.get("legal_moves"),
            "time_left": round(time_left, 6), "time_bank": round(time_bank, 6)}


def end_message(result: dict[str, Any], seat: int) -> dict[str, Any]:
    return {"type": "end", "seat": seat, "result": result}


def parse_reply(line: bytes) -> str:
    """The move text in a reply line; raises ``MalformedReply`` for non-text."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedReply("the reply is not valid UTF-8") from None
    text = text.strip()
    if not text:
        raise MalformedReply("the reply line is empty")
    if any(ord(ch) < 32 and ch != "\t" for ch in text):
        raise MalformedReply("the reply contains control characters")
    return text
