"""Reading every file of a skill, within bounds, and saying what was not read.

A skill is everything in its folder: an agent may be told to run any file, and an installer
copies them all. So every regular file is read, dot files included, up to `MAX_FILES` files and
`MAX_TOTAL_BYTES` in all (`MAX_FILE_BYTES` of any one); what lies past a bound, a symbolic link
leading out of the skill, and a file that is not text (compiled Python, an executable, an
archive) become findings of their own, so that "nothing found" never means "nothing read".
Binary files of the kinds a skill's assets are made of (images, PDF, fonts) are known by their
first bytes: an allowlist, anything else is reported unread."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from studio.skills import codes
from studio.threatscan.findings import Finding

MAX_FILES = 400
MAX_TOTAL_BYTES = 8 * 1024 * 1024
MAX_FILE_BYTES = 1024 * 1024
# Folders whose content a skill does not ship or run: version control's own data.
_SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn"})

NOT_READ = codes.NOT_READ
UNREADABLE_CODE = codes.UNREADABLE_CODE

# First bytes of the data files skills carry as assets.
_DATA_MAGIC = (
    b"\x89PNG", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"%PDF", b"\x00\x00\x01\x00", b"wOFF",
    b"wOF2", b"\x00\x01\x00\x00\x00", b"OTTO", b"BM", b"ID3", b"\xff\xfb", b"fLaC", b"OggS",
    b"\x1aE\xdf\xa3", b"ftyp",
)
_EXECUTABLE_MAGIC = (b"\x7fELF", b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe",
                     b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe", b"MZ")


@dataclass(frozen=True)
class TextFile:
    relative: str
    text: str


def binary_finding(relative: str, head: bytes) -> Finding | None:
    """The finding for a file that is not text, or None for an asset of a known kind."""
    name = relative.lower()
    if name.endswith((".pyc", ".pyo")) or (head[2:4] == b"\r\n" and head[4:8] == b"\x00\x00\x00\x00"):
        return Finding(UNREADABLE_CODE, "high", 0.8, relative, 1, 1,
                       "compiled Python: code a person cannot read, which runs like the source "
                       "it was made from. Ship the .py source instead", "")
    if head.startswith(_EXECUTABLE_MAGIC) and not (head.startswith(b"MZ") and len(head) < 64):
        return Finding(UNREADABLE_CODE, "high", 0.7, relative, 1, 1,
                       "an executable program: what it does cannot be read. Ship its source, "
                       "or install it from its maker", "")
    if head.startswith(b"\x00asm"):
        return Finding(UNREADABLE_CODE, "medium", 0.6, relative, 1, 1,
                       "a WebAssembly module: compiled code a person cannot read", "")
    if head.startswith(b"PK\x03\x04"):
        encrypted = len(head) > 7 and head[6] & 1
        if encrypted:
            return Finding(UNREADABLE_CODE, "high", 0.8, relative, 1, 1,
                           "a password-protected archive: nobody can check what is inside "
                           "before it is opened (a lure malicious installers use)", "")
        if name.endswith((".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp", ".epub")):
            return None
        return Finding(NOT_READ, "low", 0.5, relative, 1, 1,
                       "an archive: its files were not read. Unpack it into the skill instead", "")
    if head.startswith(_DATA_MAGIC) or (head[4:8] == b"ftyp") or (
            head.startswith(b"RIFF") and head[8:12] in (b"WEBP", b"WAVE", b"AVI ")):
        return None
    return Finding(NOT_READ, "low", 0.4, relative, 1, 1,
                   "a binary file of a kind not known as an asset; it was not read", "")


def decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", "replace")
    return data.decode("utf-8", "replace")


def _read_bounded(descriptor: int, limit: int, size: int) -> bytes:
    """Up to `limit` + 1 bytes of an open file whose stat says it holds `size` (one more than
    the bound tells that there was more). The first read asks for what the size says, plus
    one: asking for the whole bound would have each file allocate (and page in) a megabyte.
    A file that fills that first request, or gave less than its size, is read on."""
    asked = min(limit, size) + 1
    data = os.read(descriptor, asked)
    while 0 < len(data) <= limit and (len(data) < size or len(data) == asked):
        more = os.read(descriptor, limit + 1 - len(data))
        if not more:
            break
        data += more
    return data


def read_one(directory: Path, relative: str) -> tuple[str | None, list[Finding]]:
    """One file's text (None when it is not text), and the findings for what was not read."""
    findings: list[Finding] = []
    full = os.path.join(directory, relative)
    try:
        descriptor = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None, findings
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            return None, findings
        data = _read_bounded(descriptor, MAX_FILE_BYTES, info.st_size)
    except OSError:
        return None, findings
    finally:
        os.close(descriptor)
    if len(data) > MAX_FILE_BYTES:
        data = data[:MAX_FILE_BYTES]
        findings.append(Finding(NOT_READ, "medium", 0.6, relative, 1, 1,
                                f"only its first {MAX_FILE_BYTES:,} bytes were read", ""))
    if b"\x00" in data[:8192] or relative.lower().endswith((".pyc", ".pyo")):
        finding = binary_finding(relative, data[:64])
        return None, [*findings, *([finding] if finding is not None else [])]
    return decode(data), findings


