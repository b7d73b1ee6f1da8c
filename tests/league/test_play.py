"""Playing against bots through the play API, on a live league (gunicorn and a real play
worker on PostgreSQL and Redis) with real sandboxed bots: whole games to their end, a move
the engine refuses, a solo game beside the bots' scores on its seed, a bot that crashes, and
a game of hidden information that shows nobody more than their seat may know."""

from __future__ import annotations

import json
import re
import statistics
from typing import Any

import pytest
import requests

import games
from league.ladders.models import Exhibition, LiveMove, Match, Participant
from tests.league.play_world import PlayLeague
from tests.league.play_world import play_league as play_league  # the fixture

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def first_legal(state: dict[str, Any]) -> str:
    return state["legal_moves"][0]


def test_stones_against_the_perfect_player_is_played_to_the_end_and_replayable(
        play_league: PlayLeague) -> None:
    alice = play_league.login("alice")
    match = play_league.start(alice, opponent="builtin:perfect", game="stones", seat=1)
    state = play_league.state(alice, match)
    assert state["match"] == match and state["game"] == "stones" and state["seat"] == 1
    assert state["players"] == [{"seat": 0, "name": "built-in perfect", "human": False},
                                {"seat": 1, "name": "you (alice)", "human": True}]
    end = play_league.play_out(alice, match, first_legal)
    assert end["status"] == "finished" and end["to_move"] is None and not end["your_turn"]
    assert end["result"]["winner"] == 0, end["result"]  # the perfect player wins Stones
    assert end["result"]["text"].startswith("built-in perfect wins")
    assert end["step"] == len(end["moves"]) > 2
    with play_league.orm():
        row = Match.objects.get(pk=match)
        assert (row.kind, row.status, row.moves) == ("exhibition", "finished", end["step"])
        seats = {p.seat: p for p in Participant.objects.filter(match=row)}
        assert seats[1].player.username == "alice" and seats[0].builtin == "perfect"
        assert seats[0].mu_after is None  # unrated
    # replayable: the record replays under the engine to the same end, every move listed
    record = alice.get(f"{play_league.url}/api/matches/{match}/replay/", timeout=30).json()
    assert [m["move"] for m in record["moves"]] == [m["move"] for m in end["moves"]]
    page = alice.get(f"{play_league.url}/matches/{match}/", timeout=30).text
    assert 'id="viewer-header"' in page and "alice</a> <small>(person)</small>" in page
    listed = alice.get(f"{play_league.url}/api/matches/?kind=exhibition", timeout=30).json()
    assert match in [m["id"] for m in listed["results"]]
    # the play page now shows the end (and whoever else asks for it goes to the match page)
    assert alice.get(f"{play_league.url}/play/{match}/", timeout=30).status_code == 200
    bob = play_league.login("bob")
    answer = bob.get(f"{play_league.url}/play/{match}/", timeout=30, allow_redirects=False)
    assert answer.status_code == 302 and answer.headers["Location"] == f"/matches/{match}/"
    assert bob.get(f"{play_league.url}/api/play/{match}/", timeout=30).status_code == 404


