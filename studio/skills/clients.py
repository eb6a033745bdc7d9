"""Every client the studio knows (a program that loads skills, and the bare spec), one record each.

Everything the studio does per client reads this table: `studio validate --target` offers the
records that are targets (`TARGETS`, in this order) and `studio.skills.checks.clients` judges a
skill as each does (a target with no judging record there is judged as the spec); installs put
skills in the folders of the records that install (`studio.skills.install.placement`); the
library offers the folders of the records it offers as standard roots, in this order
(`studio.skills.scan.roots`); the search for skills enters each record's dot folders even when
it skips hidden ones (`studio.skills.files.CLIENT_FOLDERS`); a record's toggle file is where
`studio.skills.toggles` turns a skill off for it; and the packages made for a client are
validated as it judges (`studio.skills.install.pack`). Adding a client is adding a record here (with
the source of its facts), plus its rules or its toggle file's reader when it has them;
tests/skills/test_client_registry.py checks that each record reaches every consumer it names.

This module imports nothing of the studio, so a command that needs only the keys (`studio
validate`, which may print a kept report without loading the rules) loads it alone.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ClientRecord:
    """One client.

    Attributes:
        key: its name on the command line (`--target`, `--client`) and in lock files.
        title: how messages and menus name it.
        source: where the facts below come from, and when they were read.
        target: whether `studio validate --target KEY` judges for it.
        project: its skills folder in a project, relative to the project ("" for none).
        user: its skills folder for the user, relative to the home ("" for none).
        installs: whether `studio install --client KEY` places skills in its folders.
        offered: whether the library offers its folders as standard roots.
        walks: the dot folders the search for skills enters even when it skips hidden ones.
        toggles: the file, relative to the project or the home, where it turns skills off ("").
        packs: the packages `studio pack` makes for it (`plugin`, `marketplace`, `codex-plugin`,
            ...), each skill in them validated as this client judges it (as the spec while it is
            no target).
    """

    key: str
    title: str
    source: str
    target: bool = False
    project: str = ""
    user: str = ""
    installs: bool = False
    offered: bool = False
    walks: tuple[str, ...] = ()
    toggles: str = ""
    packs: tuple[str, ...] = ()


SPEC = "spec"
_SKILLS_CLI = "vercel-labs/skills src/agents.ts (the skills CLI's agents list)"

# The order is the precedence: of the targets in `studio validate --target`'s list, and of the
# standard roots in the library (the spec's shared `.agents/skills` first).
RECORDS: tuple[ClientRecord, ...] = (
    ClientRecord(SPEC, "the Agent Skills spec",
                 "https://agentskills.io/specification; the skills CLI's canonical folder",
                 target=True, project=".agents/skills", user=".agents/skills", offered=True,
                 walks=(".agents",), packs=("open-plugin",)),
    ClientRecord("claude-code", "Claude Code",
                 f"https://code.claude.com/docs/en/skills; {_SKILLS_CLI}; skillOverrides: "
                 "anthropics/claude-code issue 56494 (read 2026-11-26)",
                 target=True, project=".claude/skills", user=".claude/skills", installs=True,
                 offered=True, walks=(".claude",), toggles=".claude/settings.json",
                 packs=("plugin", "marketplace")),
    ClientRecord("eino", "Eino", "Eino's skill middleware documentation", target=True),
    ClientRecord("ollama", "Ollama",
                 "https://github.com/ollama/ollama/blob/main/agent/skills.go (commit 0593581)",
                 target=True, project=".ollama/skills", user=".ollama/skills", installs=True,
                 walks=(".ollama",)),
    ClientRecord("codex", "Codex", f"https://developers.openai.com/codex/skills; {_SKILLS_CLI}",
                 target=True, project=".agents/skills", user=".codex/skills", installs=True,
                 offered=True, walks=(".codex",), toggles=".codex/config.toml",
                 packs=("codex-plugin",)),
    ClientRecord("claude-api", "claude.ai and the Claude API",
                 "https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview",
                 target=True),
    ClientRecord("amp", "Amp", _SKILLS_CLI, project=".agents/skills",
                 user=".config/agents/skills", installs=True),
    ClientRecord("cursor", "Cursor", _SKILLS_CLI, project=".cursor/skills", user=".cursor/skills",
                 installs=True, walks=(".cursor",)),
    ClientRecord("gemini-cli", "Gemini CLI", _SKILLS_CLI, project=".agents/skills",
                 user=".gemini/skills", installs=True, walks=(".gemini",),
                 packs=("gemini-extension",)),
    ClientRecord("github-copilot", "GitHub Copilot", _SKILLS_CLI, project=".agents/skills",
                 user=".copilot/skills", installs=True, walks=(".github", ".copilot")),
    ClientRecord("goose", "Goose", _SKILLS_CLI, project=".goose/skills",
                 user=".config/goose/skills", installs=True, walks=(".goose",),
                 packs=("goose-plugin",)),
    ClientRecord("kiro-cli", "Kiro CLI", _SKILLS_CLI, project=".kiro/skills", user=".kiro/skills",
                 installs=True, walks=(".kiro",)),
    ClientRecord("opencode", "OpenCode", _SKILLS_CLI, project=".agents/skills",
                 user=".config/opencode/skills", installs=True, walks=(".opencode",)),
    ClientRecord("windsurf", "Windsurf", "issue 21's survey of the clients' skill folders",
                 walks=(".windsurf",)),
)
BY_KEY: dict[str, ClientRecord] = {record.key: record for record in RECORDS}
if len(BY_KEY) != len(RECORDS):
    raise ImportError("studio.skills.clients: two records share a key")

TARGETS = tuple(record.key for record in RECORDS if record.target)
"""The clients a skill can be written for, by the key `--target` takes, the bare spec first."""
