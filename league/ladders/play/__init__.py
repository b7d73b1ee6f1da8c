"""Playing against a bot in the browser: an exhibition match with a person in one seat.

- ``services``: starting a game (who may, against whom, the limits) and a person's move,
  checked by the engine before it is passed on;
- ``inbox``: how the move reaches the worker's referee (a row, and Redis's blocking pop as the
  doorbell when there is Redis; the database polled on the embedded default);
- ``seat``: the person's seat on the worker, a ``sandbox.MoveSource``;
- ``state``: what the play page reads (the person's own view only), with a long poll.

The bot's replies travel as every running match's moves do (``ladders.live``), published at
once. docs/play.md tells the whole story.
"""
