"""The hint a rejected version gets when it looks like a bot for another game (issue 38):
its first answer read in every game's notation, else its folder's or file's name."""

from __future__ import annotations

from league.bots.wrong_game import first_answer, games_named, games_reading, hint


def test_the_first_answer_is_read_back_from_the_referees_words() -> None:
    assert first_answer("malformed move '2,2': a move is 4 characters") == "2,2"
    assert first_answer("malformed move \"it's\": nope") == "it's"
    assert first_answer("no move within 16 s") is None


def test_an_answer_is_placed_in_the_games_whose_notation_reads_it() -> None:
    assert games_reading("2,2", besides="blokus_duo") == ["stones"]
    assert games_reading("U055", besides="stones") == ["blokus_duo"]
    assert "wizard_duel" in games_reading("move U", besides="g2048")
    assert games_reading("hello there", besides="stones") == []


def test_a_folder_or_file_named_for_a_game_is_noticed() -> None:
    assert games_named("stones/main.py", "stones.zip", besides="blokus_duo") == ["stones"]
    assert games_named("stones_js/main.js", "x.zip", besides="robots") == ["stones"]
    assert games_named("main.py", "main.py", besides="stones") == []
    assert games_named("stones/main.py", "stones.zip", besides="stones") == []


def test_the_hint_says_what_to_change_only_for_a_failure_on_the_first_answer() -> None:
    said = hint(game="blokus_duo", kind="malformed", detail="malformed move '2,2': a move is 4 "
                "characters", moves=0, entry="main.py", filename="main.py")
    assert said.startswith("this looks like a bot for another game: its first answer '2,2' "
                           "is not a Blokus Duo move (it reads as a Stones move)"), said
    # the Stones starter searching Blokus Duo's moves runs out of time: its folder tells
    said = hint(game="blokus_duo", kind="timeout", detail="no move within 16 s", moves=0,
                entry="stones/main.py", filename="stones.zip")
    assert "its folder 'stones/' is named for Stones" in said, said
    assert hint(game="blokus_duo", kind="malformed", detail="malformed move '2,2': x",
                moves=12, entry="main.py", filename="main.py") == ""
    assert hint(game="stones", kind="crash", detail="exited with code 3", moves=0,
                entry="main.py", filename="main.py") == ""
