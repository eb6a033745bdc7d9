"""The three tools the model is offered, and what they do short of running anything:
`activate_skill` (the body of a SKILL.md and its file list), `read_skill_file` (a file inside a
skill, nothing outside it) and `run_skill_script` (its spec; running is `execute.py`'s job)."""

from __future__ import annotations

import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from studio.llm.types import ToolSpec
from studio.skills.files import (
    NotRegularFile,
    list_skill_files,
    load_skill,
    load_zip_skills,
    open_regular,
)
from studio.skills.model import Skill, SkillFile
from studio.skills.parse import parse_skill
from studio.skills.summary import SkillSummary
from studio.skills.zippath import enclosing_zip

ACTIVATE = "activate_skill"
READ = "read_skill_file"
RUN = "run_skill_script"
TOOL_NAMES = (ACTIVATE, READ, RUN)
READ_CAP = 100_000


class ToolError(Exception):
    """A tool call that cannot be carried out; the message goes back to the model."""


@dataclass(frozen=True, slots=True)
class SkillEntry:
    name: str
    description: str
    directory: Path
    skill_file: Path
    read_only: bool


class SkillToolbox:
    """The skills one conversation may use, and the tools over them.

    `overrides` maps a skill name to SKILL.md text that replaces the file on disk (the editor's
    unsaved text when the user clicks "Try in chat").
    """

    def __init__(
        self,
        skills: Sequence[SkillSummary],
        workspace: Path,
        overrides: Mapping[str, str] | None = None,
    ) -> None:
        self.workspace = workspace
        self.overrides = dict(overrides or {})
        self._skills: dict[str, SkillEntry] = {}
        for summary in skills:
            if summary.loadable and summary.name and summary.name not in self._skills:
                self._skills[summary.name] = SkillEntry(
                    summary.name, (summary.description or "").strip(), summary.directory,
                    summary.skill_file, summary.read_only,
                )

    @property
    def names(self) -> list[str]:
        return list(self._skills)

    def entry(self, name: object) -> SkillEntry:
        if not isinstance(name, str) or name not in self._skills:
            known = ", ".join(self._skills) or "none"
            raise ToolError(f"there is no skill named {name!r}; the skills are: {known}")
        return self._skills[name]

    def specs(self) -> list[ToolSpec]:
        names = self.names
        skill_param = {"type": "string", "enum": names, "description": "the skill's name"}
        return [
            ToolSpec(
                ACTIVATE,
                "Load a skill's full instructions when the task matches its description. "
                "Returns the SKILL.md body, the skill's folder and its files.",
                {"type": "object", "properties": {"name": skill_param}, "required": ["name"]},
            ),
            ToolSpec(
                READ,
                "Read a file inside a skill's folder, e.g. references/guide.md, by its path "
                "relative to that folder.",
                {
                    "type": "object",
                    "properties": {
                        "skill": skill_param,
                        "path": {"type": "string", "description": "relative path in the skill"},
                    },
                    "required": ["skill", "path"],
                },
            ),
            ToolSpec(
                RUN,
                "Run a shell command in a skill's folder, e.g. `python3 scripts/tool.py input`. "
                "The user may be asked to approve it first.",
                {
                    "type": "object",
                    "properties": {
                        "skill": skill_param,
                        "command": {"type": "string", "description": "the command line to run"},
                    },
                    "required": ["skill", "command"],
                },
            ),
        ]

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
        entry = self.entry(name)
        skill = self.load(entry.name)
        files = "\n".join(str(file.path) for file in skill.files) or "(none)"
        return (
            f'<skill_content name="{entry.name}" directory="{entry.directory}">\n'
            f"{skill.body.strip()}\n"
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