def test_an_illegal_move_is_refused_with_the_engines_words_then_a_legal_one_is_taken(
        play_league: PlayLeague) -> None:
    alice = play_league.login("alice")
    match = play_league.start(alice, opponent=str(play_league.cast["bots"]["stones-random"]),
                              seat=0)
    state = play_league.wait_state(alice, match, lambda s: s["your_turn"])
    taken = state["frame"]["view"]["board"]
    # the ladder's board has holes drawn from the seed, so a free cell is read, not assumed
    first, second = state["legal_moves"][:2]
    assert state["step"] == 0
    refused = play_league.move(alice, match, "7,7", 0)
    assert refused.status_code == 400
    assert refused.json()["error"] == "illegal move: cell (7,7) is off the 5x5 board", refused.text
    garbage = play_league.move(alice, match, "over there", 0)
    assert garbage.status_code == 400 and garbage.json()["error"].startswith("malformed move")
    assert play_league.move(alice, match, first, 3).status_code == 409  # a step gone by
    accepted = play_league.move(alice, match, first, 0)
    assert accepted.status_code == 200 and accepted.json() == {"accepted": True}
    sent = play_league.state(alice, match)  # the turn is taken, played or not yet
    assert sent["step"] > 0 or (not sent["your_turn"] and sent["legal_moves"] == [])
    again = play_league.move(alice, match, second, 0)
    assert again.status_code == 409, again.text
    after = play_league.wait_state(alice, match, lambda s: s["step"] >= 2, what="the reply")
    assert after["moves"][0]["move"] == first and after["moves"][1]["seat"] == 1
    assert after["frame"]["view"]["board"] != taken and after["your_turn"]
    not_yours = play_league.login("carol")
    assert play_league.move(not_yours, match, after["legal_moves"][0],
                            after["step"]).status_code == 404
    no_csrf = alice.post(f"{play_league.url}/api/play/{match}/move/", timeout=30,
                         json={"move": after["legal_moves"][0], "step": after["step"]})
    assert no_csrf.status_code == 403
    end = play_league.play_out(alice, match, first_legal)
    assert end["status"] == "finished"
    # the moves reached the worker by Redis's doorbell, not the row's reading every 5 s
    assert statistics.median(play_league.replies) < 2, play_league.replies


def test_a_solo_game_ends_beside_the_bots_scores_on_its_seed(play_league: PlayLeague) -> None:
    alice = play_league.login("alice")
    seed = play_league.cast["seeds"][0]
    match = play_league.start(alice, game="g2048", seed=seed)
    state = play_league.state(alice, match)
    assert state["players"] == [{"seat": 0, "name": "you (alice)", "human": True}]
    end = play_league.play_out(alice, match, lambda s: s["legal_moves"][-1], timeout=240)
    assert end["status"] == "finished" and end["step"] > 20
    result = end["result"]
    assert result["text"] == f"you scored {int(result['scores'][0])}"
    assert result["bots_on_seed"] == [{"bot": "g2048-first", "score": pytest.approx(
        result["bots_on_seed"][0]["score"]), "match": play_league.cast["bot_run"]}]
    with play_league.orm():
        assert Match.objects.get(pk=match).seed == seed
        bot_score = Participant.objects.get(match_id=play_league.cast["bot_run"]).score
    assert result["bots_on_seed"][0]["score"] == bot_score
    refused = play_league.start_answer(alice, game="g2048", seed=123456789)
    assert "Seed 123456789 is not one of" in play_league.refusal(
        alice, refused.headers["Location"])


def test_a_bot_that_crashes_mid_game_loses_by_forfeit(play_league: PlayLeague) -> None:
    alice = play_league.login("alice")
    crasher = play_league.cast["bots"]["stones-crasher"]
    match = play_league.start(alice, opponent=str(crasher), seat=0)
    end = play_league.play_out(alice, match, first_legal)
    assert end["status"] == "finished" and end["result"]["winner"] == 0, end
    assert "forfeits: crash" in end["result"]["reason"]
    bot_page = alice.get(f"{play_league.url}/bots/{crasher}/", timeout=30).text
    assert f'href="/matches/{match}/"' in bot_page  # listed on the bot's page


def _hidden_truth(league: PlayLeague, match: int) -> tuple[int, list[str], dict[str, Any]]:
    """The match's seed, the bot's moves so far and the spectator's view now: what must
    not leak while the game runs."""
    with league.orm():
        row = Match.objects.select_related("ladder").get(pk=match)
        moves = list(LiveMove.objects.filter(match=row, attempt=row.attempts)
                     .order_by("number").values_list("seat", "move"))
        seat = Exhibition.objects.get(pk=match).seat
    state = games.make_game("wizard_duel").replay(row.seed, [m for _, m in moves])
    return row.seed, [m for s, m in moves if s != seat], state.spectator()


