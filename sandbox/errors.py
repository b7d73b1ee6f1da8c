"""Errors the sandbox raises before or outside a match (a bot's misbehaviour is a forfeit)."""

from __future__ import annotations


class SandboxError(Exception):
    """Base class; the message says what went wrong and what to do."""


class BotPackageError(SandboxError):
    """A bot that cannot be played at all: bad path, no entry point, two, a bad archive."""


class BackendUnavailable(SandboxError):
    """The chosen backend cannot run here (no bubblewrap/unshare, no Docker engine, no image)."""


class BackendFault(SandboxError):
    """The sandbox failed during a match: a pause, resume or kill that did not happen, a
    container removed under the referee. Nobody's forfeit: the match did not happen."""
