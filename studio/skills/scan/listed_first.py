"""The window's scan of a folder in two passes: list every skill first, then validate.

Validating a cold library takes most of the scan: about 600 µs of a core per skill, so 10,000
skills keep two cores busy for three seconds and more, while reading a SKILL.md alone costs a
third of that. Someone opening a library wants to see it before its problems, so the first pass
reads only each SKILL.md (in the worker processes, in chunks) and hands out what the library
lists of it (`listing_entry`: name, description, whether a client would load it), or the whole
summary when the cache has it; the second pass validates the skills the cache did not have and
hands out their summaries, which take the place of the unchecked ones. Both passes hand skills
out in the walk's order. `studio validate` reports only validated skills and scans in one pass
(`studio.skills.scan.roots.scan_entries`).

The first pass keeps every skill it could not take from the cache until the second pass
validates it: memory grows with the library, which the window holds anyway.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from studio.skills.clients import SPEC
from studio.skills.files import read_skill_bytes
from studio.skills.parse import parse_skill
from studio.skills.scan.cache import ScanCache
from studio.skills.scan.entries import is_listing, listing_entry
from studio.skills.scan.roots import RootScan, SkillRoot, _is_crash, _Validation, scan_entries
from studio.skills.scan.walk import Fingerprints, Found, stamp_skill, walk_skills

Entry = tuple[Any, ...]

# How much lower than the window's the workers' priority is (nice(1)'s scale): the window must
# keep up with what they find, but a busy machine must not starve the validation. Reading
# SKILL.md at 5 against 0, in turns at load 3 to 4: 10,000 skills listed as fast (5.4 to 5.9 s
# against 5.5 to 6.3 s), the window stalled over 40 ms 2 to 7 times against 33 to 49. Validating
# at 3 against 0, beside two busy processes: listed in 5.4 to 6.1 s against 6.8 to 6.9 s, all
# checked in 16.5 to 17.8 s against 14.8 to 16.0 s, the longest stall 56 to 77 ms against 71
# to 103 ms; at 10 the checking took 42 to 44 s there.
LISTING_NICENESS = 5
VALIDATION_NICENESS = 3

# What a listing says of a skill whose SKILL.md could not be read or parsed: nothing yet; its
# validation says why.
_UNREAD_FLAGS = (None, None, None, None, True, True)


def list_folders(found: list[Found], _target: str) -> list[Entry]:
    """Read the SKILL.md of each skill the walk found, in a worker process: `listing_entry`
    tuples (the target does not change what a listing shows)."""
    return [_listing(item) for item in found]


def _listing(found: Found) -> Entry:
    folder = Path(found.folder)
    path = folder / found.skill_name
    try:
        return listing_entry(parse_skill(read_skill_bytes(path), path, directory=folder))
    except Exception:  # unreadable, or a bug met on it: validating it says which
        return _unread(found)


def _unread(found: Found) -> Entry:
    return (found.folder, os.path.join(found.folder, found.skill_name), None, None, False,
            _UNREAD_FLAGS)


def scan_listed_first(
    root: SkillRoot,
    on_listed: Callable[[Entry], None],
    on_checked: Callable[[Entry], None],
    cache: ScanCache | None = None,
    target: str = SPEC,
    linked_roots: tuple[str, ...] = (),
) -> RootScan:
    """Scan `root` in two passes (see the module's docstring): each skill goes first to
    `on_listed` (a `listing_entry` tuple, or its cache tuple when the cache has it), then, if
    it was not in the cache, to `on_checked` as its cache tuple. An archive, read whole, is
    scanned in one pass, its skills going to `on_checked`."""
    path = root.path
    if root.is_zip or not path.is_dir():
        return scan_entries(root, on_checked, cache, target=target, linked_roots=linked_roots)
    if cache is not None and cache.target != target:
        cache = None
    result = RootScan(root)
    seen: set[str] = set()
    unchecked: list[Found] = []
    walked: deque[Found] = deque()

    def hand_out(entries: Iterable[tuple[str, Entry]]) -> None:
        for key, entry in entries:
            found = walked.popleft()
            seen.add(key)
            if not is_listing(entry):
                if not _is_crash(entry):
                    on_listed(entry)
                    continue
                # The reading process died on it: the second pass tries again, alone if need be.
                entry = _unread(found)
            unchecked.append(found)
            on_listed(entry)

    # Without a cache the fingerprints would serve nothing (see `scan_entries`); with one that
    # holds nothing of this root, only the skills' validation needs them, and they are taken
    # then (stamping a skill costs about as much as listing it: the listing comes first).
    cold = cache is None or not cache.holds_any(str(path) + os.sep)
    fingerprints: Fingerprints = "none" if cold else "full"
    with _Validation(root, cache, target, list_folders, store=False,
                     niceness=LISTING_NICENESS) as listing:
        for item in walk_skills(path, root.include_hidden, result.folders, result.notices,
                                fingerprints, linked_roots=linked_roots, links=result.links):
            walked.append(item)
            # The listing pass reads SKILL.md alone: the folder's entries need not travel.
            listing.add(item._replace(listing=None))
            hand_out(listing.ready())
        hand_out(listing.entries())
    # Validating yields the cores to the window, which is still listing what the first pass
    # found, and to the person using it.
    with _Validation(root, cache, target, niceness=VALIDATION_NICENESS) as validation:
        for item in unchecked:
            validation.add(stamp_skill(item) if cold and cache is not None else item)
            for _, entry in validation.ready():
                on_checked(entry)
        for _, entry in validation.entries():
            on_checked(entry)
    if cache is not None:
        cache.forget_missing(seen, str(path) + os.sep)
    return result
