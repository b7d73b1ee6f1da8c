"""The person's seat on the worker: a ``sandbox.MoveSource`` whose moves come from the web
through ``inbox``. The referee asks it as it would ask a bot; the seat says when it started
waiting (the page's clock), then waits for the move without using the worker's CPU."""

from __future__ import annotations

from django.utils import timezone

from games import Result
from league.ladders.claiming import Claim
from league.ladders.models import Exhibition
from league.ladders.news import match_moved
from league.ladders.play import inbox
from sandbox import MoveRequest, MoveSource, SeatClock


class PersonSeat(MoveSource):
    def __init__(self, *, claim: Claim, name: str, clock: SeatClock, resume_at: int = 0
                 ) -> None:
        self.claim = claim
        self.name = name
        self.clock = clock
        self.resume_at = resume_at
        """The step the game resumes at (a new attempt, its worker lost)."""

    def start(self, **_: object) -> None:
        if self.claim.attempt > 1:  # a move the last attempt had not played yet stands only
            # if it is for the step the game resumes at (the engine checked it there)
            inbox.forget(self.claim.match_id, move_too=True, keep_step=self.resume_at)
        match_moved(self.claim.match_id)  # claimed: the page waiting for a board is told

    def ask(self, request: MoveRequest) -> str | None:
        Exhibition.objects.filter(pk=self.claim.match_id).update(
            asked_attempt=self.claim.attempt, asked_step=request.turn,
            asked_at=timezone.now())
        return inbox.wait_for_move(self.claim.match_id, request.turn, request.deadline)

    def end(self, result: Result | None) -> None:
        inbox.forget(self.claim.match_id)


def person_seat(*, claim: Claim, resume_at: int = 0) -> PersonSeat:
    """The seat of the exhibition's person, on the clock the game was started with (a game
    resumed at step ``resume_at``)."""
    row = (Exhibition.objects.filter(pk=claim.match_id)
           .values_list("user__username", "move_time", "game_time", "first_move_time").get())
    username, move_time, game_time, first_move_time = row
    return PersonSeat(claim=claim, name=username, resume_at=resume_at,
                      clock=SeatClock(move_time=move_time, game_time=game_time,
                                      first_move_time=first_move_time))
