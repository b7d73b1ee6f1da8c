# Looks for another bot's files: at the host path the test names, and anywhere it can see.
import os

from _common import attack_then_play, target

SECRET_NAME = "victim-secret.txt"


def attack():
    host_path = target()
    try:
        with open(host_path) as f:
            return f"PWNED: read {host_path}: {f.read()[:40]}"
    except OSError as error:
        first = f"{host_path}: {error.strerror}"
    seen = 0
    for root in ("/bot", "/tmp", "/opt", "/home", "/root", "/var", "/srv", "/work", "/run"):
        for dirpath, _dirs, files in os.walk(root):
            seen += len(files)
            if SECRET_NAME in files:
                return f"PWNED: found {os.path.join(dirpath, SECRET_NAME)}"
    return f"BLOCKED: {first}; scanned {seen} files"


attack_then_play(attack)
