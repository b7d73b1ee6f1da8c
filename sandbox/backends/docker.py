"""The ``docker`` backend: one container per bot per match, through the Docker SDK.

Each container: no network, read-only root, a small tmpfs ``/tmp`` as the only writable
place (IPC mode ``none``: no ``/dev/shm``), no log driver, memory (swap included), pids and
CPU limits, every capability dropped, ``no-new-privileges``, Docker's default seccomp
profile, and the slot's own unprivileged uid. The bot is the container's pid 1 (no
init to trace; when it exits everything in the container dies with it). Its files, the
engine library and the C++ build are bind-mounted read-only, so the daemon must run on the
worker's host (as it does when a worker uses the host's ``/var/run/docker.sock``).

stdin/stdout/stderr go over the attach socket (stdout and stderr multiplexed). The idle bot
is paused like in the process backend, by signalling the processes in the container's
cgroup when the host's cgroups are visible, through the API's pause otherwise.
"""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path
from typing import Any

from sandbox.backends.base import Backend, ExitInfo, LaunchSpec, RunningBot
from sandbox.cgroups import Cgroup
from sandbox.channel import MultiplexedSocketTransport
from sandbox.errors import BackendUnavailable
from sandbox.languages import SANDBOXED
from sandbox.pausing import Pauser
from sandbox.runtime import SANDBOX_BOT, SANDBOX_BUILD, SANDBOX_LIB
from sandbox.slots import Slot, acquire_slot, try_slot

