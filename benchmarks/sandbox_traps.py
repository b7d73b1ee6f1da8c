"""Measure, on this machine, the traps the sandbox is built around (run as root).

    .venv/bin/python -m benchmarks.sandbox_traps

Each check runs the naive way and prints what happens, so docs/sandbox.md's claims can be
re-checked on any worker kind.
"""

from __future__ import annotations

import ctypes  # noqa: F401  (used inside the bot snippets' text only)
import os
import shutil
import signal
import statistics
import subprocess
import threading
import time
from pathlib import Path

SYSTEM = ["--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib",
          "/lib", "--symlink", "usr/lib64", "/lib64", "--proc", "/proc", "--dev", "/dev"]
DROP = ["setpriv", "--reuid=60999", "--regid=60999", "--clear-groups"]
PY = "/usr/bin/python3"


def run(cmd: list[str], timeout: float = 10, env: dict[str, str] | None = None) -> str:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                              check=False)
        return (done.stdout + done.stderr).strip()
    except subprocess.TimeoutExpired:
        return f"HUNG (no exit within {timeout} s)"


def root_bwrap_uid() -> None:
    script = "id -u; grep CapEff /proc/self/status; head -c 5 /etc/shadow && echo ' <- shadow'"
    naive = run(["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--uid", "60999", "--gid",
                 "60999", "sh", "-c", script])
    dropped = run([*DROP, "bwrap", "--ro-bind", "/", "/", "--unshare-all", "sh", "-c", script])
    print("1. bwrap run as root with --uid 60999:\n   " + naive.replace("\n", " | "))
    print("   setpriv to uid 60999 first, then bwrap:\n   " + dropped.replace("\n", " | "))


def init_environ() -> None:
    env = {"PATH": "/usr/bin:/bin", "WORKER_SECRET": "s3cret"}
    cmd = ["bwrap", *SYSTEM, "--unshare-all", "--clearenv", PY, "-c",
           "print(open('/proc/1/environ','rb').read())"]
    print("2. bwrap --clearenv, bot reads /proc/1/environ (bwrap's init):\n   "
          + run([*DROP, *cmd], env=env))
    print("   same, bwrap started with an empty environment:\n   " + run([*DROP, *cmd], env={}))


PTRACE_BOT = """
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
r = libc.ptrace(16, 1, 0, 0)
print('attach to pid 1 (bwrap init):', 'ok' if r == 0 else os.strerror(ctypes.get_errno()),
      flush=True)
"""


def ptrace_init() -> None:
    from sandbox.seccomp import deny_list_program

    base = [*DROP, "bwrap", *SYSTEM, "--unshare-all", "--die-with-parent", PY, "-c",
            PTRACE_BOT]
    t0 = time.perf_counter()
    out = run(base, timeout=5)
    print(f"3. no seccomp: {out.replace(chr(10), ' | ')} ({time.perf_counter() - t0:.1f} s)")
    fd = os.memfd_create("seccomp")
    os.write(fd, deny_list_program())
    os.lseek(fd, 0, 0)
    cmd = [*base[:5], "--seccomp", str(fd), *base[5:]]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=10, pass_fds=(fd,),
                          check=False)
    os.close(fd)
    print(f"   with the deny-list: {(done.stdout + done.stderr).strip()}")


def teardown() -> None:
    root = Path("/sys/fs/cgroup/pids/botleague-trap")
    if not Path("/sys/fs/cgroup/pids").is_dir():
        print("4. (no v1 pids hierarchy here)")
        return
    root.mkdir(exist_ok=True)
    proc = subprocess.Popen(["sh", "-c", f"echo $$ > {root}/cgroup.procs; exec "
                             + " ".join([*DROP, "bwrap", *SYSTEM, "--unshare-all", "sleep",
                                         "0.2"])])
    time.sleep(0.1)
    proc.wait()
    t0 = time.perf_counter()
    while (root / "cgroup.procs").read_text().strip():
        time.sleep(0.0002)
    empty = time.perf_counter() - t0
    os.rmdir(root)
    print(f"4. after bwrap exits, its cgroup still lists processes for {empty * 1e3:.1f} ms "
          "(teardown is asynchronous: sweep before rmdir)")


def pyenv_shim() -> None:
    shim = shutil.which("python3") or ""

    def median(cmd: list[str]) -> float:
        times = []
        for _ in range(7):
            t = time.perf_counter()
            subprocess.run(cmd, check=False)
            times.append(time.perf_counter() - t)
        return statistics.median(times) * 1e3

    print(f"5. python3 start: PATH's {shim}: {median([shim, '-I', '-c', 'pass']):.0f} ms; "
          f"{PY} -I: {median([PY, '-I', '-c', 'pass']):.0f} ms")


def pdeathsig_thread() -> None:
    result: dict[str, subprocess.Popen[bytes]] = {}

    def spawn() -> None:
        result["p"] = subprocess.Popen([*DROP, "bwrap", *SYSTEM, "--unshare-all",
                                        "--die-with-parent", "sleep", "5"])
        time.sleep(0.2)  # bwrap has set PR_SET_PDEATHSIG by now; then this thread ends

    t = threading.Thread(target=spawn)
    t.start()
    t.join()
    time.sleep(0.5)
    code = result["p"].poll()
    if code is None:
        result["p"].kill()
        result["p"].wait()
    print(f"6. bwrap --die-with-parent started from a thread that then exits: "
          f"{'killed (' + signal.Signals(-code).name + ')' if code and code < 0 else code}")


def pause_costs() -> None:
    cg = Path("/sys/fs/cgroup/freezer/botleague-trap")
    if not cg.parent.is_dir():
        print("7. (no v1 freezer here)")
        return
    cg.mkdir(exist_ok=True)
    proc = subprocess.Popen(["sh", "-c", f"echo $$ > {cg}/cgroup.procs; exec {PY} -c "
                             "'import sys; sys.stdin.read()'"], stdin=subprocess.PIPE)
    time.sleep(0.3)
    fd = os.open(cg / "freezer.state", os.O_WRONLY)
    n = 300
    t = time.perf_counter()
    for _ in range(n):
        os.write(fd, b"FROZEN")
        os.write(fd, b"THAWED")
    freezer = (time.perf_counter() - t) / n * 1e6
    os.close(fd)
    stop, cont = [], []
    pidfd = os.pidfd_open(proc.pid)
    for _ in range(n):
        t = time.perf_counter()
        signal.pidfd_send_signal(pidfd, signal.SIGSTOP)
        stop.append(time.perf_counter() - t)
        time.sleep(0.0003)
        t = time.perf_counter()
        signal.pidfd_send_signal(pidfd, signal.SIGCONT)
        cont.append(time.perf_counter() - t)
    os.close(pidfd)
    proc.kill()
    proc.wait()
    time.sleep(0.05)
    os.rmdir(cg)
    print(f"7. pausing a bot blocked in read: v1 freezer FROZEN+THAWED {freezer:.0f} µs; "
          f"SIGSTOP {statistics.median(stop) * 1e6:.1f} µs + SIGCONT "
          f"{statistics.median(cont) * 1e6:.1f} µs")


def main() -> None:
    if os.geteuid() != 0:
        raise SystemExit("run as root: the traps are about running bwrap as root")
    for check in (root_bwrap_uid, init_environ, ptrace_init, teardown,
                  pyenv_shim, pdeathsig_thread, pause_costs):
        check()


if __name__ == "__main__":
    main()
