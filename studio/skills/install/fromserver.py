"""Installing the skills an MCP server serves (`studio install mcp+http://...`): they are listed,
consented to and verified file by file as for `--skills mcp+...` (`studio.skills.served`), then
staged from the verified archive like any other install. Each skill's lock entry pins what was
verified: the server, the skill's URI, its manifest's digest and every file's size and SHA-256,
so a later `studio update` or a reader of `skills-lock.json` can tell exactly what came in.

Any refusal (a file whose bytes do not match, a manifest changed midway, a skill declined) stops
the whole install: nothing is written, as for an archive with a bad entry."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
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
from studio.skills.served import ServedSkill, resolve_roots

SOURCE_TYPE = "mcp"
# Asked with the server's address and the skills to agree to; True agrees to all of them.
Consent = Callable[[str, list[ServedSkill]], bool]


def prepare_served(text: str, into: Path, consent: Consent | None) -> InstallPlan:
    """A plan for the skills the server `text` names serves. Raises InstallError (having
    removed the scratch folder) when the server cannot be used or refused anything."""
    roots = asyncio.run(resolve_roots([text], consent))
    if roots.problems:
        raise InstallError("; ".join(roots.problems))
    if not roots.paths:
        raise InstallError(f"{text} serves no skill")
    archive = roots.paths[0]
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
        unpack(archive, unpacked, DEFAULT_LIMITS)
        plan.skills = found_skills(unpacked, into)
        plan.pins = {skill.name: {"mcp": _pin(text, skill)}
                     for opened in roots.served for skill in opened.skills}
    except ArchiveError as exc:
        plan.discard()
        raise InstallError(f"{text} was refused: {exc}") from None
    except OSError as exc:
        plan.discard()
        raise InstallError(f"cannot stage what {text} serves: {exc}") from None
    except BaseException:
        plan.discard()
        raise
    return plan


def _pin(server: str, skill: ServedSkill) -> dict[str, Any]:
    return {"server": server, "uri": skill.uri, "manifest": skill.manifest_digest,
            "files": {f.path: {"size": f.size, "digest": f.digest} for f in skill.files}}
