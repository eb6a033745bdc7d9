"""The skills one conversation may use and what the tools do with them short of running anything:
`activate_skill` (the body of a SKILL.md and its file list) and `read_skill_file` (a file inside
a skill, nothing outside it). The tools themselves, their specs included, are `toolbook.py`'s
records; running and writing are `execute.py`'s job."""

from __future__ import annotations

import shlex
import zipfile
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from studio.agent.drafts import DraftDesk
from studio.agent.invoke import argument_names, substitute
from studio.agent.search_tool import SkillSearch
from studio.agent.toolbook import ACTIVATE, TOOLS, Offer
from studio.errors import StudioError
from studio.llm import ToolCall, ToolSpec
from studio.skills import (
    NotRegularFile,
    Skill,
    SkillFile,
    SkillSummary,
    list_skill_files,
    load_skill,
    load_zip_skills,
    open_regular,
    parse_skill,
)
from studio.skills.library import ArchiveError, UnpackedSkills
from studio.skills.scan import enclosing_zip

READ_CAP = 100_000
SCRIPT_SUFFIXES = frozenset({".py", ".sh", ".bash", ".js", ".mjs", ".ts", ".rb", ".pl", ".php", ".ps1"})
_USAGE_LINES = 8
_USAGE_WIDTH = 200


class ToolError(StudioError):
    """A tool call that cannot be carried out; the message goes back to the model."""


@dataclass(frozen=True, slots=True)
class SkillEntry:
    name: str
    description: str
    directory: Path
    skill_file: Path
    read_only: bool
    # Claude Code's `disable-model-invocation` and `user-invocable`.
    model_invocable: bool = True
    user_invocable: bool = True


