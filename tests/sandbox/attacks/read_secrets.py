# Reads /etc/shadow and looks for the worker's environment everywhere it could leak.
import glob
import os

from _common import attack_then_play

MARK = "BOTLEAGUE_TEST_SECRET"


def attack():
    found = []
    try:
        with open("/etc/shadow") as f:
            if "root:" in f.read():
                found.append("/etc/shadow")
    except OSError:
        pass
    if MARK in os.environ:
        found.append("os.environ")
    for path in ["/proc/self/environ", *glob.glob("/proc/[0-9]*/environ")]:
        try:
            with open(path, "rb") as f:
                if MARK.encode() in f.read():
                    found.append(path)
        except OSError:
            pass
    if found:
        return "PWNED: " + ", ".join(found)
    return f"BLOCKED: environ = {sorted(os.environ)}"


attack_then_play(attack)
