"""`studio sync`: put back every skill a lock file records, as it records it (`restore`), or say
which are not (`check`, with `lockcheck`'s states).

For each entry that is not as locked (see `lockcheck`), its source is fetched into a scratch
folder beside the skills (`prepare_source`): at the whole commit studio recorded, else (an entry
of the skills CLI, which records none) at its `ref` or the source's default branch. The fetched
skill must hash exactly as the entry says (`computedHash`, and the commit must be the one
recorded) before it is moved into place by a rename on the same file system; one that does not is
left out, named, and nothing of it is written. A folder that is not the installed copy (a link, a
file) is replaced only when asked (`force`). The lock file is not changed: it is what is wanted.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from studio.skills.install.download import FoundSkill, InstallError, InstallPlan
from studio.skills.install.gitfetch import GIT_TIMEOUT
from studio.skills.install.installed import fetchable, project_of
from studio.skills.install.localstate import note_installed
from studio.skills.install.lockcheck import (
    MISSING,
    NODE_MODULES,
    REFUSED,
    Standing,
    check_records,
)
from studio.skills.install.lockfile import InstallRecord, computed_hash, lock_path, read_lock_file
from studio.skills.install.placement import CLIENTS, blocking, client_folders, place
from studio.skills.install.sources import prepare_source


@dataclass(slots=True)
class SyncReport:
    """What `restore` did.

    Attributes:
        restored: each skill written back, with what its folder held that was discarded
            (the lines of its `Standing.describe`).
        failed: each skill not restored and why.
        unchanged: the skills that were as locked already.
        placed: the client links or copies made again.
    """

    restored: list[tuple[str, list[str]]] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    placed: list[Path] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed

    def describe(self) -> list[str]:
        """Lines for a terminal or a dialog: what was restored (and discarded), placed, and
        what was not restored and why."""
        lines: list[str] = []
        for name, discarded in self.restored:
            lines.append(f"restored {name}")
            if discarded:
                lines.append("  discarded what differed: "
                             + "; ".join(line.strip() for line in discarded))
        lines += [f"  placed {path}" for path in self.placed]
        lines += [f"{name} was not restored: {why}" for name, why in self.failed]
        return lines


def fetch_text(record: InstallRecord) -> str:
    """What to fetch for `record`: its source at the whole commit studio recorded, else what an
    update fetches (the source, with the skills CLI's ref). Raises InstallError for an entry
    `entrycheck` refuses."""
    source = fetchable(record)
    commit = record.studio.get("commit")
    if isinstance(commit, str) and commit:
        return f"{source.partition('#')[0]}#{commit}"
    return source


def check(into: Path) -> list[Standing]:
    """How each entry of the lock file for the skill folder `into` stands, changing nothing.
    Raises LockError for a lock file that cannot be read."""
    return check_records(into, read_lock_file(lock_path(into)).records())


def restore(into: Path, *, force: bool = False) -> SyncReport:
    """Restore every entry of the lock file for `into` that is not as locked (`force`: also
    where a link or a file stands in a skill's place). Raises LockError for a lock file that
    cannot be read (nothing is done)."""
    records = read_lock_file(lock_path(into)).records()
    report = SyncReport()
    groups: dict[str, list[Standing]] = {}
    for state in check_records(into, records):
        name = state.record.name
        if state.ok:
            report.unchanged.append(name)
        elif state.state == REFUSED:
            report.failed.append((name, f"the lock file entry was refused: {state.problem}"))
        elif state.record.source_type == NODE_MODULES:
            report.failed.append((name, "it comes from an npm package in node_modules, which "
                                  "studio does not fetch; restore it with `npx skills "
                                  "experimental_sync`"))
        elif not force and _not_a_copy(into / name):
            report.failed.append((name, f"{into / name} is a link or a file, not the installed "
                                  "copy; it was left as it is (pass --force to replace it)"))
        else:
            groups.setdefault(fetch_text(state.record), []).append(state)
    for text, states in groups.items():
        _restore_group(into, text, states, report)
    _place_again(into, [state.record for group in groups.values() for state in group],
                 report)
    return report


def _not_a_copy(folder: Path) -> bool:
    return os.path.islink(folder) or (os.path.lexists(folder) and not folder.is_dir())


def _restore_group(into: Path, text: str, states: list[Standing], report: SyncReport) -> None:
    try:
        plan = prepare_source(text, into, timeout=GIT_TIMEOUT)
    except InstallError as exc:
        report.failed.extend((state.record.name, str(exc)) for state in states)
        return
    try:
        commits: dict[str, str] = {}
        for state in states:
            record = state.record
            why = _unlike_lock(record, plan)
            skill = _skill_named(plan.skills, record.name)
            if why is None and skill is None:
                why = f"{text} no longer holds a skill named {record.name}"
            if why is None and skill is not None and computed_hash(skill.staged) != record.computed_hash:
                why = (f"{text} holds {record.name}, but its files do not match the hash the "
                       "lock file records (the source changed since it was locked, or the entry "
                       "is wrong); nothing of it was written. `studio update` takes the new files "
                       "and records them")
            if why is not None or skill is None:
                report.failed.append((record.name, why or "not found"))
                continue
            try:
                _move_into_place(skill.staged, into / record.name, plan.scratch)
            except OSError as exc:
                report.failed.append((record.name, f"cannot write {into / record.name}: "
                                      f"{exc.strerror or exc}; it was left as it was"))
                continue
            discarded = [] if state.state == MISSING else state.describe()
            report.restored.append((record.name, discarded))
            commits[record.name] = plan.commit
        note_installed(into, commits)
    finally:
        plan.discard()


def _unlike_lock(record: InstallRecord, plan: InstallPlan) -> str | None:
    commit = record.studio.get("commit")
    if isinstance(commit, str) and commit and plan.commit != commit:
        return (f"fetching commit {commit} gave {plan.commit or 'no commit'}; nothing of it was "
                "written")
    return None


def _skill_named(skills: list[FoundSkill], name: str) -> FoundSkill | None:
    """The fetched skill installed as `name`: by its folder, else (the skills CLI names a folder
    after the skill) by its `name:`."""
    return (next((skill for skill in skills if skill.folder == name), None)
            or next((skill for skill in skills if skill.name == name), None))


def _move_into_place(staged: Path, destination: Path, scratch: Path) -> None:
    """Rename `staged` to `destination`; what was there is moved aside first (into `scratch`,
    removed with it) and put back if the rename fails, so a reader never sees half a skill."""
    old: Path | None = None
    if os.path.lexists(destination):
        old = scratch / f"old-{destination.name}"
        os.rename(destination, old)
    try:
        os.rename(staged, destination)
    except OSError:
        if old is not None:
            with contextlib.suppress(OSError):
                os.rename(old, destination)
        raise


def _place_again(into: Path, records: list[InstallRecord], report: SyncReport) -> None:
    """Give each restored skill the client links (or copies) studio recorded for it where they
    are missing; a client folder holding something else of the same name is left alone and
    named."""
    where = project_of(into)
    restored = {name for name, _ in report.restored}
    for record in records:
        clients = record.studio.get("clients")
        if where is None or record.name not in restored or not isinstance(clients, list):
            continue
        copy = record.studio.get("mode") == "copy"
        missing: list[Path] = []
        for folder in client_folders([c for c in clients if c in CLIENTS], *where):
            at = folder / record.name
            if not os.path.lexists(at):
                missing.append(folder)
            elif not (blocking(record.name, [folder], into) == [] or (
                    copy and at.is_dir() and not at.is_symlink()
                    and computed_hash(at) == record.computed_hash)):
                report.failed.append((record.name, f"{at} holds something else of the same "
                                      "name; it was left as it is (move it away, sync again)"))
        try:
            report.placed.extend(place(record.name, into, missing, copy))
        except OSError as exc:
            report.failed.append((record.name, "cannot place it for its clients: "
                                  f"{exc.strerror or exc}"))
