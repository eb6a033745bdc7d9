"""Packing skills for where they go: a `.skill` archive (skill-creator's `package_skill.py`
format: a zip holding the skill's folder), a Claude Code plugin (`.claude-plugin/plugin.json` and
`skills/`), a plugin marketplace (`.claude-plugin/marketplace.json` over one plugin a skill),
and the `/.well-known/agent-skills/` folder a site publishes (the Agent Skills Discovery RFC).

Every skill is validated first and packing stops at the first one with errors; the skill's
`evals/` (test cases for the author, not instructions for the agent) and the clutter of editors
and tools stay out. Each output is built beside its destination, read back with the studio's own
reader (the archive as a zip root, the plugin's `skills/` as a folder root) and checked, and only
then renamed into place: a failed pack leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from studio.fsutil import atomic_write_text
from studio.skills.library import SkillRoot, scan_root
from studio.skills.model import SKILL_FILE, Severity
from studio.skills.summary import SkillSummary

SKILL_SUFFIX = ".skill"
LEFT_OUT_FOLDERS = frozenset({"evals", ".git", "__pycache__", ".mypy_cache", ".ruff_cache",
                              ".pytest_cache", "node_modules", ".venv"})
LEFT_OUT_FILES = frozenset({".DS_Store", "Thumbs.db"})
# Claude Code's rule for plugin and marketplace names: kebab-case, no spaces.
_KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Manifests carry semantic versions (MAJOR.MINOR.PATCH, a pre-release or build after it).
_SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$")


class PackError(Exception):
    """Nothing was written; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Packed:
    """What a pack wrote: the output and the skills in it."""

    path: Path
    skills: tuple[str, ...]


def checked_skill(directory: Path) -> SkillSummary:
    """The skill in `directory`, validated; PackError when it is not a skill or has errors."""
    directory = directory.expanduser().resolve()
    if not (directory / SKILL_FILE).is_file():
        raise PackError(f"{directory} is not a skill folder (it has no {SKILL_FILE})")
    scan = scan_root(SkillRoot(directory))
    found = [s for s in scan.skills if s.directory == directory]
    if scan.error or not found:
        raise PackError(f"{directory} could not be read: {scan.error or 'no skill found'}")
    summary = found[0]
    if not summary.valid:
        errors = [d for d in summary.diagnostics if d.severity == Severity.ERROR]
        listed = "; ".join(f"{d.code} {d.message}" for d in errors[:5])
        raise PackError(f"{directory.name} has {len(errors)} error(s), fix them first "
                        f"(studio validate {directory}): {listed}")
    return summary


def packed_files(directory: Path) -> Iterator[Path]:
    """The skill's files that go into a pack, sorted (a pack of the same files is the same)."""
    for current, folders, files in os.walk(directory):
        folders[:] = sorted(f for f in folders if f not in LEFT_OUT_FOLDERS
                            and not (Path(current) == directory and f == "evals"))
        for name in sorted(files):
            path = Path(current) / name
            if name not in LEFT_OUT_FILES and not name.endswith((".pyc", "~")) and path.is_file():
                yield path


def _check_read_back(root: Path, expected: Sequence[str], what: str) -> None:
    scan = scan_root(SkillRoot(root))
    if scan.error:
        raise PackError(f"the {what} could not be read back: {scan.error}")
    names = sorted(s.name or "" for s in scan.skills)
    if names != sorted(expected):
        raise PackError(f"the {what} reads back as {names}, not {sorted(expected)}")
    broken = [s.name or str(s.directory) for s in scan.skills if not s.valid]
    if broken:
        raise PackError(f"the {what} reads back with errors in {', '.join(broken)}")


def _umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


def _as_created(path: Path) -> None:
    """The permissions a plainly created file or folder would have (temp files are private)."""
    path.chmod((0o777 if path.is_dir() else 0o666) & ~_umask())


def _target_free(path: Path, force: bool) -> None:
    if path.exists() and not force:
        raise PackError(f"{path} already exists; pass --force to replace it")


def pack_skill(directory: Path, out_dir: Path, *, force: bool = False) -> Packed:
    """`out_dir/NAME.skill`: a zip of the skill's folder (entries `NAME/...`)."""
    summary = checked_skill(directory)
    directory = summary.directory
    name = summary.name or directory.name
    target = out_dir / f"{name}{SKILL_SUFFIX}"
    _target_free(target, force)
    out_dir.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".zip", dir=out_dir)
    os.close(handle)
    temp = Path(temp_name)
    try:
        with zipfile.ZipFile(temp, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in packed_files(directory):
                archive.write(path, f"{name}/{path.relative_to(directory).as_posix()}")
        _check_read_back(temp, [name], f"archive {target.name}")
        _as_created(temp)
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    return Packed(target, (name,))


def _copy_skill(directory: Path, target: Path) -> None:
    for path in packed_files(directory):
        copy = target / path.relative_to(directory)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copy)