class SkillToolbox:
    """The skills one conversation may use, and the tools over them.

    `overrides` maps a skill name to SKILL.md text that replaces the file on disk (the editor's
    unsaved text when the user clicks "Try in chat"). `search` offers `search_skills`; `drafts`
    offers `create_skill` and `update_skill`. `descriptions` maps a tool's name to the
    description the model is given instead of the studio's (blank: the studio's). `unpacked`
    keeps the read-only copies that the scripts of zipped skills run from (None: they cannot run).
    """

    def __init__(
        self,
        skills: Sequence[SkillSummary],
        workspace: Path,
        overrides: Mapping[str, str] | None = None,
        *,
        search: SkillSearch | None = None,
        drafts: DraftDesk | None = None,
        descriptions: Mapping[str, str] | None = None,
        unpacked: UnpackedSkills | None = None,
    ) -> None:
        self.workspace = workspace
        self.descriptions = {name: text.strip() for name, text in (descriptions or {}).items()
                             if text.strip()}
        self.overrides = dict(overrides or {})
        self.unpacked = unpacked
        self.search = search
        self.drafts = drafts
        if drafts is not None:
            drafts.locate = self.writable_directory
        self._skills: dict[str, SkillEntry] = {}
        # Skills the user invoked by name: the model may use their files even when it may not
        # load them itself.
        self.invoked: set[str] = set()
        for summary in skills:
            if summary.loadable and summary.name and summary.name not in self._skills:
                self._skills[summary.name] = SkillEntry(
                    summary.name, (summary.description or "").strip(), summary.directory,
                    summary.skill_file, summary.read_only, summary.model_invocable,
                    summary.user_invocable,
                )

    @property
    def names(self) -> list[str]:
        """The skills the model may name: those it may load, and those the user invoked."""
        return [name for name, entry in self._skills.items()
                if entry.model_invocable or name in self.invoked]

    @property
    def all_names(self) -> list[str]:
        return list(self._skills)

    def user_invocable(self) -> list[SkillEntry]:
        """The skills the user may invoke by name (`/NAME`), by name."""
        return sorted((e for e in self._skills.values() if e.user_invocable),
                      key=lambda e: e.name)

    @property
    def tool_names(self) -> tuple[str, ...]:
        """The tools this conversation offers."""
        return tuple(spec.name for spec in self._default_specs([]))

    def writable_directory(self, name: str) -> Path | None:
        """The folder of the skill named `name`, when it is on disk (not in an archive)."""
        entry = self._skills.get(name)
        return entry.directory if entry is not None and not entry.read_only else None

    def add_created(self, name: str, description: str, directory: Path) -> None:
        """A skill the model just created, usable for the rest of the conversation."""
        self._skills.setdefault(
            name, SkillEntry(name, description.strip(), directory, directory / "SKILL.md", False)
        )

    def entry(self, name: object) -> SkillEntry:
        if not isinstance(name, str) or name not in self._skills:
            known = ", ".join(self._skills) or "none"
            raise ToolError(f"there is no skill named {name!r}; the skills are: {known}")
        return self._skills[name]

    def specs(self, offered: Collection[str] | None = None) -> list[ToolSpec]:
        """The tools' specs; their `skill` parameter lists the skills in `offered` (the catalog's,
        when it was fitted to a small context: 400 names would fill it on their own), or all."""
        names = self.names if offered is None else [name for name in self.names if name in offered]
        return [replace(spec, description=self.descriptions.get(spec.name, spec.description))
                for spec in self._default_specs(names)]

    def _default_specs(self, names: list[str]) -> list[ToolSpec]:
        skill_param = {"type": "string", "enum": names, "description": "the skill's name"}
        offer = Offer(skill_param, self.search, self.drafts)
        return [spec for spec in (entry.spec(offer) for entry in TOOLS) if spec is not None]

    def default_descriptions(self) -> dict[str, str]:
        """Each tool's own description, before `descriptions` replace any."""
        return {spec.name: spec.description for spec in self._default_specs([])}

    def repair_call(self, call: ToolCall) -> ToolCall:
        """The call a small model meant: one naming a skill as the tool is `activate_skill` of
        it, and `activate_skill` given the skill as `skill` (the other tools' key) gets it as
        `name`. Any other call comes back as it is."""
        if call.name not in self.tool_names and call.name in self._skills:
            return ToolCall(call.id, ACTIVATE, {"name": call.name})
        arguments = call.arguments
        if call.name == ACTIVATE and "name" not in arguments and isinstance(arguments.get("skill"), str):
            return ToolCall(call.id, ACTIVATE, {"name": arguments["skill"]})
        return call

    def script_folder(self, name: str) -> Path:
        """Where the skill's commands run: its folder, or for a skill inside a zip archive the
        read-only copy unpacked from it (unpacked on first use; it blocks while it does)."""
        entry = self.entry(name)
        if not entry.read_only:
            return entry.directory
        archive, inner = _in_archive(entry)
        if self.unpacked is None:
            raise ToolError(f"skill {entry.name!r} lives in the zip archive {archive}; its "
                            "scripts cannot run here until the user unpacks it")
        try:
            return self.unpacked.folder(archive, inner)
        except ArchiveError as exc:
            raise ToolError(f"the scripts of skill {entry.name!r} cannot run: its archive "
                            f"{archive} is refused: {exc}") from None
        except OSError as exc:
            raise ToolError(f"the scripts of skill {entry.name!r} cannot run: unpacking its "
                            f"archive into {self.unpacked.root} failed: {exc}") from None

    def missing_script(self, name: str, command: str, folder: Path | None = None) -> str | None:
        """When `command` runs a script the skill does not have (`scripts/x.py`, `./tool.sh`:
        the first word that looks like one), what to tell the model: the skill's real scripts
        and the lines of its SKILL.md that show how to run them. None when there is no such
        word or the script is there. `folder` is where the command runs (default: the skill's
        folder)."""
        entry = self.entry(name)
        folder = folder if folder is not None else entry.directory
        try:
            words = shlex.split(command)
        except ValueError:
            return None
        wanted = next((word for word in words if _names_a_script(word)), None)
        if wanted is None or (folder / wanted).exists():
            return None
        scripts, usage = self.scripts(entry.name, folder)
        lines = [f"there is no script {wanted} in skill {entry.name!r}."]
        lines.append(f"Its scripts: {', '.join(scripts)}." if scripts else "It has no scripts.")
        if usage:
            lines.append("Its SKILL.md runs them like this:")
            lines += [f"  {line}" for line in usage]
        return "\n".join(lines)

    def scripts(self, name: str, folder: Path | None = None) -> tuple[list[str], list[str]]:
        """The scripts of the skill named `name` (paths relative to its folder), and the lines of
        its SKILL.md that show how to run them. `folder` is where its files are when not in its
        own folder (the unpacked copy of a zipped skill)."""
        entry = self.entry(name)
        files = (list_skill_files(folder) if folder is not None and folder != entry.directory
                 else self._files(entry))
        scripts = [str(f.path) for f in files if _names_a_script(str(f.path))]
        return scripts, _usage_lines(self.load(entry.name).body, scripts)

    def load(self, name: str) -> Skill:
        entry = self.entry(name)
        if name in self.overrides:
            return parse_skill(
                self.overrides[name].encode("utf-8"), entry.skill_file,
                directory=entry.directory, files=self._files(entry),
            )
        if entry.read_only:
            for skill in load_zip_skills(_in_archive(entry)[0]):
                if skill.directory == entry.directory:
                    return skill
            raise ToolError(f"skill {name!r} is no longer in its archive")
        return load_skill(entry.directory)

    def _files(self, entry: SkillEntry) -> tuple[SkillFile, ...]:
        return () if entry.read_only else list_skill_files(entry.directory)

    def activate(self, name: object) -> str:
        """The model's `activate_skill`: refused for a skill only the user may load."""
        entry = self.entry(name)
        if not entry.model_invocable and entry.name not in self.invoked:
            raise ToolError(
                f"skill {entry.name!r} has `disable-model-invocation: true`: only the user can "
                f"load it, by typing /{entry.name}; do not use it")
        skill = self.load(entry.name)
        return self._content(entry, skill.body, skill)

    def invoke(self, name: str, arguments: str) -> str:
        """The user's `/NAME arguments`: the skill's body with the arguments put in, as Claude
        Code does (`studio.agent.invoke`). Raises ToolError for a skill the user may not
        invoke."""
        entry = self.entry(name)
        if not entry.user_invocable:
            raise ToolError(f"skill {name!r} has `user-invocable: false`: only the model loads it")
        skill = self.load(entry.name)
        body = substitute(skill.body.strip(), arguments, entry.directory,
                          argument_names(skill.fields.get("arguments")))
        self.invoked.add(entry.name)
        return self._content(entry, body, skill)

    def _content(self, entry: SkillEntry, body: str, skill: Skill) -> str:
        files = "\n".join(str(file.path) for file in skill.files) or "(none)"
        return (
            f'<skill_content name="{entry.name}" directory="{entry.directory}">\n'
            f"{body.strip()}\n"
            "</skill_content>\n"
            f"<skill_files>\n{files}\n</skill_files>\n"
            "Paths in the instructions are relative to the skill's directory."
        )

    def read_file(self, name: object, path: object) -> str:
        entry = self.entry(name)
        relative = _safe_relative(path)
        if entry.read_only:
            return _read_from_zip(entry, relative)
        base = entry.directory.resolve()
        target = (base / relative).resolve()
        if not target.is_relative_to(base):
            raise ToolError(f"{relative} leads outside the skill's folder (a link); it cannot be read")
        try:
            descriptor = open_regular(target)
        except NotRegularFile as exc:
            raise ToolError(f"{relative} in skill {entry.name!r} is {exc.kind}, not a file; "
                            "it cannot be read") from None
        except OSError:
            raise ToolError(f"there is no file {relative} in skill {entry.name!r}") from None
        with open(descriptor, "rb") as handle:
            data = handle.read(READ_CAP + 1)
        return _as_text(data, str(relative))


