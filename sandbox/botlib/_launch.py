"""Start a Python bot: put its folder and the helper library on the path, then run its main.

Run as ``python3 -I _launch.py /bot/main.py``: ``-I`` ignores the environment and the user's
site-packages, which also leaves the script's own folder off ``sys.path``, so it is added here.
"""

import os
import runpy
import sys

_LIB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    entry = sys.argv[1]
    bot_dir = os.path.dirname(os.path.abspath(entry))
    sys.path[:0] = [bot_dir, _LIB]
    sys.argv = [entry, *sys.argv[2:]]
    sys.dont_write_bytecode = True  # the bot's folder is read-only
    runpy.run_path(entry, run_name="__main__")


if __name__ == "__main__":
    main()
