"""Skills packaged as the plugins and extensions of Codex, Open Plugin hosts, Gemini CLI and goose
(the formats and their rules are in `packrules`), and `pack_package`, the one call for every
package that is a folder (these, and `pack`'s Claude Code plugin, marketplace and site index).

Each package is built whole in a temp folder beside its place, read back from disk and checked by
its format's rules, and only then renamed into place; what it replaces must be a package of the
same kind that `studio pack` wrote (a folder holding nothing else), so a folder of the user's is
never overwritten. A Codex plugin goes under a marketplace root: `ROOT/plugins/NAME/` and the
`ROOT/.agents/plugins/marketplace.json` that lists it (other plugins listed there are kept).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from studio.fsutil import atomic_write_bytes, new_file_mode, new_folder_mode
from studio.skills.install.pack import (
    Packed,
    PackError,
    gather,
    judged_as,
    no_two_named_alike,
    pack_index,
    pack_marketplace,
    pack_plugin,
)
from studio.skills.install.packrules import (
    AGENT_PLUGINS_SCHEMA,
    CODEX_MARKETPLACE,
    FORMATS,
    codex_marketplace_problems,
    package_problems,
    read_json,
)

_NOT_A_NAME = re.compile(r"[^a-z0-9]+")


FOLDER_KINDS = ("plugin", "marketplace", "index", *FORMATS)


def pack_package(
    kind: str, directories: Sequence[Path], out_dir: Path, *, name: str | None = None,
    version: str = "1.0.0", description: str | None = None, author: str | None = None,
) -> list[Path]:
    """The package `kind` (one of FOLDER_KINDS) of the skills in `directories`, written at
    `out_dir` (for a Codex plugin, the marketplace root). Returns the files a user looks at: the
    manifest, and for Codex the marketplace file too. Raises PackError saying what is wrong."""
    if kind == "plugin":
        return [pack_plugin(directories, out_dir, name=name, version=version,
                            description=description, author=author)]
    if kind == "marketplace":
        return [pack_marketplace(directories, out_dir, name=name, owner=author or "",
                                 version=version)]
    if kind == "index":
        return [pack_index(directories, out_dir)]
    return _pack_for_client(kind, directories, out_dir, name=name, version=version,
                            description=description, author=author)


def _pack_for_client(
    kind: str, directories: Sequence[Path], out_dir: Path, *, name: str | None,
    version: str, description: str | None, author: str | None,
) -> list[Path]:
    form = FORMATS[kind]
    packs = [gather(directory, judged_as(kind)) for directory in directories]
    if not packs:
        raise PackError(f"a {form.title} needs at least one skill")
    no_two_named_alike(packs)
    out = Path(out_dir)
    if name is None:
        name = packs[0].name if len(packs) == 1 else _slug(out.resolve().name)
    plugin_name = name
    manifest = _manifest(kind, plugin_name, version, description or _summary(packs), author)
    problems = form.manifest_problems(manifest)
    if problems:
        raise PackError(f"the {form.title}'s manifest would be invalid: {'; '.join(problems)}")
    if kind != "codex-plugin":
        _publish(kind, out, manifest, packs)
        return [out / form.manifest]
    marketplace_file = out / CODEX_MARKETPLACE
    marketplace = _codex_marketplace(marketplace_file, out, plugin_name)
    others = {**marketplace, "plugins": marketplace["plugins"][:-1]}
    problems = codex_marketplace_problems(others, out, only=plugin_name)
    if problems:
        raise PackError(f"{marketplace_file} would stay invalid: {'; '.join(problems)}; nothing "
                        "was written. Fix it, then pack again.")
    plugin = out / "plugins" / plugin_name
    _publish(kind, plugin, manifest, packs)
    problems = codex_marketplace_problems(marketplace, out, only=plugin_name)
    if problems:
        raise PackError(f"the marketplace would be invalid: {'; '.join(problems)}; the plugin was "
                        f"written at {plugin}, the marketplace left as it was")
    marketplace_file.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(marketplace_file, _json(marketplace))
    return [plugin / form.manifest, marketplace_file]


def _manifest(kind: str, name: str, version: str, description: str,
              author: str | None) -> dict[str, Any]:
    manifest: dict[str, Any] = {"$schema": AGENT_PLUGINS_SCHEMA} if kind == "goose-plugin" else {}
    manifest.update(name=name, version=version, description=description)
    if kind == "codex-plugin":
        manifest["skills"] = "./skills/"
    if author and kind != "gemini-extension":
        manifest["author"] = {"name": author}
    return manifest


def _codex_marketplace(path: Path, root: Path, plugin: str) -> dict[str, Any]:
    """The marketplace that lists `plugin`: the one at `path` with this plugin's entry last (an
    entry of that name replaced), or a new one named after the root. One that cannot be read
    stops the pack."""
    entry = {"name": plugin, "source": {"source": "local", "path": f"./plugins/{plugin}"},
             "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"}}
    if not path.exists():
        return {"name": _slug(root.resolve().name), "plugins": [entry]}
    marketplace, unreadable = read_json(path)
    if unreadable or not isinstance(marketplace, dict) or not isinstance(
            marketplace.get("plugins"), list):
        raise PackError(f"{path} is not a Codex marketplace ({unreadable or 'no plugins list'}); "
                        "it was left as it was. Fix or move it, then pack again.")
    plugins = [p for p in marketplace["plugins"] if not (isinstance(p, dict) and p.get("name") == plugin)]
    return {**marketplace, "plugins": [*plugins, entry]}


def _publish(kind: str, final: Path, manifest: dict[str, Any], packs: Sequence[Packed]) -> None:
    """Build the package in a temp folder, check it as read back, then put it at `final` (absent,
    empty, or a package of this kind that holds nothing else). An existing folder is kept (it may
    be the current folder, or one whose parent is not the user's): its entries are swapped."""
    form = FORMATS[kind]
    entries = (form.manifest.parts[0], "skills")
    final = Path(os.path.abspath(final))
    _claim(final, entries, form.title)
    existed = final.is_dir()
    if not existed:
        final.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".studio-pack-", suffix=".part",
                                    dir=final if existed else final.parent))
    try:
        for packed in packs:
            for relative, data in packed.files.items():
                written = staging / "skills" / packed.name / relative
                written.parent.mkdir(parents=True, exist_ok=True)
                written.write_bytes(data)
                written.chmod(new_file_mode(relative in packed.executable))
        target = staging / form.manifest
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_json(manifest))
        target.chmod(new_file_mode())
        problems = package_problems(kind, staging, [packed.name for packed in packs])
        if problems:
            raise PackError(f"the {form.title} as written would not load: {'; '.join(problems)}; "
                            "nothing was changed")
        for folder in [staging, *(p for p in staging.rglob("*") if p.is_dir())]:
            folder.chmod(new_folder_mode())
        if existed:
            _swap_entries(staging, final, entries)
        else:
            os.replace(staging, final)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _claim(final: Path, ours: tuple[str, str], title: str) -> None:
    """Refuse a place that holds anything but a package of this kind that `studio pack` wrote."""
    if final.is_symlink() or (final.exists() and not final.is_dir()):
        raise PackError(f"{final} is a file or a link, not a folder; it was left as it is")
    if not final.exists():
        return
    entries = sorted(entry.name for entry in final.iterdir())
    if not entries:
        return
    strangers = [entry for entry in entries if entry not in ours]
    if strangers or ours[0] not in entries:
        what = f"holds {', '.join(strangers[:3])}" if strangers else f"holds no {ours[0]}"
        raise PackError(f"{final} is not a {title} that studio pack wrote (it {what}); it was left "
                        "as it is. Pick an empty folder or a new one.")


