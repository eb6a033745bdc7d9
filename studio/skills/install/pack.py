"""Skills packaged for where they go: a `.skill` archive (what skill-creator's `package_skill.py`
makes and claude.ai uploads), a Claude Code plugin (`.claude-plugin/plugin.json` beside `skills/`),
a plugin marketplace (`.claude-plugin/marketplace.json` over one plugin per skill), and the
`/.well-known/agent-skills/` folder a site publishes (index.json of the Agent Skills Discovery RFC
0.2.0, with per-file and per-skill SHA-256 digests).

Every output is made from the same files the studio itself reads (`list_skill_files`: regular files,
no link out of the skill, no hidden folders), without the skill's `evals/` (they are for its author,
not for the clients that load it). Each skill is validated first; each output is checked by reading
it back (the archive with the studio's own zip reader, the JSON by the rules its consumer applies)
before it replaces anything, and every file is written to a temp name and renamed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.errors import StudioError
from studio.fsutil import atomic_write_bytes, new_file_mode, new_folder_mode
from studio.skills.checks.validate import validate_skill
from studio.skills.clients import RECORDS, SPEC, TARGETS
from studio.skills.files import list_skill_files, load_skill, load_zip_skills
from studio.skills.model import Diagnostic, Skill

SKILL_SUFFIX = ".skill"
LEFT_OUT = ("evals",)
INDEX_VERSION = "0.2.0"
WELL_KNOWN = Path(".well-known") / "agent-skills"
# Each client's package (a Claude Code plugin, a marketplace of them): the client whose judgement
# its skills must pass, from the registry.
PACKED_FOR = {kind: record.key for record in RECORDS for kind in record.packs}
PLUGIN_MANIFEST = Path(".claude-plugin") / "plugin.json"
MARKETPLACE_MANIFEST = Path(".claude-plugin") / "marketplace.json"
_KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")
# The RFC's path rule: printable ASCII without \ ? # [ ], relative, no `..`.
_INDEX_PATH = re.compile(r"^[\x20-\x7e]+$")
_INDEX_PATH_BANNED = set("\\?#[]")
# Fixed member times: packing the same skill twice gives the same bytes (and the same digest).
_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


def judged_as(kind: str) -> str:
    """The target a package of `kind` has its skills judged as: its client's, or the spec's while
    the studio has no rules of that client's."""
    key = PACKED_FOR[kind]
    return key if key in TARGETS else SPEC


class PackError(StudioError):
    """Why a package cannot be made; `findings` holds a skill's errors when validation stopped it."""

    def __init__(self, message: str, findings: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.findings = list(findings)


@dataclass(frozen=True, slots=True)
class Packed:
    """One skill ready to package: its parsed SKILL.md and its files (relative POSIX paths, SKILL.md
    first) with their bytes read once, so what is validated is what is written."""

    skill: Skill
    name: str
    files: dict[str, bytes]
    executable: frozenset[str] = frozenset()


def gather(directory: Path, target: str = "spec") -> Packed:
    """The skill in `directory`, validated as `target` judges it. Raises PackError naming the
    errors (warnings do not stop a package)."""
    directory = Path(directory)
    if not (directory / "SKILL.md").is_file():
        raise PackError(f"{directory} holds no SKILL.md: it is not a skill folder")
    skill = load_skill(directory)
    result = validate_skill(skill, target)
    if result.errors:
        first = result.errors[0]
        more = f" (and {len(result.errors) - 1} more)" if len(result.errors) > 1 else ""
        raise PackError(
            f"{directory / first.file}:{first.line}:{first.column}: {first.code} {first.message}"
            f"{more}; fix it first (studio fix, or the editor)", result.errors)
    name = skill.name if isinstance(skill.name, str) and skill.name else directory.name
    files = {"SKILL.md": (directory / "SKILL.md").read_bytes()}
    executable = set()
    for file in sorted(list_skill_files(directory), key=lambda f: f.relative):
        if file.relative.split("/", 1)[0] in LEFT_OUT:
            continue
        files[file.relative] = (directory / file.relative).read_bytes()
        if file.executable:
            executable.add(file.relative)
    return Packed(skill, name, files, frozenset(executable))


def pack_skill(directory: Path, out_dir: Path) -> Path:
    """`out_dir/NAME.skill`: a zip holding the skill under its folder name, as skill-creator
    makes it. Returns the archive's path."""
    packed = gather(directory)
    folder = Path(directory).resolve().name
    target = Path(out_dir) / f"{folder}{SKILL_SUFFIX}"
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    descriptor, temp_name = tempfile.mkstemp(prefix=f".{folder}.", suffix=".part", dir=out_dir)
    os.close(descriptor)
    temp = Path(temp_name)
    try:
        with zipfile.ZipFile(temp, "w", zipfile.ZIP_DEFLATED) as archive:
            for relative, data in packed.files.items():
                member = zipfile.ZipInfo(f"{folder}/{relative}", date_time=_ZIP_EPOCH)
                member.compress_type = zipfile.ZIP_DEFLATED
                member.external_attr = (_mode(packed, relative) | stat.S_IFREG) << 16
                archive.writestr(member, data)
        _check_archive(temp, packed)
        temp.chmod(new_file_mode())
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)
    return target


