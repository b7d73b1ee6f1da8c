"""The viewer's frame format as docs/viewer.md states it ("The frame format"), read from the
tables between its ``<!-- contract:NAME -->`` markers, and a checker of real headers, frames
and range answers against them: the tests that use it keep that section and the code from
drifting apart."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[1] / "docs" / "viewer.md"
TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}
_CELL = re.compile(r"(?<!\\)\|")


def block(name: str) -> str:
    """The text between ``<!-- contract:name -->`` and ``<!-- /contract:name -->``."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- contract:{name} -->\n(.*?)<!-- /contract:{name} -->", text,
                      re.S)
    assert found, f"docs/viewer.md has no contract:{name} block"
    return found.group(1)


def table(name: str) -> list[list[str]]:
    """The rows of the markdown table in block ``name``, cells stripped of backticks, the
    header and separator rows left out."""
    rows = []
    for line in block(name).strip().splitlines()[2:]:
        cells = _CELL.split(line.strip().strip("|"))
        rows.append([c.strip().replace("\\|", "|").replace("`", "") for c in cells])
    return rows


def names(cell: str) -> set[str]:
    """``a, b, c`` → {"a", "b", "c"} (an empty cell: none)."""
    return {n.strip() for n in cell.split(",") if n.strip()}


@dataclass(frozen=True)
class Field:
    path: str       # "move.seat", "players[].name"
    types: tuple[str, ...]
    present: str


def fields(name: str) -> dict[str, Field]:
    out = {}
    for path, types, present, *_ in table(name):
        kinds = tuple(t.strip() for t in types.split("|"))
        assert all(k in TYPES for k in kinds), f"contract:{name}: {path} has type {types!r}"
        out[path] = Field(path, kinds, present)
    return out


def _parent(path: str) -> str:
    return path[:-2] if path.endswith("[]") else path.rpartition(".")[0]


def _key(path: str) -> str:
    return path.rpartition(".")[2]


def check(value: Any, contract: Mapping[str, Field], holds: Callable[[str], bool],
          more: Callable[[str, dict[str, Any]], Iterable[str]] = lambda path, obj: (),
          path: str = "") -> None:
    """Assert that ``value`` (found at ``path``) is what ``contract`` says: each documented
    field is there exactly when its condition ``holds``, has a documented type and holds
    what its own rows say; an object with documented fields has no others but those
    ``more(path, obj)`` allows (a game's own view fields, an event kind's)."""
    where = path or "(top)"
    if isinstance(value, dict):
        prefix = f"{path}." if path else ""
        children = {p: f for p, f in contract.items()
                    if not p.endswith("[]") and _parent(p) == path}
        if children:
            allowed = {_key(p) for p in children} | set(more(path, value))
            extra = set(value) - allowed
            assert not extra, f"{where}: fields the contract does not list: {sorted(extra)}"
        for child_path, child in children.items():
            key = _key(child_path)
            if not holds(child.present):
                assert key not in value, f"{child_path} is there but should not be " \
                                         f"({child.present})"
                continue
            assert key in value, f"{child_path} is missing ({child.present})"
            _typed(value[key], child)
            check(value[key], contract, holds, more, f"{prefix}{key}")
    elif isinstance(value, list) and f"{path}[]" in contract:
        item = contract[f"{path}[]"]
        for element in value:
            _typed(element, item)
            check(element, contract, holds, more, item.path)


def _typed(value: Any, field: Field) -> None:
    assert any(TYPES[t](value) for t in field.types), \
        f"{field.path} is {json.dumps(value, default=str)[:80]}, not {' | '.join(field.types)}"


def view_fields() -> dict[tuple[str, str], set[str]]:
    """(game, "spectator" or "seat") → the game's own view fields."""
    return {(game, view): names(own) for game, view, own in table("views")}


def event_fields() -> dict[str, set[str]]:
    return {kind: names(own) for kind, own in table("events")}


def frame_extras(game: str, view: str) -> Callable[[str, dict[str, Any]], set[str]]:
    """What a frame of ``game`` in ``view`` may hold beyond the frame table: the game's own
    view fields and each event kind's."""
    own = view_fields()[(game, "spectator" if view == "spectator" else "seat")]
    kinds = event_fields()

    def more(path: str, obj: dict[str, Any]) -> set[str]:
        if path == "view":
            return own
        if path == "events[]":
            assert obj.get("kind") in kinds, f"an event kind the contract does not list: {obj}"
            return kinds[obj["kind"]]
        return set()
    return more


def check_frame(frame: dict[str, Any], game: str, view: str, hidden: bool) -> None:
    """``frame`` of ``game`` in ``view`` ("spectator" or a seat) against the frame table."""
    board = frame["view"].get("board")
    has_board = isinstance(board, list) and bool(board) and all(
        isinstance(row, str) for row in board)
    conditions = {"always": True, "board": has_board, "hidden": hidden,
                  "spectator": view == "spectator"}
    check(frame, fields("frame"), conditions.__getitem__, frame_extras(game, view))


def module_exports() -> dict[str, bool]:
    """What a game's module may export, and whether it must."""
    return {export: required == "yes" for export, required, *_ in table("module")}


def file_data(record: Any) -> dict[str, Any]:
    """The header and frames a self-contained file of ``record`` gives the viewer."""
    from replay.html_export import replay_html

    text = replay_html(record)
    data: dict[str, Any] = json.loads(
        text.split('id="viewer-data">')[1].split("</script>")[0])
    return data


def example() -> dict[str, Any]:
    """The example frame, parsed from its code block."""
    found = re.search(r"```json\n(.*?)```", block("example"), re.S)
    assert found, "contract:example holds no json block"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def play_fields(name: str) -> dict[str, str]:
    """``play-input`` or ``play-returns``: each documented field and its type."""
    return {field: kind for field, kind, *_ in table(name)}
