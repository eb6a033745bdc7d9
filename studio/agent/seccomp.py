"""A seccomp filter for sandboxed commands, as the classic BPF program bubblewrap loads
(`bwrap --seccomp FD`): the system calls that could undo the sandbox fail with EPERM.

Refused: mounting and unmounting (the old and the new mount API), pivot_root, entering or making
namespaces (setns, unshare, clone with a namespace flag; clone3, whose flags sit in memory a filter
cannot read, fails with ENOSYS so the C library falls back to clone), ptrace and
process_vm_readv/writev (reading another process), the kernel keyring, bpf, perf_event_open,
userfaultfd, loading kernel modules or a new kernel, open_by_handle_at (a way past mount
namespaces). A system call made through another ABI (i386 on x86_64, x32) is refused whole: the
numbers below are the native ABI's, and another ABI's numbers would slip past them.

Written here rather than through libseccomp: it is twenty instructions, needs no native library on
the user's machine, and the tests run it for real. Architectures without a table here get no
filter, and the sandbox says so."""

from __future__ import annotations

import errno
import platform
import struct

# <linux/audit.h>
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
# <linux/filter.h>
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JSET_K = 0x45
_RET_K = 0x06
# <linux/seccomp.h>
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000
# struct seccomp_data: nr at 0, arch at 4, args[0] at 16 (its low 32 bits, little-endian).
_NR, _ARCH, _ARG0 = 0, 4, 16
_X32_BIT = 0x40000000
# CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET, and NEWTIME.
CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 \
    | 0x40000000 | 0x00000080

# Native numbers (the kernel's syscall tables: arch/x86/entry/syscalls/syscall_64.tbl and
# include/uapi/asm-generic/unistd.h). Calls from 424 on are numbered alike everywhere.
_COMMON_NEW = {"open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431,
               "fsmount": 432, "fspick": 433, "mount_setattr": 442}
DENIED = {
    "x86_64": {"mount": 165, "umount2": 166, "pivot_root": 155, "ptrace": 101,
               "process_vm_readv": 310, "process_vm_writev": 311, "keyctl": 250, "add_key": 248,
               "request_key": 249, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323,
               "setns": 308, "unshare": 272, "init_module": 175, "finit_module": 313,
               "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320,
               "open_by_handle_at": 304, "acct": 163, "swapon": 167, "swapoff": 168,
               "reboot": 169, **_COMMON_NEW},
    "aarch64": {"mount": 40, "umount2": 39, "pivot_root": 41, "ptrace": 117,
                "process_vm_readv": 270, "process_vm_writev": 271, "keyctl": 219, "add_key": 217,
                "request_key": 218, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282,
                "setns": 268, "unshare": 97, "init_module": 105, "finit_module": 273,
                "delete_module": 106, "kexec_load": 104, "kexec_file_load": 294,
                "open_by_handle_at": 265, "acct": 89, "swapon": 224, "swapoff": 225,
                "reboot": 142, **_COMMON_NEW},
}
CLONE = {"x86_64": 56, "aarch64": 220}
CLONE3 = 435


def machine() -> str:
    return platform.machine().lower().replace("amd64", "x86_64").replace("arm64", "aarch64")


def supported(arch: str | None = None) -> bool:
    return (arch or machine()) in DENIED


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def program(arch: str | None = None) -> bytes:
    """The filter for `arch` (default: this machine's) as bwrap reads it: `struct sock_filter`
    entries back to back. ValueError for an architecture without a table."""
    arch = arch or machine()
    if arch not in DENIED:
        raise ValueError(f"no seccomp table for {arch}")
    denied = sorted(DENIED[arch].values())
    deny = _RET_ERRNO | errno.EPERM
    # Built back to front would be tidier for jumps; instead every jump goes to one of the three
    # endings at the end of the program, whose places are known once the body is laid out.
    body: list[tuple[int, int, int, int]] = []
    body.append((_LD_W_ABS, 0, 0, _ARCH))
    body.append((_JEQ_K, 0, -1, AUDIT_ARCH[arch]))        # another ABI: deny
    body.append((_LD_W_ABS, 0, 0, _NR))
    if arch == "x86_64":
        body.append((_JGE_K, -1, 0, _X32_BIT))            # x32: deny
    body.append((_JEQ_K, -3, 0, CLONE3))                   # clone3: ENOSYS
    for number in denied:
        body.append((_JEQ_K, -1, 0, number))
    body.append((_JEQ_K, 0, -2, CLONE[arch]))              # not clone: allow
    body.append((_LD_W_ABS, 0, 0, _ARG0))
    body.append((_JSET_K, -1, -2, CLONE_NAMESPACES))       # a new namespace: deny, else allow
    endings = {-1: deny, -2: _RET_ALLOW, -3: _RET_ERRNO | errno.ENOSYS}
    place = {-1: len(body), -2: len(body) + 1, -3: len(body) + 2}
    code = bytearray()
    for index, (op, jt, jf, k) in enumerate(body):
        true_jump = place[jt] - index - 1 if jt < 0 else jt
        false_jump = place[jf] - index - 1 if jf < 0 else jf
        code += _insn(op, true_jump, false_jump, int(k))
    for value in (endings[-1], endings[-2], endings[-3]):
        code += _insn(_RET_K, 0, 0, value)
    return bytes(code)
