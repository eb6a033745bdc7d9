"""Reading a skill inside a zip archive (a library root may be one, `bundle.zip/pdf-tools`) as
`files.py` reads a folder: every member under the skill's folder, within the same bounds, and
what was not read a finding of its own, so a zipped skill is scanned as the same skill unpacked.

Nothing in an archive is trusted. A member's stated size is not: at most the bound plus one byte
is decompressed from it. A member whose name leads out of the folder it would be unpacked into
(absolute, a drive, `..`, backslashes) is reported and not read, as is an encrypted member (a
password-protected "prerequisite" is a lure of malicious installers), one stored in a way Python
cannot decompress, and a link that leads out of the skill. The archive's listing is read once
per version of the file and grouped by skill folder, so scanning each of its thousand skills
does not read it a thousand times."""

from __future__ import annotations

import functools
import hashlib
import os
import re
import stat
import struct
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from studio.skills.scan import SkillRoot, enclosing_zip
from studio.threatscan.files import (
    MAX_FILE_BYTES,
    MAX_FILES,
    MAX_TOTAL_BYTES,
    NOT_READ,
    UNREADABLE_CODE,
    TextFile,
    binary_finding,
    decode,
    read_skill_files,
    skill_stamp,
)
from studio.threatscan.findings import Finding

SKILL_FILES = ("SKILL.md", "skill.md")
_SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn"})
_DRIVE = re.compile(r"^[A-Za-z]:")
# A link's target is a short path; a longer one is not followed anyway.
_MAX_LINK = 4096
# Archives whose listings are kept: a library has few zip roots.
_LISTINGS = 8
# A member's local header (zipfile's `structFileHeader`): signature, versions, flags, method,
# time, date, CRC, sizes, then the lengths of the name and the extra field that follow it.
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")

Place = tuple[Path, tuple[str, ...]]
# The members under each skill folder of an archive: (path inside the skill, member) each.
Listing = dict[tuple[str, ...], list[tuple[str, zipfile.ZipInfo]]]


def zipped_place(directory: Path) -> Place | None:
    """(archive, the skill's folder inside it as parts) when `directory` is a skill inside a
    zip file, or the zip file itself (a skill at its top); None otherwise."""
    if SkillRoot(directory).is_zip and directory.is_file():
        return directory, ()
    found = enclosing_zip(directory)
    if found is None:
        return None
    archive, inner = found
    return archive, tuple(part for part in inner.parts if part not in ("", "."))


def read_skill(directory: Path) -> tuple[list[TextFile], list[Finding]]:
    """The text files of the skill at `directory`, a folder or a folder inside a zip archive, and
    the findings for what was not read."""
    if not directory.is_dir():
        place = zipped_place(directory)
        if place is not None:
            return read_zipped(*place)
    return read_skill_files(directory)


def stamp_of(directory: Path) -> str | None:
    """`files.skill_stamp` of a folder; for a skill in an archive, a digest of the archive's
    size, times and inode and of the folder inside it; None when it is neither."""
    if directory.is_dir():
        return skill_stamp(directory)
    place = zipped_place(directory)
    if place is None:
        return None
    try:
        info = os.stat(place[0])
    except OSError:
        return None
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{place[0]}\0{'/'.join(place[1])}\0{info.st_size}\0{info.st_mtime_ns}\0"
                  f"{info.st_ctime_ns}\0{info.st_ino}".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def zipped_skills(archive: Path) -> tuple[list[Path], str | None]:
    """The skill folders inside a zip archive, as the library names them (`archive/inner`), and
    what is wrong when there are none."""
    try:
        inside = sorted(_listing_of(archive))
    except (OSError, zipfile.BadZipFile, ValueError) as exc:
        return [], f"{archive}: cannot be read as a zip archive ({exc})"
    if not inside:
        return [], f"{archive}: no SKILL.md in this archive"
    return [archive.joinpath(*inner) for inner in inside], None


def unsafe_name(name: str) -> bool:
    """Whether an archive member's name leads out of the folder it is unpacked into: absolute,
    with a drive letter, a `..` part, or backslashes (which Windows tools read as separators)."""
    return (name.startswith("/") or "\\" in name or _DRIVE.match(name) is not None
            or ".." in name.split("/"))


def _parts(name: str) -> tuple[str, ...]:
    """A member's name as the parts of a path inside the archive, whatever its name says (as the
    library places the skills it finds in an archive)."""
    return tuple(part for part in _DRIVE.sub("", name.replace("\\", "/")).split("/")
                 if part not in ("", ".", ".."))


def _listing_of(archive: Path) -> Listing:
    info = os.stat(archive)
    return _listing(archive, info.st_size, info.st_mtime_ns, info.st_ino)


@functools.lru_cache(maxsize=_LISTINGS)
def _listing(archive: Path, _size: int, _mtime_ns: int, _inode: int) -> Listing:
    with zipfile.ZipFile(archive) as opened:
        infos = opened.infolist()
    named = [(_parts(info.filename), info) for info in infos if not info.is_dir()]
    skills: Listing = {parts[:-1]: [] for parts, _info in named
                       if parts and parts[-1] in SKILL_FILES}
    for parts, info in named:
        for cut in range(len(parts)):
            members = skills.get(parts[:cut])
            if members is not None:
                members.append(("/".join(parts[cut:]), info))
    for members in skills.values():
        members.sort(key=lambda member: member[0])
    return skills


