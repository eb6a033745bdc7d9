"""The system-call filter every sandboxed command runs under, as the classic BPF program that
bubblewrap's `--seccomp FD` loads.

A deny list over an allowed default, as Flatpak and Docker keep: the calls that reach past the
sandbox (mounting, namespaces, tracing other processes, the kernel keyring, BPF, loading kernel
code, io_uring, which runs calls the filter never sees) fail with EPERM; everything a build or a
script needs still works. Built here in a few lines rather than through libseccomp: its Python
binding is not on PyPI, and the program is small enough to read and test whole.

Only x86_64 has its numbers here: `filter_problem()` says so elsewhere, and the sandbox refuses
to run rather than run unfiltered.
"""

from __future__ import annotations

import errno
import platform
import struct

# linux/audit.h: AUDIT_ARCH_X86_64.
ARCH_X86_64 = 0xC000003E
# x32 system calls share the arch but set this bit in the number: they would skip the list.
X32_BIT = 0x40000000

# asm/unistd_64.h.
DENIED: dict[str, int] = {
    "ptrace": 101, "syslog": 103, "vhangup": 153, "pivot_root": 155, "adjtimex": 159,
    "chroot": 161, "acct": 163, "settimeofday": 164, "mount": 165, "umount2": 166,
    "swapon": 167, "swapoff": 168, "reboot": 169, "iopl": 172, "ioperm": 173,
    "init_module": 175, "delete_module": 176, "quotactl": 179, "lookup_dcookie": 212,
    "clock_settime": 227, "kexec_load": 246, "add_key": 248, "request_key": 249, "keyctl": 250,
    "unshare": 272, "perf_event_open": 298, "open_by_handle_at": 304, "clock_adjtime": 305,
    "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
    "finit_module": 313, "kexec_file_load": 320, "bpf": 321, "userfaultfd": 323,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428,
    "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "mount_setattr": 442, "quotactl_fd": 443,
}
CLONE = 56
CLONE3 = 435
IOCTL = 16
# clone's flags that make new namespaces: CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER,
# NEWPID, NEWNET and NEWTIME.
NEW_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 \
    | 0x40000000 | 0x00000080
# ioctls that push input into a terminal (TIOCSTI) or the console (TIOCLINUX).
DENIED_IOCTLS = (0x5412, 0x541C)

# struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8 i (the low word first).
_NR, _ARCH, _ARG0, _ARG1 = 0, 4, 16, 24
_LD_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JSET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RET = 0x06  # BPF_RET | BPF_K
ALLOW = 0x7FFF0000
KILL_PROCESS = 0x80000000
ERRNO = 0x00050000


def filter_problem() -> str | None:
    """Why this machine gets no filter, or None."""
    machine = platform.machine()
    if machine not in ("x86_64", "AMD64"):
        return (f"the sandbox's system-call filter is built for x86_64 only, and this machine "
                f"is {machine}")
    return None


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> tuple[int, int, int, int]:
    return code, jt, jf, k


def program() -> bytes:
    """The filter as `struct sock_filter[]` bytes, for `bwrap --seccomp FD`."""
    deny = ERRNO | errno.EPERM
    ops: list[tuple[int, int, int, int]] = [
        _op(_LD_ABS, _ARCH),
        _op(_JEQ, ARCH_X86_64, jt=1),
        _op(_RET, KILL_PROCESS),
        _op(_LD_ABS, _NR),
    ]
    # Each check jumps to the shared EPERM at the end; offsets count the instructions between.
    checks: list[tuple[int, int]] = [(_JGE, X32_BIT)]
    checks += [(_JEQ, number) for number in sorted(DENIED.values())]
    tail = [
        # clone: refuse the namespace flags; clone3 keeps its flags in memory the filter cannot
        # read, so it says "not here" and the C library falls back to clone.
        _op(_JEQ, CLONE3, jf=1),
        _op(_RET, ERRNO | errno.ENOSYS),
        _op(_JEQ, CLONE, jf=3),
        _op(_LD_ABS, _ARG0),
        _op(_JSET, NEW_NAMESPACES, jt=len(DENIED_IOCTLS) + 4),
        _op(_RET, ALLOW),
        _op(_JEQ, IOCTL, jf=len(DENIED_IOCTLS) + 1),
        _op(_LD_ABS, _ARG1),
        *[_op(_JEQ, request, jt=len(DENIED_IOCTLS) - index)
          for index, request in enumerate(DENIED_IOCTLS)],
        _op(_RET, ALLOW),
        _op(_RET, deny),
    ]
    for index, (code, k) in enumerate(checks):
        to_deny = len(checks) - index - 1 + len(tail) - 1
        ops.append(_op(code, k, jt=to_deny))
    ops += tail
    # Every jump stays within the 255 instructions a BPF offset can reach.
    assert all(jt < 256 and jf < 256 for _code, jt, jf, _k in ops)
    return b"".join(struct.pack("<HBBI", *op) for op in ops)
