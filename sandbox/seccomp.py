"""A small seccomp filter for bwrap, built by hand (no libseccomp in the virtualenv).

A deny-list: the calls a game bot never needs and that attack the sandbox or the kernel
(ptrace of the sandbox init, reading another process's memory, mounting, loading modules or
BPF, keyrings, io_uring ...) fail with EPERM; everything else is allowed, and the namespace,
uid and cgroup limits do the rest. A call made under another ABI (32-bit, x32) than the one
the filter was built for kills the process, since its numbers would slip past the list.

The program is the classic BPF ``struct sock_filter`` array bwrap loads with ``--seccomp FD``.
"""

from __future__ import annotations

import errno
import platform
import struct

# struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; }
_FILTER = struct.Struct("=HBBI")
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
_RET_KILL_PROCESS = 0x80000000

_OFF_NR = 0
_OFF_ARCH = 4

_AUDIT_ARCH_X86_64 = 0xC000003E
_X32_BIT = 0x40000000

# x86_64 numbers (arch/x86/entry/syscalls/syscall_64.tbl).
DENIED_X86_64 = {
    "ptrace": 101, "syslog": 103, "uselib": 134, "vhangup": 153, "pivot_root": 155,
    "adjtimex": 159, "acct": 163, "settimeofday": 164, "mount": 165, "umount2": 166,
    "swapon": 167, "swapoff": 168, "reboot": 169, "iopl": 172, "ioperm": 173,
    "init_module": 175, "delete_module": 176, "quotactl": 179, "lookup_dcookie": 212,
    "clock_settime": 227, "kexec_load": 246, "add_key": 248, "request_key": 249,
    "keyctl": 250, "unshare": 272, "perf_event_open": 298, "fanotify_init": 300,
    "name_to_handle_at": 303, "open_by_handle_at": 304, "clock_adjtime": 305, "setns": 308,
    "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "finit_module": 313,
    "kexec_file_load": 320, "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
}


def supported() -> bool:
    return platform.machine() in {"x86_64", "AMD64"}


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return _FILTER.pack(code, jt, jf, k)


def deny_list_program(denied: dict[str, int] | None = None) -> bytes:
    """The BPF program: wrong ABI → kill; a denied call → EPERM; anything else → allow."""
    if not supported():
        raise RuntimeError(f"no seccomp syscall table for {platform.machine()}")
    numbers = sorted(set((denied or DENIED_X86_64).values()))
    n = len(numbers)
    # Layout: 0 ld arch, 1 jeq arch, 2 ld nr, 3 jge x32, 4..4+n-1 jeq nr, allow, errno, kill.
    allow = 4 + n
    deny = allow + 1
    kill = allow + 2
    prog = [
        _insn(_LD_W_ABS, _OFF_ARCH),
        _insn(_JEQ_K, _AUDIT_ARCH_X86_64, 0, kill - 2),
        _insn(_LD_W_ABS, _OFF_NR),
        _insn(_JGE_K, _X32_BIT, kill - 4, 0),
    ]
    for i, number in enumerate(numbers):
        here = 4 + i
        prog.append(_insn(_JEQ_K, number, deny - here - 1, 0))
    prog.append(_insn(_RET_K, _RET_ALLOW))
    prog.append(_insn(_RET_K, _RET_ERRNO | errno.EPERM))
    prog.append(_insn(_RET_K, _RET_KILL_PROCESS))
    return b"".join(prog)
