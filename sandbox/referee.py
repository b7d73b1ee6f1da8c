"""The referee: plays one match of 1 or 2 bots through the engine, never trusting a bot.

All bots are launched together when the match begins, so their interpreters start in
parallel; a bot learns nothing (not even the ``start`` message) before its first turn, and is
paused as soon as the first move of the match is made. From then on, every bot not on move
is paused, so it cannot think on the other's time. Every way a bot can fail becomes a
forfeit with a reason: ``timeout``, ``crash``, ``illegal``, ``malformed``, ``output-limit``,
``memory-limit``.

A seat may instead be a ``MoveSource`` (``sandbox.seats``): moves from outside any process (a
person), asked for with the same observation and legal moves, on the source's own clock, and
judged by the same rules: an illegal move forfeits, no move in time is a ``timeout``.

A match may resume a game an earlier run began (``resume_moves``, a person's game whose
worker was lost): the stored moves are played again first, each bot sent its ``turn`` as
usual and its answer read and discarded (a deterministic bot rebuilds its memory), a
source not asked at all; then the match goes on from there.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import games
from games import IllegalMoveError, MalformedMoveError, State
from replay.record import MatchRecord, MoveRecord, PlayerRecord
from sandbox import protocol
from sandbox.backends import Backend, ExitInfo, LaunchSpec, RunningBot, get_backend
from sandbox.build import build_cpp
from sandbox.channel import Channel, Reply, Status, finish_all
from sandbox.errors import BotPackageError, SandboxError
from sandbox.forfeits import ForfeitKind
from sandbox.languages import bot_command, builtin_command
from sandbox.limits import Limits
from sandbox.match_folders import match_folder, sweep_stale_match_folders
from sandbox.packages import BotPackage, BotSpec, check_spec, readable_by_anyone, unpack
from sandbox.runtime import library_dir
from sandbox.seats import MoveRequest, MoveSource, Resigned

OnMove = Callable[[State, MoveRecord], None]
log = logging.getLogger(__name__)


@dataclass
class _Seat:
    """Everything the referee tracks for one seat during a match: a bot, or a source."""

    seat: int
    launch: LaunchSpec | None
    """How to start the seat's bot; None for a ``MoveSource``."""
    record: PlayerRecord
    bank: float
    """A bot's time bank left; a source's game time left."""
    source: MoveSource | None = None
    bot: RunningBot | None = None
    channel: Channel | None = None
    exit: ExitInfo | None = None
    done: bool = False
    greeted: bool = False
    paused: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Forfeit:
    kind: ForfeitKind
    detail: str


Seat = BotSpec | BotPackage | MoveSource | str
"""What ``run_match`` takes for each seat."""


def run_match(game_id: str, bots: Sequence[Seat], *,
              options: dict[str, Any] | None
              = None, seed: int = 0, limits: Limits | None = None,
              backend: str | Backend = "process", on_move: OnMove | None = None,
              resume_moves: Sequence[MoveRecord] = ()) -> MatchRecord:
    """Play one match and return its record.

    ``resume_moves``: the moves an earlier run of this match played (seat, move, seconds), to
    play again before going on (``_Match._replay``); each comes to ``on_move`` again.

    A bot is a path (file, folder, zip) or ``builtin:NAME`` to unpack into the match's folder,
    or a ``BotPackage`` already unpacked (the league's workers unpack each version once, into
    a read-only cache, and hand it over as it is), or a ``MoveSource``: a seat that is not a
    process (``sandbox.seats``).

    Raises ``GameError`` (unknown game, bad options), ``BotPackageError`` (a bot that cannot
    be played: bad path, no entry point, does not compile) and ``BackendUnavailable`` before
    any move is played, and ``BackendFault`` when the sandbox fails during play (a pause,
    resume or kill that did not happen, a container removed under it); everything a bot does
    wrong during play is a forfeit in the record.
    """
    game = games.make_game(game_id, options)
    specs = [b if isinstance(b, BotSpec | BotPackage | MoveSource) else BotSpec(b)
             for b in bots]
    if len(specs) != game.num_players:
        raise SandboxError(f"{game_id} is played by {game.num_players} bot(s); "
                           f"got {len(specs)}")
    limits = limits or Limits()
    engine = backend if isinstance(backend, Backend) else get_backend(backend)
    sweep_stale_match_folders()
    with match_folder() as workdir:
        seats: list[_Seat] = []
        try:
            seats = [_prepare(game.id, seat, spec, limits, engine, workdir)
                     for seat, spec in enumerate(specs)]
            return _Match(game, seed, limits, engine, seats, on_move, resume_moves).play()
        finally:
            for s in seats:
                if s.bot is not None:
                    s.bot.cleanup()


