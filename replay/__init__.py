"""botleague's replays: a match's record, the frames the engine re-derives from it, the
viewer's data, a self-contained HTML file of a match, and a summary of many.

It needs only ``games/``: the sandbox writes records, the league stores and serves them, and
the viewer (``viewer/``) draws the frames; none of them is needed to read a replay.

    from replay import FrameSource, MatchRecord

    record = MatchRecord.load("match.json")
    frames = FrameSource.from_record(record).frames(0, 10, "spectator")
"""

from replay.frames import FrameSource
from replay.record import MatchRecord, MoveRecord, PlayerRecord

__all__ = ["FrameSource", "MatchRecord", "MoveRecord", "PlayerRecord"]
