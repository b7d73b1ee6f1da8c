"""A person at the play page, for the browser tests: wait for your turn, then choose a move
the way a person would (a click or a tap on a cell, a piece chosen, turned and flipped, an
arrow key, a swipe, a keypad button, an action's button), reading only what the page shows.
Used against the league (tests/league/test_play_browser.py) and against the stub API
(tests/viewer/test_play_page_browser.py)."""

from __future__ import annotations

import random
from typing import Any

ENDED = ("finished", "failed", "cancelled")
_MY_TURN = """([after, ended]) => {
  const root = document.querySelector("#play");
  const board = document.querySelector(".play-game");
  if (!root || !root.dataset.status) return false;
  if (ended.includes(root.dataset.status)) return "ended";
  return Number(root.dataset.step) > after && root.dataset.yourTurn === "1" &&
    board.dataset.yourTurn === "1" && !board.dataset.busy ? "turn" : false;
}"""


def step_of(page: Any) -> int:
    return int(page.eval_on_selector("#play", "e => Number(e.dataset.step || -1)"))


def wait_turn(page: Any, after: int = -1, timeout: float = 30_000) -> bool:
    """Wait until the page asks for a move at a step past ``after``; False once it ended."""
    handle = page.wait_for_function(_MY_TURN, arg=[after, list(ENDED)], timeout=timeout)
    return handle.json_value() == "turn"


def status_line(page: Any) -> tuple[str, str]:
    """The board's status line: (state, text)."""
    return page.eval_on_selector(".play-status", "e => [e.dataset.state || '', e.textContent]")


def press(page: Any, selector: str, touch: bool) -> None:
    """A tap on a phone, a click elsewhere."""
    if touch:
        page.tap(selector)
    else:
        page.click(selector)


def swipe(page: Any, selector: str, dx: float, dy: float) -> None:
    """A finger across ``selector`` (real touch events through the DevTools protocol)."""
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                          "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 6):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x + dx * i / 5, "y": y + dy * i / 5}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def cell(row: int | str, col: int | str) -> str:
    return f'.play-board .cell[data-row="{row}"][data-col="{col}"]'


def stones_move(page: Any, rng: random.Random, touch: bool) -> str:
    cells = page.eval_on_selector_all(".play-board .cell.legal", "es => es.map(e => "
                                      "[e.dataset.row, e.dataset.col])")
    row, col = rng.choice(cells)
    press(page, cell(row, col), touch)
    return f"{row},{col}"


def _turn_piece(page: Any, rng: random.Random, touch: bool, turns: dict[str, int],
                action: str, key: str) -> None:
    """Rotate or flip the chosen piece: its button (always on a phone) or, as likely, its
    key, so that both ways are exercised; counted in ``turns``."""
    if touch or rng.random() < 0.5:
        press(page, f"button[data-action={action}]", touch)
    else:
        page.keyboard.press(key)
    turns[action] += 1


def blokus_move(page: Any, rng: random.Random, touch: bool, turns: dict[str, int]) -> str:
    """Choose a piece that fits, turn and flip it (buttons, or R and F keys), hold it where
    a dot says it fits, check the preview says legal, and place it by a second tap (or
    Enter). ``turns`` counts the rotations and flips used."""
    pieces = page.eval_on_selector_all(".piece-choice:not([disabled])",
                                       "es => es.map(e => e.dataset.piece)")
    for letter in rng.sample(pieces, len(pieces)):
        press(page, f'.piece-choice[data-piece="{letter}"]', touch)
        for attempt in range(8):
            # turn or flip it (by button, or by key) before looking for a place: at least
            # one of each in a game, then as luck has it
            rotate = turns["rotate"] == 0 or (attempt and attempt % 2 == 0) or \
                (not attempt and rng.random() < 0.4)
            flip = turns["flip"] == 0 or attempt % 2 == 1 or (not attempt and rng.random() < 0.4)
            if rotate:
                _turn_piece(page, rng, touch, turns, "rotate", "r")
            if flip:
                _turn_piece(page, rng, touch, turns, "flip", "f")
            spots = page.eval_on_selector_all(".play-board .spots .spot", "es => es.map(e =>"
                                              " [e.dataset.row, e.dataset.col])")
            if not spots:
                continue
            row, col = rng.choice(spots)
            before = step_of(page)
            press(page, cell(row, col), touch)
            code = page.eval_on_selector(".play-board", "e => e.dataset.preview || ''")
            state, text = status_line(page)
            if state == "legal":
                # held there and marked legal: a second tap (or Enter) places it
                assert page.eval_on_selector(".play-board", "e => e.dataset.previewLegal") \
                    == "1", (code, text)
                if touch:
                    press(page, cell(row, col), touch)
                else:
                    page.keyboard.press("Enter")
            else:
                # the preview was already held there, so the tap placed it
                assert state == "busy" or step_of(page) != before, (state, text)
            return code
    press(page, "button[data-action=pass]", touch)
    press(page, "button[data-action=pass]", touch)
    return "X000"


