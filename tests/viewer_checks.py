"""What the viewer drew, read back from the page's data attributes, against the engine's frame
at that step: the browser tests' one way of saying "the board shows what the engine says"."""

from __future__ import annotations

from collections import Counter
from typing import Any

# Every drawn thing that carries data-* attributes, by kind, plus the drawn frame's step.
_READ = """(root) => {
  const data = (sel) => [...root.querySelectorAll(sel)].map((e) => ({...e.dataset}));
  const board = root.querySelector(".viewer-board");
  const svg = board.querySelector("svg");
  return {
    step: Number(board.dataset.step), view: board.dataset.view,
    svg: svg ? {...svg.dataset} : {},
    cells: data(".viewer-board .cell"), tiles: data(".viewer-board .tile"),
    pieces: data(".viewer-board .piece"), wizards: data(".viewer-board .wizard"),
    sightings: data(".viewer-board .sighting"), effects: data(".viewer-board .effect"),
  };
}"""

EFFECT_KINDS = {"attack", "look", "scan", "wall", "blocked", "damaged", "shielded"}


def drawn(page: Any) -> dict[str, Any]:
    return page.eval_on_selector("#viewer", _READ)


def wait_drawn(page: Any, step: int, view: str = "spectator", timeout: float = 10_000
               ) -> dict[str, Any]:
    """Wait until the board shows ``step`` in ``view``, then read it."""
    page.wait_for_function(
        """([step, view]) => { const b = document.querySelector(".viewer-board");
             return b && b.dataset.step === String(step) && b.dataset.view === view &&
                    !b.classList.contains("loading"); }""",
        arg=[step, view], timeout=timeout)
    return drawn(page)


def _grid(cells: list[dict[str, str]], key: str, rows: int, cols: int, empty: str = "."
          ) -> list[str]:
    grid = [[empty] * cols for _ in range(rows)]
    for cell in cells:
        grid[int(cell["row"])][int(cell["col"])] = cell[key]
    return ["".join(row) for row in grid]


def _cells(items: list[dict[str, str]], *keys: str) -> set[tuple[Any, ...]]:
    return {tuple(item.get(k) for k in keys) for item in items}


def check(game: str, frame: dict[str, Any], shown: dict[str, Any],
          view: str = "spectator") -> None:
    """Assert that ``shown`` (``drawn(page)``) draws ``frame`` of ``game`` in ``view``."""
    assert shown["step"] == frame["step"] and shown["view"] == view, (
        shown["step"], frame["step"], shown["view"], view)
    v = frame["view"]
    if game == "g2048":
        grid = [[0] * v["cols"] for _ in range(v["rows"])]
        for tile in shown["tiles"]:
            grid[int(tile["row"])][int(tile["col"])] = int(tile["value"])
        assert grid == v["grid"] and len(shown["tiles"]) == v["rows"] * v["cols"]
        assert shown["svg"]["score"] == str(v["score"])
    elif game in ("stones", "blokus_duo"):
        size = len(v["board"])
        assert _grid(shown["cells"], "cell", size, size, "?") == v["board"]
        last = {(str(r), str(c)) for r, c in frame["changed"]}
        ringed = _cells([c for c in shown["cells"] if c.get("last") == "1"], "row", "col")
        if game == "stones":
            last = {rc for rc in last if v["board"][int(rc[0])][int(rc[1])] == "#"}
        assert ringed == last
        if game == "blokus_duo":
            for seat in (0, 1):
                left = {p["piece"] for p in shown["pieces"]
                        if p["seat"] == str(seat) and p["left"] == "1"}
                assert left == set(v["pieces_left"][seat])
    elif game == "robots":
        wanted = {(str(r), str(c), ch) for r, row in enumerate(v["board"])
                  for c, ch in enumerate(row) if ch != "."}
        assert _cells(shown["cells"], "row", "col", "cell") == wanted
        assert shown["svg"]["level"] == str(v["level"])
        assert shown["svg"]["score"] == str(v["score"])
    elif game == "wizard_duel":
        _check_wizard(frame, shown, view)
    else:
        raise AssertionError(f"no check for {game}")


def _check_wizard(frame: dict[str, Any], shown: dict[str, Any], view: str) -> None:
    v = frame["view"]
    elements = [[None] * 20 for _ in range(10)]
    obstacles = [["."] * 20 for _ in range(10)]
    for cell in shown["cells"]:
        r, c = int(cell["row"]), int(cell["col"])
        elements[r][c] = cell["elements"]
        obstacles[r][c] = "." if cell["obstacle"] == "0" else cell["obstacle"]
    assert elements == v["map"]["elements"]
    assert ["".join(row) for row in obstacles] == v["map"]["obstacles"]
    wizards = _cells(shown["wizards"], "wizard", "row", "col", "damage")
    if view == "spectator":
        assert wizards == {(str(s), str(w["row"]), str(w["col"]), str(w["damage"]))
                           for s, w in enumerate(v["wizards"]) if w["row"] is not None}
        assert shown["sightings"] == []
    else:
        you = v["you"]
        assert wizards == ({(view, str(you["row"]), str(you["col"]), str(you["damage"]))}
                           if you["row"] is not None else set())
        seen = v["opponent"]
        assert _cells(shown["sightings"], "row", "col") == (
            {(str(seen["row"]), str(seen["col"]))} if seen else set())
        assert all(e["seat"] == view for e in shown["effects"])
    drawn_kinds = Counter(e["effect"] for e in shown["effects"] if e["effect"] in EFFECT_KINDS)
    events = frame.get("events", [])
    if view == "spectator":
        placed = {s for s, w in enumerate(v["wizards"]) if w["row"] is not None}
        events = [e for e in events if e["kind"] not in ("damaged", "shielded")
                  or e["seat"] in placed]
    wanted = Counter(e["kind"] for e in events if e["kind"] in EFFECT_KINDS and
                     (e.get("cell") is not None or e["kind"] in ("damaged", "shielded",
                                                                  "look", "scan")))
    assert drawn_kinds == wanted


def shown_summary(record: Any, names: dict[int, str] | None = None) -> str:
    """The result as the viewer shows it: named after ``names`` (the record's own players'
    names by default), with what the game's scores count."""
    import games
    from replay.viewer_data import result_summary

    names = names if names is not None else {p.seat: p.name for p in record.players}
    return result_summary(record.result, names, games.game_class(record.game))
