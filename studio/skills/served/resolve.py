"""From a `--skills mcp+...` value to a root the rest of the studio reads: list the server's
skills, ask the user about those whose manifest they have not agreed to, fetch and verify the
agreed ones, and write them as a read-only archive in the cache (`materialise`). Then a served
skill whose name a local skill has is dropped from what the agent sees, and said so
(`Roots.drop_shadowed`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from studio.skills.served.consent import Consents
from studio.skills.served.manifest import Limits, ServedSkill
from studio.skills.served.materialise import materialise, served_folder
from studio.skills.served.source import ServedError, ServedSource, is_served, parse_served

# Asked with the server's address (`mcp+...`) and the skills whose manifest the user has not
# agreed to; True agrees to all of them, False to none; None (no one to ask) leaves them out and
# says how to agree.
Ask = Callable[[str, list[ServedSkill]], bool]


@dataclass(slots=True)
class Opened:
    """What opening one server gave.

    Attributes:
        source: the server.
        archive: the read-only zip of the skills in use, or None when none is.
        skills: those skills, verified.
        problems: what was refused or left out, and why (one line each).
    """

    source: ServedSource
    archive: Path | None = None
    skills: list[ServedSkill] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


async def open_served_async(spec: str, ask: Ask | None, *, consents: Consents | None = None,
                            folder: Path | None = None, limits: Limits | None = None) -> Opened:
    """Open the server `spec` names (see the module's docstring). Raises ServedError when the
    address is bad or the server cannot be listed; a skill refused is a problem, not an error."""
    # Here: the MCP SDK takes a while to import, and a command given no server never needs it.
    from studio.skills.served.client import connected, fetch_served, list_served, server_log

    source = parse_served(spec)
    consents = consents if consents is not None else Consents()
    folder = folder if folder is not None else served_folder()
    limits = limits if limits is not None else Limits()
    opened = Opened(source)
    if consents.problem is not None:
        opened.problems.append(consents.problem)
    with open(server_log(folder, source), "w", encoding="utf-8", errors="replace") as errlog:
        async with connected(source, limits, errlog) as client:
            listing = await list_served(client, source, limits)
            opened.problems.extend(listing.problems)
            agreed = _agreed(opened, listing.skills, consents, ask)
            if not agreed:
                return opened
            fetched = await fetch_served(client, source, agreed, limits)
    opened.problems.extend(fetched.problems)
    opened.skills = [s for s in agreed if s.name in fetched.files]
    if opened.skills:
        opened.archive = materialise(folder, source, opened.skills, fetched.files)
    return opened


def _agreed(opened: Opened, skills: list[ServedSkill], consents: Consents,
            ask: Ask | None) -> list[ServedSkill]:
    """The skills the user agreed to: before, to this very manifest, or now when asked."""
    source = opened.source
    agreed = [s for s in skills if consents.agreed(source, s)]
    unasked = [s for s in skills if not consents.agreed(source, s)]
    if not unasked:
        return agreed
    if ask is None:
        names = ", ".join(s.name for s in unasked[:5]) + (", ..." if len(unasked) > 5 else "")
        opened.problems.append(
            f"{source.shown}: left out {len(unasked)} skill(s) you have not agreed to use "
            f"({names}); run in a terminal to be asked, or pass --yes to agree")
        return agreed
    if not ask(source.spec, unasked):
        opened.problems.append(f"{source.shown}: you declined {len(unasked)} skill(s); they "
                               "are left out")
        return agreed
    try:
        consents.record(source, unasked)
    except ServedError as exc:
        opened.problems.append(str(exc))
    return agreed + unasked


def open_served(spec: str, ask: Ask | None, **kwargs: object) -> Opened:
    """`open_served_async` for a caller outside an event loop."""
    import asyncio  # here: a command given only paths never starts a loop (see skill_paths)

    return asyncio.run(open_served_async(spec, ask, **kwargs))  # type: ignore[arg-type]


class _Named(Protocol):
    @property
    def name(self) -> str | None: ...

    @property
    def directory(self) -> Path | str: ...


Named = TypeVar("Named", bound=_Named)


@dataclass(slots=True)
class Roots:
    """Command-line skill values made paths: every path as given, each server as its archive
    (in the same place), and what the servers refused.

    Attributes:
        paths: the roots to read, in the order given.
        served: what each server given gave.
        problems: what was refused or left out, one line each.
    """

    paths: list[Path] = field(default_factory=list)
    served: list[Opened] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def archives(self) -> set[Path]:
        return {opened.archive for opened in self.served if opened.archive is not None}

    def gave_path(self, value: Path | str) -> bool:
        """Whether `value` gave a path: a path does, a server when any of its skills is used."""
        text = str(value)
        if not is_served(text):
            return True
        return any(opened.source.spec == text.strip() and opened.archive is not None
                   for opened in self.served)

    def drop_shadowed(self, skills: Sequence[Named]) -> tuple[list[Named], list[str]]:
        """The skills without the served ones whose name a local skill has, and a note for
        each: a served skill never silently takes a local one's place, nor silently loses it."""
        archives = self.archives
        local: dict[str, Path | str] = {}
        for skill in skills:
            if skill.name and not _served(skill.directory, archives):
                local.setdefault(skill.name, skill.directory)
        kept: list[Named] = []
        notes: list[str] = []
        for skill in skills:
            if skill.name in local and _served(skill.directory, archives):
                notes.append(f"served skill {skill.name} is shadowed by the local {skill.name} "
                             f"at {local[skill.name]}; using the local one")
                continue
            kept.append(skill)
        return kept, notes


def _served(directory: Path | str, archives: set[Path]) -> bool:
    path = Path(directory)
    return any(path == archive or archive in path.parents for archive in archives)


async def resolve_roots(values: Iterable[Path | str], ask: Ask | None) -> Roots:
    """Each `--skills` value as a path: a path stays one, a `mcp+` server becomes its archive
    (or nothing, with its problems, when it cannot be used)."""
    roots = Roots()
    for value in values:
        text = str(value)
        if not is_served(text):
            roots.paths.append(Path(value))
            continue
        try:
            opened = await open_served_async(text, ask)
        except ServedError as exc:
            roots.problems.append(str(exc))
            continue
        roots.served.append(opened)
        roots.problems.extend(opened.problems)
        if opened.archive is not None:
            roots.paths.append(opened.archive)
    return roots
