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

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Scope = Literal["project", "user", "system"]
# Which of two skills with one name a client keeps: the one in the folder `reads` lists first,
# every one of them (Codex lists both), or no source says.
SameName = Literal["first", "all", "unknown"]


@dataclass(frozen=True, slots=True)
class SkillFolder:
    """One folder a client loads skills from.

    Attributes:
        scope: `project` (relative to the project's root), `user` (relative to the home) or
            `system` (an absolute path).
        path: the folder, as `scope` says, where none of `env` is set.
        note: what a user should know about it ("" for nothing): an alias, a condition.
        source: where the client is seen reading it ("" for the record's `source`).
        env: the environment variables that move it, in the order the client asks them:
            `(VARIABLE, BELOW)` makes it `$VARIABLE/BELOW` when VARIABLE is set and not blank
            (the first one set wins); `path` is the default when none is.
        nested: whether the client also reads `DIR/PATH` in the project's folders below its
            root (Claude Code's nested `.claude/skills`).
    """

    scope: Scope
    path: str
    note: str = ""
    source: str = ""
    env: tuple[tuple[str, str], ...] = ()
    nested: bool = False

    def resolve(self, project: Path | None, home: Path, env: Mapping[str, str],
                system: Path = Path("/")) -> Path | None:
        """The folder on disk for `project` (None: no project) and the home `home`, with the
        variables of `env` as the client reads them; a `system` folder under `system` (a
        test's stand-in for `/`). None for a project folder without a project."""
        for variable, below in self.env:
            value = env.get(variable, "").strip()
            if value:
                return Path(value) / below if below else Path(value)
        if self.scope == "system":
            return system / self.path.lstrip("/")
        if self.scope == "project":
            return project / self.path if project is not None else None
        return home / self.path

    @property
    def shown(self) -> str:
        """How docs and menus write it: `~/.codex/skills`, with the variables that move it
        (`$CODEX_HOME/skills`, else `~/.codex/skills`)."""
        plain = f"~/{self.path}" if self.scope == "user" else self.path
        if not self.env:
            return plain
        moved = [f"${variable}/{below}" if below else f"${variable}" for variable, below in self.env]
        return f"{', else '.join(moved)}, else {plain}"


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
        reads: every folder it loads skills from, each with its source, highest precedence
            first where `same_name` is `first` (where two hold a skill of one name, the
            earlier one's is loaded), else in the order its source lists them; empty when no
            source lists more than `project` and `user` (see `skill_folders`). The effective
            catalog (studio.skills.catalog), Standard Locations and installs all read these.
        same_name: which of two skills with one name it keeps (`SameName`).
        precedence: how it chooses between skills of one name, in words ("" when no source
            says); `precedence_source`: where that comes from.
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
    same_name: SameName = "unknown"
    precedence: str = ""
    precedence_source: str = ""

    @property
    def skill_folders(self) -> tuple[SkillFolder, ...]:
        """The folders it loads skills from: `reads`, or else its `project` and `user` ones."""
        if self.reads:
            return self.reads
        derived = (_project(self.project), _user(self.user))
        return tuple(folder for folder in derived if folder.path)

    def install_folder(self, user: bool) -> SkillFolder | None:
        """The folder installs place its skills in (the user's or the project's), as one of
        the folders it reads, so that it moves with the same variables; None if it installs
        nowhere there."""
        scope: Scope = "user" if user else "project"
        path = self.user if user else self.project
        if not path:
            return None
        for folder in self.skill_folders:
            if folder.scope == scope and folder.path == path:
                return folder
        return SkillFolder(scope, path)


def _project(path: str, note: str = "", source: str = "", *, nested: bool = False) -> SkillFolder:
    return SkillFolder("project", path, note, source, nested=nested)


def _user(path: str, note: str = "", source: str = "",
          env: tuple[tuple[str, str], ...] = ()) -> SkillFolder:
    return SkillFolder("user", path, note, source, env)


SPEC = "spec"
_SKILLS_CLI = "vercel-labs/skills src/agents.ts (the skills CLI's agents list)"
_CC = "https://code.claude.com/docs/en/skills"
_CC_LOG = "anthropics/claude-code CHANGELOG.md"
_CODEX = "openai/codex codex-rs/core-skills/src/loader.rs (commit 033d1d0, read 2026-12-07)"
_OLLAMA = "ollama/ollama agent/skills.go (commit fb30760, read 2026-12-07)"
_GEMINI = ("https://geminicli.com/docs/cli/skills; google-gemini/gemini-cli (commit 5411f11) "
           "packages/core/src/skills/skillLoader.ts, skillManager.ts, "
           "packages/cli/src/utils/skillSettings.ts (read 2026-12-07)")
_GEMINI_DIRS = ("google-gemini/gemini-cli (commit 5411f11) docs/cli/skills.md, "
                "packages/core/src/config/storage.ts")
_GEMINI_HOME = ("google-gemini/gemini-cli packages/core/src/utils/paths.ts: homedir() is "
                "$GEMINI_CLI_HOME where set")
_COPILOT = ("https://code.visualstudio.com/docs/agents/reference/agent-skills-reference; "
            "microsoft/vscode src/vs/workbench/contrib/chat/common/promptSyntax: "
            "config/promptFileLocations.ts, languageProviders/promptFileAttributes.ts, "
            "promptValidator.ts; https://docs.github.com/en/copilot/how-tos/copilot-cli/"
            f"customize-copilot/create-skills (read 2026-12-07); {_SKILLS_CLI}")
_VSCODE_DIRS = ("microsoft/vscode src/vs/workbench/contrib/chat/common/promptSyntax/config/"
                "promptFileLocations.ts DEFAULT_SKILL_SOURCE_FOLDERS")
_CURSOR = ("https://cursor.com/docs/context/skills (read 2026-12-07; its frontmatter table "
           f"through syllago.dev/using-syllago/providers/cursor/skills); {_SKILLS_CLI}")
_CURSOR_DIRS = "https://cursor.com/docs/context/skills, Skill directories"
_GOOSE = ("aaif-goose/goose (was block/goose) crates/goose/src/skills/mod.rs (commit 2533f35) "
          "and documentation/docs/guides/context-engineering/using-skills.md (read 2026-12-07)")
_GOOSE_DIRS = "aaif-goose/goose crates/goose/src/skills/mod.rs (commit 2533f35) all_skill_dirs"
_OPENCODE = ("https://opencode.ai/docs/skills (anomalyco/opencode, was sst/opencode: "
             "packages/web/src/content/docs/skills.mdx) and packages/opencode/src/skill/index.ts "
             "(read 2026-12-07)")
_OPENCODE_DIRS = ("https://opencode.ai/docs/skills; anomalyco/opencode "
                  "packages/opencode/src/skill/index.ts (commit 048f74f) loadSkills")

# The order is the precedence: of the targets in `studio validate --target`'s list, and of the
# standard roots in the library (the spec's shared `.agents/skills` first).
RECORDS: tuple[ClientRecord, ...] = (
    ClientRecord(SPEC, "the Agent Skills spec",
                 "https://agentskills.io/specification; the skills CLI's canonical folder",
                 target=True, project=".agents/skills", user=".agents/skills", offered=True,
                 walks=(".agents",), packs=("open-plugin",)),
    ClientRecord("claude-code", "Claude Code",
                 f"{_CC}; {_SKILLS_CLI}; skillOverrides: anthropics/claude-code issue 56494 "
                 "(read 2026-11-26)",
                 target=True, project=".claude/skills", user=".claude/skills", installs=True,
                 offered=True, walks=(".claude",), toggles=".claude/settings.json",
                 packs=("plugin", "marketplace"),
                 reads=(_user(".claude/skills", "personal skills", _CC),
                        _project(".claude/skills", "and `DIR/.claude/skills` in the project's "
                                 "folders below (as `DIR:NAME` on a clash; not in gitignored "
                                 "folders)", f"{_CC}; {_CC_LOG} 2.1.6, 2.1.178, 2.1.69",
                                 nested=True)),
                 same_name="first",
                 precedence="enterprise over personal over project; not `.agents/skills`",
                 precedence_source=f"{_CC}; open-mercato/open-mercato PR 4164 (Claude Code "
                 "2.1.209 reads no `.agents/skills`)"),
    ClientRecord("eino", "Eino", "Eino's skill middleware documentation", target=True),
    ClientRecord("ollama", "Ollama",
                 "https://github.com/ollama/ollama/blob/main/agent/skills.go (commit fb30760)",
                 target=True, project=".ollama/skills", user=".ollama/skills", installs=True,
                 walks=(".ollama",),
                 reads=(_project(".ollama/skills", "", f"{_OLLAMA} defaultSkillRoots"),
                        _project(".agents/skills", "", f"{_OLLAMA} defaultSkillRoots"),
                        _user(".ollama/skills", "", f"{_OLLAMA} SkillsDir",
                              env=(("OLLAMA_SKILLS", ""), ("XDG_CONFIG_HOME", "ollama/skills"))),
                        _user(".agents/skills", "", f"{_OLLAMA} defaultSkillRoots")),
                 same_name="first",
                 precedence="the project's over the user's; in each, Ollama's own folder over "
                 "`.agents/skills`",
                 precedence_source=f"{_OLLAMA} LoadDefaultSkills"),
    ClientRecord("codex", "Codex", f"https://developers.openai.com/codex/skills; {_SKILLS_CLI}",
                 target=True, project=".agents/skills", user=".codex/skills", installs=True,
                 offered=True, walks=(".codex",), toggles=".codex/config.toml",
                 packs=("codex-plugin",),
                 reads=(_project(".codex/skills", "the project config layer's", _CODEX),
                        _project(".agents/skills", "in every folder from the project's root "
                                 "(found by its root markers) down to the working folder",
                                 _CODEX),
                        _user(".codex/skills", "deprecated, still read", _CODEX,
                              env=(("CODEX_HOME", "skills"),)),
                        _user(".agents/skills", "the current user folder", _CODEX),
                        SkillFolder("system", "/etc/codex/skills", "admin skills", _CODEX)),
                 same_name="all",
                 precedence="none: skills are told apart by path only, so two of one name are "
                 "both listed (the project's, then the user's, the system's, the admin's)",
                 precedence_source=f"{_CODEX} load_skills_from_roots"),
    ClientRecord("claude-api", "claude.ai and the Claude API",
                 "https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview",
                 target=True),
    ClientRecord("amp", "Amp", _SKILLS_CLI, project=".agents/skills",
                 user=".config/agents/skills", installs=True),
    ClientRecord("gemini-cli", "Gemini CLI", _GEMINI, target=True,
                 project=".agents/skills", user=".gemini/skills", installs=True, offered=True,
                 walks=(".gemini",), toggles=".gemini/settings.json",
                 packs=("gemini-extension",),
                 reads=(_project(".agents/skills", "alias of .gemini/skills; wins over it; "
                                 "only in a trusted folder", _GEMINI_DIRS),
                        _project(".gemini/skills", "only in a trusted folder", _GEMINI_DIRS),
                        _user(".agents/skills", "alias of ~/.gemini/skills; wins over it",
                              f"{_GEMINI_DIRS}; {_GEMINI_HOME}",
                              env=(("GEMINI_CLI_HOME", ".agents/skills"),)),
                        _user(".gemini/skills", "", f"{_GEMINI_DIRS}; {_GEMINI_HOME}",
                              env=(("GEMINI_CLI_HOME", ".gemini/skills"),))),
                 same_name="first",
                 precedence="a workspace skill over a user skill over an extension's over a "
                 "built-in one; in one tier `.agents/skills` over `.gemini/skills`; workspace "
                 "skills load only in a trusted folder",
                 precedence_source="google-gemini/gemini-cli docs/cli/skills.md (Precedence "
                 "and aliases), packages/core/src/skills/skillManager.ts"),
    ClientRecord("github-copilot", "GitHub Copilot", _COPILOT, target=True,
                 project=".agents/skills", user=".copilot/skills", installs=True, offered=True,
                 walks=(".github", ".copilot"), aliases=("copilot",),
                 reads=(_project(".github/skills", "", _VSCODE_DIRS),
                        _project(".agents/skills", "", _VSCODE_DIRS),
                        _project(".claude/skills", "", _VSCODE_DIRS),
                        _user(".copilot/skills", "", _VSCODE_DIRS),
                        _user(".agents/skills", "", _VSCODE_DIRS),
                        _user(".claude/skills", "VS Code; the Copilot CLI stopped reading "
                              "~/.claude in 1.0.36", f"{_VSCODE_DIRS}; github/copilot-cli "
                              "changelog 1.0.36")),
                 precedence="not documented (VS Code lists the folders in this order)",
                 precedence_source="unknown: neither VS Code's reference nor GitHub's page "
                 "says which of two skills of one name is used"),
    ClientRecord("cursor", "Cursor", _CURSOR, target=True, project=".cursor/skills",
                 user=".cursor/skills", installs=True, offered=True, walks=(".cursor",),
                 reads=(_project(".agents/skills", "", _CURSOR_DIRS),
                        _project(".cursor/skills", "", _CURSOR_DIRS),
                        _project(".claude/skills", "for compatibility", _CURSOR_DIRS),
                        _project(".codex/skills", "for compatibility", _CURSOR_DIRS),
                        _user(".cursor/skills", "", _CURSOR_DIRS),
                        _user(".claude/skills", "for compatibility", _CURSOR_DIRS),
                        _user(".codex/skills", "for compatibility", _CURSOR_DIRS)),
                 precedence="not documented",
                 precedence_source="unknown: Cursor's page gives no order"),
    ClientRecord("goose", "goose", _GOOSE, target=True, project=".agents/skills",
                 user=".agents/skills", installs=True, offered=True, walks=(".goose",),
                 packs=("goose-plugin",),
                 reads=(_project(".agents/skills", "recommended", _GOOSE_DIRS),
                        _project(".goose/skills", "kept for old setups", _GOOSE_DIRS),
                        _project(".claude/skills", "", _GOOSE_DIRS),
                        _user(".agents/skills", "recommended", _GOOSE_DIRS),
                        _user(".config/goose/skills", "goose's config folder on Linux, kept "
                              "for old setups", _GOOSE_DIRS),
                        _user(".claude/skills", "", _GOOSE_DIRS),
                        _user(".config/agents/skills", "", _GOOSE_DIRS)),
                 same_name="first",
                 precedence="the first skill of a name found wins, in this order: the "
                 "project's folders, then the user's, then the built-in skills",
                 precedence_source="aaif-goose/goose crates/goose/src/skills/mod.rs (commit "
                 "2533f35) discover_skills keeps the first of each name"),
    ClientRecord("kiro-cli", "Kiro CLI", _SKILLS_CLI, project=".kiro/skills", user=".kiro/skills",
                 installs=True, walks=(".kiro",)),
    ClientRecord("opencode", "OpenCode", _OPENCODE, target=True, project=".agents/skills",
                 user=".config/opencode/skills", installs=True, offered=True,
                 walks=(".opencode",), toggles="opencode.json",
                 user_toggles=".config/opencode/opencode.json",
                 reads=(_project(".opencode/skills", "and .opencode/skill", _OPENCODE_DIRS),
                        _project(".agents/skills", "in every folder from the working folder "
                                 "up to the git worktree", _OPENCODE_DIRS),
                        _project(".claude/skills", "in every folder from the working folder "
                                 "up to the git worktree", _OPENCODE_DIRS),
                        _user(".config/opencode/skills", "and .config/opencode/skill",
                              _OPENCODE_DIRS),
                        _user(".agents/skills", "", _OPENCODE_DIRS),
                        _user(".claude/skills", "", _OPENCODE_DIRS)),
                 precedence="the last loaded of a name wins: `~/.claude/skills`, "
                 "`~/.agents/skills`, the project's `.claude` and `.agents` folders, OpenCode's "
                 "config folders, then `skills.paths`, then `skills.urls` in opencode.json; the "
                 "files of one folder load at once, in no fixed order",
                 precedence_source="unknown: anomalyco/opencode packages/opencode/src/skill/"
                 "index.ts keeps the last loaded and logs a duplicate, but reads one folder's "
                 "files concurrently, and no page gives the order of its config folders"),
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