def _prepare(game_id: str, seat: int, bot: BotSpec | BotPackage | MoveSource, limits: Limits,
             backend: Backend, workdir: Path) -> _Seat:
    if isinstance(bot, MoveSource):
        bank = bot.clock.game_time
        return _Seat(seat, None, PlayerRecord(seat=seat, name=bot.name, source="",
                                              time_bank_left=bank), bank, source=bot)
    spec = bot.spec if isinstance(bot, BotPackage) else bot
    check_spec(spec)
    lib = library_dir()
    record = PlayerRecord(seat=seat, name=spec.name, source=spec.source,
                          time_bank_left=limits.time_bank)
    if spec.is_builtin:
        from games.players import player_names

        known = player_names(game_id)
        if spec.builtin_name not in known:
            raise BotPackageError(f"no built-in player {spec.builtin_name!r} for {game_id} "
                                  f"(known: {', '.join(known) or 'none'})")
        record.language = "python"
        places = backend.places_for(lib, None, None)
        launch = LaunchSpec(builtin_command(spec.builtin_name, places), limits, lib,
                            label=spec.name)
        return _Seat(seat, launch, record, limits.time_bank)
    if isinstance(bot, BotPackage) and readable_by_anyone(bot.root):
        package = bot
    else:  # a path to unpack, or a package behind a private folder a bot's uid cannot cross
        package = unpack(spec, workdir / f"seat{seat}")
    record.language, record.digest = package.language, package.digest
    build = build_cpp(package, backend, limits) if package.language == "cpp" else None
    places = backend.places_for(lib, package.root, build)
    launch = LaunchSpec(bot_command(package.language, package.entry, places), limits, lib,
                        package_dir=package.root, build_dir=build, label=spec.name)
    return _Seat(seat, launch, record, limits.time_bank)


