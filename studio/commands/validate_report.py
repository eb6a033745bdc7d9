"""`studio validate`'s report, written as the scan hands over each skill rather than once the
whole library is held.

Each skill's part of the report (its JSON object, or its lines of text) is rendered from the
scan's light `ScannedSkill` (no `Path`, no summary) as soon as the skill is validated, while
worker processes go on with the rest, and goes to a temporary file. Only a skill's name and
folder stay in memory: a name that more than one skill uses (forks of one skill in several
repositories) adds a warning to every one of them, the first included, which is known only
once the last skill is in. The report is then copied from the file to the output, with those
warnings added on the way.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from studio.commands.textsafe import one_line, shown_path, utf8_json
from studio.skills import SKILL_FILE, Diagnostic, Severity, SkillSummary, codes
from studio.skills.scan import ScannedSkill, duplicate_warning

_ERROR, _WARNING, _INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
# A severity's value by a dict lookup: `Severity.value` is a Python-level descriptor, and the
# report asks it of every finding.
_VALUES = {severity: severity.value for severity in Severity}
_SKILL_FILE_BELOW = os.sep + SKILL_FILE


# The escaping `json.JSONEncoder(ensure_ascii=False)` gives each string (in C).
_string = json.encoder.encode_basestring


def dumps(value: Any) -> str:
    return _json_encoder().encode(value)


@functools.cache
def _json_encoder() -> json.JSONEncoder:
    # One encoder for the whole report: json.dumps with an option set builds a new one per call.
    return json.JSONEncoder(ensure_ascii=False)


class Report:
    """The report of one run, skill by skill.

    Attributes:
        counts: the summary's figures so far (skills, valid, invalid, loadable, errors,
            warnings, infos).
        unreadable: whether a SKILL.md could not be read (SK006).
    """

    def __init__(self, output_format: str, with_fixes: str | None = None) -> None:
        """`with_fixes` is the target whose fixes each skill's JSON lists, or None for none."""
        self.json = output_format == "json"
        self.with_fixes = with_fixes
        self.counts = dict.fromkeys(
            ("skills", "valid", "invalid", "loadable", "errors", "warnings", "infos"), 0
        )
        self.unreadable = False
        # What the duplicate-name warnings need of each skill: its name and folder, and the
        # path of a SKILL.md that is not `folder/SKILL.md` (by position; few are). Kept lean:
        # a report on 100,000 skills holds these to its end.
        self._names: list[str | None] = []
        self._folders: list[str] = []
        self._odd_files: dict[int, str] = {}
        self._sizes = array("Q")  # each skill's part of the spool, in characters
        self._mark: tuple[int, int, dict[str, int], bool] = (0, 0, dict(self.counts), False)
        # Closed with the report, which is a context manager.
        self._spool = tempfile.TemporaryFile("w+", encoding="utf-8", newline="")  # noqa: SIM115

    def close(self) -> None:
        self._spool.close()

    def __enter__(self) -> Report:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, root: Path, skill: ScannedSkill) -> None:
        """One skill, as the scan streams it."""
        if self.with_fixes is None:
            self.add_piece(render(self.json, [skill]))
            return
        self._count(skill)
        self._keep(skill.name, skill.directory, skill.skill_file,
                   _with_fixes(skill.summary(root), self.with_fixes))

    def _count(self, skill: ScannedSkill) -> None:
        counts = self.counts
        counts["skills"] += 1
        counts["valid" if skill.valid else "invalid"] += 1
        counts["loadable"] += bool(skill.loadable)
        for diagnostic in skill.diagnostics:
            counts[_COUNTED[diagnostic.severity]] += 1
            if diagnostic.code == codes.CANNOT_READ:
                self.unreadable = True

    def _keep(self, name: str | None, directory: str, skill_file: str, text: str) -> None:
        if skill_file != directory + _SKILL_FILE_BELOW:
            self._odd_files[len(self._names)] = skill_file
        self._names.append(name)
        self._folders.append(directory)
        self._sizes.append(len(text))
        self._spool.write(text)

    def add_piece(self, piece: Piece) -> None:
        """Skills as a worker rendered them (`render`)."""
        offset = len(self._names)
        for key, value in zip(COUNTED, piece.counts, strict=True):
            self.counts[key] += value
        self.unreadable = self.unreadable or piece.unreadable
        self._odd_files.update((offset + at, path) for at, path in piece.odd_files.items())
        self._names.extend(piece.names)
        self._folders.extend(piece.folders)
        self._sizes.extend(piece.sizes)
        self._spool.write(piece.text)

    def mark(self) -> None:
        """Remember where the report is: `rewind` goes back there."""
        self._mark = (len(self._names), self._spool.tell(), dict(self.counts), self.unreadable)

    def rewind(self) -> None:
        """Forget every skill added since `mark`."""
        kept, where, counts, unreadable = self._mark
        del self._names[kept:], self._folders[kept:], self._sizes[kept:]
        for position in [at for at in self._odd_files if at >= kept]:
            del self._odd_files[position]
        self._spool.seek(where)
        self._spool.truncate()
        self.counts, self.unreadable = counts, unreadable

    def write(self, out: Callable[[str], object], tail: dict[str, Any]) -> None:
        """The whole report, piece by piece, to `out`, with `tail` (problems, notices) after the skills in the
        JSON. Adds the duplicate names' warnings to `counts` first."""
        extra = self._duplicates()
        self.counts["warnings"] += len(extra)
        spool = self._spool
        spool.seek(0)
        if self.json:
            out('{"skills": [')
        for position, size in enumerate(self._sizes):
            text = spool.read(size)
            warning = extra.get(position)
            if self.json:
                if position:
                    out(", ")
                if warning is not None:
                    shown = utf8_json(dumps(warning.to_json()))
                    text = text[:-2] + (", " if not text.endswith("[]}") else "") + shown + "]}"
            elif warning is not None:
                text += _line(self._folders[position], self._file(position), warning)
            out(text)
        counts = self.counts
        if self.json:
            out("], " + utf8_json(dumps({"summary": counts, **tail}))[1:] + "\n")
        else:
            out(
                f"{counts['skills']} skill{'s' if counts['skills'] != 1 else ''} checked: "
                f"{counts['valid']} valid, {counts['invalid']} invalid "
                f"({counts['errors']} errors, {counts['warnings']} warnings)\n"
            )

    def _file(self, position: int) -> str:
        """The SKILL.md of the skill at `position`."""
        odd = self._odd_files.get(position)
        return odd if odd is not None else self._folders[position] + _SKILL_FILE_BELOW

    def _duplicates(self) -> dict[int, Diagnostic]:
        """The warning of each skill (by position) whose name another skill also uses."""
        by_name: dict[str, list[int]] = {}
        for position, name in enumerate(self._names):
            if name:
                by_name.setdefault(name, []).append(position)
        extra: dict[int, Diagnostic] = {}
        for name, positions in by_name.items():
            if len(positions) < 2:
                continue
            for position in positions:
                others = [self._folders[other] for other in positions if other != position]
                file_name = os.path.basename(self._file(position))
                extra[position] = duplicate_warning(name, others, file_name)
        return extra