def _names_a_script(word: str) -> bool:
    """Whether a command's word is a script path inside the skill (absolute paths and `..` are the
    policy's to judge, options and assignments are not paths)."""
    if word.startswith(("-", "/", "~")) or "=" in word or ".." in PurePosixPath(word).parts:
        return False
    path = PurePosixPath(word)
    return path.suffix.lower() in SCRIPT_SUFFIXES or (len(path.parts) > 1 and path.parts[0] == "scripts")


def _usage_lines(body: str, scripts: Sequence[str]) -> list[str]:
    """The lines of a SKILL.md body that mention one of `scripts` (by path or file name)."""
    names = {name for script in scripts for name in (script, PurePosixPath(script).name)}
    found: list[str] = []
    for line in body.splitlines():
        stripped = line.strip().strip("`").strip()
        if stripped and any(name in stripped for name in names) and stripped not in found:
            found.append(stripped[:_USAGE_WIDTH])
            if len(found) == _USAGE_LINES:
                break
    return found


# Far beyond any skill's files (the library lists 8 folders deep), and short enough that
# resolving the path stays instant: `Path.resolve` takes time quadratic in the parts.
MAX_PATH_CHARS = 1024
MAX_PATH_PARTS = 32


def _safe_relative(path: object) -> PurePosixPath:
    if not isinstance(path, str) or not path.strip():
        raise ToolError("`path` must be a file's path relative to the skill's folder")
    if len(path) > MAX_PATH_CHARS or path.count("/") + path.count("\\") >= MAX_PATH_PARTS:
        raise ToolError(
            f"`path` is too long ({len(path):,} characters); give a path of at most "
            f"{MAX_PATH_PARTS} parts and {MAX_PATH_CHARS} characters, as listed in <skill_files>"
        )
    pure = PurePosixPath(path.strip().replace("\\", "/"))
    if pure.is_absolute() or path.startswith("~"):
        raise ToolError(f"{path} is absolute; give a path relative to the skill's folder")
    if ".." in pure.parts:
        raise ToolError(f"{path} climbs out of the skill's folder with `..`; that is not allowed")
    parts = [p for p in pure.parts if p != "."]
    if not parts:
        raise ToolError("`path` must name a file, not the skill's folder itself")
    return PurePosixPath(*parts)


