"""Reading skills from disk and from zip archives into `Skill` objects."""

from __future__ import annotations

import os
import re
import stat
import sys
import zipfile
from bisect import bisect_left
from operator import attrgetter
from pathlib import Path, PosixPath, PurePosixPath
from typing import cast

import studio.skills.codes as codes
from studio.errors import StudioError
from studio.skills.clients import RECORDS
from studio.skills.codes import CANNOT_READ, UNSAFE_ARCHIVE_PATH
from studio.skills.model import (
    LOWERCASE_SKILL_FILE,
    SKILL_FILE,
    Diagnostic,
    Severity,
    Skill,
    SkillFile,
    Span,
)
from studio.skills.parse import MAX_SKILL_BYTES, folder_name, parse_skill

MAX_LISTED_FILES = 2000
MAX_DEPTH = 8
SKIPPED_DIRS = frozenset(
    {".git", "node_modules", "__pycache__", ".venv", "venv", ".mypy_cache"}
)
# The dot folders where agent clients keep skills (`.claude/skills`, ...): the search for skills
# goes into these even when it skips other hidden folders. docs/clients.md lists them.
CLIENT_FOLDERS = frozenset(folder for record in RECORDS for folder in record.walks)
# A folder holding this file is a Python virtual environment, whatever its name.
VENV_MARKER = "pyvenv.cfg"


def walks_into(name: str, include_hidden: bool) -> bool:
    """Whether the search for skills goes into a folder named `name`: never into `.git`,
    `node_modules` or a virtual environment; into a client's dot folder always; into another
    hidden folder only when asked to."""
    if name in SKIPPED_DIRS:
        return False
    return include_hidden or not name.startswith(".") or name in CLIENT_FOLDERS


def skill_file_in(names: set[str] | list[str]) -> str | None:
    if SKILL_FILE in names:
        return SKILL_FILE
    if LOWERCASE_SKILL_FILE in names:
        return LOWERCASE_SKILL_FILE
    return None


# Codes of what reading a skill's files finds; see docs/codes.md.

# Opening a FIFO for reading waits for a writer, and opening a device can do anything the
# device likes: files are opened only when a stat says they are regular, and without blocking
# (then checked again on the open descriptor), so one swapped in between cannot hang the read.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(
    os, "O_NOCTTY", 0
)


def kind_of_mode(mode: int) -> str | None:
    """What a file that is not a regular file is ("a FIFO", "a socket", ...), or None for a
    regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


class NotRegularFile(OSError, StudioError):
    """A path that is a FIFO, socket, device or folder where a file was expected."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"it is {kind}, not a regular file")
        self.kind = kind


def open_regular(path: str | os.PathLike[str], *, listed_regular: bool = False) -> int:
    """A descriptor open for reading on `path`, which must be a regular file (links followed).
    Raises `NotRegularFile` for anything else, without ever blocking on it.

    `listed_regular` says that the folder's listing has just named `path` a regular file and
    not a link: its `stat` is skipped, as it could only say the same (a file swapped in since
    is caught on the descriptor, as it is after a `stat`)."""
    if not listed_regular:
        kind = kind_of_mode(os.stat(path).st_mode)
        if kind is not None:
            raise NotRegularFile(kind)
    descriptor = os.open(path, _OPEN_FLAGS)
    try:
        kind = kind_of_mode(os.fstat(descriptor).st_mode)
        if kind is not None:
            raise NotRegularFile(kind)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _starts_with_shebang(path: str) -> bool:
    """Whether a file its caller has just `stat`ed as regular starts with `#!` (or is an ELF
    binary). Opened without blocking and checked on the descriptor, as `open_regular` does,
    without its `stat` again."""
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return False
        head = os.read(descriptor, 4)
    except OSError:
        return False
    finally:
        os.close(descriptor)
    return head.startswith(b"#!") or head == b"\x7fELF"


def _listed_script(path: str) -> tuple[os.stat_result, bool] | None:
    """The `stat` of a file under `scripts/` that its folder's listing calls regular (not a link),
    and whether it starts with `#!` (or is an ELF binary), both from one descriptor opened
    without blocking: a `stat` first would only say what the listing said, and anything swapped
    in since shows on the descriptor. None when it cannot be opened or read."""
    try:
        descriptor = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(descriptor)
        head = os.read(descriptor, 4) if stat.S_ISREG(info.st_mode) else b""
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return info, head.startswith(b"#!") or head == b"\x7fELF"


