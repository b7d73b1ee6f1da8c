"""How each language starts inside a sandbox, and how C++ is compiled once.

A command is built from the places the bot's files, the helper library and the compiled
build are seen at: fixed paths inside a sandbox, host paths for the bare baseline.
"""

from __future__ import annotations

from dataclasses import dataclass

from sandbox.runtime import SANDBOX_BOT, SANDBOX_BUILD, SANDBOX_LIB, python_interpreter

CPP_FLAGS = ("-O2", "-std=gnu++17", "-pipe")
NODE = "/usr/bin/node"


@dataclass(frozen=True)
class Places:
    """Where a running bot finds its package, the library and its build output."""

    bot: str = SANDBOX_BOT
    lib: str = SANDBOX_LIB
    build: str = SANDBOX_BUILD


SANDBOXED = Places()


def bot_command(language: str, entry: str, places: Places) -> list[str]:
    if language == "python":
        return [python_interpreter(), "-I", f"{places.lib}/botlib/_launch.py",
                f"{places.bot}/{entry}"]
    if language == "node":
        return [NODE, f"{places.bot}/{entry}"]
    if language == "cpp":
        return [f"{places.build}/bot"]
    raise ValueError(f"unknown language {language!r}")


def builtin_command(name: str, places: Places) -> list[str]:
    return [python_interpreter(), "-I", f"{places.lib}/botlib/builtin.py", name]


def compile_command(entry: str, sources: list[str], places: Places) -> list[str]:
    """g++ over every C++ source of the package, writing ``build/bot``."""
    files = [f"{places.bot}/{s}" for s in sources] or [f"{places.bot}/{entry}"]
    return ["/usr/bin/g++", *CPP_FLAGS, "-I", places.bot, "-o", f"{places.build}/bot", *files]