def _as_text(data: bytes, name: str) -> str:
    cut = len(data) > READ_CAP
    data = data[:READ_CAP]
    if b"\x00" in data:
        raise ToolError(f"{name} is a binary file; it cannot be shown as text")
    text = data.decode("utf-8", errors="replace")
    if cut:
        text += f"\n[file cut at {READ_CAP:,} bytes]"
    return text


def _in_archive(entry: SkillEntry) -> tuple[Path, PurePosixPath]:
    """The archive holding a read-only skill, and the skill's folder inside it."""
    found = enclosing_zip(entry.skill_file)
    if found is None:
        raise ToolError(f"cannot find the archive holding {entry.directory}")
    archive_path, skill_md = found
    return archive_path, skill_md.parent


def _read_from_zip(entry: SkillEntry, relative: PurePosixPath) -> str:
    archive_path, inner = _in_archive(entry)
    member = str(PurePosixPath(inner, *relative.parts))
    with zipfile.ZipFile(archive_path) as archive:
        try:
            info = archive.getinfo(member)
        except KeyError:
            raise ToolError(f"there is no file {relative} in skill {entry.name!r}") from None
        with archive.open(info) as handle:
            return _as_text(handle.read(READ_CAP + 1), str(relative))


def default_tool_descriptions() -> dict[str, str]:
    """Every tool's own description (search and drafts included), by the tool's name: what a
    custom description in the settings replaces."""
    toolbox = SkillToolbox([], Path(), search=SkillSearch([], None), drafts=DraftDesk(None, ""))
    return toolbox.default_descriptions()
