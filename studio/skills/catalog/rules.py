"""What each client loads beyond its folders: one record per client, each rule with its source.

What turns a skill off, what it refuses, how deep it looks, whether a BOM hides a file, where it
cuts a description and how much of the listing fits its budget. The folders it reads and which
of two skills with one name it keeps are the client registry's (`studio.skills.clients`:
`ClientRecord.reads`, `same_name`, `precedence`), which Standard Locations and installs read
too; a `ClientRules` reaches them through `record`. `studio catalog` and the Clients view apply
both (studio.skills.catalog.effective); docs/clients.md ("What each client loads") prints the
same table; a test per rule in tests/skills/catalog checks that the code does what the record
says.

Where no source says how a client behaves, the record says so (`None`, a source starting with
"unknown") and the catalog reports the skill as `unknown` rather than guessing. Sources were read
on 2026-12-07 unless a date is given:

- Claude Code: https://code.claude.com/docs/en/skills (locations; personal over project) and its
  CHANGELOG.md (anthropics/claude-code @5cfc0a19): 2.1.6 and 2.1.178 nested `.claude/skills`,
  named `<dir>:<name>` on a clash; 2.1.69 nested discovery skips gitignored folders; 2.1.105 the
  1,536-character cut; 2.1.32 a budget of 2% of the context window; 2.1.129 `skillOverrides`;
  2.1.239 a BOM no longer hides a skill. The 1% default of `skillListingBudgetFraction` and
  `skillListingMaxDescChars` (2.1.129) are undocumented: read from the binary by
  claudefa.st/blog/guide/mechanics/skill-listing-budget, as skill-tax-cli and
  claude-skills-doctor (PyPI) also apply them. `.agents/skills` is not read: the docs' list, and
  open-mercato/open-mercato PR 4164 (Claude Code 2.1.209).
- Codex: openai/codex codex-rs/core-skills/src/loader.rs (@033d1d07: roots, depth 6, 2,000
  folders per root, hidden names skipped, name 64 and description 1,024 characters, the first
  line must be `---`), render.rs (@deae88d3: 2% of the context window, 8,000 characters without
  one, the listing's order), config_rules.rs (@e2928ca1: `[[skills.config]]` from the user's
  config only).
- Gemini CLI: google-gemini/gemini-cli @5411f113 docs/cli/skills.md (tiers and aliases),
  packages/core/src/skills/skillLoader.ts (`SKILL.md` or `*/SKILL.md`, the frontmatter must open
  the file), skillManager.ts (later tiers override; workspace skills only in a trusted folder),
  packages/cli/src/config/settingsSchema.ts (`skills.disabled`, `skills.enabled`).
- Ollama: ollama/ollama @fb307609 agent/skills.go.
- OpenCode: https://opencode.ai/docs/skills (folders, name and description rules) and
  https://opencode.ai/docs/permissions (`permission.skill`).
- GitHub Copilot: https://code.visualstudio.com/docs/agents/reference/agent-skills-reference and
  https://docs.github.com/en/copilot/concepts/agents/about-agent-skills.
- Cursor: https://cursor.com/docs/context/skills.
- goose: aaif-goose/goose (block/goose @0b282cf5) documentation/docs/guides/context-engineering/
  using-skills.md, and crates/goose/src/skills/mod.rs @2533f355 (any depth, hidden folders
  read, a missing description loaded as empty).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from studio.skills.clients import BY_KEY, ClientRecord, SameName, SkillFolder, client_key

UNKNOWN = "unknown: no documentation, changelog, source or issue read says"


@dataclass(frozen=True, slots=True)
class Budget:
    """How much of the skill listing fits: `fraction` of the context window, counted in
    `unit`, or `fallback_chars` without a window; `pin_env` names a variable that sets the
    characters outright; `drops` what goes past it (`description`: names stay, `entry`: the
    whole line)."""

    fraction: float
    unit: Literal["characters", "tokens"]
    fallback_chars: int
    drops: Literal["description", "entry"]
    line: str
    source: str
    setting: str = ""
    pin_env: str = ""


@dataclass(frozen=True, slots=True)
class ClientRules:
    """One client's loading rules; `sources` gives, for each rule by its attribute's name,
    where it comes from ("unknown: ..." where nothing says). Its folders and its precedence are
    its registry record's (`record`).

    Attributes:
        max_depth: how many folders below a skills folder its SKILL.md may be (1:
            `FOLDER/NAME/SKILL.md`; None: any); `depth_known` False when that is a guess.
        reads_root: whether a SKILL.md right in the skills folder counts.
        reads_bom: whether a SKILL.md starting with a byte-order mark loads.
        description_max: longer descriptions make the skill invalid; `description_cut`:
            longer ones are cut in the listing.
        max_folders: the folders it walks per skills folder at most.
        disable: the key of its reader in studio.skills.catalog.switches ("" for none).
        name_pattern: a pattern the name must match ("" for none).
    """

    key: str
    title: str
    max_depth: int | None
    depth_known: bool
    skips_hidden: bool | None
    reads_bom: bool | None
    name_must_match_folder: bool | None
    description_required: bool | None
    body_required: bool
    name_max: int | None
    description_max: int | None
    description_cut: int | None
    max_folders: int | None
    disable: str
    budget: Budget | None
    reads_root: bool = False
    name_pattern: str = ""
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def record(self) -> ClientRecord:
        """Its record in the client registry (its key, or the registry's for an alias)."""
        return BY_KEY[client_key(self.key)]

    @property
    def folders(self) -> tuple[SkillFolder, ...]:
        """The skills folders it reads, the one that wins a clash of names first."""
        return self.record.skill_folders

    @property
    def precedence(self) -> SameName:
        return self.record.same_name

    @property
    def nested(self) -> bool:
        """Whether it also reads a folder of its own below the project (Claude Code's)."""
        return any(folder.nested for folder in self.folders)


_CC_DOCS = "https://code.claude.com/docs/en/skills"
_CC_LOG = "anthropics/claude-code CHANGELOG.md"
_CODEX_LOADER = "openai/codex codex-rs/core-skills/src/loader.rs"
_GEMINI = "google-gemini/gemini-cli packages/core/src/skills"
_OLLAMA = "ollama/ollama agent/skills.go"
_OPENCODE = "https://opencode.ai/docs/skills"
_CURSOR = "https://cursor.com/docs/context/skills"
_GOOSE_SRC = "aaif-goose/goose crates/goose/src/skills/mod.rs (commit 2533f35)"
_NAME_RULE = "^[a-z0-9]+(-[a-z0-9]+)*$"

RULES: tuple[ClientRules, ...] = (
    ClientRules(
        "claude-code", "Claude Code",
        max_depth=1, depth_known=True, skips_hidden=None, reads_bom=True,
        name_must_match_folder=False, description_required=False, body_required=False,
        name_max=None, description_max=None, description_cut=1536, max_folders=None,
        disable="claude-code",
        budget=Budget(0.01, "characters", 8000, "description", "- {name}: {description}",
                      "undocumented default of skillListingBudgetFraction (2.1.129), read from "
                      "the binary by claudefa.st; 2.1.32's changelog gave 2%",
                      setting="skillListingBudgetFraction",
                      pin_env="SLASH_COMMAND_TOOL_CHAR_BUDGET"),
        sources={
            "max_depth": f"{_CC_DOCS}: .claude/skills/<name>/SKILL.md",
            "skips_hidden": UNKNOWN,
            "reads_bom": f"{_CC_LOG} 2.1.239 (before it, a BOM hid the skill)",
            "name_must_match_folder": f"{_CC_LOG} 2.1.149 (a name that differs from the "
                                      "folder's)",
            "description_required": f"{_CC_LOG} 2.1.69",
            "description_cut": f"{_CC_LOG} 2.1.105 (description and when_to_use together)",
            "disable": "skillOverrides in .claude/settings.local.json, .claude/settings.json, "
                       f"~/.claude/settings.json: {_CC_LOG} 2.1.129; issue 56494",
            "budget": f"{_CC_LOG} 2.1.32, 2.1.129, 2.1.178; claudefa.st (1% default)",
        }),
    ClientRules(
        "codex", "Codex",
        max_depth=6, depth_known=True, skips_hidden=True, reads_bom=False,
        name_must_match_folder=False, description_required=True, body_required=False,
        name_max=64, description_max=1024, description_cut=None, max_folders=2000,
        disable="codex", reads_root=True,
        budget=Budget(0.02, "tokens", 8000, "entry", "- {name}: {description} (file: {path})",
                      "openai/codex codex-rs/core-skills/src/render.rs"),
        sources={
            "max_depth": f"{_CODEX_LOADER}: MAX_SCAN_DEPTH = 6",
            "skips_hidden": f"{_CODEX_LOADER}: names starting with '.' are skipped",
            "reads_bom": f"{_CODEX_LOADER}: extract_frontmatter needs the first line to be ---",
            "name_must_match_folder": f"{_CODEX_LOADER}: the folder's name only without one",
            "description_required": f"{_CODEX_LOADER}: validate_len refuses an empty one",
            "description_max": f"{_CODEX_LOADER}: MAX_DESCRIPTION_LEN = 1024 (refused above)",
            "max_folders": f"{_CODEX_LOADER}: MAX_SKILLS_DIRS_PER_ROOT = 2000",
            "disable": "[[skills.config]] in $CODEX_HOME/config.toml: openai/codex "
                       "codex-rs/core-skills/src/config_rules.rs (user layer only; issue 20210)",
            "budget": "openai/codex codex-rs/core-skills/src/render.rs",
        }),
    ClientRules(
        "gemini-cli", "Gemini CLI",
        max_depth=1, depth_known=True, skips_hidden=True, reads_bom=False,
        name_must_match_folder=False, description_required=True, body_required=False,
        name_max=None, description_max=None, description_cut=None, max_folders=None,
        disable="gemini-cli", budget=None, reads_root=True,
        sources={
            "max_depth": f"{_GEMINI}/skillLoader.ts: SKILL.md or */SKILL.md",
            "skips_hidden": f"{_GEMINI}/skillLoader.ts: glob without dot",
            "reads_bom": f"{_GEMINI}/skillLoader.ts: FRONTMATTER_REGEX anchors --- at the start",
            "description_required": f"{_GEMINI}/skillLoader.ts: name and description strings",
            "disable": "skills.disabled (and skills.enabled) in ~/.gemini/settings.json and "
                       ".gemini/settings.json: packages/cli/src/config/settingsSchema.ts",
            "budget": UNKNOWN, "description_cut": UNKNOWN,
        }),
    ClientRules(
        "ollama", "Ollama",
        max_depth=1, depth_known=True, skips_hidden=None, reads_bom=False,
        name_must_match_folder=True, description_required=True, body_required=True,
        name_max=None, description_max=None, description_cut=None, max_folders=None,
        disable="", budget=None, name_pattern=_NAME_RULE,
        sources={
            "max_depth": f"{_OLLAMA}: DiscoverSkills reads <root>/<name>/SKILL.md",
            "reads_bom": f"{_OLLAMA}: parseSkillContent needs ---\\n after TrimSpace",
            "name_must_match_folder": f"{_OLLAMA}: {_NAME_RULE}, equal to the folder",
            "description_required": f"{_OLLAMA}: parseSkillContent",
            "body_required": f"{_OLLAMA}: parseSkillContent (instructions are empty)",
            "disable": f"{_OLLAMA}: no setting turns a skill off",
            "budget": UNKNOWN, "description_cut": UNKNOWN,
        }),
    ClientRules(
        "copilot", "GitHub Copilot",
        max_depth=1, depth_known=False, skips_hidden=None,
        reads_bom=None, name_must_match_folder=None, description_required=None,
        body_required=False, name_max=None, description_max=None, description_cut=None,
        max_folders=None, disable="", budget=None,
        sources={"max_depth": UNKNOWN,
                 "reads_bom": UNKNOWN, "disable": UNKNOWN, "budget": UNKNOWN}),
    ClientRules(
        "cursor", "Cursor",
        max_depth=1, depth_known=False, skips_hidden=None,
        reads_bom=None, name_must_match_folder=True, description_required=True,
        body_required=False, name_max=None, description_max=None, description_cut=None,
        max_folders=None, disable="", budget=None,
        sources={"name_must_match_folder": f"{_CURSOR}: name matches the parent folder",
                 "description_required": f"{_CURSOR}: required fields",
                 "max_depth": UNKNOWN, "reads_bom": UNKNOWN,
                 "disable": UNKNOWN, "budget": UNKNOWN}),
    ClientRules(
        "goose", "goose",
        max_depth=None, depth_known=True, skips_hidden=False,
        reads_bom=None, name_must_match_folder=None, description_required=False,
        body_required=False, name_max=None, description_max=None, description_cut=None,
        max_folders=None, disable="", budget=None, reads_root=True, name_pattern="[^/]+",
        sources={"name_pattern": f"{_GOOSE_SRC}: parse_skill_content skips a skill without "
                                 "a name or with '/' in it",
                 "description_required": f"{_GOOSE_SRC}: SkillFrontmatter's description "
                                         "defaults to empty (the docs call it required)",
                 "max_depth": f"{_GOOSE_SRC}: scan_skills_from_dir takes every SKILL.md below "
                              "the folder",
                 "skips_hidden": f"{_GOOSE_SRC}: should_skip_dir skips only .git, .hg, .svn",
                 "reads_bom": UNKNOWN, "disable": UNKNOWN, "budget": UNKNOWN}),
    ClientRules(
        "opencode", "OpenCode",
        max_depth=None, depth_known=True, skips_hidden=None,
        reads_bom=None, name_must_match_folder=True, description_required=True,
        body_required=False, name_max=64, description_max=1024, description_cut=None,
        max_folders=None, disable="opencode", budget=None, name_pattern=_NAME_RULE,
        sources={"max_depth": "anomalyco/opencode PR 26617: skills/**/SKILL.md",
                 "name_must_match_folder": f"{_OPENCODE}: {_NAME_RULE}, 1-64, the folder's name",
                 "description_max": f"{_OPENCODE}: 1-1024 characters",
                 "disable": "permission.skill deny in opencode.json: "
                            "https://opencode.ai/docs/permissions",
                 "reads_bom": UNKNOWN, "budget": UNKNOWN}),
)
BY_CLIENT: dict[str, ClientRules] = {rules.key: rules for rules in RULES}
# The registry's older name for Copilot (studio.skills.clients) reaches the same rules.
ALIASES = {"github-copilot": "copilot"}


def rules_for(client: str) -> ClientRules | None:
    """The rules of `client` (a key or an alias), or None for a client without any."""
    return BY_CLIENT.get(ALIASES.get(client, client))


__all__ = ["ALIASES", "BY_CLIENT", "RULES", "UNKNOWN", "Budget", "ClientRules",
           "rules_for"]
