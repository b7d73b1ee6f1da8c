"""The engine's only source of chance: a small seeded generator held inside each state.

A hand-rolled SplitMix64 rather than ``random.Random`` because its whole state is one int
(copying a state for search is nearly free) and its output is fixed by this file alone,
so replays stay reproducible across Python versions and can be re-derived in other languages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = s = (self.state + _GOLDEN) & _MASK
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def between(self, low: int, high: int) -> int:
        """Uniform integer in ``[low, high]``."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        """Uniform float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def copy(self) -> Rng:
        twin = Rng.__new__(Rng)
        twin.state = self.state
        return twin

    def fork(self, salt: int) -> Rng:
        """An independent stream derived from this one's seed material and ``salt``."""
        return Rng(Rng(self.state ^ ((salt * _GOLDEN) & _MASK)).next64())