DEFAULT_IMAGE = "botleague/runner:latest"
LABEL = "org.botleague.sandbox"
SLOT_LABEL = "org.botleague.slot"  # the slot whose uid the container runs as
CONTAINER_PREFIX = "botleague-slot-"  # a container is named after its slot
BOT_ENV = {"HOME": "/tmp", "TMPDIR": "/tmp", "PATH": "/usr/local/bin:/usr/bin:/bin",
           "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}


def _cgroup_by_id(container_id: str) -> Cgroup | None:
    """The container's cgroup found from its id alone (no inspect call), or None.

    Docker puts a container in ``docker/<id>`` (the cgroupfs driver) or
    ``system.slice/docker-<id>.scope`` (the systemd driver), under each v1 controller or the
    single v2 hierarchy. An engine configured otherwise falls back to inspecting the pid.
    """
    root = Path("/sys/fs/cgroup")
    for relative in (f"docker/{container_id}", f"system.slice/docker-{container_id}.scope"):
        if (root / relative / "cgroup.freeze").exists():
            return Cgroup(2, {"": root / relative})
        dirs = {controller: root / controller / relative
                for controller in ("pids", "freezer", "memory")
                if (root / controller / relative).is_dir()}
        if "freezer" in dirs:
            return Cgroup(1, dirs)
    return None


def _namespace_init(pids: tuple[int, ...]) -> int | None:
    """Which of a container's processes is its pid 1 (the bot), by the pids /proc gives it."""
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("NSpid:") and line.split()[-1] == "1":
                return pid
    return None


def _container_cgroup(pid: int) -> Cgroup | None:
    """The container's cgroup as seen from this host, for fast pausing; None if not visible."""
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return None
    dirs: dict[str, Path] = {}
    version = 1
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controllers == "" and path != "/":
            candidate = Path("/sys/fs/cgroup") / path.lstrip("/")
            if (candidate / "cgroup.freeze").exists():
                return Cgroup(2, {"": candidate})
        for controller in ("pids", "freezer", "memory"):
            if controller in controllers.split(","):
                candidate = Path("/sys/fs/cgroup") / controller / path.lstrip("/")
                if candidate.is_dir():
                    dirs[controller] = candidate
    if "freezer" in dirs:
        return Cgroup(version, dirs)
    return None


class DockerBot(RunningBot):
    def __init__(self, container: Any, sock_io: Any, slot: Slot | None) -> None:
        self.container = container
        self._sock_io = sock_io  # keeps the hijacked connection alive
        raw: socket.socket = sock_io._sock
        self.transport = MultiplexedSocketTransport(raw)
        self.slot = slot
        self._pauser: Pauser | None = None
        self._paused_by_api = False
        self._exit: ExitInfo | None = None
        self._cleaned = False

    def attach_cgroup(self) -> None:
        """Pause through the container's cgroup if this host shows it; else through the API."""
        if os.geteuid() != 0:
            return
        cgroup = _cgroup_by_id(self.container.id)
        if cgroup is not None:
            found = cgroup
            self._pauser = Pauser(lambda: _namespace_init(found.pids()), found.pids, found)
            return
        with contextlib.suppress(Exception):
            self.container.reload()
        pid = self.container.attrs.get("State", {}).get("Pid") or 0
        cgroup = _container_cgroup(pid) if pid else None
        if cgroup is not None:
            self._pauser = Pauser(lambda: pid, cgroup.pids, cgroup)

    def pause(self) -> None:
        if self._pauser is not None:
            self._pauser.pause()
            return
        with contextlib.suppress(Exception):
            self.container.pause()
            self._paused_by_api = True

    def resume(self) -> None:
        if self._pauser is not None:
            self._pauser.resume()
        elif self._paused_by_api:
            with contextlib.suppress(Exception):
                self.container.unpause()
            self._paused_by_api = False

    def kill(self) -> None:
        # Hang up first. dockerd finishes a container's exit (and so the kill call) only once
        # it has copied out everything the bot wrote; with nobody reading the attach socket
        # that copy blocks, and the kill with it until the client times out (60 s). What a
        # bot writes once it is being killed is of no use to the referee.
        self.hang_up()
        if self._pauser is not None:
            self._pauser.release()
        with contextlib.suppress(Exception):
            self.container.kill()

    def hang_up(self) -> None:
        """Close the attach connection: the bot's input ends, its output goes nowhere."""
        self.transport.close()
        with contextlib.suppress(Exception):
            self._sock_io.close()

    def wait(self, timeout: float) -> ExitInfo | None:
        if self._exit is not None:
            return self._exit
        try:
            status = self.container.wait(timeout=max(timeout, 0.05))
        except Exception:  # requests' ReadTimeout/ConnectionError: still running
            return None
        code = int(status.get("StatusCode", -1))
        oom = False
        if code != 0:  # the kernel's OOM killer leaves a non-zero code: only then ask
            with contextlib.suppress(Exception):
                self.container.reload()
                oom = bool(self.container.attrs["State"].get("OOMKilled"))
        self._exit = ExitInfo.from_status(code, oom=oom)
        return self._exit

    def cleanup(self) -> None:
        if self._cleaned:
            return
        self._cleaned = True
        if self._pauser is not None:
            self._pauser.release()
        self.hang_up()
        with contextlib.suppress(Exception):
            self.container.remove(force=True)
        if self.slot is not None:
            self.slot.release()


class DockerBackend(Backend):
    name = "docker"
    places = SANDBOXED
    parallel_launch = True

    def __init__(self, image: str | None = None) -> None:
        try:
            import docker.errors

            import docker
        except ImportError:
            raise BackendUnavailable("the Docker SDK is missing: pip install docker") from None
        self.image = image or os.environ.get("BOTLEAGUE_RUNNER_IMAGE", DEFAULT_IMAGE)
        try:
            self.client = docker.from_env(timeout=60)
            self.client.ping()
            self.engine = self.client.version().get("Version", "?")
        except Exception as error:
            raise BackendUnavailable(
                f"no Docker engine reachable ({error.__class__.__name__}); start dockerd "
                "(./dev setup does) or use --backend process") from None
        try:
            self.image_id = self.client.images.get(self.image).id
        except docker.errors.ImageNotFound:
            raise BackendUnavailable(
                f"runner image {self.image} is missing; build it with ./dev setup "
                "(scripts/setup.d/sandbox.sh)") from None
        self.sweep_stranded()

    def describe(self) -> str:
        return (f"docker backend: image {self.image} ({self.image_id[7:19]}), "
                f"engine {self.engine}, one container per bot, uid per slot")

    def cache_key(self) -> str:
        return f"docker:{self.image_id}"

    def launch(self, spec: LaunchSpec) -> RunningBot:
        slot = acquire_slot()
        container = None
        try:
            if spec.build_writable and spec.build_dir is not None and os.geteuid() == 0:
                os.chown(spec.build_dir, slot.uid, slot.gid)
            container = self._create(self._config(spec, slot), slot)
            sock_io = self.client.api.attach_socket(
                container.id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
            bot = DockerBot(container, sock_io, slot)
            container.start()
            bot.attach_cgroup()
            return bot
        except BaseException:
            if container is not None:
                with contextlib.suppress(Exception):
                    container.remove(force=True)
            slot.release()
            raise

    def sweep_stranded(self) -> list[str]:
        """Remove the containers of every slot nobody holds; returns their names.

        A referee killed outright (SIGKILL, a machine restart) leaves its containers behind.
        Launching replaces what it finds under the name of the slot it takes, but a slot may
        not be taken again for a long time, so a new backend also sweeps every free slot it
        finds a container in.
        """
        from docker.errors import NotFound

        removed = []
        for container in self.client.containers.list(all=True, filters={"label": LABEL}):
            index = container.labels.get(SLOT_LABEL, "")
            slot = try_slot(int(index)) if index.isdigit() else None
            if slot is None and index.isdigit():
                continue  # a live referee holds it: its bot
            try:
                with contextlib.suppress(NotFound):
                    container.remove(force=True)
                    removed.append(container.name)
            finally:
                if slot is not None:
                    slot.release()
        return removed

    def _create(self, config: dict[str, Any], slot: Slot) -> Any:
        """Create the slot's container, named after the slot.

        Every engine call costs dockerd and containerd CPU the bots could use (~2 ms each),
        so a launch makes as few as it can: the name makes a stranded container of this slot
        announce itself as a conflict instead of being looked for before every launch, and
        the model is built from the id create returns instead of being inspected.
        Holding the slot's lock, we know a container under its name has no live referee.
        """
        from docker.errors import APIError, NotFound

        name = f"{CONTAINER_PREFIX}{slot.index}"
        try:
            created = self.client.api.create_container(name=name, **config)
        except APIError as error:
            if error.status_code != 409:
                raise
            with contextlib.suppress(NotFound):
                self.client.api.remove_container(name, force=True)
            created = self.client.api.create_container(name=name, **config)
        return self.client.containers.prepare_model({"Id": created["Id"], "Name": name})

    def _config(self, spec: LaunchSpec, slot: Slot) -> dict[str, Any]:
        """Arguments of the low-level ``create_container``.

        StdinOnce makes closing the attach socket's input close the bot's stdin.
        """
        from docker.types import Ulimit

        limits = spec.limits
        binds = {str(spec.lib_dir): {"bind": SANDBOX_LIB, "mode": "ro"}}
        if spec.package_dir is not None:
            binds[str(spec.package_dir)] = {"bind": SANDBOX_BOT, "mode": "ro"}
        if spec.build_dir is not None:
            binds[str(spec.build_dir)] = {"bind": SANDBOX_BUILD,
                                          "mode": "rw" if spec.build_writable else "ro"}
        host_config = self.client.api.create_host_config(
            binds=binds, network_mode="none", read_only=True,
            tmpfs={"/tmp": f"rw,nosuid,nodev,size={limits.tmp_size},mode=1777"},
            mem_limit=limits.memory, memswap_limit=limits.memory,
            pids_limit=limits.pids, nano_cpus=int(limits.cpus * 1e9),
            # IPC mode none: no /dev/shm, a writable tmpfs (64 MiB) that "private" would mount.
            cap_drop=["ALL"], security_opt=["no-new-privileges"], ipc_mode="none",
            # No log driver: the default json-file one would copy all the bot prints to the
            # worker's disk without a limit. The referee keeps its own capped log instead.
            log_config={"Type": "none", "Config": {}},
            ulimits=[Ulimit(name="nofile", soft=256, hard=256),
                     Ulimit(name="core", soft=0, hard=0)])
        return {
            "image": self.image, "command": spec.command, "user": f"{slot.uid}:{slot.gid}",
            # detach=False with stdin_open is how docker-py sets StdinOnce (and attaches).
            "detach": False, "stdin_open": True, "tty": False,
            "hostname": "bot", "environment": {**BOT_ENV, **spec.env},
            "working_dir": SANDBOX_BOT if spec.package_dir is not None else "/tmp",
            "labels": {LABEL: spec.label[:60] or "bot", SLOT_LABEL: str(slot.index)},
            "host_config": host_config,
            "network_disabled": True,
        }


def leftover_containers() -> list[tuple[str, int | None]]:
    """Bot containers still present, with their slot (tests check that none are left behind)."""
    import docker

    client = docker.from_env()
    found = []
    for container in client.containers.list(all=True, filters={"label": LABEL}):
        slot = container.labels.get(SLOT_LABEL, "")
        found.append((container.name, int(slot) if slot.isdigit() else None))
    return found