def _check_archive(archive: Path, packed: Packed) -> None:
    skills = load_zip_skills(archive)
    if len(skills) != 1 or skills[0].name != packed.skill.name:
        raise PackError(f"the archive written for {packed.name} does not read back as that one skill")
    errors = validate_skill(skills[0]).errors
    if errors:
        raise PackError(f"the archive written for {packed.name} reads back with errors: "
                        f"{errors[0].code} {errors[0].message}", errors)


def pack_plugin(
    directories: Sequence[Path], out_dir: Path, *, name: str | None = None,
    version: str = "1.0.0", description: str | None = None, author: str | None = None,
) -> Path:
    """A Claude Code plugin in `out_dir`: `.claude-plugin/plugin.json` and `skills/NAME/...` for
    each skill (validated for Claude Code). Returns the manifest's path. `out_dir` must be empty
    or a plugin this made before (its manifest and skills are replaced, nothing else is touched)."""
    packs = [gather(directory, PACKED_FOR["plugin"]) for directory in directories]
    if not packs:
        raise PackError("a plugin needs at least one skill")
    no_two_named_alike(packs)
    plugin_name = name or (packs[0].name if len(packs) == 1 else Path(out_dir).resolve().name)
    manifest: dict[str, Any] = {
        "name": plugin_name,
        "version": version,
        "description": description or (_description(packs[0]) if len(packs) == 1 else
                                       f"Skills: {', '.join(p.name for p in packs)}"),
    }
    if author:
        manifest["author"] = {"name": author}
    problems = plugin_manifest_problems(manifest)
    if problems:
        raise PackError(f"the plugin's manifest would be invalid: {'; '.join(problems)}")
    out = Path(out_dir)
    _claim(out, PLUGIN_MANIFEST)
    _write_skills(out / "skills", packs)
    target = out / PLUGIN_MANIFEST
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(target, _json(manifest))
    return target


def plugin_manifest_problems(manifest: object) -> list[str]:
    """What `claude plugin validate` would object to in a plugin.json (its documented rules: a
    kebab-case `name`, and `version`, `description`, `author` of the right shapes when present)."""
    if not isinstance(manifest, dict):
        return ["plugin.json must hold a JSON object"]
    problems = []
    name = manifest.get("name")
    if not isinstance(name, str) or not _KEBAB.match(name):
        problems.append(f"name {name!r} must be kebab-case: lowercase letters, digits and hyphens")
    version = manifest.get("version")
    if version is not None and (not isinstance(version, str) or not _SEMVER.match(version)):
        problems.append(f"version {version!r} must be a semantic version such as 1.0.0")
    if "description" in manifest and not isinstance(manifest["description"], str):
        problems.append("description must be text")
    author = manifest.get("author")
    if author is not None and not (isinstance(author, dict) and isinstance(author.get("name"), str)):
        problems.append('author must be an object with a "name"')
    return problems


def pack_marketplace(
    directories: Sequence[Path], out_dir: Path, *, name: str | None = None,
    owner: str = "", version: str = "1.0.0",
) -> Path:
    """A plugin marketplace in `out_dir`: one plugin per skill under `plugins/NAME/`, listed in
    `.claude-plugin/marketplace.json`. Returns the marketplace file's path."""
    packs = [gather(directory, PACKED_FOR["marketplace"]) for directory in directories]
    if not packs:
        raise PackError("a marketplace needs at least one skill")
    no_two_named_alike(packs)
    out = Path(out_dir)
    _claim(out, MARKETPLACE_MANIFEST)
    entries = []
    for packed in packs:
        plugin = out / "plugins" / packed.name
        _write_skills(plugin / "skills", [packed])
        manifest = {"name": packed.name, "version": version, "description": _description(packed)}
        atomic_write_bytes(_parent_made(plugin / PLUGIN_MANIFEST), _json(manifest))
        entries.append({"name": packed.name, "source": f"./plugins/{packed.name}",
                        "description": _description(packed), "version": version})
    marketplace = {
        "name": name or out.resolve().name,
        "owner": {"name": owner or os.environ.get("USER", "") or "unknown"},
        "plugins": entries,
    }
    problems = marketplace_problems(marketplace, out)
    if problems:
        raise PackError(f"the marketplace would be invalid: {'; '.join(problems)}")
    target = _parent_made(out / MARKETPLACE_MANIFEST)
    atomic_write_bytes(target, _json(marketplace))
    return target