def blokus_pass(page: Any, touch: bool) -> str:
    press(page, "button[data-action=pass]", touch)
    assert status_line(page)[0] == "illegal"  # "passing is for good": asked again
    press(page, "button[data-action=pass]", touch)
    return "X000"


ARROWS = {"L": "ArrowLeft", "R": "ArrowRight", "U": "ArrowUp", "D": "ArrowDown"}
SWIPES = {"L": (-120, 4), "R": (120, -6), "U": (5, -120), "D": (-3, 120)}


def g2048_move(page: Any, rng: random.Random, touch: bool) -> str:
    legal = page.eval_on_selector_all(".arrow-pad button:not([disabled])",
                                      "es => es.map(e => e.dataset.move)")
    move = rng.choice(legal)  # no strategy: a short game
    if touch:
        swipe(page, ".play-board svg", *SWIPES[move])
    else:
        page.keyboard.press(ARROWS[move])
    return move


def robots_move(page: Any, rng: random.Random, touch: bool, keys: bool = False) -> str:
    """A keypad button (or, with ``keys``, its digit key) for a free neighbouring cell."""
    legal = page.eval_on_selector_all(".keypad button:not([disabled])",
                                      "es => es.map(e => e.dataset.move)")
    steps = [m for m in legal if m != "0"]
    move = rng.choice(steps) if steps else "0"  # teleport only when cornered
    if keys:
        page.keyboard.press(move)
    else:
        press(page, f'.keypad button[data-move="{move}"]', touch)
    return move


def wizard_move(page: Any, rng: random.Random, touch: bool) -> str:
    """Place by tapping a cell of your half twice; then an action's button, now and then an
    arrow aimed with the row and column lists."""
    places = page.eval_on_selector_all(".play-board .cell.legal", "es => es.map(e =>"
                                       " [e.dataset.row, e.dataset.col])")
    if places:
        row, col = rng.choice(places)
        press(page, cell(row, col), touch)
        if page.eval_on_selector(".play-board", "e => e.dataset.aim") == f"place {row} {col}":
            press(page, cell(row, col), touch)
        return f"place {row} {col}"
    if page.query_selector("[data-group=arrow]") and rng.random() < 0.3:
        row, col = str(rng.randrange(10)), str(rng.randrange(20))
        page.select_option("select[data-aim=row]", row)
        page.select_option("select[data-aim=col]", col)
        press(page, "button[data-action=aim]", touch)
        return f"cast arrow {row} {col}"
    moves = page.eval_on_selector_all("button[data-move]", "es => es.map(e => e.dataset.move)")
    move = rng.choice(moves)
    press(page, f'button[data-move="{move}"]', touch)
    return move


def play_to_end(page: Any, game: str, *, touch: bool = False, seed: int = 1,
                max_moves: int = 400, blokus_pieces: int = 3, timeout: float = 30_000,
                robot_keys: bool = False) -> dict[str, Any]:
    """Make the human's moves until the game ends; what was sent and used, by kind."""
    rng = random.Random(seed)
    done: dict[str, Any] = {"moves": [], "rotate": 0, "flip": 0}
    after = -1
    while len(done["moves"]) < max_moves:
        if not wait_turn(page, after, timeout):
            return done
        after = step_of(page)
        if game == "stones":
            move = stones_move(page, rng, touch)
        elif game == "blokus_duo":
            placed = sum(1 for m in done["moves"] if m != "X000")
            move = blokus_move(page, rng, touch, done) if placed < blokus_pieces \
                else blokus_pass(page, touch)
        elif game == "g2048":
            move = g2048_move(page, rng, touch)
        elif game == "robots":
            move = robots_move(page, rng, touch, keys=robot_keys)
        else:
            move = wizard_move(page, rng, touch)
        done["moves"].append(move)
    raise AssertionError(f"{game}: not over after {max_moves} moves")
