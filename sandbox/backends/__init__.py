"""Sandbox backends by name: ``process`` (namespaces), ``docker`` (containers), ``bare``."""

from __future__ import annotations

from sandbox.backends.base import Backend, ExitInfo, LaunchSpec, RunningBot
from sandbox.errors import BackendUnavailable

BACKENDS = ("process", "docker", "bare")
_cache: dict[str, Backend] = {}


def get_backend(name: str) -> Backend:
    """The backend called ``name``, created once per process (docker keeps a client)."""
    if name in _cache:
        return _cache[name]
    if name == "process":
        from sandbox.backends.process import ProcessBackend

        backend: Backend = ProcessBackend()
    elif name == "docker":
        from sandbox.backends.docker import DockerBackend

        backend = DockerBackend()
    elif name == "bare":
        from sandbox.backends.bare import BareBackend

        backend = BareBackend()
    else:
        raise BackendUnavailable(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
    _cache[name] = backend
    return backend


__all__ = ["BACKENDS", "Backend", "ExitInfo", "LaunchSpec", "RunningBot", "get_backend"]
