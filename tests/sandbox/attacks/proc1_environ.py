# Reads the environment of the sandbox's pid 1 (bwrap's init keeps the environment it was
# started with unless the referee starts it with an empty one).
from _common import attack_then_play


def attack():
    with open("/proc/1/environ", "rb") as f:
        data = f.read()
    names = sorted(item.split(b"=", 1)[0].decode() for item in data.split(b"\0") if item)
    if b"BOTLEAGUE_TEST_SECRET" in data or b"PYENV_ROOT" in data:
        return f"PWNED: /proc/1/environ holds {names}"
    return f"BLOCKED: /proc/1/environ holds only {names}"


attack_then_play(attack)