def plugin_manifest(name: str, description: str, version: str | None,
                    author: str | None) -> dict[str, object]:
    """`.claude-plugin/plugin.json`: `name` is the one required field."""
    if version and not _SEMVER.match(version):
        raise PackError(f"{version!r} is not a semantic version: write it as 1.0.0")
    manifest: dict[str, object] = {"name": name}
    if version:
        manifest["version"] = version
    if description:
        manifest["description"] = description
    if author:
        manifest["author"] = {"name": author}
    return manifest


def check_plugin_name(name: str, what: str = "plugin") -> None:
    if not _KEBAB.match(name):
        raise PackError(f"{name!r} is not a valid {what} name: use lowercase letters, digits and "
                        "hyphens (kebab-case), e.g. pdf-tools")


def _build_plugin(directories: Sequence[Path], root: Path, name: str, description: str,
                  version: str | None, author: str | None) -> tuple[str, ...]:
    summaries = [checked_skill(directory) for directory in directories]
    names = [s.name or s.directory.name for s in summaries]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise PackError(f"two skills are named {', '.join(twice)}; a plugin holds each name once")
    for summary, skill_name in zip(summaries, names, strict=True):
        _copy_skill(summary.directory, root / "skills" / skill_name)
    manifest = plugin_manifest(name, description, version, author)
    (root / ".claude-plugin").mkdir(parents=True)
    atomic_write_text(root / ".claude-plugin" / "plugin.json", json.dumps(manifest, indent=2) + "\n")
    _check_read_back(root / "skills", names, f"plugin {name}")
    return tuple(names)


def _publish(built: Path, target: Path, force: bool) -> None:
    _as_created(built)
    if target.exists():
        if not force:
            raise PackError(f"{target} already exists; pass --force to replace it")
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    os.replace(built, target)


def pack_plugin(directories: Sequence[Path], target: Path, *, name: str | None = None,
                description: str = "", version: str | None = None, author: str | None = None,
                force: bool = False) -> Packed:
    """A Claude Code plugin in `target` holding the skills."""
    name = name or target.name
    check_plugin_name(name)
    _target_free(target, force)
    target.parent.mkdir(parents=True, exist_ok=True)
    built = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        skills = _build_plugin(directories, built, name, description, version, author)
        _publish(built, target, force)
    finally:
        shutil.rmtree(built, ignore_errors=True)
    return Packed(target, skills)


def pack_marketplace(directories: Sequence[Path], target: Path, *, name: str | None = None,
                     owner: str, version: str | None = None, force: bool = False) -> Packed:
    """A plugin marketplace in `target`: `plugins/NAME/` for each skill (a plugin of one skill,
    named after it) and `.claude-plugin/marketplace.json` listing them."""
    name = name or target.name
    check_plugin_name(name, "marketplace")
    if not owner.strip():
        raise PackError("a marketplace names its owner: pass --owner NAME")
    _target_free(target, force)
    target.parent.mkdir(parents=True, exist_ok=True)
    built = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        entries: list[dict[str, object]] = []
        for directory in directories:
            summary = checked_skill(directory)
            skill_name = summary.name or directory.name
            if any(entry["name"] == skill_name for entry in entries):
                raise PackError(f"two skills are named {skill_name}; a marketplace lists each once")
            description = (summary.description or "").strip()
            _build_plugin([directory], built / "plugins" / skill_name, skill_name, description,
                          version, owner)
            entry: dict[str, object] = {"name": skill_name, "source": f"./plugins/{skill_name}",
                                        "description": description}
            if version:
                entry["version"] = version
            entries.append(entry)
        marketplace = {"name": name, "owner": {"name": owner}, "plugins": entries}
        (built / ".claude-plugin").mkdir()
        atomic_write_text(built / ".claude-plugin" / "marketplace.json",
                          json.dumps(marketplace, indent=2) + "\n")
        check_marketplace(built)
        _publish(built, target, force)
    finally:
        shutil.rmtree(built, ignore_errors=True)
    return Packed(target, tuple(str(entry["name"]) for entry in entries))


def check_marketplace(root: Path) -> None:
    """The rules Claude Code's `claude plugin validate` documents for a marketplace: a kebab-case
    name, an owner with a name, plugins with unique kebab-case names whose relative sources exist
    and hold a plugin manifest with the same name."""
    data = json.loads((root / ".claude-plugin" / "marketplace.json").read_text(encoding="utf-8"))
    check_plugin_name(str(data.get("name", "")), "marketplace")
    owner = data.get("owner")
    if not isinstance(owner, dict) or not owner.get("name"):
        raise PackError("the marketplace has no owner name")
    seen: set[str] = set()
    for entry in data.get("plugins", []):
        plugin = str(entry.get("name", ""))
        check_plugin_name(plugin)
        if plugin in seen:
            raise PackError(f"the marketplace lists {plugin} twice")
        seen.add(plugin)
        source = root / str(entry.get("source", ""))
        manifest = source / ".claude-plugin" / "plugin.json"
        if not manifest.is_file():
            raise PackError(f"the marketplace's {plugin} has no plugin at {entry.get('source')}")
        if json.loads(manifest.read_text(encoding="utf-8")).get("name") != plugin:
            raise PackError(f"the plugin at {entry.get('source')} is not named {plugin}")


