"""Option schemas: what a game accepts in ``options``, with defaults and ranges."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from games.errors import OptionError

N = TypeVar("N", int, float)


@dataclass(frozen=True)
class _RangeOption(Generic[N]):
    """A number between ``min`` and ``max``; a subclass says which kind of number."""

    name: str
    default: N
    min: N
    max: N
    help: str = ""
    kind: ClassVar[str]
    accepts: ClassVar[type | tuple[type, ...]]
    expected: ClassVar[str]

    def check(self, value: Any) -> N:
        if isinstance(value, bool) or not isinstance(value, self.accepts):
            raise OptionError(self.name, f"must be {self.expected}, got {value!r}")
        number: Any = value  # of one of ``accepts``: comparable with the bounds
        if not self.min <= number <= self.max:
            raise OptionError(self.name, f"{value} is out of range {self.min}..{self.max}")
        return self._convert(value)

    def _convert(self, value: Any) -> N:
        converted: N = value
        return converted

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.kind, "default": self.default,
                "min": self.min, "max": self.max, "help": self.help}


@dataclass(frozen=True)
class IntOption(_RangeOption[int]):
    kind = "int"
    accepts = int
    expected = "an integer"


@dataclass(frozen=True)
class FloatOption(_RangeOption[float]):
    kind = "float"
    accepts = (int, float)
    expected = "a number"

    def _convert(self, value: Any) -> float:
        return float(value)


Option = IntOption | FloatOption


class OptionSchema:
    """An ordered set of options; ``validate`` fills defaults and rejects anything else."""

    def __init__(self, *options: Option) -> None:
        self.options: dict[str, Option] = {o.name: o for o in options}

    def defaults(self) -> dict[str, Any]:
        return {name: o.default for name, o in self.options.items()}

    def validate(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        if given is None:
            return self.defaults()
        if not isinstance(given, Mapping):
            raise OptionError("options", f"must be a JSON object, got {type(given).__name__}")
        for name in given:
            if name not in self.options:
                known = ", ".join(self.options) or "none"
                raise OptionError(str(name), f"unknown option (known: {known})")
        return {name: (o.check(given[name]) if name in given else o.default)
                for name, o in self.options.items()}

    def describe(self) -> list[dict[str, Any]]:
        return [o.describe() for o in self.options.values()]