def read_zipped(archive: Path, inner: tuple[str, ...]) -> tuple[list[TextFile], list[Finding]]:
    """The text files of the skill at `inner` in `archive`, and the findings for what was not
    read, within the bounds `read_skill_files` keeps."""
    try:
        members = _listing_of(archive).get(inner)
    except (OSError, zipfile.BadZipFile, ValueError) as exc:
        return [], [Finding(NOT_READ, "medium", 0.5, ".", 1, 1,
                            f"the archive holding this skill could not be read ({exc})", "")]
    if members is None:
        return [], [Finding(NOT_READ, "medium", 0.5, ".", 1, 1,
                            "this skill is no longer in its archive; nothing was read", "")]
    texts: list[TextFile] = []
    findings: list[Finding] = []
    total = count = skipped = 0
    try:
        with open(archive, "rb") as opened:
            for relative, info in _wanted(members, findings):
                if stat.S_ISLNK(info.external_attr >> 16):
                    _read(opened, info, relative, 0, findings)
                    continue
                count += 1
                if count > MAX_FILES or total >= MAX_TOTAL_BYTES:
                    skipped += 1
                    continue
                limit = min(MAX_FILE_BYTES, MAX_TOTAL_BYTES - total)
                data = _read(opened, info, relative, limit, findings)
                if data is None:
                    continue
                total += len(data)
                head = data[:64]
                binary = b"\x00" in data[:8192] and not head.startswith((b"\xff\xfe", b"\xfe\xff"))
                if binary or relative.lower().endswith((".pyc", ".pyo")):
                    finding = binary_finding(relative, head)
                    if finding is not None:
                        findings.append(finding)
                    continue
                texts.append(TextFile(relative, decode(data)))
    except (OSError, zipfile.BadZipFile, ValueError) as exc:
        findings.append(Finding(NOT_READ, "medium", 0.5, ".", 1, 1,
                                f"the archive holding this skill could not be read ({exc})", ""))
    if skipped:
        findings.append(Finding(
            NOT_READ, "medium", 0.6, ".", 1, 1,
            f"{skipped} file{'s were' if skipped != 1 else ' was'} not read: a skill is read up "
            f"to {MAX_FILES} files and {MAX_TOTAL_BYTES // (1024 * 1024)} MiB", ""))
    return texts, findings


def _wanted(members: list[tuple[str, zipfile.ZipInfo]],
            findings: list[Finding]) -> Iterator[tuple[str, zipfile.ZipInfo]]:
    """The members to read, in order; those not to read reported in `findings`."""
    for relative, info in members:
        if _SKIPPED_FOLDERS.intersection(relative.split("/")[:-1]):
            continue
        if unsafe_name(info.filename):
            findings.append(Finding(
                NOT_READ, "medium", 0.6, relative, 1, 1,
                f"the archive names this file `{info.filename}`, a path that leads out of the "
                "folder it is unpacked into; it was not read. Rebuild the archive with relative "
                "paths", info.filename))
            continue
        yield relative, info


def _open_member(raw: BinaryIO, info: zipfile.ZipInfo) -> zipfile.ZipExtFile:
    """A member of the archive open in `raw`, from the listing's record of it: opening the
    archive again with `zipfile.ZipFile` for each skill would read its whole listing again (50 ms
    for 10,000 members, the most of a scan of a zipped library)."""
    raw.seek(info.header_offset)
    header = _LOCAL_HEADER.unpack(raw.read(_LOCAL_HEADER.size))
    if header[0] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"no member header where the listing puts {info.filename!r}")
    raw.seek(header[10] + header[11], os.SEEK_CUR)  # the header's name and extra field
    return zipfile.ZipExtFile(raw, "r", info, None, False)


def _read(opened: BinaryIO, info: zipfile.ZipInfo, relative: str, limit: int,
          findings: list[Finding]) -> bytes | None:
    """Up to `limit` bytes of a member (a finding when there were more), or None when it is
    not read: encrypted, stored in a way Python cannot read, damaged, or a link."""
    if info.flag_bits & 0x1:
        findings.append(Finding(
            UNREADABLE_CODE, "high", 0.8, relative, 1, 1,
            "encrypted in the archive (password-protected): nobody can check what it holds "
            "before it is opened (a lure malicious installers use)", ""))
        return None
    try:
        with _open_member(opened, info) as handle:
            if stat.S_ISLNK(info.external_attr >> 16):
                _link_finding(relative, handle.read(_MAX_LINK), findings)
                return None
            data = handle.read(limit + 1) if limit > 0 else b""
    except (OSError, zipfile.BadZipFile, NotImplementedError, RuntimeError, EOFError,
            zlib.error, struct.error) as exc:
        findings.append(Finding(NOT_READ, "medium", 0.5, relative, 1, 1,
                                f"could not be read from the archive ({exc})", ""))
        return None
    if len(data) > limit:
        data = data[:limit]
        findings.append(Finding(
            NOT_READ, "medium", 0.6, relative, 1, 1,
            f"only its first {limit:,} bytes of {info.file_size:,} were read; the rest was not "
            "checked", ""))
    return data


def _link_finding(relative: str, target_bytes: bytes, findings: list[Finding]) -> None:
    """A link stored in the archive is not followed; one leading out of the skill is reported,
    as `files.py` reports such a link in a folder."""
    target = target_bytes.decode("utf-8", "replace")
    inside = PurePosixPath(relative).parent / target
    depth = 0
    for part in inside.parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 0:
            break
    if target.startswith("/") or depth < 0 or _DRIVE.match(target):
        findings.append(Finding(
            NOT_READ, "medium", 0.6, relative, 1, 1,
            f"a symbolic link leading out of the skill, to {target}: what it shows depends on "
            "the machine; it was not followed", target))
