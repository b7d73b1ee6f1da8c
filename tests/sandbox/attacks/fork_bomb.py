# Forks without end; the pids limit must stop it and the sweep must clean up the children.
import os
import time

from _common import attack_then_play


def attack():
    made = 0
    failed = None
    for _ in range(10_000):
        try:
            pid = os.fork()
        except OSError as error:
            failed = error
            break
        if pid == 0:
            while True:  # every child keeps forking too
                try:
                    os.fork()
                except OSError:
                    time.sleep(0.05)
        made += 1
    if failed is None:
        return f"PWNED: forked {made} processes"
    return f"BLOCKED: fork failed after {made} children ({failed.strerror})"


attack_then_play(attack)