# A folder's entries as (name, is a folder, is a link, is a regular file), not following links,
# sorted by name. The kinds come from the folder's listing itself (d_type), without a `stat`.
Listing = tuple[tuple[str, bool, bool, bool], ...]


def listing_of(entries: list[os.DirEntry[str]]) -> Listing:
    listing = []
    for entry in entries:
        try:
            listing.append((
                entry.name, entry.is_dir(follow_symlinks=False), entry.is_symlink(),
                entry.is_file(follow_symlinks=False),
            ))
        except OSError:
            continue
    listing.sort()
    return tuple(listing)


def _listing(folder: str) -> Listing | None:
    try:
        with os.scandir(folder) as entries:
            return listing_of(list(entries))
    except OSError:
        return None


def _named_files(folder: str, prefix: str, found: list[SkillFile]) -> Listing | None:
    """The regular files of `folder`, as SkillFiles named `prefix` and their name without size
    or mode, appended to `found` (unordered: the caller sorts); the rest of its listing, which
    is what is left for `list_skill_files` to look at, or None when it cannot be listed.
    A skill's references and assets are ten files on average: building a listing of them all,
    sorting it and reading it back cost more than naming them."""
    rest = []
    append, new, count = found.append, _new, len(found)
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    if entry.is_file(follow_symlinks=False):
                        append(new(SkillFile, (prefix + entry.name, None, None, None)))
                        continue
                    rest.append((
                        entry.name, entry.is_dir(follow_symlinks=False), entry.is_symlink(), False,
                    ))
                except OSError:
                    continue
    except OSError:
        del found[count:]  # as a folder that cannot be listed at all: none of its files
        return None
    rest.sort()
    return tuple(rest)


