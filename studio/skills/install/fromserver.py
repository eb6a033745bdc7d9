"""Installing the skills an MCP server serves (`studio install mcp+http://...`): they are listed,
consented to and verified file by file as for `--skills mcp+...` (`studio.skills.served`), then
staged from the verified archive like any other install. Each skill's lock entry pins what was
verified: the server, the skill's URI, its manifest's digest and every file's size and SHA-256,
so a later `studio update` or a reader of `skills-lock.json` can tell exactly what came in.

Any refusal (a file whose bytes do not match, a manifest changed midway, a skill declined) stops
the whole install: nothing is written, as for an archive with a bad entry."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from studio.skills.install.download import (
    DEFAULT_LIMITS,
    SCRATCH_PREFIX,
    InstallError,
    InstallPlan,
    found_skills,
    open_lock,
)
from studio.skills.library.archive import ArchiveError, unpack
from studio.skills.served import Ask, ServedError, open_served

SOURCE_TYPE = "mcp"


def prepare_served(text: str, into: Path, consent: Ask | None) -> InstallPlan:
    """A plan for the skills the server `text` names serves. Raises InstallError (having
    removed the scratch folder) when the server cannot be used or refused anything."""
    try:
        opened = open_served(text, consent)
    except ServedError as exc:
        raise InstallError(str(exc)) from None
    if opened.problems:
        raise InstallError("; ".join(opened.problems))
    if opened.archive is None:
        raise InstallError(f"{text} serves no skill")
    open_lock(into)
    try:
        into.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=into))
    except OSError as exc:
        raise InstallError(f"cannot write to {into}: {exc.strerror or exc}") from None
    plan = InstallPlan(text, into, "", scratch, source_type=SOURCE_TYPE, source=text)
    try:
        unpacked = scratch / "unpacked"
        unpacked.mkdir()
        unpack(opened.archive, unpacked, DEFAULT_LIMITS)
        plan.skills = found_skills(unpacked, into)
        record = json.loads(opened.archive.with_suffix(".json").read_text(encoding="utf-8"))
        plan.pins = {name: {"mcp": _pin(text, entry)} for name, entry in record["skills"].items()}
    except ArchiveError as exc:
        plan.discard()
        raise InstallError(f"{text} was refused: {exc}") from None
    except (OSError, ValueError, KeyError) as exc:
        plan.discard()
        raise InstallError(f"cannot stage what {text} serves: {exc}") from None
    except BaseException:
        plan.discard()
        raise
    return plan


def _pin(server: str, entry: dict[str, Any]) -> dict[str, Any]:
    return {"server": server, "uri": entry["uri"], "manifest": entry["manifest"],
            "files": entry["files"]}
