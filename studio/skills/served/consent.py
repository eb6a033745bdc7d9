"""The user's consent to use skills an MCP server serves, kept beside the grants (the config
folder's `served-skills.yaml`): for each server, each skill's name and the digest of the manifest
the user agreed to (`ServedSkill.manifest_digest`). A skill whose manifest changed (another file,
another byte, another description) is asked about again; one whose consent is gone from the file
too. The file is editable, and never overwritten when it cannot be read."""

from __future__ import annotations

from pathlib import Path

import yaml

from studio.fsutil import atomic_write_text
from studio.paths import config_dir
from studio.skills.served.manifest import ServedSkill
from studio.skills.served.source import ServedError, ServedSource

CONSENT_FILE = "served-skills.yaml"

_HEADER = """\
# Skills from MCP servers you agreed to use in Skill Studio: for each server, each skill's name
# and the digest of its manifest (every file's path, size and SHA-256) when you agreed. A skill
# whose manifest changes is asked about again. Delete an entry to be asked again.
"""


def default_path() -> Path:
    return config_dir() / CONSENT_FILE


class Consents:
    """The consents in one file. `problem` says why the file could not be read (then nothing
    is remembered, so nothing is lost)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else default_path()
        self.problem: str | None = None
        self._servers: dict[str, dict[str, str]] = {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except (OSError, UnicodeDecodeError) as exc:
            self.problem = f"cannot read {self.path} ({exc}); consents are not remembered"
            return
        try:
            data = yaml.safe_load(text) or {}
            servers = data.get("servers") or {}
            self._servers = {str(server): {str(name): str(digest)
                                           for name, digest in dict(skills or {}).items()}
                             for server, skills in dict(servers).items()}
        except (yaml.YAMLError, AttributeError, TypeError, ValueError) as exc:
            self.problem = (f"{self.path} is not a consent file ({exc}); fix or delete it, "
                            "consents are not remembered meanwhile")
            self._servers = {}

    def agreed(self, source: ServedSource, skill: ServedSkill) -> bool:
        """Whether the user agreed to this very manifest of this skill from this server."""
        return self._servers.get(source.spec, {}).get(skill.name) == skill.manifest_digest

    def record(self, source: ServedSource, skills: list[ServedSkill]) -> None:
        """Remember that the user agreed to these skills' manifests. Raises ServedError when
        the file cannot be written (or could not be read: it is not overwritten)."""
        if self.problem is not None:
            raise ServedError(self.problem)
        server = self._servers.setdefault(source.spec, {})
        for skill in skills:
            server[skill.name] = skill.manifest_digest
        text = _HEADER + yaml.safe_dump({"servers": self._servers}, sort_keys=True,
                                        allow_unicode=False, default_flow_style=False)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.path, text)
        except OSError as exc:
            raise ServedError(f"cannot remember the consent in {self.path}: {exc}") from None
