"""The league's shape, as tests where import contracts cannot say it: every change of a
match's status goes through ``league/ladders/lifecycle.py``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIFECYCLE = ROOT / "league" / "ladders" / "lifecycle.py"
MATCH_STATUS = re.compile(r"\bMatchStatus\.|\b(QUEUED|RUNNING|FINISHED|FAILED|CANCELLED)\b")


def match_status_writes(path: Path) -> list[int]:
    """Lines that write a match status: ``.update(status=<a MatchStatus>)`` or
    ``x.status = <a MatchStatus>`` (a version's ``VersionStatus`` is not one)."""
    source = path.read_text()
    lines = []
    for node in ast.walk(ast.parse(source, str(path))):
        values: list[ast.expr] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in {"update", "create", "bulk_create"}:
            values = [k.value for k in node.keywords if k.arg == "status"]
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Attribute) and t.attr == "status" for t in node.targets):
            values = [node.value]
        for value in values:
            if MATCH_STATUS.search(ast.get_source_segment(source, value) or ""):
                lines.append(node.lineno)
    return sorted(lines)


def test_only_the_lifecycle_changes_a_matchs_status() -> None:
    offenders = {str(path.relative_to(ROOT)): lines
                 for path in (ROOT / "league").rglob("*.py")
                 if path != LIFECYCLE and "migrations" not in path.parts
                 and (lines := match_status_writes(path))}
    assert not offenders, f"match statuses written outside the lifecycle: {offenders}"


def test_the_check_sees_a_status_write(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("Match.objects.filter(pk=1).update(status=MatchStatus.FAILED)\n"
                     "match.status = FAILED\n"
                     "version.status = VersionStatus.REJECTED\n")
    assert match_status_writes(probe) == [1, 2]