def read_skill_files(directory: Path) -> tuple[list[TextFile], list[Finding]]:
    """The text files of the skill at `directory`, and the findings for what was not read."""
    texts: list[TextFile] = []
    findings: list[Finding] = []
    total = count = 0
    skipped_files = skipped_bytes = 0
    root = str(directory)
    for relative, full in _walk(root, findings):
        count += 1
        if count > MAX_FILES or total >= MAX_TOTAL_BYTES:
            skipped_files += 1
            continue
        try:
            descriptor = os.open(full, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                                 | getattr(os, "O_NOFOLLOW", 0))
        except OSError as exc:
            findings.append(Finding(NOT_READ, "medium", 0.5, relative, 1, 1,
                                    f"could not be read ({exc.strerror})", ""))
            continue
        try:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode):
                continue
            limit = min(MAX_FILE_BYTES, MAX_TOTAL_BYTES - total)
            data = _read_bounded(descriptor, limit, info.st_size) if limit > 0 else b""
        except OSError as exc:
            findings.append(Finding(NOT_READ, "medium", 0.5, relative, 1, 1,
                                    f"could not be read ({exc.strerror})", ""))
            continue
        finally:
            os.close(descriptor)
        if len(data) > limit:
            data = data[:limit]
            skipped_bytes += info.st_size - limit
            findings.append(Finding(
                NOT_READ, "medium", 0.6, relative, 1, 1,
                f"only its first {limit:,} bytes of {info.st_size:,} were read; the rest was "
                "not checked", ""))
        total += len(data)
        head = data[:64]
        if b"\x00" in data[:8192] and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
            finding = binary_finding(relative, head)
            if finding is not None:
                findings.append(finding)
            continue
        if relative.lower().endswith((".pyc", ".pyo")):
            finding = binary_finding(relative, head)
            if finding is not None:
                findings.append(finding)
            continue
        texts.append(TextFile(relative, decode(data)))
    if skipped_files:
        findings.append(Finding(
            NOT_READ, "medium", 0.6, ".", 1, 1,
            f"{skipped_files} file{'s were' if skipped_files != 1 else ' was'} not read: a "
            f"skill is read up to {MAX_FILES} files and {MAX_TOTAL_BYTES // (1024 * 1024)} MiB",
            ""))
    return texts, findings


def skill_stamp(directory: Path) -> str:
    """A digest of the files `read_skill_files` reads: each one's path, size, times and inode
    (a save by rename makes a new one), and of what its walk reports (a link leading out, a
    folder it could not list). While it stays the same, so do the scan's findings, and taking
    it costs a stat per file where a scan reads and parses them."""
    return aged_stamp(directory)[0]


def aged_stamp(directory: Path) -> tuple[str, int]:
    """`skill_stamp`, and the newest modification or change time of its files (ns since the
    epoch): a file changed in the last moments may change again within one tick of a coarse
    clock, keeping its stamp, so a stamp that young is not trusted to stand for the content."""
    digest = hashlib.blake2b(digest_size=16)
    newest = 0
    walked: list[Finding] = []
    for relative, full in _walk(str(directory), walked):
        try:
            info = os.stat(full, follow_symlinks=False)
        except OSError:
            continue
        newest = max(newest, info.st_mtime_ns, info.st_ctime_ns)
        digest.update(f"{relative}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ctime_ns}\0"
                      f"{info.st_ino}\n".encode("utf-8", "surrogateescape"))
    for finding in walked:
        digest.update(f"{finding.file}\0{finding.message}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest(), newest


def _walk(root: str, findings: list[Finding]) -> Iterator[tuple[str, str]]:
    """(relative path, full path) of every file below `root`, in a stable order, links not
    followed; a link is reported when it leads out of the skill."""
    real_root = ""  # resolved at the first link: most skills hold none
    stack = [""]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(os.path.join(root, folder) if folder else root) as entries:
                listed = sorted(entries, key=lambda entry: entry.name)
        except OSError as exc:
            findings.append(Finding(NOT_READ, "medium", 0.5, folder or ".", 1, 1,
                                    f"this folder could not be listed ({exc.strerror})", ""))
            continue
        folders: list[str] = []
        for entry in listed:
            relative = f"{folder}/{entry.name}" if folder else entry.name
            try:
                if entry.is_symlink():
                    target = os.path.realpath(entry.path)
                    real_root = real_root or os.path.realpath(root)
                    if os.path.commonpath([target, real_root]) != real_root:
                        findings.append(Finding(
                            NOT_READ, "medium", 0.6, relative, 1, 1,
                            f"a symbolic link leading out of the skill, to {target}: what it "
                            "shows depends on the machine; it was not followed", target))
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in _SKIPPED_FOLDERS:
                        folders.append(relative)
                    continue
                if entry.is_file(follow_symlinks=False):
                    yield relative, entry.path
            except (OSError, ValueError):
                continue
        stack.extend(reversed(folders))
