# ptrace-attaches the sandbox's pid 1 (and any other process it can see), which without a
# seccomp filter can stop the sandbox's init and hang the match.
import ctypes
import os

from _common import attack_then_play

PTRACE_ATTACH, PTRACE_DETACH, PTRACE_SEIZE = 16, 17, 0x4206


def attack():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    report = []
    pids = sorted({1, *(int(p) for p in os.listdir("/proc") if p.isdigit())} - {os.getpid()})
    if not pids:
        pids = [1]
    for pid in pids:
        for name, request in (("attach", PTRACE_ATTACH), ("seize", PTRACE_SEIZE)):
            if libc.ptrace(request, pid, None, None) == 0:
                libc.ptrace(PTRACE_DETACH, pid, None, None)
                return f"PWNED: ptrace {name} pid {pid}"
            report.append(f"{name} {pid}: {os.strerror(ctypes.get_errno())}")
    return "BLOCKED: " + "; ".join(report)


attack_then_play(attack)