def marketplace_problems(marketplace: object, root: Path) -> list[str]:
    """What Claude Code would object to in a marketplace.json at `root`: a kebab-case `name`, an
    `owner` object with a name, and plugins with unique names whose `./` sources stay inside the
    marketplace and hold a plugin."""
    if not isinstance(marketplace, dict):
        return ["marketplace.json must hold a JSON object"]
    problems = []
    name = marketplace.get("name")
    if not isinstance(name, str) or not _KEBAB.match(name):
        problems.append(f"name {name!r} must be kebab-case")
    owner = marketplace.get("owner")
    if not (isinstance(owner, dict) and isinstance(owner.get("name"), str) and owner["name"]):
        problems.append('owner must be an object with a "name"')
    plugins = marketplace.get("plugins")
    if not isinstance(plugins, list):
        return [*problems, "plugins must be a list of objects"]
    seen: set[str] = set()
    for number, entry in enumerate(plugins):
        if not isinstance(entry, dict):
            problems.append(f"plugins.{number} must be an object")
            continue
        plugin_name = entry.get("name")
        if not isinstance(plugin_name, str) or not _KEBAB.match(plugin_name):
            problems.append(f"plugins.{number}.name {plugin_name!r} must be kebab-case")
        elif plugin_name in seen:
            problems.append(f"plugins.{number}.name {plugin_name!r} is listed twice")
        else:
            seen.add(plugin_name)
        source = entry.get("source")
        if not isinstance(source, str) or not source.startswith("./") or ".." in Path(source).parts:
            problems.append(f"plugins.{number}.source {source!r} must be a ./ path inside the marketplace")
        elif not (root / source / PLUGIN_MANIFEST).is_file():
            problems.append(f"plugins.{number}.source {source} holds no {PLUGIN_MANIFEST}")
    return problems


def pack_index(directories: Sequence[Path], out_dir: Path) -> Path:
    """The folder a site serves as `/.well-known/agent-skills/`: each skill's files under
    `NAME/`, and `index.json` (RFC 0.2.0) listing them with their digests. `out_dir` is the site's
    root; returns the index's path. Skills already in the index and not given are kept."""
    packs = [gather(directory) for directory in directories]
    if not packs:
        raise PackError("an index needs at least one skill")
    no_two_named_alike(packs)
    root = Path(out_dir) / WELL_KNOWN
    index_file = root / "index.json"
    kept = _existing_index(index_file)
    _write_skills(root, packs)
    entries = {entry["name"]: entry for entry in kept}
    for packed in packs:
        entries[packed.name] = index_entry(packed)
    index = {"version": INDEX_VERSION, "skills": [entries[n] for n in sorted(entries)]}
    problems = index_problems(index, root)
    if problems:
        raise PackError(f"the index would be invalid: {'; '.join(problems[:5])}")
    atomic_write_bytes(_parent_made(index_file), _json(index))
    return index_file


def index_entry(packed: Packed) -> dict[str, Any]:
    files = [{"path": path, "digest": _digest(data)} for path, data in packed.files.items()]
    return {"name": packed.name, "description": _description(packed),
            "digest": skill_digest(files), "files": files}


def skill_digest(files: Iterable[dict[str, str]]) -> str:
    """The RFC's skill-level digest: SHA-256 over `path NUL hex LF` lines sorted by path bytes."""
    lines = sorted((f["path"].encode("ascii"), f["digest"].removeprefix("sha256:")) for f in files)
    manifest = b"".join(path + b"\0" + hexdigest.encode("ascii") + b"\n" for path, hexdigest in lines)
    return "sha256:" + hashlib.sha256(manifest).hexdigest()


