"""Skills the model drafts: `create_skill` and `update_skill`.

A draft is built and validated before anyone is asked: an invalid one goes back to the model with
the diagnostics (so it can correct it) and nothing is written. A valid one is shown to the user as
a new-skill preview or a diff; only an approval writes it, atomically (a new skill appears whole,
an updated file is replaced in one rename). Provenance goes under `metadata:` (`created-by`,
`created-at`, `updated-by`, `updated-at`), where the spec allows any string pairs.

There is no tool to delete a skill: deleting stays a human action in the window.
"""

from __future__ import annotations

import difflib
import errno
import os
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from studio.editing import set_field, set_metadata_entry
from studio.errors import StudioError
from studio.fsutil import atomic_write_text
from studio.llm import ToolSpec
from studio.skills import SKILL_FILE, Severity, Skill, SkillFile, list_skill_files, load_skill, parse_skill
from studio.skills.checks import fixes, validate_skill
from studio.skills.yaml import yamledit

CREATE = "create_skill"
UPDATE = "update_skill"
DRAFT_TOOL_NAMES = (CREATE, UPDATE)
MAX_FILES = 20
MAX_FILE_CHARS = 200_000

# Asks the user where this chat's new skills go (the studio's dialog), given the name of the
# skill about to be created; None: they did not say.
FolderChooser = Callable[[str], Awaitable[Path | None]]


class DraftRefused(StudioError):
    """The draft is not written; the message (diagnostics included) goes back to the model."""


@dataclass(frozen=True, slots=True)
class Draft:
    """A checked draft waiting for approval.

    Attributes:
        name: the skill's name. directory: where it is (or will be).
        texts: relative path -> new text, SKILL.md included.
        preview: what the approver is shown: the new skill, or a unified diff.
        is_new: a new skill (its folder does not exist yet).
    """

    name: str
    directory: Path
    texts: dict[str, str]
    preview: str
    is_new: bool