def is_inside(path: str, folder: str) -> bool:
    """Whether `path` (already resolved) is `folder` (already resolved) or below it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)



def in_client_folder(real: str) -> bool:
    """Whether the resolved path `real` is in a client's skill folder (`.agents/skills`,
    `.claude/skills`, ...): where the skills CLI keeps the one copy its links lead to."""
    parts = Path(real).parts
    return any(parts[i] in CLIENT_FOLDERS and parts[i + 1] == "skills"
               for i in range(len(parts) - 1))


def may_follow(real: str, real_root: str, linked_roots: tuple[str, ...] = ()) -> bool:
    """Whether a link below a root whose target resolves to `real` is followed: it stays in the
    root (resolved, `real_root`), or leads into another library root (resolved, `linked_roots`)
    or into a client's skill folder. A link anywhere else is reported (SK302), and nothing
    behind it is read or written."""
    return (is_inside(real, real_root) or in_client_folder(real)
            or any(is_inside(real, other) for other in linked_roots))

def list_skill_files(
    directory: Path | str,
    first_level: Listing | None = None,
    odd: list[Diagnostic] | None = None,
    *,
    sizes: bool = True,
) -> tuple[SkillFile, ...]:
    """Every regular file below a skill folder but SKILL.md, without following links out of it
    (nor into folders: a link to a folder is never descended into, so no cycle can form).

    `first_level` is the folder's own listing when the caller has already read it. A FIFO,
    socket or device among the files, and a link that leads out of the skill's folder, are
    left out and, when `odd` is given, reported there as warnings. Without `sizes`, only the
    files under `scripts/` and links are `stat`ed (validation reads no other file's size or
    mode; a skill has ten files on average): the others have size and executable None."""
    found: list[SkillFile] = []
    stack: list[tuple[str, str, int, Listing | None]] = [(os.fspath(directory), "", 0, first_level)]
    real_directory: str | None = None
    sep = os.sep
    while stack and len(found) < MAX_LISTED_FILES:
        folder, prefix, depth, listing = stack.pop()
        in_scripts = prefix.startswith("scripts/")
        if listing is None:
            if prefix and not sizes and not in_scripts:
                # A folder below the skill whose regular files are only named: they go to
                # `found` as the listing reads them, its folders and anything else (links,
                # FIFOs) go through the loop below, in name order, as a listing's would.
                listing = _named_files(folder, prefix, found)
            else:
                listing = _listing(folder)
            if listing is None:
                continue
        for name, is_dir, is_link, is_file in listing:
            relative = prefix + name
            if is_file and not sizes and not in_scripts:
                if prefix or name not in (SKILL_FILE, LOWERCASE_SKILL_FILE):
                    found.append(_new(SkillFile, (relative, None, None, None)))
                continue
            path = folder + sep + name
            if is_dir:
                if depth < MAX_DEPTH and name not in SKIPPED_DIRS:
                    stack.append((path, relative + "/", depth + 1, None))
                continue
            if not prefix and name in (SKILL_FILE, LOWERCASE_SKILL_FILE):
                continue
            if is_link:
                if real_directory is None:
                    real_directory = os.path.realpath(directory)
                target = os.path.realpath(path)
                if not is_inside(target, real_directory):
                    if odd is not None:
                        odd.append(Diagnostic(
                            codes.LINK_OUT, Severity.WARNING,
                            f"`{relative}` is a link to {target}, outside the skill's folder; "
                            "it is not read, and an agent cannot read it either. Copy the file "
                            "into the skill instead",
                            file=relative,
                        ))
                    continue
            listed = _listed_script(path) if in_scripts and is_file else None
            shebang: bool | None
            if listed is not None:
                info, shebang = listed
            else:
                try:
                    info = os.stat(path)
                except OSError:
                    continue
                shebang = None
            mode = info.st_mode
            if not stat.S_ISREG(mode):
                kind = kind_of_mode(mode)
                if odd is not None and not stat.S_ISDIR(mode):
                    odd.append(Diagnostic(
                        codes.SPECIAL_FILE, Severity.WARNING,
                        f"`{relative}` is {kind}, not a regular file; it is not read. Remove "
                        "it or replace it with a file",
                        file=relative,
                    ))
                continue
            if in_scripts and shebang is None:
                shebang = _starts_with_shebang(path)
            found.append(SkillFile(relative, info.st_size, bool(mode & 0o111), shebang))
    found.sort(key=_relative)
    return tuple(found)


_relative = attrgetter("relative")
# A SkillFile built in one C call, as a NamedTuple's own constructor is Python code.
_new = tuple.__new__


def missing_skill_file(directory: Path) -> Skill:
    skill = Skill(
        path=directory / SKILL_FILE,
        directory=directory,
        dir_name=folder_name(directory),
        source="",
        frontmatter=None,
        body="",
        body_span=Span(1, 1, 1, 1),
    )
    skill.problems.append(
        Diagnostic(
            codes.MISSING_SKILL_FILE, Severity.ERROR,
            f"no SKILL.md in {directory}: a skill folder needs one",
        )
    )
    return skill


# What one read asks for first: most SKILL.md files are smaller, and a buffer this size comes
# from the heap, not a fresh mapping of 1 MiB.
_FIRST_READ = 64 * 1024


def read_skill_bytes(path: str | os.PathLike[str], *, listed_regular: bool = False) -> bytes:
    """A SKILL.md's bytes, one more than MAX_SKILL_BYTES at most; raises OSError (NotRegularFile
    for a FIFO, device, ...). `listed_regular` as for `open_regular`."""
    descriptor = open_regular(path, listed_regular=listed_regular)
    try:
        # A regular file gives all that is asked of it: a short first read is the whole file,
        # without an `fstat` for its size. One byte more than 1 MiB tells that it is too large.
        data = os.read(descriptor, _FIRST_READ)
        if len(data) < _FIRST_READ:
            return data
        return data + os.read(descriptor, MAX_SKILL_BYTES + 1 - _FIRST_READ)
    finally:
        os.close(descriptor)


def load_skill(path: Path) -> Skill:
    """Read a skill from its folder or its SKILL.md. An unreadable file becomes a diagnostic."""
    path = Path(path)
    if path.is_dir():
        directory = path
        try:
            listing = os.listdir(directory)
        except OSError as exc:
            skill = missing_skill_file(directory)
            skill.problems[0] = Diagnostic(
                codes.MISSING_SKILL_FILE, Severity.ERROR,
                f"cannot read the folder {directory}: {exc.strerror}"
            )
            return skill
        file_name = skill_file_in(listing)
        if file_name is None:
            return missing_skill_file(directory)
        return load_skill_file(directory, file_name)
    return load_skill_file(path.parent, path.name)


def load_skill_file(
    directory: Path | str, file_name: str, listing: Listing | None = None, *, sizes: bool = True
) -> Skill:
    """Read a skill whose SKILL.md (or skill.md) is already known to be `directory / file_name`;
    `listing` is the folder's listing when the caller has already read it. Without `sizes`, its
    files are listed as validation needs them (see `list_skill_files`).

    `directory` may be given as text, as a library scan has it: the skill's paths are then
    built without pathlib parsing the text again (see `_skill_paths`)."""
    if isinstance(directory, str):
        folder = directory
        directory, skill_path = _skill_paths(folder, file_name)
    else:
        folder = str(directory)
        skill_path = directory / file_name
    odd: list[Diagnostic] = []
    files = list_skill_files(folder, listing, odd, sizes=sizes)
    listed_regular = False
    if listing is not None:
        at = bisect_left(listing, (file_name,))
        listed_regular = at < len(listing) and listing[at][0] == file_name and listing[at][3]
    try:
        data = read_skill_bytes(folder + os.sep + file_name, listed_regular=listed_regular)
    except OSError as exc:
        skill = missing_skill_file(directory)
        skill.path = skill_path
        what = exc if isinstance(exc, NotRegularFile) else (exc.strerror or exc)
        skill.problems[0] = Diagnostic(
            CANNOT_READ, Severity.ERROR,
            f"cannot read {file_name}: {what}; make it a regular file the user running studio "
            "can read",
            file=file_name,
        )
        skill.problems.extend(odd)
        return skill
    skill = parse_skill(data, skill_path, directory=directory, files=files)
    skill.problems.extend(odd)
    if listing is not None:
        at = bisect_left(listing, _EVALS_ENTRY)
        skill.evals_entry = at < len(listing) and listing[at][0] == _EVALS_ENTRY[0]
    return skill


# pathlib's constructor of a path from parts it has already parsed (Python 3.11): parsing a
# skill's folder and SKILL.md paths again, and then formatting their text, costs a scan worker
# more than 10 µs a skill. Python 3.12 changed these internals (and parses lazily), so there the
# paths are built the plain way.
_FROM_PARSED_PARTS = (
    getattr(PosixPath, "_from_parsed_parts", None)
    if os.name == "posix" and sys.version_info < (3, 12) else None
)


def _skill_paths(folder: str, file_name: str) -> tuple[Path, Path]:
    """A skill's folder and SKILL.md as paths equal to `Path(folder)` and `Path(folder) /
    file_name`, built from the text's parts when it is already in pathlib's normal form (no
    empty or `.` part, no trailing or doubled separator), as the walk's paths are."""
    if _FROM_PARSED_PARTS is not None and folder:
        parts = folder.split("/")
        root = ""
        if not parts[0]:
            parts[0] = root = "/"
        if "" not in parts and "." not in parts:
            directory = cast(Path, _FROM_PARSED_PARTS("", root, parts))
            skill_path = cast(Path, _FROM_PARSED_PARTS("", root, [*parts, file_name]))
            # Their text is known: the first `str()` of each would otherwise raise and catch an
            # AttributeError, then join the parts again, to give it.
            text = folder + "/" + file_name
            directory._str, skill_path._str = folder, text  # type: ignore[attr-defined]
            return directory, skill_path
    directory = Path(folder)
    return directory, directory / file_name


# Sorts before every entry named `evals` in a listing.
_EVALS_ENTRY = ("evals",)


def zip_skill_dirs(archive: zipfile.ZipFile) -> list[str]:
    """The folders inside an archive that hold a SKILL.md (or skill.md), as archive paths."""
    return [_folder_of(prefix) for prefix in _zip_skill_prefixes(archive.namelist())]


def _folder_of(prefix: str) -> str:
    return prefix[:-1] or "."


def _zip_skill_prefixes(names: list[str]) -> dict[str, str]:
    """Each skill folder's member prefix (`dir/`, or "" at the top) and the name of its
    SKILL.md, in the order of the folders' names. Prefixes are the members' own spelling, so
    prefix + name is always a member."""
    by_prefix: dict[str, list[str]] = {}
    for member in names:
        cut = max(member.rfind("/"), member.rfind("\\")) + 1
        name = member[cut:]
        if name in (SKILL_FILE, LOWERCASE_SKILL_FILE):
            by_prefix.setdefault(member[:cut], []).append(name)
    return {
        prefix: skill_file_in(by_prefix[prefix]) or SKILL_FILE
        for prefix in sorted(by_prefix, key=_folder_of)
    }


_DRIVE = re.compile(r"^[A-Za-z]:")
_SEPARATOR = re.compile(r"[/\\]")


def unsafe_member(name: str) -> bool:
    """Whether an archive member's name leads out of the folder it is unpacked into: absolute,
    with a drive letter, a `..` part, or backslashes (which Windows tools read as separators)."""
    return (
        name.startswith("/") or "\\" in name or _DRIVE.match(name) is not None
        or ".." in name.split("/")
    )


def _inside_archive(prefix: str) -> PurePosixPath:
    """A member folder as a path that stays inside the archive, whatever its name says."""
    parts = _DRIVE.sub("", prefix.replace("\\", "/")).split("/")
    return PurePosixPath(*(part for part in parts if part not in ("", ".", "..")))


def load_zip_skills(zip_path: Path) -> list[Skill]:
    """Every skill inside a zip archive, read-only. Raises OSError/zipfile.BadZipFile on a bad zip.

    Each member is read once and filed under every skill folder above it, so the cost grows
    with the archive's size, not with its size times its skills. A member whose name leads out
    of the archive is never listed; a skill whose SKILL.md has such a name is reported, at a
    location inside the archive."""
    # A FIFO or device named like an archive is refused, never waited on (`open_regular`).
    with os.fdopen(open_regular(zip_path), "rb") as opened, zipfile.ZipFile(opened) as archive:
        infos = archive.infolist()
        skill_files = _zip_skill_prefixes([info.filename for info in infos])
        files: dict[str, list[SkillFile]] = {prefix: [] for prefix in skill_files}
        odd: dict[str, list[Diagnostic]] = {prefix: [] for prefix in skill_files}
        for info in infos:
            if not info.is_dir():
                _file_member(archive, info, skill_files, files, odd)
        skills: list[Skill] = []
        for prefix, file_name in skill_files.items():
            member = prefix + file_name
            with archive.open(archive.getinfo(member)) as handle:
                data = handle.read(MAX_SKILL_BYTES + 1)
            inside = _inside_archive(prefix)
            directory = zip_path / inside if inside.parts else zip_path
            skill = parse_skill(data, directory / file_name, directory=directory,
                                files=tuple(files[prefix]), read_only=True)
            if unsafe_member(member):
                skill.problems.append(Diagnostic(
                    UNSAFE_ARCHIVE_PATH, Severity.ERROR,
                    f"the archive names this file `{member}`, a path that leads out of the folder "
                    "it is unpacked into (absolute, a drive, `..` or backslashes); unpacking it "
                    "could write anywhere. Rebuild the archive with relative paths",
                    file=file_name,
                ))
            skill.problems.extend(odd[prefix])
            skills.append(skill)
    return skills


def _file_member(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    skill_files: dict[str, str],
    files: dict[str, list[SkillFile]],
    odd: dict[str, list[Diagnostic]],
) -> None:
    """File one archive member under every skill folder above it (its own SKILL.md aside)."""
    name = info.filename
    if "\\" in name:  # a separator to the tools that would unpack it on Windows
        prefixes = ["", *(name[: match.end()] for match in _SEPARATOR.finditer(name))]
    else:
        prefixes = [""]
        cut = name.find("/") + 1
        while cut:
            prefixes.append(name[:cut])
            cut = name.find("/", cut) + 1
    for prefix in prefixes:
        file_name = skill_files.get(prefix)
        if file_name is None:
            continue
        relative = name[len(prefix):]
        if relative == file_name:
            continue
        if unsafe_member(relative):
            odd[prefix].append(Diagnostic(
                codes.UNSAFE_ZIP_FILE, Severity.WARNING,
                f"the archive names a file `{relative}` in this skill, a path that leads out of "
                "the skill's folder; it is not listed. Rebuild the archive with relative paths",
                file=relative,
            ))
            continue
        mode = info.external_attr >> 16
        shebang: bool | None = None
        if relative.startswith("scripts/"):
            with archive.open(info) as handle:
                head = handle.read(4)
            shebang = head.startswith(b"#!") or head == b"\x7fELF"
        files[prefix].append(
            # An archive's names may hold `//` or `./`: kept as the path they name.
            SkillFile(str(PurePosixPath(relative)), info.file_size, bool(mode & 0o111), shebang)
        )
