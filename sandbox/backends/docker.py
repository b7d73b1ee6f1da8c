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

Only the engine's answers that are expected are caught: a wait that outlives its timeout (the
bot still runs), a container that is already gone when it is removed at the end, a pause,
resume or kill that fails because the bot has exited (its next turn shows that as its own
crash). Any other failure of a pause, resume, kill or wait is logged and raised as
``BackendFault``: the match did not happen, and is nobody's loss. Removing containers at the
end stays best effort (a container left behind is replaced by its slot's next launch), but
what fails there is logged.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from pathlib import Path
from typing import Any

from sandbox.backends.base import Backend, ExitInfo, LaunchSpec, RunningBot
from sandbox.cgroups import Cgroup, CgroupManager
from sandbox.channel import MultiplexedSocketTransport
from sandbox.errors import BackendFault, BackendUnavailable
from sandbox.languages import SANDBOXED
from sandbox.pausing import Pauser
from sandbox.runtime import SANDBOX_BOT, SANDBOX_BUILD, SANDBOX_LIB
from sandbox.slots import Slot, acquire_slot, this_run, try_slot

DEFAULT_IMAGE = "botleague/runner:latest"
LABEL = "org.botleague.sandbox"
SLOT_LABEL = "org.botleague.slot"  # the slot whose uid the container runs as
CONTAINER_PREFIX = "botleague-slot-"  # a container is named after its slot
RUN_LABEL = "org.botleague.run"
# Each bot container carries its referee's run (``slots.this_run``) as ``RUN_LABEL``, so a run's
# leftover check counts what its own processes left, not the bots of a deployment (a compose
# worker killed by a fault test) that shares the host's engine and slots.
BOT_ENV = {"HOME": "/tmp", "TMPDIR": "/tmp", "PATH": "/usr/local/bin:/usr/bin:/bin",
           "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
log = logging.getLogger(__name__)


def _timed_out(error: OSError) -> bool:
    """Whether an engine call failed only because it outlived its timeout.

    requests raises ``ReadTimeout``; docker-py's Unix-socket adapter lets the same timeout
    through as a ``ConnectionError`` wrapping urllib3's ``ReadTimeoutError`` (what
    ``container.wait(timeout=...)`` raises with docker 7.2 and requests 2.34).
    """
    from requests.exceptions import ConnectionError, ReadTimeout
    from urllib3.exceptions import ReadTimeoutError

    if isinstance(error, ReadTimeout):
        return True
    return isinstance(error, ConnectionError) and any(
        isinstance(arg, ReadTimeoutError) for arg in error.args)


def _remove(container: Any, when: str) -> None:
    """Force-remove a container, best effort: one left behind is replaced by its slot's
    next launch or swept by the next backend, so a failure is logged, not raised."""
    from docker.errors import NotFound
    from requests.exceptions import RequestException

    try:
        container.remove(force=True)
    except NotFound:
        log.info("container %s was already gone %s", container.name, when)
    except RequestException as error:  # the engine's errors (APIError) and connection's
        log.error("could not remove container %s %s: %s", container.name, when, error)


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
        from requests.exceptions import RequestException

        if os.geteuid() != 0:
            return
        cgroup = _cgroup_by_id(self.container.id)
        if cgroup is not None:
            found = cgroup
            self._pauser = Pauser(lambda: _namespace_init(found.pids()), found.pids, found)
            return
        try:
            self.container.reload()
        except RequestException as error:
            raise self._fault("inspecting", error) from error
        pid = self.container.attrs.get("State", {}).get("Pid") or 0
        cgroup = _container_cgroup(pid) if pid else None
        if cgroup is not None:
            self._pauser = Pauser(lambda: pid, cgroup.pids, cgroup)

    def pause(self) -> None:
        if self._pauser is not None:
            try:
                self._pauser.pause()
            except OSError as error:  # e.g. its cgroup is gone: exited, or removed under us
                self._unless_exited("pausing", error)
            return
        from requests.exceptions import RequestException  # here: off the pauser's fast path

        try:
            self.container.pause()
        except RequestException as error:  # 409 "is not running" once the bot has exited
            self._unless_exited("pausing", error)
            return
        self._paused_by_api = True

    def resume(self) -> None:
        if self._pauser is not None:
            try:
                self._pauser.resume()
            except OSError as error:
                self._unless_exited("resuming", error)
        elif self._paused_by_api:
            from requests.exceptions import RequestException

            try:
                self.container.unpause()
            except RequestException as error:
                self._unless_exited("resuming", error)
            self._paused_by_api = False

    def kill(self) -> None:
        from requests.exceptions import RequestException

        # Hang up first. dockerd finishes a container's exit (and so the kill call) only once
        # it has copied out everything the bot wrote; with nobody reading the attach socket
        # that copy blocks, and the kill with it until the client times out (60 s). What a
        # bot writes once it is being killed is of no use to the referee.
        self.hang_up()
        if self._pauser is not None:
            self._pauser.release()
        try:
            self.container.kill()
        except RequestException as error:  # 409 "is not running": it has exited already
            self._unless_exited("killing", error)

    def hang_up(self) -> None:
        """Close the attach connection: the bot's input ends, its output goes nowhere."""
        self.transport.close()
        try:
            self._sock_io.close()
        except OSError as error:  # the connection is dropped either way
            log.info("closing the attach connection of %s: %s", self.container.name, error)

    def wait(self, timeout: float) -> ExitInfo | None:
        from requests.exceptions import RequestException

        try:
            return self._wait(timeout)
        except RequestException as error:  # NotFound: removed under the referee
            raise self._fault("waiting for", error) from error

    def _wait(self, timeout: float) -> ExitInfo | None:
        """The exit, or None if the container still runs after ``timeout``; raises what the
        engine says otherwise (NotFound for a container that is gone)."""
        from requests.exceptions import RequestException

        if self._exit is not None:
            return self._exit
        try:
            status = self.container.wait(timeout=max(timeout, 0.05))
        except RequestException as error:
            if _timed_out(error):
                return None  # still running
            raise
        code = int(status.get("StatusCode", -1))
        oom = False
        if code != 0:  # the kernel's OOM killer leaves a non-zero code: only then ask
            self.container.reload()
            oom = bool(self.container.attrs["State"].get("OOMKilled"))
        self._exit = ExitInfo.from_status(code, oom=oom)
        return self._exit

    def _unless_exited(self, what: str, error: Exception) -> None:
        """After a pause, resume or kill failed: return if the bot has simply exited (its
        next turn or its record shows that as its own doing), else raise ``BackendFault``.

        A container that is gone was removed under the referee, and one still running was
        not paused (or resumed, or killed): either way the sandbox failed, not the bot. The
        kernel ends the bot (and docker removes its cgroup) a moment before the engine
        records the exit, hence the short wait.
        """
        from requests.exceptions import RequestException

        try:
            exited = self._wait(1.0)
        except RequestException as gone:
            raise self._fault(what, f"{error}; then {gone}") from error
        if exited is None:
            raise self._fault(what, f"{error}; the container still runs") from error
        log.info("%s container %s: it had exited (%s)", what, self.container.name,
                 exited.describe())

    def _fault(self, what: str, error: object) -> BackendFault:
        log.error("%s container %s failed: %s", what, self.container.name, error)
        return BackendFault(f"{what} the bot's container {self.container.name} failed: {error}")

    def cleanup(self) -> None:
        if self._cleaned:
            return
        self._cleaned = True
        if self._pauser is not None:
            self._pauser.release()
        self.hang_up()
        _remove(self.container, "at the end of its match")
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
        except (docker.errors.DockerException, OSError) as error:  # OSError: requests'
            raise BackendUnavailable(
                f"no Docker engine reachable ({error.__class__.__name__}); start dockerd "
                "(./dev setup does) or use --backend process") from None
        try:
            self.image_id = self.client.images.get(self.image).id
        except docker.errors.ImageNotFound:
            raise BackendUnavailable(
                f"runner image {self.image} is missing; build it with ./dev setup "
                "(scripts/setup.d/sandbox.sh)") from None
        # A process backend's referee killed in a slot leaves its bot's cgroup there (a
        # process backend sweeps free slots' cgroups; a host may run both backends)
        manager = CgroupManager() if os.geteuid() == 0 else None
        self._cgroups = manager if manager is not None and manager.available else None
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
            self._clear_process_leftovers(slot)
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
                _remove(container, "after its launch failed")
            slot.release()
            raise

    def _clear_process_leftovers(self, slot: Slot) -> None:
        """The slot's next holder clears what a killed referee left in it, whichever backend
        it ran: a process backend's bot cgroup (three looks when there is none). Left, it
        would be counted against this slot's holders, who never made it."""
        if self._cgroups is not None:
            try:
                self._cgroups.remove_named(f"slot-{slot.index}")
            except OSError as error:
                log.warning("could not remove slot %s's stranded cgroup: %s", slot.index, error)

    def sweep_stranded(self) -> list[str]:
        """Remove the containers of every slot nobody holds; returns their names.

        A referee killed outright (SIGKILL, a machine restart) leaves its containers behind.
        Launching replaces what it finds under the name of the slot it takes, but a slot may
        not be taken again for a long time, so a new backend also sweeps every free slot it
        finds a container in. A container without a slot was made by no referee (every
        launch names its slot): not ours to judge, it stays.
        """
        from docker.errors import NotFound

        removed = []
        for container in self.client.containers.list(all=True, filters={"label": LABEL}):
            index = container.labels.get(SLOT_LABEL, "")
            slot = try_slot(int(index)) if index.isdigit() else None
            if slot is None:
                continue  # a live referee holds it (its bot), or no referee made it
            try:
                with contextlib.suppress(NotFound):
                    container.remove(force=True)
                    removed.append(container.name)
            finally:
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
            "labels": {LABEL: spec.label[:60] or "bot", SLOT_LABEL: str(slot.index),
                       RUN_LABEL: this_run()},
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