def index_problems(index: object, root: Path) -> list[str]:
    """What a client of the RFC would reject in `index` served from `root`: the version, each
    name and description, each path's form, and every digest against the files on disk."""
    if not isinstance(index, dict) or index.get("version") != INDEX_VERSION:
        return [f'the index must be an object with "version": "{INDEX_VERSION}"']
    skills = index.get("skills")
    if not isinstance(skills, list):
        return ['"skills" must be a list']
    problems: list[str] = []
    for entry in skills:
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not isinstance(name, str) or not _KEBAB.match(name) \
                or len(name) > 64:
            problems.append(f"skill name {name!r} must be 1-64 lowercase letters, digits, hyphens")
            continue
        description = entry.get("description")
        if not isinstance(description, str) or not description or len(description) > 1024:
            problems.append(f"{name}: the description must be 1 to 1,024 characters")
        files = entry.get("files")
        if not isinstance(files, list) or not any(
                isinstance(f, dict) and f.get("path") == "SKILL.md" for f in files):
            problems.append(f"{name}: files must list SKILL.md")
            continue
        for file in files:
            problems.extend(_file_problems(name, file, root / name))
        if entry.get("digest") != skill_digest(files):
            problems.append(f"{name}: the skill digest does not match its files")
    return problems


def _file_problems(name: str, file: object, folder: Path) -> list[str]:
    path = file.get("path") if isinstance(file, dict) else None
    if not isinstance(file, dict) or not isinstance(path, str):
        return [f"{name}: a files entry must be an object with a path"]
    if (not _INDEX_PATH.match(path) or set(path) & _INDEX_PATH_BANNED or path.startswith("/")
            or ".." in path.split("/")):
        return [f"{name}: the path {path!r} is not allowed in an index (printable ASCII, relative, "
                "no \\ ? # [ ] or ..)"]
    on_disk = folder / path
    if not on_disk.is_file() or file.get("digest") != _digest(on_disk.read_bytes()):
        return [f"{name}: {path} does not match its digest"]
    return []


def _existing_index(index_file: Path) -> list[dict[str, Any]]:
    if not index_file.exists():
        return []
    try:
        data = json.loads(index_file.read_bytes())
    except (OSError, ValueError) as exc:
        raise PackError(f"{index_file} exists but cannot be read as JSON ({exc}); it was left as "
                        "it is. Move it away to write a new index.") from None
    skills = data.get("skills") if isinstance(data, dict) else None
    if not isinstance(skills, list) or not all(isinstance(s, dict) and isinstance(s.get("name"), str)
                                               for s in skills):
        raise PackError(f"{index_file} is not an index of skills; it was left as it is")
    return skills


def _write_skills(into: Path, packs: Sequence[Packed]) -> None:
    """Each skill's files in `into/NAME/`, the old folder replaced only once the new one is whole."""
    into.mkdir(parents=True, exist_ok=True)
    for packed in packs:
        staging = Path(tempfile.mkdtemp(prefix=f".{packed.name}.", dir=into))
        try:
            for relative, data in packed.files.items():
                written = _parent_made(staging / relative)
                written.write_bytes(data)
                written.chmod(new_file_mode(relative in packed.executable))
            # mkdtemp makes the folder 0700, which would hide the published skill from others.
            staging.chmod(new_folder_mode())
            final = into / packed.name
            if final.is_symlink() or final.is_file():
                raise PackError(f"{final} is a file or a link, not a skill folder; it was left as it is")
            if final.exists():
                old = into / f".{packed.name}.old"
                shutil.rmtree(old, ignore_errors=True)
                os.replace(final, old)
                os.replace(staging, final)
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.replace(staging, final)
        finally:
            shutil.rmtree(staging, ignore_errors=True)


def _claim(out: Path, manifest: Path) -> None:
    """Refuse to write into a folder that holds other things than a package of this kind."""
    if out.exists() and not out.is_dir():
        raise PackError(f"{out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / manifest).is_file():
        raise PackError(f"{out} is not empty and holds no {manifest}: pick an empty folder, so "
                        "nothing of yours is mixed into the package")


def no_two_named_alike(packs: Sequence[Packed]) -> None:
    """Refuse two skills of one name in one package: a client loads only one of them."""
    seen: dict[str, Path] = {}
    for packed in packs:
        if packed.name in seen:
            raise PackError(f"two skills are named {packed.name!r} ({seen[packed.name]} and "
                            f"{packed.skill.directory}); a package holds each name once")
        seen[packed.name] = packed.skill.directory


def _description(packed: Packed) -> str:
    description = packed.skill.description
    return " ".join(description.split()) if isinstance(description, str) else ""


def _mode(packed: Packed, relative: str) -> int:
    return 0o755 if relative in packed.executable else 0o644


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _json(data: object) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _parent_made(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


__all__ = [
    "PACKED_FOR", "PackError", "Packed", "gather", "index_problems", "judged_as", "marketplace_problems",
    "pack_index", "pack_marketplace", "pack_plugin", "pack_skill", "plugin_manifest_problems",
    "skill_digest",
]
