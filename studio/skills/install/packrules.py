"""What each client's package format accepts, from its documentation and its loader's source (read
2026-12-07; docs/packaging.md cites each rule): the manifest's place, its fields and their
shapes, the name rules. A package is checked by these rules as it lies on disk, after it is built
in a temp folder and before it takes the place of anything.

- Codex plugin: `.codex-plugin/plugin.json` (openai/codex `codex-rs/core/src/plugins/manifest.rs`,
  `store.rs`; https://developers.openai.com/codex/plugins/build), listed by a marketplace at
  `<root>/.agents/plugins/marketplace.json` (`marketplace.rs`).
- Open Plugin v1.0.0: `.plugin/plugin.json` (vercel-labs/open-plugin-spec, README at cd5f34e,
  sections 4, 5, 6.7).
- Gemini CLI extension: `gemini-extension.json` (google-gemini/gemini-cli
  `docs/extensions/reference.md`; `packages/cli/src/config/extension-manager.ts`).
- goose plugin: `plugin.json` at the root (aaif-goose/goose
  `documentation/docs/guides/context-engineering/plugins.md`; `crates/goose/src/plugins/`), with
  the `$schema` of the Agent Plugins 1.0.0 draft, whose closed manifest it also satisfies.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from studio.skills.checks.validate import validate_skill
from studio.skills.files import load_skill

# Codex's `validate_plugin_segment`: the plugin's and the marketplace's names are path segments.
_CODEX_SEGMENT = re.compile(r"^[A-Za-z0-9_-]+$")
# Codex's `validate_plugin_version_segment`: the version names a cache folder.
_CODEX_VERSION = re.compile(r"^[A-Za-z0-9._+-]+$")
# Open Plugin v1 section 6.7 (and goose's `validate_plugin_name`): 1-64 of a-z 0-9 - ., starting
# and ending alphanumeric, no `--` or `..`.
_OPEN_NAME = re.compile(r"^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]{0,62}[a-z0-9])?$")
# Gemini CLI's `validateName` takes letters, digits and dashes; its reference asks for lowercase.
_GEMINI_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
AGENT_PLUGINS_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json"
_AGENT_PLUGINS_FIELDS = {"$schema", "name", "version", "description", "author", "homepage",
                         "repository", "license", "keywords", "extensions"}
CODEX_MARKETPLACE = Path(".agents") / "plugins" / "marketplace.json"
_CODEX_INSTALL = {"NOT_AVAILABLE", "AVAILABLE", "INSTALLED_BY_DEFAULT"}
_CODEX_AUTH = {"ON_INSTALL", "ON_USE"}


@dataclass(frozen=True, slots=True)
class PackFormat:
    """One client's package: where its manifest lies and what it must hold.

    Attributes:
        kind: its name on the command line (`--KIND DIR`) and in the registry's `packs`.
        title: how messages name it.
        manifest: the manifest's path inside the package.
        name_rule: what a name must be, said to the user when one is not.
        name_ok: whether a name follows that rule.
        rules: the problems of a manifest (a parsed JSON value), beyond its name.
    """

    kind: str
    title: str
    manifest: PurePosixPath
    name_rule: str
    name_ok: Callable[[str], bool]
    rules: Callable[[dict[str, object]], list[str]]

    def manifest_problems(self, manifest: object) -> list[str]:
        """What the client would object to in `manifest`, each said so a user can fix it."""
        if not isinstance(manifest, dict):
            return [f"{self.manifest} must hold a JSON object"]
        name = manifest.get("name")
        problems = []
        if not isinstance(name, str) or not self.name_ok(name):
            problems.append(f"the name {name!r} is not one a {self.title} may have: {self.name_rule}")
        return problems + self.rules(manifest)


def _strings(manifest: dict[str, object], *fields: str) -> list[str]:
    return [f"{field} must be text" for field in fields
            if field in manifest and not isinstance(manifest[field], str)]


def _author(manifest: dict[str, object], *, closed: bool) -> list[str]:
    author = manifest.get("author")
    if author is None:
        return []
    if not isinstance(author, dict) or not all(isinstance(v, str) for v in author.values()):
        return ["author must be an object of text fields (name, email, url)"]
    if closed and set(author) - {"name", "email", "url"}:
        return ["author may hold only name, email and url"]
    return []


def relative_path_problem(field: str, value: object) -> str | None:
    """Codex's and Open Plugin's rule for a path in a manifest: `./` then a path inside the
    package (no `..`, not the package itself)."""
    if not isinstance(value, str) or not value.startswith("./"):
        return f"{field} {value!r} must be a path starting with ./"
    parts = PurePosixPath(value[2:]).parts
    if not parts or any(part in ("..", ".") for part in parts) or "\\" in value:
        return f"{field} {value!r} must name a folder inside the package (no .. or bare ./)"
    return None


def _codex_rules(manifest: dict[str, object]) -> list[str]:
    problems = _strings(manifest, "version", "description")
    version = manifest.get("version")
    if isinstance(version, str) and (not _CODEX_VERSION.match(version.strip())
                                     or version.strip() in (".", "..")):
        problems.append(f"version {version!r} may hold only letters, digits and . + _ - (Codex "
                        "names a folder after it)")
    if "skills" in manifest and (problem := relative_path_problem("skills", manifest["skills"])):
        problems.append(problem)
    return problems + _author(manifest, closed=False)


def _open_rules(manifest: dict[str, object]) -> list[str]:
    problems = _strings(manifest, "version", "description", "homepage", "repository", "license")
    skills = manifest.get("skills")
    for path in [skills] if isinstance(skills, str) else skills if isinstance(skills, list) else []:
        if problem := relative_path_problem("skills", path):
            problems.append(problem)
    return problems + _author(manifest, closed=True)


def _gemini_rules(manifest: dict[str, object]) -> list[str]:
    version = manifest.get("version")
    problems = [] if isinstance(version, str) and version else [
        "version is required (gemini-cli refuses an extension without one)"]
    return problems + _strings(manifest, "description")


def _goose_rules(manifest: dict[str, object]) -> list[str]:
    problems = _strings(manifest, "version", "description")
    if manifest.get("$schema", AGENT_PLUGINS_SCHEMA) != AGENT_PLUGINS_SCHEMA:
        problems.append(f"$schema must be {AGENT_PLUGINS_SCHEMA}")
    unknown = sorted(set(manifest) - _AGENT_PLUGINS_FIELDS)
    if unknown:
        problems.append(f"fields {', '.join(unknown)} are not in the Agent Plugins manifest")
    return problems + _author(manifest, closed=True)


FORMATS: dict[str, PackFormat] = {f.kind: f for f in (
    PackFormat("codex-plugin", "Codex plugin", PurePosixPath(".codex-plugin/plugin.json"),
               "kebab-case: lowercase letters, digits and single hyphens, such as tide-tools",
               lambda name: bool(_KEBAB.match(name) and _CODEX_SEGMENT.match(name)), _codex_rules),
    PackFormat("open-plugin", "Open Plugin", PurePosixPath(".plugin/plugin.json"),
               "1 to 64 lowercase letters, digits, hyphens and periods, starting and ending with "
               "a letter or digit, without -- or ..",
               lambda name: bool(_OPEN_NAME.match(name)), _open_rules),
    PackFormat("gemini-extension", "Gemini CLI extension", PurePosixPath("gemini-extension.json"),
               "lowercase letters, digits and single hyphens, such as tide-tools",
               lambda name: bool(_GEMINI_NAME.match(name)), _gemini_rules),
    PackFormat("goose-plugin", "goose plugin", PurePosixPath("plugin.json"),
               "1 to 64 lowercase letters, digits, hyphens and periods, starting and ending with "
               "a letter or digit, without -- or ..",
               lambda name: bool(_OPEN_NAME.match(name)), _goose_rules),
)}


def read_json(path: Path) -> tuple[object, str | None]:
    """The JSON in `path`, or None and why it could not be read."""
    try:
        return json.loads(path.read_bytes()), None
    except (OSError, ValueError) as exc:
        return None, f"{path} cannot be read as JSON ({exc})"


def package_problems(kind: str, root: Path, names: list[str]) -> list[str]:
    """What the client would object to in the package at `root`, read from disk: its manifest by
    the format's rules, and `skills/` holding exactly the skills `names`, each one a valid skill
    named as its folder (clients find skills as `skills/NAME/SKILL.md`)."""
    form = FORMATS[kind]
    manifest, unreadable = read_json(root / form.manifest)
    if unreadable:
        return [unreadable]
    problems = form.manifest_problems(manifest)
    metadata = root / form.manifest.parts[0]
    if len(form.manifest.parts) > 1 and sorted(p.name for p in metadata.iterdir()) != ["plugin.json"]:
        problems.append(f"{form.manifest.parent}/ must hold plugin.json alone")
    skills = root / "skills"
    found = sorted(p.name for p in skills.iterdir()) if skills.is_dir() else []
    if found != sorted(names):
        problems.append(f"skills/ holds {found}, not the skills packed ({sorted(names)})")
    for name in found:
        skill = load_skill(skills / name)
        if skill.name != name:
            problems.append(f"skills/{name}/SKILL.md is named {skill.name!r}, not {name!r}")
        errors = validate_skill(skill).errors
        if errors:
            problems.append(f"skills/{name} reads back with {errors[0].code} {errors[0].message}")
    return problems


def codex_marketplace_problems(marketplace: object, root: Path, only: str | None = None) -> list[str]:
    """What Codex would object to in `root/.agents/plugins/marketplace.json` (`marketplace.rs`):
    a `name` that is a path segment, and `plugins` whose names are segments listed once, whose
    `source` is `{"source": "local", "path": "./..."}` inside the root (paths resolve against the
    root, not `.agents/plugins/`) holding a plugin of that name, and whose `policy` values are
    ones Codex knows. With `only`, the entries of other names are held to their names alone:
    they are someone else's, kept as they are."""
    if not isinstance(marketplace, dict):
        return ["marketplace.json must hold a JSON object"]
    problems = []
    name = marketplace.get("name")
    if not isinstance(name, str) or not _CODEX_SEGMENT.match(name):
        problems.append(f"the marketplace name {name!r} may hold only letters, digits, _ and -")
    plugins = marketplace.get("plugins")
    if not isinstance(plugins, list):
        return [*problems, "plugins must be a list of objects"]
    seen: set[str] = set()
    for number, entry in enumerate(plugins):
        where = f"plugins.{number}"
        if not isinstance(entry, dict):
            problems.append(f"{where} must be an object")
            continue
        plugin = entry.get("name")
        if not isinstance(plugin, str) or not _CODEX_SEGMENT.match(plugin):
            problems.append(f"{where}.name {plugin!r} may hold only letters, digits, _ and -")
        elif plugin in seen:
            problems.append(f"{where}.name {plugin!r} is listed twice")
        else:
            seen.add(plugin)
        if only is None or plugin == only:
            problems.extend(_codex_entry_problems(where, entry, plugin, root))
    return problems