@dataclass(slots=True)
class DraftDesk:
    """Where drafts go and who wrote them.

    Attributes:
        create_in: the folder new skills are created in (None: creating is refused, with why).
        author: what `created-by`/`updated-by` record (the model's name, or "user").
        locate: the folder of an existing, writable skill by name (the toolbox's skills).
        clock: the time recorded as `created-at`/`updated-at`.
        choose_folder: asks the user for `create_in` at the first `create_skill` that needs it.
    """

    create_in: Path | None
    author: str
    locate: Callable[[str], Path | None] = lambda _name: None
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    created: dict[str, Path] = field(default_factory=dict)
    choose_folder: FolderChooser | None = None
    _declined: bool = field(default=False, init=False)

    async def pick_folder(self, skill: str) -> None:
        """Ask where new skills go (`skill` first), when no folder is set and there is someone
        to ask."""
        if self.create_in is None and self.choose_folder is not None:
            self.create_in = await self.choose_folder(skill)
            self._declined = self.create_in is None

    def specs(self) -> list[ToolSpec]:
        files = {
            "type": "object", "additionalProperties": {"type": "string"},
            "description": "extra files: relative path (e.g. references/guide.md) -> text",
        }
        text = {"type": "string"}
        return [
            ToolSpec(
                CREATE,
                "Create a new skill from what worked in this conversation. `name`: lowercase "
                "letters, digits and hyphens; `description`: what it does and when to use it; "
                "`body`: the Markdown instructions. The user reviews it before it is saved.",
                {"type": "object",
                 "properties": {"name": text, "description": text, "body": text, "files": files},
                 "required": ["name", "description", "body"]},
            ),
            ToolSpec(
                UPDATE,
                "Change an existing skill: give only what changes (a new description, a new "
                "body, files to add or replace). The user reviews a diff before it is saved.",
                {"type": "object",
                 "properties": {"name": text, "description": text, "body": text, "files": files},
                 "required": ["name"]},
            ),
        ]

    def draft(self, tool: str, arguments: Mapping[str, Any]) -> Draft:
        """Build and validate the draft a call asks for. Raises DraftRefused."""
        name = arguments.get("name")
        if not isinstance(name, str) or not name.strip():
            raise DraftRefused("`name` must be the skill's name")
        name = name.strip()
        files = _files_of(arguments.get("files"))
        if tool == CREATE:
            return self._create(name, arguments, files)
        return self._update(name, arguments, files)

    def _create(self, name: str, arguments: Mapping[str, Any], files: dict[str, str]) -> Draft:
        description, body = arguments.get("description"), arguments.get("body")
        if not isinstance(description, str) or not isinstance(body, str):
            raise DraftRefused("`description` and `body` must both be given, as text")
        if self.create_in is None:
            if self._declined:
                raise DraftRefused("the user picked no folder for new skills, so nothing was "
                                   "written; ask them whether and where to create it")
            raise DraftRefused("there is no writable skill folder to create skills in; "
                               "tell the user to add one (or pass --create-in)")
        if "/" in name or "\\" in name or name in (".", "..") or name.startswith("."):
            raise DraftRefused(f"{name!r} cannot be a folder name; use lowercase letters, "
                               "digits and hyphens")
        directory = self.create_in / name
        if directory.exists() or os.path.lexists(directory):
            raise DraftRefused(f"{directory} already exists; use update_skill to change it")
        when = self.clock().isoformat(timespec="seconds")
        fields = {"name": name, "description": description,
                  "metadata": {"created-by": self.author, "created-at": when}}
        texts = {SKILL_FILE: skill_text(fields, body), **files}
        validate_texts(texts, directory)
        preview = f"New skill {name} in {self.create_in}:\n\n" + "\n".join(
            f"--- {path} ---\n{text.rstrip()}\n" for path, text in texts.items()
        )
        return Draft(name, directory, texts, preview, True)

    def _update(self, name: str, arguments: Mapping[str, Any], files: dict[str, str]) -> Draft:
        directory = self.created.get(name) or self.locate(name)
        if directory is None:
            raise DraftRefused(f"there is no writable skill named {name!r}; create_skill makes a new one")
        skill = load_skill(directory)
        if skill.frontmatter is None:
            raise DraftRefused(f"the frontmatter of {name!r} cannot be read; the user must fix "
                               "it in the editor first")
        description, body = arguments.get("description"), arguments.get("body")
        if description is not None and not isinstance(description, str):
            raise DraftRefused("`description` must be text")
        if body is not None and not isinstance(body, str):
            raise DraftRefused("`body` must be text")
        if description is None and body is None and not files:
            raise DraftRefused("nothing to change: give a description, a body or files")
        stamps = {"updated-by": self.author,
                  "updated-at": self.clock().isoformat(timespec="seconds")}
        text = _edited_text(skill, description, body, stamps)
        if text is None:
            # A frontmatter line edits cannot reach (flow style, anchors): written afresh.
            fields = dict(skill.frontmatter.data)
            if description is not None:
                fields["description"] = description
            metadata = fields.get("metadata")
            fields["metadata"] = {**(metadata if isinstance(metadata, dict) else {}), **stamps}
            text = skill_text(fields, body if body is not None else skill.body)
        texts = {skill.path.name: text, **files}
        validate_texts(texts, directory, skill.path.name)
        preview = "\n".join(
            _diff(directory / relative, relative, text) for relative, text in texts.items()
        )
        return Draft(name, directory, texts, preview, False)

    def write(self, draft: Draft) -> None:
        """Write an approved draft. A new skill is built in a scratch folder beside its target
        and renamed into place; an update replaces each file atomically, SKILL.md last."""
        if draft.is_new:
            write_new_skill(draft.directory, draft.texts)
            self.created[draft.name] = draft.directory
            return
        ordered = sorted(draft.texts, key=lambda relative: relative == _skill_file_of(draft))
        for relative in ordered:
            target = draft.directory / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(target, draft.texts[relative])


def write_new_skill(directory: Path, texts: Mapping[str, str]) -> None:
    """Create the skill folder `directory` with `texts` (relative path -> text): built in a scratch
    folder beside it and renamed into place, so it appears whole or not at all. Raises OSError,
    FileExistsError when the folder exists."""
    parent = directory.parent
    parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(directory):
        raise FileExistsError(errno.EEXIST, "it already exists", str(directory))
    scratch = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=parent))
    try:
        for relative, text in texts.items():
            target = scratch / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(target, text)
        os.chmod(scratch, 0o755 & ~_umask())
        # rename() would replace an empty folder made meanwhile; a folder is never merged.
        if os.path.lexists(directory):
            raise FileExistsError(errno.EEXIST, "it already exists", str(directory))
        os.rename(scratch, directory)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise


