# Leaves a daemon behind (double fork, new session) that should outlive the bot; the sandbox
# must kill it when the match ends. Then plays normally.
import os
import time

from _common import attack_then_play


def attack():
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            for fd in (0, 1, 2):
                os.close(fd)
            while True:
                time.sleep(0.1)
        os._exit(0)
    os.waitpid(pid, 0)
    return "BLOCKED (if nothing of this bot's uid is left after the match): daemon started"


attack_then_play(attack)