def _codex_entry_problems(where: str, entry: dict[str, object], plugin: object,
                          root: Path) -> list[str]:
    source = entry.get("source")
    if not isinstance(source, dict) or source.get("source") != "local":
        return [f'{where}.source must be {{"source": "local", "path": "./..."}}']
    path = source.get("path")
    if problem := relative_path_problem(f"{where}.source.path", path):
        return [problem]
    problems = []
    policy = entry.get("policy", {})
    if not isinstance(policy, dict) or policy.get("installation", "AVAILABLE") not in _CODEX_INSTALL \
            or policy.get("authentication", "ON_INSTALL") not in _CODEX_AUTH:
        problems.append(f"{where}.policy must hold an installation of {sorted(_CODEX_INSTALL)} and "
                        f"an authentication of {sorted(_CODEX_AUTH)}")
    manifest, unreadable = read_json(root / str(path) / ".codex-plugin" / "plugin.json")
    if unreadable:
        problems.append(f"{where}.source.path {path} holds no readable .codex-plugin/plugin.json")
    elif not isinstance(manifest, dict) or manifest.get("name") != plugin:
        problems.append(f"{where}: the plugin at {path} is not named {plugin!r} (Codex refuses "
                        "to install a plugin whose manifest names another)")
    return problems


__all__ = [
    "AGENT_PLUGINS_SCHEMA", "CODEX_MARKETPLACE", "FORMATS", "PackFormat",
    "codex_marketplace_problems", "package_problems", "read_json", "relative_path_problem",
]
