# Allocates and touches 4 GiB; the memory limit must kill it (forfeit memory-limit).
from _common import attack_then_play


def attack():
    data = b"x" * (4 << 30)
    return f"PWNED: holding {len(data) >> 30} GiB"


attack_then_play(attack)