def test_while_a_person_plays_wizard_duel_nobody_sees_more_than_their_seat(
        play_league: PlayLeague) -> None:
    alice = play_league.login("alice")
    match = play_league.start(alice, opponent="builtin:random", game="wizard_duel", seat=0)
    state = play_league.wait_state(alice, match, lambda s: s["your_turn"])
    assert state["step"] == 0 and state["legal_moves"][0].startswith("place ")
    play_league.move(alice, match, "place 4 4", 0)
    state = play_league.wait_state(alice, match, lambda s: s["your_turn"] and s["step"] >= 2,
                                   what="the bot's placement and a turn")
    seed, bot_moves, spectator = _hidden_truth(play_league, match)
    assert bot_moves and bot_moves[0].startswith("place ")
    where = spectator["wizards"][1]  # the truth the checks look for
    hidden = [str(seed), *bot_moves]
    position = re.compile(rf'"row":\s*{where["row"]},\s*"col":\s*{where["col"]}\b')
    # The person's own state: their seat's view only; the bot's moves without their text.
    assert [m["move"] for m in state["moves"] if m["seat"] == 1] == [None] * len(bot_moves)
    view = state["frame"]["view"]
    assert view["player"] == 0 and view == _own_view(play_league, match, seed)
    assert view["opponent"] is None and not position.search(json.dumps(state))
    assert state["frame"]["move"] is None or state["frame"]["move"]["seat"] == 0 \
        or state["frame"]["move"]["move"] is None
    # Everyone else's ways in, and the person's own second tab: nothing of the game.
    clients = {"anonymous": None, "carol": play_league.login("carol"), "alice": alice}
    for who, client in clients.items():
        get = (client or requests).get
        for path, expected in [(f"/api/matches/{match}/viewer/", 403),
                               (f"/api/matches/{match}/frames/", 403),
                               (f"/api/matches/{match}/frames/?view=0", 403),
                               (f"/api/matches/{match}/frames/?view=1", 403),
                               (f"/api/matches/{match}/replay/", 404),
                               (f"/matches/{match}/replay.html", 404)]:
            answer = get(f"{play_league.url}{path}", timeout=30)
            assert answer.status_code == expected, (who, path, answer.status_code)
            _nothing_of(answer.text, hidden, position, who, path)
        for path in (f"/matches/{match}/", f"/api/matches/{match}/",
                     "/api/matches/?kind=exhibition", "/api/matches/?status=running", "/",
                     "/ladders/wizard-duel/"):
            answer = get(f"{play_league.url}{path}", timeout=30)
            assert answer.status_code == 200, (who, path, answer.status_code)
            _nothing_of(answer.text, hidden, position, who, path)
            assert 'id="viewer-header"' not in answer.text
        detail = get(f"{play_league.url}/api/matches/{match}/", timeout=30).json()
        assert detail["seed"] is None and detail["status"] == "running"
    # When it ends, everything is public again, as for any match.
    end = play_league.play_out(alice, match, first_legal, timeout=300)
    assert end["status"] == "finished"
    # the person sees what the bot did, as anyone may now (issue 38)
    theirs = [m["move"] for m in end["moves"] if m["seat"] == 1]
    assert theirs and None not in theirs and theirs[0].startswith("place "), theirs
    header = clients["carol"].get(f"{play_league.url}/api/matches/{match}/viewer/",
                                  timeout=30).json()
    assert header["seed"] == seed and header["moves"][1][1].startswith("place ")


def _own_view(league: PlayLeague, match: int, seed: int) -> dict[str, Any]:
    with league.orm():
        row = Match.objects.get(pk=match)
        moves = list(LiveMove.objects.filter(match=row, attempt=row.attempts)
                     .order_by("number").values_list("move", flat=True))
    state = games.make_game("wizard_duel").replay(seed, moves)
    view = state.observation(0)
    for key in ("legal_moves", "players", "events"):
        view.pop(key, None)
    return json.loads(json.dumps(view))


def _nothing_of(text: str, hidden: list[str], position: re.Pattern[str], who: str,
                path: str) -> None:
    """No seed, no move of the bot's, no position of the bot's wizard in ``text``."""
    for secret in hidden:
        assert secret not in text, (who, path, secret)
    assert not position.search(text), (who, path, "the bot's position")
