"""The ``process`` backend: Linux namespaces via bubblewrap (``unshare`` when it is missing).

Each bot runs as its own unprivileged uid (one per slot, taken *before* bwrap: bwrap run as
root keeps every capability and maps ``--uid`` back to host root), in new user, pid, mount,
network, ipc and uts namespaces, with a read-only view of ``/usr`` and a few ``/etc`` files,
its own files read-only at ``/bot``, a read-only root and ``/dev`` (so no ``/dev/shm``
either), a small private ``/tmp`` as the only writable place, rlimits, a seccomp deny-list
(without it a bot can ptrace-attach the sandbox init and hang it), and a memory/pids cgroup
where the host allows. bwrap is started with an empty environment, since the bot can read
its init's environment through ``/proc/1/environ``.

The process chain is ``sh`` (joins the cgroup as root) → ``prlimit`` → ``setpriv`` (drops to
the slot's uid) → ``bwrap`` → the bot, which is pid 1 of its namespace (``--as-pid-1``): no
separate init for it to trace, and no init orphaned to the host's pid 1 when bwrap exits.
Every process of the chain is in the cgroup.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import shutil
import signal
import subprocess
import sys
import time

from sandbox import seccomp
from sandbox.backends.base import Backend, ExitInfo, LaunchSpec, RunningBot
from sandbox.cgroups import Cgroup, CgroupManager
from sandbox.channel import PipeTransport
from sandbox.errors import BackendFault, BackendUnavailable
from sandbox.languages import SANDBOXED
from sandbox.pausing import Pauser
from sandbox.runtime import SANDBOX_BOT, SANDBOX_BUILD, SANDBOX_LIB, python_interpreter
from sandbox.slots import Slot, acquire_slot, try_slot

ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
             "/etc/localtime", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf")
SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
BOT_ENV = {"HOME": "/tmp", "TMPDIR": "/tmp", "PATH": "/usr/local/bin:/usr/bin:/bin",
           "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
_COUNTER = itertools.count()
SWEEP_EVERY = 60.0
log = logging.getLogger(__name__)


def _tree(root: int) -> list[int]:
    """``root`` and all its descendants, from /proc/PID/task/*/children."""
    out = [root]
    i = 0
    while i < len(out):
        pid = out[i]
        i += 1
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    out.extend(int(x) for x in f.read().split())
        except OSError:
            continue
    return out


def spawn_on_pipes(command: list[str], env: dict[str, str], cwd: str,
                   pass_fds: list[int] | tuple[int, ...] = (), process_group: int | None = None
                   ) -> tuple[subprocess.Popen[bytes], PipeTransport]:
    """Start ``command`` on fresh pipes; closes ``pass_fds`` in this process afterwards."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        proc = subprocess.Popen(command, stdin=in_r, stdout=out_w, stderr=err_w, env=env,
                                cwd=cwd, pass_fds=pass_fds, close_fds=True,
                                process_group=process_group)
    except BaseException:
        for fd in (in_w, out_r, err_r):
            os.close(fd)
        raise
    finally:
        for fd in (in_r, out_w, err_w, *pass_fds):
            os.close(fd)
    return proc, PipeTransport(in_w, out_r, err_r)


class ProcessBot(RunningBot):
    def __init__(self, proc: subprocess.Popen[bytes], transport: PipeTransport,
                 cgroup: Cgroup | None, slot: Slot | None) -> None:
        self.proc = proc
        self.cgroup = cgroup
        self.slot = slot
        self.transport = transport
        self._pauser = Pauser(self._bot_pid, self._members, cgroup)
        self._cleaned = False

    # -- pausing --------------------------------------------------------------------------
    def _members(self) -> tuple[int, ...]:
        if self.cgroup is not None:
            return self.cgroup.pids()
        return tuple(sorted(_tree(self.proc.pid)))

    def _bot_pid(self) -> int | None:
        """The bot's host pid: bwrap's only child (the bot is pid 1 of its namespace)."""
        try:
            with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as f:
                children = f.read().split()
        except OSError:
            return None
        return int(children[0]) if len(children) == 1 else None

    def pause(self) -> None:
        try:
            self._pauser.pause()
        except OSError as error:
            raise self._fault("pausing", error) from error

    def resume(self) -> None:
        try:
            self._pauser.resume()
        except OSError as error:
            raise self._fault("resuming", error) from error

    def _fault(self, what: str, error: OSError) -> BackendFault:
        """A pause or resume that did not happen. The cgroup is ours until ``cleanup`` and a
        process that exited is no error to the pauser, so a bot cannot cause this by exiting;
        either way the match cannot go on fairly."""
        log.error("%s bot (pid %s) failed: %s", what, self.proc.pid, error)
        return BackendFault(f"{what} a bot failed: {error}")

    # -- ending ---------------------------------------------------------------------------
    def kill(self) -> None:
        if self.cgroup is not None:
            self.cgroup.kill_all()
        else:
            for pid in reversed(_tree(self.proc.pid)):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)

    def wait(self, timeout: float) -> ExitInfo | None:
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        oom = self.cgroup is not None and self.cgroup.oom_kills() > 0
        return ExitInfo.from_status(status, oom=oom)

    def cleanup(self) -> None:
        if self._cleaned:
            return
        self._cleaned = True
        self._pauser.release()
        self.kill()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.transport.close()
        if self.cgroup is not None:
            self.cgroup.remove()
        if self.slot is not None:
            self.slot.release()


class ProcessBackend(Backend):
    name = "process"
    places = SANDBOXED

    def __init__(self, isolation: str | None = None) -> None:
        self.root = os.geteuid() == 0
        self.bwrap = shutil.which("bwrap")
        self.unshare = shutil.which("unshare")
        self.isolation = isolation or ("bwrap" if self.bwrap else "unshare")
        if self.isolation == "bwrap" and not self.bwrap:
            raise BackendUnavailable("bubblewrap (bwrap) is not installed; apt install bubblewrap")
        if self.isolation == "unshare" and not (self.unshare and self.root):
            raise BackendUnavailable(
                "the process backend needs bubblewrap (apt install bubblewrap), or root for "
                "its unshare fallback")
        self.cgroups = CgroupManager()
        self.setpriv = shutil.which("setpriv")
        self.prlimit = shutil.which("prlimit")
        if self.root and not self.setpriv:
            raise BackendUnavailable("setpriv (util-linux) is needed to drop to a bot uid")
        if self.isolation == "bwrap":
            self._check_bwrap()
        self._next_sweep = 0.0  # monotonic time of the next sweep_stranded (0: at the first bot)

    def sweep_stranded(self) -> list[str]:
        """Remove the cgroup of every slot nobody holds, with what is left in it.

        A worker killed outright takes its bots with it, except one frozen at that moment
        (a forking bot paused, or any bot mid-kill): a cgroup v1 freezer keeps a frozen task
        even from SIGKILL until it is thawed, so it would sit there holding its memory until
        its slot was taken again, which for a high slot may be never. Removing a cgroup thaws
        what it kills. Every backend does this at its first bot and then every
        ``SWEEP_EVERY`` seconds, so a worker that comes back, or one that lives beside the
        one that died, cleans up. Returns the names removed.
        """
        removed = []
        for name in sorted({path.name for path in self.cgroups.leftovers()}):
            index = name.removeprefix("slot-")
            slot = try_slot(int(index)) if name.startswith("slot-") and index.isdigit() else None
            if slot is None:
                continue  # a live referee's bot, or not a slot's cgroup
            try:
                self.cgroups.remove_named(name)
                removed.append(name)
            except OSError as error:
                log.warning("could not remove the stranded cgroup %s: %s", name, error)
            finally:
                slot.release()
        return removed

    def _check_bwrap(self) -> None:
        """Build one empty sandbox, as a bot's would be built, before any bot needs one.

        Where bubblewrap cannot make its namespaces (a container without the privileges
        docs/deploy.md lists, a kernel with unprivileged user namespaces switched off),
        every bot would otherwise die at its start and lose the match for it: this turns
        that into the backend being unavailable, which the league counts as nobody's fault.
        """
        command = [*self._bwrap_system_args(16 << 20), "--remount-ro", "/", "--", "true"]
        if self.root and self.setpriv:  # as an unprivileged uid, like the bots
            command = [self.setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
                       "--", *command]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=20,
                                  env={}, cwd="/", check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise BackendUnavailable(f"bubblewrap could not be run: {error}") from None
        if done.returncode != 0:
            said = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            raise BackendUnavailable(
                f"bubblewrap cannot build a sandbox here ({said}); in a container it needs "
                "the privileges docs/deploy.md lists") from None

    def describe(self) -> str:
        who = "a per-slot uid from 60000" if self.root else f"your uid {os.getuid()}"
        guard = "seccomp deny-list" if seccomp.supported() and self.isolation == "bwrap" \
            else "no seccomp"
        return (f"process backend: {self.isolation} ({self.isolation_path()}), "
                f"{self.cgroups.describe()}, {who}, {guard}")

    def isolation_path(self) -> str:
        return (self.bwrap if self.isolation == "bwrap" else self.unshare) or "?"

    # -- launching ------------------------------------------------------------------------
    def launch(self, spec: LaunchSpec) -> RunningBot:
        if self.root and self.cgroups.available and time.monotonic() >= self._next_sweep:
            self._next_sweep = time.monotonic() + SWEEP_EVERY
            self.sweep_stranded()
        slot = acquire_slot() if self.root else None
        cgroup = None
        try:
            if self.cgroups.available:
                name = slot.name if slot else f"pid{os.getpid()}-{next(_COUNTER)}"
                cgroup = self.cgroups.create(name, spec.limits.memory, spec.limits.pids)
            if spec.build_writable and spec.build_dir is not None and slot is not None:
                os.chown(spec.build_dir, slot.uid, slot.gid)
            return self._spawn(spec, slot, cgroup)
        except BaseException:
            if cgroup is not None:
                cgroup.remove()
            if slot is not None:
                slot.release()
            raise

    def _spawn(self, spec: LaunchSpec, slot: Slot | None, cgroup: Cgroup | None) -> ProcessBot:
        fds: list[int] = []
        if self.isolation == "bwrap":
            inner, fds = self._bwrap_command(spec)
        else:
            inner = self._unshare_command(spec, slot)
        command = self._limits_prefix(spec, slot, cgroup) + inner
        proc, transport = spawn_on_pipes(command, env={}, cwd="/", pass_fds=fds)
        return ProcessBot(proc, transport, cgroup, slot)

    def _limits_prefix(self, spec: LaunchSpec, slot: Slot | None,
                       cgroup: Cgroup | None) -> list[str]:
        prefix: list[str] = []
        if cgroup is not None:
            joins = " && ".join(f"echo $$ > {f}" for f in cgroup.procs_files)
            prefix = ["/bin/sh", "-c", f'{joins} && exec "$@"', "sh"]
        limits = spec.limits
        if self.prlimit:
            prefix += [self.prlimit, "--nofile=256", "--core=0",
                       f"--fsize={max(limits.tmp_size, 64 << 20)}"]
            if slot is not None:
                prefix.append(f"--nproc={limits.pids}")
            if cgroup is None:
                # No memory cgroup: the address-space limit is the best we have.
                prefix.append(f"--as={limits.memory * 4}")
            prefix.append("--")
        if slot is not None and self.isolation == "bwrap":
            prefix += [self.setpriv or "setpriv", f"--reuid={slot.uid}", f"--regid={slot.gid}",
                       "--clear-groups", "--"]
        return prefix

    def _binds(self, spec: LaunchSpec) -> list[tuple[str, str, bool]]:
        """(host, sandbox, writable) bind mounts besides the system."""
        binds = [(str(spec.lib_dir), SANDBOX_LIB, False)]
        if spec.package_dir is not None:
            binds.append((str(spec.package_dir), SANDBOX_BOT, False))
        if spec.build_dir is not None:
            binds.append((str(spec.build_dir), SANDBOX_BUILD, spec.build_writable))
        interpreter = python_interpreter()
        if not interpreter.startswith("/usr/"):
            prefix = sys.base_prefix
            binds.append((prefix, prefix, False))
        return binds

    def _bwrap_system_args(self, tmp_size: int) -> list[str]:
        """bwrap's namespaces and the system every sandbox gets: /usr, /proc, /dev, /tmp."""
        args = [self.bwrap or "bwrap", "--unshare-all", "--unshare-user", "--disable-userns",
                "--die-with-parent", "--new-session", "--as-pid-1", "--hostname", "bot",
                "--ro-bind", "/usr", "/usr"]
        for d in SYSTEM_DIRS:
            if os.path.islink(d):
                args += ["--symlink", os.readlink(d), d]
            elif os.path.isdir(d):
                args += ["--ro-bind", d, d]
        for f in ETC_FILES:
            args += ["--ro-bind-try", f, f]
        return [*args, "--proc", "/proc", "--dev", "/dev",
                "--size", str(tmp_size), "--perms", "1777", "--tmpfs", "/tmp"]

    def _bwrap_command(self, spec: LaunchSpec) -> tuple[list[str], list[int]]:
        args = self._bwrap_system_args(spec.limits.tmp_size)
        for host, inside, writable in self._binds(spec):
            args += ["--bind" if writable else "--ro-bind", host, inside]
        # bwrap builds the root and /dev as writable tmpfs (bounded only by the memory
        # cgroup); once every mount point exists, both become read-only, leaving /tmp (and
        # a writable build folder) the only places a bot can write.
        args += ["--remount-ro", "/dev", "--remount-ro", "/",
                 "--chdir", SANDBOX_BOT if spec.package_dir is not None else "/tmp",
                 "--clearenv"]
        for key, value in {**BOT_ENV, **spec.env}.items():
            args += ["--setenv", key, value]
        fds = []
        if seccomp.supported():
            fd = os.memfd_create("botleague-seccomp", 0)
            os.write(fd, seccomp.deny_list_program())
            os.lseek(fd, 0, os.SEEK_SET)
            fds.append(fd)
            args += ["--seccomp", str(fd)]
        return [*args, "--", *spec.command], fds

    def _unshare_command(self, spec: LaunchSpec, slot: Slot | None) -> list[str]:
        """The fallback without bwrap (root only): namespaces, then a new root built in tmpfs.

        A setup script, run as root inside the new mount namespace, mounts a tmpfs root with
        the system read-only, the bot's folders and a private /tmp, pivots into it, and
        execs the bot as the slot's uid. The bot is pid 1 of its namespace, so there is no
        separate init it could trace.
        """
        binds = self._binds(spec)
        # The new root is a tmpfs mounted, in this private mount namespace only, over a
        # directory none of the bind sources live under: nothing is created on the host.
        sources = [host for host, _, _ in binds]
        base = next(d for d in ("/mnt", "/media", "/srv", "/opt", "/home")
                    if os.path.isdir(d) and not any(h.startswith(d + "/") for h in sources))
        lines = ["set -e", "mount --make-rprivate /",
                 f"R={base}", 'mount -t tmpfs -o mode=755,size=1m none "$R"',
                 'mkdir -p "$R/usr" "$R/proc" "$R/dev" "$R/tmp" "$R/etc" "$R/oldroot"',
                 'mount --rbind -o ro /usr "$R/usr"',
                 'mount -o remount,bind,ro "$R/usr"']
        for d in SYSTEM_DIRS:
            if os.path.islink(d):
                lines.append(f'ln -s {os.readlink(d)} "$R{d}"')
            elif os.path.isdir(d):
                lines += [f'mkdir -p "$R{d}"', f'mount --bind -o ro {d} "$R{d}"',
                          f'mount -o remount,bind,ro "$R{d}"']
        for f in ETC_FILES:
            lines.append(f'if [ -e {f} ]; then cp -a {f} "$R/etc/"; fi')
        lines += ['mount -t proc proc "$R/proc"',
                  'mount -t tmpfs -o mode=755,size=64k none "$R/dev"',
                  'for d in null zero random urandom full; do touch "$R/dev/$d"; '
                  'mount --bind /dev/$d "$R/dev/$d"; done',
                  'mount -o remount,ro "$R/dev"',
                  f'mount -t tmpfs -o mode=1777,size={spec.limits.tmp_size} none "$R/tmp"']
        for host, inside, writable in binds:
            lines += [f'mkdir -p "$R{inside}"', f'mount --bind {host} "$R{inside}"']
            if not writable:
                lines.append(f'mount -o remount,bind,ro "$R{inside}"')
        lines += ['mount -o remount,ro "$R"', 'cd "$R"', "pivot_root . oldroot",
                  "umount -l /oldroot", 'cd "$BOTLEAGUE_CWD"']
        drop = []
        if slot is not None:
            drop = [self.setpriv or "setpriv", f"--reuid={slot.uid}", f"--regid={slot.gid}",
                    "--clear-groups", "--no-new-privs", "--bounding-set=-all", "--inh-caps=-all"]
        env = {**BOT_ENV, **spec.env}
        exports = " ".join(f"{k}={v}" for k, v in env.items())
        script = "\n".join(lines) + f'\nexec env -i {exports} "$@"'
        cwd = SANDBOX_BOT if spec.package_dir is not None else "/tmp"
        return [self.unshare or "unshare", "--mount", "--net", "--pid", "--ipc", "--uts",
                "--fork", "--kill-child", "--", "/bin/sh", "-c",
                f"BOTLEAGUE_CWD={cwd}\n{script}", "sh", *drop, *spec.command]