COUNTED = ("skills", "valid", "invalid", "loadable", "errors", "warnings", "infos")
_COUNTED = {_ERROR: "errors", _WARNING: "warnings", _INFO: "infos"}


class Piece(NamedTuple):
    """Consecutive skills' part of a report, rendered where they were validated (a worker
    process: see `render`) and sent to the report whole.

    Attributes:
        text: their parts of the report, one after the other.
        sizes: each one's part, in characters.
        names, folders: each one's name and folder (for the duplicate names' warnings).
        odd_files: the SKILL.md of each skill (by position in the piece) whose SKILL.md is
            not `folder/SKILL.md`.
        counts: their figures, in the order of `COUNTED`.
        unreadable: whether a SKILL.md among them could not be read.
    """

    text: str
    sizes: list[int]
    names: list[str | None]
    folders: list[str]
    odd_files: dict[int, str]
    counts: tuple[int, ...]
    unreadable: bool


class Shown(Protocol):
    """What a report shows of a skill: a `ScannedSkill`, or what a worker that renders the
    skills it validated makes of each (`studio.skills.scan.units`)."""

    @property
    def directory(self) -> str: ...
    @property
    def skill_file(self) -> str: ...
    @property
    def name(self) -> str | None: ...
    @property
    def valid(self) -> bool: ...
    @property
    def loadable(self) -> bool: ...
    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]: ...