# The Agent Skills Discovery RFC (cloudflare/agent-skills-discovery-rfc) v0.2.0: a site publishes
# `/.well-known/agent-skills/index.json` and each skill's files under `/.well-known/agent-skills/NAME/`.
INDEX_VERSION = "0.2.0"
WELL_KNOWN = Path(".well-known") / "agent-skills"
_INDEX_PATH_CHARS = re.compile(r"^[\x20-\x7e]+$")
_INDEX_PATH_FORBIDDEN = frozenset("\\?#[]")


def file_digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def skill_digest(files: Sequence[tuple[str, str]]) -> str:
    """The RFC's skill-level digest over (path, "sha256:hex") pairs: `path\\0hex\\n` lines sorted
    by path, hashed."""
    manifest = b"".join(f"{path}\0{digest.removeprefix('sha256:')}\n".encode()
                        for path, digest in sorted(files, key=lambda item: item[0].encode()))
    return file_digest(manifest)


def _index_path_problem(path: str) -> str | None:
    if not _INDEX_PATH_CHARS.match(path) or _INDEX_PATH_FORBIDDEN & set(path):
        return "only printable ASCII without \\ ? # [ ] may name a published file"
    if path.startswith("/") or ".." in path.split("/"):
        return "a published path stays inside the skill"
    return None


def index_entry(directory: Path, name: str, description: str) -> dict[str, object]:
    """The index's entry for a skill: its files with their digests (SKILL.md first)."""
    files: list[tuple[str, str]] = []
    for path in packed_files(directory):
        relative = path.relative_to(directory).as_posix()
        problem = _index_path_problem(relative)
        if problem is not None:
            raise PackError(f"{name}: {relative!r} cannot be published: {problem}; rename it")
        files.append((relative, file_digest(path.read_bytes())))
    files.sort(key=lambda item: (item[0] != SKILL_FILE, item[0]))
    return {"name": name, "description": description, "digest": skill_digest(files),
            "files": [{"path": path, "digest": digest} for path, digest in files]}


def check_index(folder: Path) -> None:
    """`folder` (a site's `.well-known/agent-skills`) as a client of the RFC checks it: the
    version, each skill's name matching its folder, SKILL.md listed, every file there with its
    digest, and the skill-level digest."""
    data = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    if data.get("version") != INDEX_VERSION:
        raise PackError(f"the index's version is {data.get('version')!r}, not {INDEX_VERSION}")
    for entry in data.get("skills", []):
        name = str(entry.get("name", ""))
        files = [(str(f["path"]), str(f["digest"])) for f in entry.get("files", [])]
        if SKILL_FILE not in [path for path, _ in files]:
            raise PackError(f"the index's {name} does not list {SKILL_FILE}")
        for path, digest in files:
            served = folder / name / path
            if not served.is_file() or file_digest(served.read_bytes()) != digest:
                raise PackError(f"the index's {name}/{path} is missing or differs from its digest")
        if entry.get("digest") != skill_digest(files):
            raise PackError(f"the index's digest of {name} does not match its files")


def pack_index(directories: Sequence[Path], site: Path, *, force: bool = False) -> Packed:
    """`site/.well-known/agent-skills/`: index.json and each skill's files, as a site serves
    them. Only that folder is written (replaced with `force`); the rest of the site is untouched."""
    target = site / WELL_KNOWN
    _target_free(target, force)
    target.parent.mkdir(parents=True, exist_ok=True)
    built = Path(tempfile.mkdtemp(prefix=".agent-skills.", dir=target.parent))
    try:
        entries: list[dict[str, object]] = []
        for directory in directories:
            summary = checked_skill(directory)
            name = summary.name or summary.directory.name
            if any(entry["name"] == name for entry in entries):
                raise PackError(f"two skills are named {name}; an index lists each once")
            entries.append(index_entry(summary.directory, name, (summary.description or "").strip()))
            _copy_skill(summary.directory, built / name)
        atomic_write_text(built / "index.json",
                          json.dumps({"version": INDEX_VERSION, "skills": entries}, indent=2) + "\n")
        check_index(built)
        _check_read_back(built, [str(entry["name"]) for entry in entries], "index")
        _publish(built, target, force)
    finally:
        shutil.rmtree(built, ignore_errors=True)
    return Packed(target / "index.json", tuple(str(entry["name"]) for entry in entries))
