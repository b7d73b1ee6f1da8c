"""All engine benchmarks in one go: Blokus Duo, the solo games (2048, Robots), Wizard Duel.

    .venv/bin/python -m benchmarks.engine

Each part runs in its own process (pinned to one core, with its own same-run baseline), so
one part's warm caches do not flatter another's.
"""

from __future__ import annotations

import subprocess
import sys

PARTS = ("benchmarks.engine_blokus", "benchmarks.engine_solo", "benchmarks.engine_wizard")


def main() -> int:
    failed = 0
    for module in PARTS:
        print(f"\n##### {module}", flush=True)
        failed |= subprocess.run([sys.executable, "-m", module], check=False).returncode
    return failed


if __name__ == "__main__":
    sys.exit(main())
