"""Every client the studio knows (a program that loads skills, and the bare spec), one record each.

Everything the studio does per client reads this table: `studio validate --target` offers the
records that are targets (`TARGETS`, in this order) and `studio.skills.checks.clients` judges a
skill as each does (a target with no judging record there is judged as the spec); installs put
skills in the folders of the records that install (`studio.skills.install.placement`); the
library offers every project and user folder the offered records read (`skill_folders`) as
standard roots, in this order (`studio.skills.scan.roots`); the search for skills enters each
record's dot folders even when it skips hidden ones (`studio.skills.files.CLIENT_FOLDERS`); a
record's toggle file is where `studio.skills.toggles` turns a skill off for it; and the
packages made for a client are validated as it judges (`studio.skills.install.pack`).
`--target` and `--client` take a record's aliases too (`client_key`). Adding a client is adding
a record here (with the source of its facts), plus its rules or its toggle file's reader when it
has them;
tests/skills/test_client_registry.py checks that each record reaches every consumer it names.

This module imports nothing of the studio, so a command that needs only the keys (`studio
validate`, which may print a kept report without loading the rules) loads it alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Scope = Literal["project", "user", "system"]


@dataclass(frozen=True, slots=True)
class SkillFolder:
    """One folder a client loads skills from.

    Attributes:
        scope: `project` (relative to the project's root), `user` (relative to the home) or
            `system` (an absolute path).
        path: the folder, as `scope` says.
        note: what a user should know about it ("" for nothing): an alias, a condition.
    """

    scope: Scope
    path: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class ClientRecord:
    """One client.

    Attributes:
        key: its name on the command line (`--target`, `--client`) and in lock files.
        title: how messages and menus name it.
        source: where the facts below come from, and when they were read.
        target: whether `studio validate --target KEY` judges for it.
        project: the folder installs place its skills in, in a project ("" for none).
        user: the folder installs place its skills in, under the home ("" for none).
        installs: whether `studio install --client KEY` places skills in its folders.
        offered: whether the library offers the folders it reads as standard roots.
        walks: the dot folders the search for skills enters even when it skips hidden ones.
        toggles: the file, relative to the project or the home, where it turns skills off ("").
        user_toggles: the user's toggle file, relative to the home, where it is not `toggles`.
        packs: the packages `studio pack` makes for it (`plugin`, `marketplace`, `codex-plugin`,
            ...), each skill in them validated as this client judges it (as the spec while it is
            no target).
        aliases: other names `--target` and `--client` accept for it (never another record's
            key); lock files and messages use `key`.
        reads: every folder it loads skills from, highest precedence first where `precedence`
            is known (where two hold a skill of one name, the earlier one's is loaded), else in
            the order its source lists them; empty when no source lists more than `project`
            and `user` (see `skill_folders`).
        precedence: how it chooses between skills of one name, as its source says ("" when no
            source says).
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
    user_toggles: str = ""
    packs: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    reads: tuple[SkillFolder, ...] = ()
    precedence: str = ""

    @property
    def skill_folders(self) -> tuple[SkillFolder, ...]:
        """The folders it loads skills from: `reads`, or else its `project` and `user` ones."""
        if self.reads:
            return self.reads
        derived = (_project(self.project), _user(self.user))
        return tuple(folder for folder in derived if folder.path)


def _project(path: str, note: str = "") -> SkillFolder:
    return SkillFolder("project", path, note)


def _user(path: str, note: str = "") -> SkillFolder:
    return SkillFolder("user", path, note)


SPEC = "spec"
_SKILLS_CLI = "vercel-labs/skills src/agents.ts (the skills CLI's agents list)"
_GEMINI = ("https://geminicli.com/docs/cli/skills; google-gemini/gemini-cli (commit 5411f11) "
           "packages/core/src/skills/skillLoader.ts, skillManager.ts, "
           "packages/cli/src/utils/skillSettings.ts (read 2026-12-07)")
_COPILOT = ("https://code.visualstudio.com/docs/agents/reference/agent-skills-reference; "
            "microsoft/vscode src/vs/workbench/contrib/chat/common/promptSyntax: "
            "config/promptFileLocations.ts, languageProviders/promptFileAttributes.ts, "
            "promptValidator.ts; https://docs.github.com/en/copilot/how-tos/copilot-cli/"
            f"customize-copilot/create-skills (read 2026-12-07); {_SKILLS_CLI}")
_CURSOR = ("https://cursor.com/docs/context/skills (read 2026-12-07; its frontmatter table "
           f"through syllago.dev/using-syllago/providers/cursor/skills); {_SKILLS_CLI}")
_GOOSE = ("aaif-goose/goose (was block/goose) crates/goose/src/skills/mod.rs (commit 2533f35) "
          "and documentation/docs/guides/context-engineering/using-skills.md (read 2026-12-07)")
_OPENCODE = ("https://opencode.ai/docs/skills (anomalyco/opencode, was sst/opencode: "
             "packages/web/src/content/docs/skills.mdx) and packages/opencode/src/skill/index.ts "
             "(read 2026-12-07)")

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
    ClientRecord("gemini-cli", "Gemini CLI", _GEMINI, target=True,
                 project=".agents/skills", user=".gemini/skills", installs=True, offered=True,
                 walks=(".gemini",), toggles=".gemini/settings.json",
                 packs=("gemini-extension",),
                 reads=(_project(".agents/skills", "alias of .gemini/skills; wins over it"),
                        _project(".gemini/skills"),
                        _user(".agents/skills", "alias of ~/.gemini/skills; wins over it"),
                        _user(".gemini/skills")),
                 precedence="a workspace skill over a user skill over an extension's over a "
                 "built-in one; in one tier `.agents/skills` over `.gemini/skills`; workspace "
                 "skills load only in a trusted folder"),
    ClientRecord("github-copilot", "GitHub Copilot", _COPILOT, target=True,
                 project=".agents/skills", user=".copilot/skills", installs=True, offered=True,
                 walks=(".github", ".copilot"), aliases=("copilot",),
                 reads=(_project(".github/skills"), _project(".agents/skills"),
                        _project(".claude/skills"), _user(".copilot/skills"),
                        _user(".agents/skills"), _user(".claude/skills"))),
    ClientRecord("cursor", "Cursor", _CURSOR, target=True, project=".cursor/skills",
                 user=".cursor/skills", installs=True, offered=True, walks=(".cursor",),
                 reads=(_project(".cursor/skills"),
                        _project(".agents/skills", "not on Cursor's page: the skills CLI's"),
                        _project(".claude/skills"), _project(".codex/skills"),
                        _user(".cursor/skills"),
                        _user(".agents/skills", "not on Cursor's page: the skills CLI's"),
                        _user(".claude/skills"), _user(".codex/skills"))),
    ClientRecord("goose", "goose", _GOOSE, target=True, project=".agents/skills",
                 user=".agents/skills", installs=True, offered=True, walks=(".goose",),
                 packs=("goose-plugin",),
                 reads=(_project(".agents/skills"), _project(".goose/skills", "kept for old "
                        "setups"), _project(".claude/skills"), _user(".agents/skills"),
                        _user(".config/goose/skills"), _user(".claude/skills"),
                        _user(".config/agents/skills")),
                 precedence="the first skill of a name found wins, in this order: the "
                 "project's folders, then the user's, then the built-in skills"),
    ClientRecord("kiro-cli", "Kiro CLI", _SKILLS_CLI, project=".kiro/skills", user=".kiro/skills",
                 installs=True, walks=(".kiro",)),
    ClientRecord("opencode", "OpenCode", _OPENCODE, target=True, project=".agents/skills",
                 user=".config/opencode/skills", installs=True, offered=True,
                 walks=(".opencode",), toggles="opencode.json",
                 user_toggles=".config/opencode/opencode.json",
                 reads=(_project(".opencode/skills", "and .opencode/skill"),
                        _project(".agents/skills"), _project(".claude/skills"),
                        _user(".config/opencode/skills"), _user(".agents/skills"),
                        _user(".claude/skills")),
                 precedence="the last loaded of a name wins: the user's folders, then the "
                 "project's (walking up from the working folder to the git worktree), then "
                 "`skills.paths`, then `skills.urls` in opencode.json"),
    ClientRecord("windsurf", "Windsurf", "issue 21's survey of the clients' skill folders",
                 walks=(".windsurf",)),
)
BY_KEY: dict[str, ClientRecord] = {record.key: record for record in RECORDS}
if len(BY_KEY) != len(RECORDS):
    raise ImportError("studio.skills.clients: two records share a key")
_KEY_OF = {alias: record.key for record in RECORDS for alias in record.aliases}
if set(_KEY_OF) & set(BY_KEY) or len(_KEY_OF) != sum(len(r.aliases) for r in RECORDS):
    raise ImportError("studio.skills.clients: an alias is a key or another record's alias")


def client_key(name: str) -> str:
    """The key of the client `name` names, by its key or an alias; any other name unchanged (so
    that `argparse` names it in its "invalid choice" message)."""
    return _KEY_OF.get(name, name)


TARGETS = tuple(record.key for record in RECORDS if record.target)
"""The clients a skill can be written for, by the key `--target` takes, the bare spec first."""
