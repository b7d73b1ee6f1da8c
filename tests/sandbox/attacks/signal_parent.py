# Signals everything it can: its parent, every process (-1), and the referee's host pid.
import os
import signal

from _common import attack_then_play, target


def attack():
    report = []
    referee = int(target() or 0)
    for label, pid in (("parent", os.getppid()), ("referee", referee), ("init", 1)):
        if pid <= 0 or pid == os.getpid():
            report.append(f"{label}: pid {pid} is not another process")
            continue
        try:
            os.kill(pid, signal.SIGKILL)
            report.append(f"{label}: signalled pid {pid}")
        except OSError as error:
            report.append(f"{label}: {error.strerror}")
    try:
        os.kill(-1, signal.SIGKILL)  # every process this uid may signal, except itself
        report.append("kill(-1) delivered")
    except OSError as error:
        report.append(f"kill(-1): {error.strerror}")
    return "BLOCKED (unless the referee or opponent died): " + "; ".join(report)


attack_then_play(attack)