class _Match:
    def __init__(self, game: games.Game, seed: int, limits: Limits, backend: Backend,
                 seats: list[_Seat], on_move: OnMove | None,
                 resume_moves: Sequence[MoveRecord] = ()) -> None:
        self.game = game
        self.seed = seed
        self.limits = limits
        self.backend = backend
        self.seats = seats
        self.on_move = on_move
        self.resume_moves = list(resume_moves)
        self.to_pause: list[_Seat] = []  # bots to stop once the mover outlasts pause_grace
        self.state = game.new_state(seed)
        self.record = MatchRecord(game=game.id, options=dict(game.options), seed=seed,
                                  backend=backend.name, limits=limits.to_json(),
                                  players=[s.record for s in seats],
                                  started_at=datetime.now(UTC).isoformat(timespec="seconds"))

    def play(self) -> MatchRecord:
        began = time.monotonic()
        try:
            self._launch_all()
            for s in self.seats:
                if s.source is not None:
                    s.source.start(game=self.game.id, options=dict(self.game.options),
                                   seat=s.seat, players=self.game.num_players)
            self._replay()
            while (seat := self.state.to_move) is not None:
                forfeit = self._turn(self.seats[seat])
                if forfeit is not None:
                    self.state.forfeit(seat, forfeit.kind, forfeit.detail)
        except BaseException as error:
            # Stopped (Ctrl-C, SIGTERM) or the sandbox failed (BackendFault): end what is
            # left, but a second failure on the way (the same broken engine, say) must not
            # hide why the match stopped. run_match's cleanup removes whatever is left.
            try:
                self._finish()
            except Exception:
                log.exception("ending the match after %s failed too", type(error).__name__)
            raise
        self._finish()
        self.record.result = self.state.result
        self.record.duration = time.monotonic() - began
        return self.record

    # -- a game resumed ---------------------------------------------------------------------
    def _replay(self) -> None:
        """Play ``resume_moves`` again: the stored move is the one played, whatever a bot
        answers now. Each bot turn gets the allowance it had when the move was first played
        (its move time, its time bank as the stored moves left it, the start-up time on its
        first): a deterministic bot thinks the same again and answered within that then, and
        a bot that never answers costs the worker no more than its moves cost the first time.
        Each seat's clock is drawn down by the stored times, not the replay's (the moves were
        played then; a slower replay is nobody's). A bot that fails during the replay (no
        answer in time, a crash) cannot go on: it forfeits once the stored moves are in."""
        failed: tuple[int, _Forfeit] | None = None
        for number, stored in enumerate(self.resume_moves):
            if self.state.to_move != stored.seat:
                raise SandboxError(f"resuming: move {number} is seat {stored.seat}'s, but "
                                   f"seat {self.state.to_move} is to move")
            s = self.seats[stored.seat]
            if s.source is not None:
                s.greeted = True
                s.bank = max(0.0, s.bank - stored.time)
            elif failed is None:
                reply, elapsed, first, allowance = self._ask_bot(s)
                if reply.status is not Status.LINE:  # a forfeit, judged as ever
                    forfeit = self._judge(s, reply.status, reply.line, elapsed, first,
                                          allowance)
                    failed = (s.seat, forfeit) if forfeit is not None else None
                s.bank = max(0.0, s.bank - max(0.0, stored.time - self.limits.move_time - (
                    self.limits.startup_time if first else 0.0)))
            s.record.time_bank_left = s.bank
            s.record.time_used += stored.time
            if self._play(s, stored.move, stored.time) is not None:
                raise SandboxError(f"resuming: stored move {number} ({stored.move!r}) is "
                                   "not legal")
        if failed is not None and self.state.to_move is not None:
            seat, forfeit = failed
            self.state.forfeit(seat, forfeit.kind, f"resuming its game: {forfeit.detail}")

    # -- one turn -------------------------------------------------------------------------
    def _turn(self, s: _Seat) -> _Forfeit | None:
        if s.source is not None:
            return self._source_turn(s, s.source)
        reply, elapsed, first, allowance = self._ask_bot(s)
        return self._judge(s, reply.status, reply.line, elapsed, first, allowance)

    def _ask_bot(self, s: _Seat) -> tuple[Reply, float, bool, float]:
        """Send the bot its turn and wait for its line: ``(reply, seconds, first,
        allowance)``. Every other bot is paused once this one has moved."""
        first = not s.greeted
        message = protocol.encode(protocol.turn_message(
            len(self.state.history), self.state.observation(s.seat),
            self.limits.move_time + s.bank + (self.limits.startup_time if first else 0.0),
            s.bank))
        allowance = self.limits.move_time + s.bank
        assert s.channel is not None and s.bot is not None
        if not first:
            s.channel.read_waiting()  # what it wrote after its last move belongs to that move
        s.channel.turn = len(self.state.history)
        if first:
            allowance += self.limits.startup_time
            s.greeted = True
            s.channel.send(self._start_message(s))
        # Write first, then continue the bot: it wakes up straight into a read that has data
        # (one context switch fewer than continuing it into an empty pipe).
        s.channel.send(message)
        s.channel.write_now()
        t0 = time.monotonic()  # before continuing it: every instant it can run is its time
        if s in self.to_pause:
            self.to_pause.remove(s)
        self._resume(s)
        reply, t0 = self._await_reply(s, t0, allowance)
        elapsed = time.monotonic() - t0
        # A solo bot has nobody to steal time from; pausing it would only cost.
        if reply.status is Status.LINE and len(self.seats) > 1:
            # The first move ends every other bot's free start-up time too.
            for other in self.seats:
                if (other is s or not other.greeted) and other not in self.to_pause:
                    self.to_pause.append(other)
            if self.limits.pause_grace == 0:
                self._pause_waiting()
        return reply, elapsed, first, allowance

    def _source_turn(self, s: _Seat, source: MoveSource) -> _Forfeit | None:
        """Ask the source for a move on its own clock; its answer is judged as a bot's."""
        self._pause_waiting()  # a person thinks for minutes: no bot runs meanwhile
        observation = self.state.observation(s.seat)
        allowance = source.clock.allowance(s.bank, first=not s.greeted)
        t0 = time.monotonic()
        resigned: Resigned | None = None
        try:
            move = source.ask(MoveRequest(
                turn=len(self.state.history), seat=s.seat, observation=observation,
                legal_moves=observation.get("legal_moves"), time_left=allowance,
                game_time_left=s.bank, deadline=t0 + allowance))
        except Resigned as given_up:
            move, resigned = None, given_up
        elapsed = time.monotonic() - t0
        s.greeted = True
        s.record.time_used += elapsed
        s.bank = max(0.0, s.bank - elapsed)
        s.record.time_bank_left = s.bank
        if resigned is not None:  # even past the clock: the person's own word ends it
            return _Forfeit(ForfeitKind.RESIGNED, str(resigned))
        if move is None or elapsed > allowance:
            return _Forfeit(ForfeitKind.TIMEOUT, f"no move within {allowance:.3g} s")
        # The first move of the match ends every bot's free start-up, as a bot's would.
        for other in self.seats:
            if other.launch is not None and not other.greeted and other not in self.to_pause:
                self.to_pause.append(other)
        return self._play(s, move, elapsed)

    def _await_reply(self, s: _Seat, t0: float, allowance: float) -> tuple[Reply, float]:
        """Wait for the mover's line; stop the others once it has thought for the grace.

        The time spent stopping them is not the mover's: its clock start moves by that much.
        """
        assert s.channel is not None
        if self.to_pause:
            reply = s.channel.request(t0 + min(self.limits.pause_grace, allowance))
            if reply.status is not Status.TIMEOUT:
                return reply, t0
            stopping = time.monotonic()
            self._pause_waiting()
            t0 += time.monotonic() - stopping
        return s.channel.request(t0 + allowance), t0

    def _pause_waiting(self) -> None:
        for other in self.to_pause:
            self._pause(other)
        self.to_pause.clear()

    def _pause(self, s: _Seat) -> None:
        if s.bot is not None and not s.paused and not s.done:
            s.bot.pause()
            s.paused = True

    def _resume(self, s: _Seat) -> None:
        if s.bot is not None and s.paused:
            s.bot.resume()
            s.paused = False

    def _launch_all(self) -> None:
        """Launch every bot now; in threads only where launching is slow (containers).

        Never for processes: bwrap's --die-with-parent is PR_SET_PDEATHSIG, which fires when
        the *thread* that spawned it exits, so a pool thread ending would kill the bot.
        """
        bots = [s for s in self.seats if s.launch is not None]
        if len(bots) <= 1 or not self.backend.parallel_launch:
            for s in bots:
                self._launch(s)
            return
        with ThreadPoolExecutor(len(bots)) as pool:
            for future in [pool.submit(self._launch, s) for s in bots]:
                future.result()

    def _launch(self, s: _Seat) -> None:
        assert s.launch is not None
        s.bot = self.backend.launch(s.launch)
        s.channel = Channel(s.bot.transport, self.limits.max_line, self.limits.max_output,
                            self.limits.log_bytes)
        s.record.started = True

    def _start_message(self, s: _Seat) -> bytes:
        return protocol.encode(protocol.start_message(
            self.game.id, dict(self.game.options), s.seat, self.game.num_players,
            protocol.bot_seed(self.seed, s.seat), self.limits))

    def _judge(self, s: _Seat, status: Status, line: bytes, elapsed: float, first: bool,
               allowance: float) -> _Forfeit | None:
        s.record.time_used += elapsed
        if status is Status.TIMEOUT:
            return _Forfeit(ForfeitKind.TIMEOUT, f"no move within {allowance:.3g} s")
        if status is Status.LINE_TOO_LONG:
            return _Forfeit(ForfeitKind.OUTPUT_LIMIT,
                            f"a reply line longer than {self.limits.max_line} bytes")
        if status is Status.OUTPUT_LIMIT:
            return _Forfeit(ForfeitKind.OUTPUT_LIMIT, f"more than {self.limits.max_output} bytes "
                            "written to stdout")
        if status is Status.EOF:
            return self._ended(s)
        over = max(0.0, elapsed - self.limits.move_time -
                   (self.limits.startup_time if first else 0.0))
        s.bank = max(0.0, s.bank - over)
        s.record.time_bank_left = s.bank
        try:
            move = protocol.parse_reply(line)
        except protocol.MalformedReply as error:
            return _Forfeit(ForfeitKind.MALFORMED, str(error))
        return self._play(s, move, elapsed)

    def _play(self, s: _Seat, move: str, elapsed: float) -> _Forfeit | None:
        """Apply the seat's move (a bot's line or a source's answer), or forfeit it."""
        try:
            self.state.apply(move)
        except MalformedMoveError as error:
            return _Forfeit(ForfeitKind.MALFORMED, str(error))
        except IllegalMoveError as error:
            return _Forfeit(ForfeitKind.ILLEGAL, f"{error.move!r}: {error.reason}")
        move_record = MoveRecord(s.seat, self.state.history[-1], elapsed)
        self.record.moves.append(move_record)
        s.record.moves += 1
        s.record.max_move_time = max(s.record.max_move_time, elapsed)
        if self.on_move is not None:
            self.on_move(self.state, move_record)
        return None

    def _ended(self, s: _Seat) -> _Forfeit:
        """The bot closed its output: it exited, crashed or was killed (memory limit)."""
        assert s.bot is not None
        s.exit = s.bot.wait(1.0)
        if s.exit is None:
            s.bot.kill()
            s.exit = s.bot.wait(5.0)
        s.done = True
        if s.exit is not None and s.exit.oom:
            return _Forfeit(ForfeitKind.MEMORY_LIMIT, f"over {self.limits.memory >> 20} MiB")
        what = s.exit.describe() if s.exit is not None else "closed its output"
        return _Forfeit(ForfeitKind.CRASH, what)

    # -- the end --------------------------------------------------------------------------
    def _finish(self) -> None:
        """Tell every live bot the result, give them ``end_grace`` to exit, then sweep.

        Each bot's end is judged on its own: all are told and have their input closed at
        once, then drained and waited for together against one deadline, and only then is
        any bot killed. Done one bot after another, a bot that keeps printing (or sleeping)
        after ``end`` used the whole grace before the next bot was even told, and that bot
        was recorded as killed.
        """
        result = self.state.result
        for s in self.seats:
            if s.source is not None:
                try:
                    s.source.end(result)
                except Exception:  # its own failure; the bots still get their end
                    log.exception("seat %s: its move source failed at the end", s.seat)
        live = [s for s in self.seats if s.bot is not None and not s.done]
        forfeit = result.forfeit if result is not None else None
        for s in live:
            assert s.bot is not None and s.channel is not None
            s.channel.read_waiting()
            s.channel.turn = len(self.state.history)  # lines written after the game ended
            if forfeit is not None and forfeit.player == s.seat and forfeit.kind in {
                    ForfeitKind.TIMEOUT, ForfeitKind.OUTPUT_LIMIT, ForfeitKind.MEMORY_LIMIT,
                    ForfeitKind.CRASH}:
                s.bot.kill()
                continue
            self._resume(s)
            if result is not None and s.greeted:
                s.channel.send(protocol.encode(protocol.end_message(result.to_json(), s.seat)))
        deadline = time.monotonic() + self.limits.end_grace
        finish_all([s.channel for s in live if s.channel is not None], deadline)
        # Look at every exit before killing anyone. A bot that already exited is not held
        # up by being looked at late; only one still running at the deadline is killed.
        for s in self.seats:
            if s.bot is not None and s.exit is None:
                s.exit = s.bot.wait(max(0.0, deadline - time.monotonic()))
        for s in self.seats:
            if s.bot is not None and s.exit is None:
                s.bot.kill()
        for s in self.seats:
            self._collect(s)

    def _collect(self, s: _Seat) -> None:
        if s.bot is None or s.channel is None:
            return
        if s.exit is None:  # killed at the deadline above
            s.exit = s.bot.wait(5.0)
        s.channel.drain(time.monotonic() + 0.5)
        s.bot.cleanup()
        s.record.exit = s.exit.describe() if s.exit is not None else "killed"
        s.record.log = s.channel.log.text()
        s.record.log_turns = s.channel.log.turns()