def _swap_entries(staging: Path, final: Path, entries: tuple[str, str]) -> None:
    """Put the staged entries in place of the old ones, each by a rename; should one fail, the
    old ones go back."""
    aside = Path(tempfile.mkdtemp(prefix=".studio-pack-", suffix=".old", dir=final))
    moved_out: list[str] = []
    moved_in: list[str] = []
    try:
        for name in entries:
            if (final / name).exists() or (final / name).is_symlink():
                os.replace(final / name, aside / name)
                moved_out.append(name)
        for name in entries:
            os.replace(staging / name, final / name)
            moved_in.append(name)
    except OSError:
        for name in moved_in:
            os.replace(final / name, staging / name)
        for name in moved_out:
            os.replace(aside / name, final / name)
        raise
    finally:
        shutil.rmtree(aside, ignore_errors=True)


def _summary(packs: Sequence[Packed]) -> str:
    if len(packs) == 1 and isinstance(packs[0].skill.description, str):
        return " ".join(packs[0].skill.description.split())
    return f"Skills: {', '.join(packed.name for packed in packs)}"


def _slug(folder: str) -> str:
    """A folder's name as a package name: lowercase, runs of other characters made one hyphen."""
    return _NOT_A_NAME.sub("-", folder.lower()).strip("-") or "skills"


def _json(data: object) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


__all__ = ["FOLDER_KINDS", "pack_package"]
