# Tries to create a file and a folder in every place a bot might write besides /tmp. Only its
# small private /tmp may be writable: anything else would be storage no limit of ours bounds.
import os

from _common import attack_then_play

PLACES = ("/", "/etc", "/dev", "/dev/shm", "/dev/mqueue", "/usr", "/usr/local", "/bot",
          "/opt", "/opt/botleague", "/var", "/var/tmp", "/run", "/run/lock", "/home",
          "/root", "/srv", "/mnt", "/media")


def writable(folder):
    """How ``folder`` took a new file and a new subfolder, or None when it took neither."""
    took = []
    probe = os.path.join(folder, f"probe-{os.getpid()}")
    try:
        with open(probe, "wb") as f:
            f.write(b"x")
        took.append("file")
        os.unlink(probe)
    except OSError:
        pass
    try:
        os.mkdir(probe + "-dir")
        took.append("folder")
        os.rmdir(probe + "-dir")
    except OSError:
        pass
    return "+".join(took) or None


def attack():
    if writable("/tmp") is None:
        return "BLOCKED?? even /tmp is read-only: the probe itself is broken"
    written = [f"{place} ({how})" for place in PLACES if (how := writable(place))]
    if os.getcwd() not in PLACES and (how := writable(os.getcwd())):
        written.append(f"cwd {os.getcwd()} ({how})")
    if written:
        return "PWNED: writable outside /tmp: " + ", ".join(written)
    return "BLOCKED: only /tmp is writable"


attack_then_play(attack)
