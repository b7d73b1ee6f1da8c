# Tries to write 2 GiB wherever it can; every place must be read-only or small.
import contextlib
import os

from _common import attack_then_play

CHUNK = b"\0" * (1 << 20)


def fill(path):
    written = 0
    try:
        with open(path, "wb") as f:
            while written < (2 << 30):
                f.write(CHUNK)
                written += len(CHUNK)
                f.flush()
    except OSError as error:
        return written, error.strerror
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
    return written, None


def attack():
    report = []
    worst = 0
    for folder in ("/tmp", "/bot", os.getcwd(), "/", "/var/tmp", "/dev/shm", "/home"):
        written, error = fill(os.path.join(folder, "fill.bin"))
        worst = max(worst, written)
        report.append(f"{folder}: {written >> 20} MiB ({error})")
    verdict = "PWNED" if worst >= (1 << 30) else "BLOCKED"
    return f"{verdict}: at most {worst >> 20} MiB; " + "; ".join(report)


attack_then_play(attack)