def render(as_json: bool, skills: Sequence[Shown]) -> Piece:
    """The piece of a report (JSON or text, without fixes) that `skills` make."""
    texts: list[str] = []
    names: list[str | None] = []
    folders: list[str] = []
    odd_files: dict[int, str] = {}
    valid = loadable = errors = warnings = infos = 0
    unreadable = False
    for position, skill in enumerate(skills):
        directory, skill_file = skill.directory, skill.skill_file
        diagnostics = skill.diagnostics
        valid += bool(skill.valid)
        loadable += bool(skill.loadable)
        for diagnostic in diagnostics:
            severity = diagnostic.severity
            if severity is _ERROR:
                errors += 1
            elif severity is _WARNING:
                warnings += 1
            elif severity is _INFO:
                infos += 1
            if diagnostic.code == codes.CANNOT_READ:
                unreadable = True
        if as_json:
            texts.append(utf8_json(_skill_json(directory, skill.name, skill.valid, skill.loadable,
                                               diagnostics)))
        else:
            texts.append(_lines(directory, skill_file, diagnostics))
        if skill_file != directory + _SKILL_FILE_BELOW:
            odd_files[position] = skill_file
        names.append(skill.name)
        folders.append(directory)
    count = len(skills)
    return Piece("".join(texts), [len(text) for text in texts], names, folders, odd_files,
                 (count, valid, count - valid, loadable, errors, warnings, infos), unreadable)


def _skill_json(
    directory: str, name: str | None, valid: bool, loadable: bool,
    diagnostics: tuple[Diagnostic, ...],
) -> str:
    """`dumps` of a skill's JSON object (`SkillSummary.to_json`, each finding as
    `Diagnostic.to_json` gives it: a test keeps them equal), written out piece by piece: the
    report renders one per skill in the scanning process, which the workers wait on, and
    building a dict for each finding to hand to the encoder costs three times the text. Only
    strings go through the encoder's own escaping; anything not of the types a scan gives goes
    to `dumps`."""
    odd_name = name is not None and type(name) is not str
    if odd_name or type(valid) is not bool or type(loadable) is not bool:
        return _skill_json_by_dumps(directory, name, valid, loadable, diagnostics)
    values = _VALUES
    parts = []
    for d in diagnostics:
        line, column, field = d.line, d.column, d.field
        if type(line) is not int or type(column) is not int or (
            field is not None and type(field) is not str
        ):
            return _skill_json_by_dumps(directory, name, valid, loadable, diagnostics)
        parts.append(
            f'{{"code": {_string(d.code)}, "severity": {_string(values[d.severity])}, '
            f'"message": {_string(d.message)}, "line": {line}, "column": {column}, '
            f'"file": {_string(d.file)}'
            + (f', "field": {_string(field)}}}' if field is not None else "}")
        )
    return (
        f'{{"path": {_string(directory)}, "name": {_string(name) if name is not None else "null"}, '
        f'"valid": {"true" if valid else "false"}, "loadable": {"true" if loadable else "false"}, '
        f'"diagnostics": [{", ".join(parts)}]}}'
    )


def _skill_json_by_dumps(
    directory: str, name: str | None, valid: bool, loadable: bool,
    diagnostics: tuple[Diagnostic, ...],
) -> str:
    return dumps({
        "path": directory, "name": name, "valid": valid, "loadable": loadable,
        "diagnostics": [d.to_json() for d in diagnostics],
    })


def _lines(directory: str, skill_file: str, diagnostics: tuple[Diagnostic, ...]) -> str:
    """`_line` of each finding of one skill: most are about its SKILL.md, whose name and shown
    path are worked out once."""
    if not diagnostics:
        return ""
    file_name = os.path.basename(skill_file)
    shown = shown_path(skill_file)
    values = _VALUES
    return "".join(
        f"{shown}:{d.line}:{d.column}: {values[d.severity]} {d.code}: {one_line(d.message)}\n"
        if d.file == file_name else _line(directory, skill_file, d)
        for d in diagnostics
    )


def _line(directory: str, skill_file: str, d: Diagnostic) -> str:
    where = skill_file if d.file == os.path.basename(skill_file) else str(Path(directory) / d.file)
    return (f"{shown_path(where)}:{d.line}:{d.column}: {_VALUES[d.severity]} {d.code}: "
            f"{one_line(d.message)}\n")


def _with_fixes(summary: SkillSummary, target: str) -> str:
    """A skill's JSON with every fix its findings offer, title and edits; an archive's skills
    and findings without a fix get none."""
    from studio.skills.checks import fixes

    data = summary.to_json()
    if summary.diagnostics and not summary.read_only:
        offered = fixes.fixes_json(summary.skill_file, target)
        for d, shown in zip(summary.diagnostics, data["diagnostics"], strict=True):
            fix = offered.get((d.code, d.line, d.column, d.field, d.message))
            if fix is not None:
                shown["fix"] = fix
    return utf8_json(dumps(data))
