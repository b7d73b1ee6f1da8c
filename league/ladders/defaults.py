"""The league's starting ladders, one per game; installed by a data migration and by tests."""

from __future__ import annotations

from typing import Any

DEFAULT_LADDERS: list[dict[str, Any]] = [
    {"slug": "blokus-duo", "title": "Blokus Duo", "game": "blokus_duo", "kind": "rated",
     "limits": {"move_time": 1.0, "time_bank": 5.0}},
    # Not the rules' default empty 5 x 5, where the first player wins by taking the centre and
    # mirroring: 4 holes drawn from each seed, chosen by benchmarks/seat_balance.py
    # (docs/rules/stones.md says why; migration 0015 moved installed ladders here).
    {"slug": "stones", "title": "Stones", "game": "stones", "kind": "rated",
     "options": {"size": 5, "holes": 4}, "limits": {"move_time": 1.0, "time_bank": 2.0}},
    {"slug": "wizard-duel", "title": "Wizard Duel", "game": "wizard_duel", "kind": "rated",
     "limits": {"move_time": 0.5, "time_bank": 2.0}},
    {"slug": "2048", "title": "2048", "game": "g2048", "kind": "scored",
     "limits": {"move_time": 0.2, "time_bank": 5.0}, "seeds": list(range(101, 113))},
    {"slug": "robots", "title": "Robots", "game": "robots", "kind": "scored",
     "limits": {"move_time": 0.2, "time_bank": 5.0}, "seeds": list(range(201, 213))},
]


def ladders_install(ladder_model: Any) -> None:
    """Create the missing default ladders (existing ones are left as their staff set them)."""
    for spec in DEFAULT_LADDERS:
        fields = {k: v for k, v in spec.items() if k != "slug"}
        ladder_model.objects.get_or_create(slug=spec["slug"], defaults=fields)
