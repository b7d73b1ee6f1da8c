"""``python -m games`` as people and checks use it: real subprocesses, real exit codes."""

from __future__ import annotations

import json
import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "games", *args], capture_output=True,
                          text=True, timeout=60)


def test_list_shows_games_options_and_defaults():
    out = run("list")
    assert out.returncode == 0
    assert "blokus_duo" in out.stdout and "stones" in out.stdout
    assert "size        int   default 5       range 2..9" in out.stdout
    listed = json.loads(run("list", "--json").stdout)
    assert {g["id"] for g in listed} >= {"blokus_duo", "stones"}


def test_legal_prints_one_move_per_line():
    out = run("legal", "blokus_duo")
    lines = out.stdout.split()
    assert out.returncode == 0 and len(lines) == 415 and lines[-1] == "X000"
    assert run("legal", "stones", "--options", '{"size": 3}', "--moves", "0,0").stdout.split() \
        == ["0,2", "1,2", "2,0", "2,1", "2,2"]


def test_legal_after_moves_with_semicolons():
    out = run("legal", "stones", "--moves", "0,0;4,4")
    assert out.returncode == 0 and "2,2" in out.stdout.split() and "0,1" not in out.stdout


def test_show_prints_the_board_and_the_result_when_over():
    out = run("show", "blokus_duo", "--moves", "U044,X000,X000")
    assert out.returncode == 0
    assert " 5 . . . O O O" in out.stdout
    assert "player 0 wins (5 : 0)" in out.stdout
    shown = json.loads(run("show", "stones", "--moves", "2,2", "--as", "1", "--json").stdout)
    assert shown["player"] == 1 and shown["to_move"] == 1


def test_an_illegal_move_exits_non_zero_with_its_index_and_reason():
    out = run("show", "blokus_duo", "--moves", "U044,U099,A011")
    assert out.returncode == 1
    assert out.stderr.strip() == ("error: illegal move at index 2 ('A011'): the piece touches "
                                  "none of your pieces corner to corner")
    assert out.stdout == ""


def test_bad_input_is_a_one_line_error_not_a_traceback():
    for args, message in (
            (("show", "chess"), "unknown game 'chess'"),
            (("legal", "stones", "--options", '{"size": 12}'), "option 'size': 12 is out of range"),
            (("legal", "stones", "--options", "{size"), "--options is not valid JSON"),
            (("show", "stones", "--as", "5"), "--as must be a seat 0..1")):
        out = run(*args)
        assert out.returncode == 2, args
        assert message in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


def test_demo_shows_each_game_with_its_own_strongest_player():
    out = run("demo", "stones", "robots")
    assert out.returncode == 0
    assert "=== Stones: perfect vs random (seed 1) ===" in out.stdout
    assert "=== Robots: safe (seed 1) ===" in out.stdout


def test_the_showcase_player_is_never_a_generic_one():
    from games import game_ids
    from games.players import player_names, showcase_player

    expected = {"blokus_duo": "greedy", "g2048": "expectimax", "robots": "safe",
                "stones": "perfect", "wizard_duel": "hunter"}
    assert {g: showcase_player(g) for g in game_ids()} == expected
    assert all(player_names(g)[-1] == "montecarlo" for g in expected if g != "wizard_duel")