def first_writable_folder(paths: list[Path]) -> Path | None:
    """Where new skills go by default: the first of the skill paths that is a folder this user
    may write to (a zip or a single skill's folder is not a place for new skills)."""
    for path in paths:
        if path.is_dir() and not (path / SKILL_FILE).exists() and os.access(path, os.W_OK | os.X_OK):
            return path
    return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _skill_file_of(draft: Draft) -> str:
    return next((p for p in draft.texts if p.lower() == SKILL_FILE.lower()), SKILL_FILE)


def _edited_text(skill: Skill, description: str | None, body: str | None,
                 stamps: Mapping[str, str]) -> str | None:
    """The skill's SKILL.md with a new description, body and provenance, every other byte of
    the frontmatter kept (comments, field order, quoting); None where a line edit cannot do it."""
    current = skill
    if description is not None:
        text = set_field(current, "description", description)
        if text is None:
            return None
        current = fixes.reparse(current, text)
    for key, value in stamps.items():
        text = set_metadata_entry(current, key, value)
        if text is None:
            return None
        current = fixes.reparse(current, text)
    if body is None:
        return current.source
    newline = yamledit.newline_of(current.source)
    start = current.body_span.start
    lead = newline if current.source[start:].startswith(("\n", "\r")) else ""
    return current.source[:start] + lead + body.strip().replace("\n", newline) + newline


def skill_text(fields: dict[str, Any], body: str) -> str:
    header = yaml.safe_dump(fields, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{header}---\n\n{body.strip()}\n"


def _files_of(value: object) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise DraftRefused("`files` must map relative paths to their text")
    if len(value) > MAX_FILES:
        raise DraftRefused(f"at most {MAX_FILES} files per draft")
    files: dict[str, str] = {}
    for path, text in value.items():
        pure = PurePosixPath(path.strip().replace("\\", "/"))
        parts = [p for p in pure.parts if p not in ("", ".")]
        if pure.is_absolute() or ".." in parts or not parts or path.startswith("~"):
            raise DraftRefused(f"{path!r} must be a path inside the skill's folder")
        if any(part.startswith(".") for part in parts):
            raise DraftRefused(f"{path!r} is hidden; skills' files are not")
        relative = str(PurePosixPath(*parts))
        if relative.lower() == SKILL_FILE.lower():
            raise DraftRefused("SKILL.md is made from `description` and `body`, not `files`")
        if len(text) > MAX_FILE_CHARS or "\x00" in text:
            raise DraftRefused(f"{relative} is too long or not text")
        files[relative] = text
    return files


def validate_texts(texts: dict[str, str], directory: Path, skill_file: str = SKILL_FILE, *,
                   on_disk: bool = True) -> None:
    """Validate the draft as it would be on disk: SKILL.md with the files it would have (those
    `directory` holds already too, when `on_disk`). Raises DraftRefused with the errors."""
    existing = list_skill_files(directory) if on_disk and directory.is_dir() else ()
    listed = {f.relative: f for f in existing}
    for relative, text in texts.items():
        if relative != skill_file:
            listed[relative] = SkillFile(
                PurePosixPath(relative).as_posix(), len(text.encode("utf-8")), False,
                text.startswith("#!"),
            )
    skill = parse_skill(texts[skill_file].encode("utf-8"), directory / skill_file,
                        directory=directory, files=tuple(listed.values()))
    errors = [d for d in validate_skill(skill).diagnostics if d.severity is Severity.ERROR]
    if errors:
        lines = "\n".join(f"- {d.file}:{d.line}: {d.code} {d.message}" for d in errors)
        raise DraftRefused(f"the draft is not valid, so nothing was written; fix these and "
                           f"call again:\n{lines}")


def _diff(path: Path, relative: str, new: str) -> str:
    try:
        old = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        old = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise DraftRefused(f"cannot read {relative} to change it: {exc}") from None
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 f"a/{relative}", f"b/{relative}")
    return "".join(lines) or f"{relative}: unchanged\n"
