"""The clients a skill can be written for, and the frontmatter fields each one reads.

`studio validate --target T` judges a skill the way client T treats it: a field T reads is
checked for its type and values (SK133, an error), a field T does not read is a warning (SK132)
where the bare spec (`spec`, the default) makes it an error (SK131); a client that refuses a
skill outright (claude.ai and the API on an unknown field, Ollama on a non-ASCII name or an
empty body) makes that an error.

Where each rule comes from (all read 2026-11-26; where a page could only be read through a
mirror, the mirror is named):

- The spec: https://agentskills.io/specification (name: `a-z`, `0-9` and hyphens;
  `allowed-tools`: a space-separated string). skill-creator's quick_validate.py accepts ASCII
  names only.
- Claude Code: https://code.claude.com/docs/en/skills, read through its mirrors
  skillsmp.com/skills/hlibkoval-claudemd-skills-skills-doc-skill-md and
  skills.sh/bfollington/terma/skill-management: `when_to_use`, `argument-hint`, `arguments`
  (a space-separated string or a list), `disable-model-invocation`, `user-invocable`,
  `allowed-tools` (space- or comma-separated, or a list), `model`, `effort` (low, medium,
  high, xhigh, max), `context`, `agent`, `hooks`, `paths`, `shell`; the description and
  `when_to_use` together are cut at 1,536 characters in the skill listing; `$ARGUMENTS`,
  `$ARGUMENTS[N]`, `$N` and `${CLAUDE_SKILL_DIR}` in the body. `disallowed-tools`,
  `background`, `display-name`, `default-enabled`, `fallback` and yes/no/on/off booleans are
  taken from issue 21's survey of Claude Code; no page readable here gives their types, so the
  types below are the plain reading of each name (a tool list, flags, text) and `fallback` is
  not checked at all. `skillOverrides` (studio/skills/toggles.py) is undocumented on the
  settings page: its values come from anthropics/claude-code issue 56494.
- claude.ai and the Claude API (`claude-api`): the six spec fields only;
  https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview ("Skill
  structure", read through git-online.yishihui.com/howard/Agent/src/tanjingyu/dev/docs/ref/
  skills.md): a name without XML tags or the reserved words "anthropic" and "claude", a
  description without XML tags.
- Ollama: https://github.com/ollama/ollama/blob/main/agent/skills.go (commit 0593581):
  roots `~/.agents/skills`, `$OLLAMA_SKILLS` (else `$XDG_CONFIG_HOME/ollama/skills`, else
  `~/.ollama/skills`), a project's `.agents/skills` and `.ollama/skills`; a skill needs a name
  matching `^[a-z0-9]+(?:-[a-z0-9]+)*$` and equal to its folder, a description and a non-empty
  body; it reads `name`, `description` and `metadata`.
- Codex: https://developers.openai.com/codex/skills: the spec's fields in SKILL.md, its own in
  `agents/openai.yaml` (`interface`, `policy.allow_implicit_invocation`, `dependencies.tools`;
  studio/skills/checks/openai_yaml.py), skills turned off with `[[skills.config]]` `enabled = false`
  in `~/.codex/config.toml`.
- Eino: its skill middleware's documentation (`context: fork | fork_with_context`, `agent`,
  `model`).

Read 2026-12-07 (docs/clients.md gives each rule with its source):

- Gemini CLI: google-gemini/gemini-cli (commit 5411f11) packages/core/src/skills/skillLoader.ts:
  `parseFrontmatter` keeps `name` and `description` when both are strings and drops the skill
  otherwise; nothing else is read and neither is limited in length or form (characters
  `:\\/<>*?"|` in a name become `-`); skillManager.ts does not tie a name to its folder.
- GitHub Copilot in VS Code: microsoft/vscode promptSyntax/languageProviders/
  promptFileAttributes.ts (`skillAttributes`: name, description, argument-hint,
  user-invocable, disable-model-invocation, license and compatibility as a scalar or a map,
  metadata, `context: fork`) and promptValidator.ts (an unknown attribute is a warning, an empty
  `argument-hint` an error, a name unlike its folder a warning). `allowed-tools` is not among
  them; whether the Copilot CLI reads it, no page readable here says.
- Cursor: https://cursor.com/docs/context/skills, its frontmatter table read through
  syllago.dev/using-syllago/providers/cursor/skills: the spec's fields but `allowed-tools`, and
  `disable-model-invocation`.
- goose: aaif-goose/goose crates/goose/src/skills/mod.rs (commit 2533f35): `SkillFrontmatter`
  holds `name` (required, non-empty, without `/`) and `description` (empty when missing).
- OpenCode: https://opencode.ai/docs/skills: `name`, `description`, `license`, `compatibility`,
  `metadata` are recognized, unknown fields ignored; names 1-64 characters matching
  `^[a-z0-9]+(-[a-z0-9]+)*$` and their folder; descriptions 1-1024 characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import studio.skills.codes as codes
from studio.skills.checks.openai_yaml import openai_yaml_rule
from studio.skills.checks.rules import (
    FRONTMATTER_FINDINGS,
    FRONTMATTER_RULES,
    Rule,
    findings_only,
    kind_of,
    offers_fixes,
    unknown_fields_rule,
)
from studio.skills.clients import BY_KEY, SPEC, TARGETS
from studio.skills.model import Diagnostic, Fix, Severity, Skill
from studio.skills.yaml.yamledit import move_plan, replace_value, scalar


@dataclass(frozen=True, slots=True)
class FieldKind:
    """What one field's value must be: one of `types` (YAML's: str, bool, dict, list) and, when
    `choices` is set, one of those strings."""

    types: tuple[type, ...]
    choices: tuple[str, ...] = ()
    # Whether a string must hold more than spaces (VS Code refuses an empty `argument-hint`).
    nonempty: bool = False

    def problem(self, value: object) -> str | None:
        if not self.types:
            return None
        if not isinstance(value, self.types) or (
            isinstance(value, bool) and bool not in self.types
        ):
            wanted = " or ".join(_TYPE_WORDS[t] for t in self.types)
            return f"must be {wanted}, but it is {kind_of(value)}"
        if self.choices and isinstance(value, str) and value not in self.choices:
            return "must be one of " + ", ".join(f"`{c}`" for c in self.choices) + f", not `{value}`"
        if self.nonempty and isinstance(value, str) and not value.strip():
            return "must not be empty"
        return None


_TYPE_WORDS = {str: "a string", bool: "true or false", dict: "a mapping", list: "a list"}

TEXT = FieldKind((str,))
FLAG = FieldKind((bool,))
MAPPING = FieldKind((dict,))
TEXT_OR_LIST = FieldKind((str, list))
NONEMPTY_TEXT = FieldKind((str,), nonempty=True)
# Claude Code reads yes/no/on/off as booleans too (YAML 1.2, as the studio reads it, does not).
CLAUDE_FLAG = FieldKind((bool, str), ("true", "false", "yes", "no", "on", "off"))
UNCHECKED = FieldKind(())
CLAUDE_LISTING_CAP = 1536

# The spec's own fields keep the spec's rules (SK1xx); a client reads those of them its
# `spec_fields` names (all, unless its source says otherwise).
_SPEC_FIELDS = frozenset({"name", "description", "license", "compatibility", "metadata",
                          "allowed-tools"})
# The one spec field whose absence changes what a client does (it pre-approves tools); a client
# that ignores `license`, `compatibility` or `metadata` loses nothing a user relies on, so only
# this one is reported where a client does not read it.
_ACTING_SPEC_FIELDS = frozenset({"allowed-tools"})
_NAME_FORM = frozenset({codes.NAME_TOO_LONG, codes.NAME_UPPERCASE, codes.NAME_BAD_CHARACTERS,
                        codes.NAME_EDGE_HYPHEN, codes.NAME_DOUBLE_HYPHEN, codes.NAME_NOT_FOLDER})
_COMPATIBILITY = frozenset({codes.COMPATIBILITY_NOT_A_STRING, codes.COMPATIBILITY_TOO_LONG,
                            codes.COMPATIBILITY_EMPTY})


@dataclass(frozen=True, slots=True)
class Client:
    """A target: its name on the command line, how messages name it, and the fields beyond the
    spec's that it reads."""

    key: str
    title: str
    fields: dict[str, FieldKind]
    # Codes this client makes errors of (it refuses the skill), and codes that do not apply.
    refuses: frozenset[str] = frozenset()
    ignores: frozenset[str] = frozenset()
    # The spec's errors this client loads the skill despite: warnings that say so.
    accepts: frozenset[str] = frozenset()
    rules: tuple[Rule, ...] = ()
    # Whether a field outside the spec's six makes the client refuse the skill (SK134).
    strict: bool = False
    # The spec's fields it reads (the others it ignores).
    spec_fields: frozenset[str] = _SPEC_FIELDS

    def reads(self, key: str) -> bool:
        return key in self.spec_fields or key in self.fields


def _at(skill: Skill, code: str, severity: Severity, message: str, key: str,
        fix: Fix | None = None) -> Diagnostic:
    return _diagnostic(skill, code, severity, message, key, fix=fix)


def claude_listing_rule(skill: Skill) -> Iterator[Diagnostic]:
    """Claude Code lists `description` and `when_to_use` together, cut at 1,536 characters."""
    description = skill.fields.get("description")
    when = skill.fields.get("when_to_use")
    parts = [p for p in (description, when) if isinstance(p, str) and p.strip()]
    total = sum(len(p) for p in parts) + max(len(parts) - 1, 0)
    if total > CLAUDE_LISTING_CAP:
        what = "the description and `when_to_use` together are" if len(parts) == 2 \
            else "the description is"
        yield _at(skill, codes.DESCRIPTION_CUT_IN_LISTING, Severity.WARNING,
                  f"{what} {total:,} characters long; Claude Code lists only the first "
                  f"{CLAUDE_LISTING_CAP:,}, so the model never sees the rest: put what decides "
                  "when to use the skill first, or shorten it", "description")


_RESERVED = re.compile(r"anthropic|claude", re.IGNORECASE)
_XML_TAG = re.compile(r"<\s*/?\s*[A-Za-z][^<>]*>")


def claude_api_rule(skill: Skill) -> Iterator[Diagnostic]:
    """claude.ai and the API refuse a name with a reserved word or an XML tag, and a
    description with an XML tag."""
    name = skill.fields.get("name")
    if isinstance(name, str):
        found = _RESERVED.search(name)
        if found is not None:
            yield _at(skill, codes.NAME_RESERVED_WORD, Severity.ERROR,
                      f"claude.ai and the Claude API refuse a name holding the reserved word "
                      f"`{found.group(0).lower()}`: rename the skill", "name")
    for key in ("name", "description"):
        value = skill.fields.get(key)
        tag = _XML_TAG.search(value) if isinstance(value, str) else None
        if tag is not None:
            yield _at(skill, codes.REJECTED_BY_TARGET, Severity.ERROR,
                      f"claude.ai and the Claude API refuse a `{key}` holding an XML tag "
                      f"(`{tag.group(0)}`): remove it", key)


def ollama_body_rule(skill: Skill) -> Iterator[Diagnostic]:
    """Ollama refuses a skill whose instructions, the body after the frontmatter, are empty."""
    if not skill.body.strip():
        line = skill.body_span.line
        yield Diagnostic(codes.BODY_EMPTY, Severity.ERROR,
                         "the body is empty; Ollama refuses a skill without instructions: "
                         "write what the agent should do", line, 1, file=skill.skill_file_name)


def goose_name_rule(skill: Skill) -> Iterator[Diagnostic]:
    """goose skips a skill whose name holds a `/` (skills/mod.rs, `parse_skill_content`)."""
    name = skill.fields.get("name")
    if isinstance(name, str) and "/" in name:
        yield _at(skill, codes.REJECTED_BY_TARGET, Severity.ERROR,
                  f"goose skips a skill whose name holds `/` (`{name}`): rename it", "name")


def _split_commas(text: str) -> list[str] | None:
    """The tools of a comma-separated `allowed-tools`, or None when no comma separates two
    (a comma inside parentheses belongs to a tool's pattern, as in `Bash(git diff,log)`)."""
    depth, parts, current, split = 0, [], "", False
    for char in text:
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            parts.append(current.strip())
            current, split = "", True
        else:
            current += char
    parts.append(current.strip())
    return [p for p in parts if p] if split else None


@offers_fixes
def spaced_tools_rule(skill: Skill, *, fixes: bool = True) -> Iterator[Diagnostic]:
    """The spec's `allowed-tools` is one space-separated string; commas are Claude Code's."""
    value = skill.fields.get("allowed-tools")
    if not isinstance(value, str):
        return
    tools = _split_commas(value)
    if tools is None:
        return
    joined = " ".join(tools)
    edit = None if skill.read_only or not fixes \
        else replace_value(skill, "allowed-tools", scalar(joined))
    yield _at(skill, codes.ALLOWED_TOOLS_COMMAS, Severity.WARNING,
              "`allowed-tools` separates tools with commas, as only Claude Code reads it; the "
              f"spec separates them with spaces: `{joined}`", "allowed-tools",
              fix=Fix("Separate the tools with spaces", (edit,)) if edit is not None else None)


def _judging(key: str, fields: dict[str, FieldKind], **how: Any) -> Client:
    """The target `key`'s judging record, titled as the registry names it."""
    return Client(key, BY_KEY[key].title, fields, **how)


# The targets that judge differently from the spec, by key (the registry gives their order).
_JUDGED = {
    client.key: client
    for client in (
        _judging("claude-code", {
            "when_to_use": TEXT,
            "argument-hint": TEXT,
            "arguments": TEXT_OR_LIST,
            "disable-model-invocation": CLAUDE_FLAG,
            "user-invocable": CLAUDE_FLAG,
            "allowed-tools": TEXT_OR_LIST,
            "disallowed-tools": TEXT_OR_LIST,
            "model": TEXT,
            "effort": FieldKind((str,), ("low", "medium", "high", "xhigh", "max")),
            "context": FieldKind((str,), ("fork",)),
            "agent": TEXT,
            "hooks": MAPPING,
            "paths": TEXT_OR_LIST,
            "shell": FieldKind((str,), ("bash", "powershell")),
            "background": CLAUDE_FLAG,
            "display-name": TEXT,
            "default-enabled": CLAUDE_FLAG,
            "fallback": UNCHECKED,
        }, ignores=frozenset({codes.ALLOWED_TOOLS_LIST}), rules=(claude_listing_rule,)),
        _judging("eino", {
            "context": FieldKind((str,), ("fork", "fork_with_context")),
            "agent": TEXT,
            "model": TEXT,
        }),
        # Ollama's agent skills read the name, the description and the metadata; Codex reads the
        # spec's fields (its extras live in agents/openai.yaml, not in the frontmatter).
        _judging("ollama", {}, refuses=frozenset({codes.NAME_NOT_ASCII}),
               rules=(ollama_body_rule, spaced_tools_rule)),
        _judging("codex", {}, rules=(openai_yaml_rule, spaced_tools_rule)),
        _judging("claude-api", {}, strict=True,
               refuses=frozenset({codes.DESCRIPTION_ANGLE_BRACKETS}),
               rules=(claude_api_rule, spaced_tools_rule)),
        # Gemini CLI parses `name` and `description` only, as strings, and puts no limit on
        # either; it never reads `compatibility`.
        _judging("gemini-cli", {}, spec_fields=frozenset({"name", "description"}),
                 accepts=_NAME_FORM | {codes.DESCRIPTION_TOO_LONG}, ignores=_COMPATIBILITY),
        # VS Code's skill attributes; `license` and `compatibility` may be mappings there, and
        # a name unlike its folder is only a warning in its validator.
        _judging("github-copilot", {
            "argument-hint": NONEMPTY_TEXT,
            "user-invocable": FLAG,
            "disable-model-invocation": FLAG,
            "context": FieldKind((str,), ("fork",)),
        }, spec_fields=_SPEC_FIELDS - {"allowed-tools"},
            accepts=frozenset({codes.NAME_NOT_FOLDER}),
            ignores=frozenset({codes.LICENSE_NOT_A_STRING, codes.COMPATIBILITY_NOT_A_STRING})),
        _judging("cursor", {"disable-model-invocation": FLAG},
                 spec_fields=_SPEC_FIELDS - {"allowed-tools"}),
        # goose reads a required `name` and a `description` that may be missing.
        _judging("goose", {}, spec_fields=frozenset({"name", "description"}),
                 accepts=_NAME_FORM | {codes.DESCRIPTION_MISSING, codes.DESCRIPTION_TOO_LONG},
                 ignores=_COMPATIBILITY, rules=(goose_name_rule,)),
        _judging("opencode", {}, spec_fields=_SPEC_FIELDS - {"allowed-tools"}),
    )
}
if not set(_JUDGED) <= set(TARGETS):
    raise ImportError(f"the rules judge for {sorted(set(_JUDGED) - set(TARGETS))}, which "
                      "studio.skills.clients does not name as targets")
# In the order `studio.skills.clients` gives them; a target without rules of its own here is
# judged as the bare spec.
CLIENTS: dict[str, Client] = {key: _JUDGED.get(key) or _judging(key, {}) for key in TARGETS}

# The context modes the chat can run: every mode any client documents.
FORK_MODES = frozenset({"fork", "fork_with_context"})


def _diagnostic(
    skill: Skill, code: str, severity: Severity, message: str, key: str, *,
    fix: Fix | None = None, at_value: bool = True,
) -> Diagnostic:
    spans = skill.field_spans(key)
    span = (spans.value if at_value else spans.key) if spans is not None else None
    return Diagnostic(
        code, severity, message, span.line if span else 1, span.column if span else 1, fix,
        span.end_line if span else None, span.end_column if span else None,
        skill.skill_file_name, key,
    )


def client_fields_rule(client: Client) -> Rule:
    """The rule that takes the place of SK131 for a client other than the bare spec."""

    @offers_fixes
    def rule(skill: Skill, *, fixes: bool = True) -> Iterator[Diagnostic]:
        planned = fixes and not skill.read_only
        for key, value in skill.fields.items():
            if key in _SPEC_FIELDS:
                if key in _ACTING_SPEC_FIELDS and key not in client.spec_fields:
                    yield _diagnostic(
                        skill, codes.UNKNOWN_TO_TARGET, Severity.WARNING,
                        f"{client.title} does not read `{key}`; it ignores the field (keep it "
                        "for the clients that do)", key, at_value=False,
                    )
                continue
            kind = client.fields.get(key)
            if kind is None and client.strict:
                plan = move_plan(skill, key) if planned else None
                fix = Fix(f"Move `{key}` under `metadata:`", plan=plan) if plan else None
                yield _diagnostic(
                    skill, codes.REJECTED_BY_TARGET, Severity.ERROR,
                    f"{client.title} accept only the spec's six fields and refuse `{key}`: "
                    "move it under `metadata:`", key, fix=fix, at_value=False,
                )
                continue
            if kind is None:
                plan = move_plan(skill, key) if planned else None
                fix = Fix(f"Move `{key}` under `metadata:`", plan=plan) if plan else None
                yield _diagnostic(
                    skill, codes.UNKNOWN_TO_TARGET, Severity.WARNING,
                    f"{client.title} does not read `{key}`; it ignores the field", key,
                    fix=fix, at_value=False,
                )
                continue
            problem = kind.problem(value)
            if problem is not None:
                yield _diagnostic(
                    skill, codes.INVALID_FOR_TARGET, Severity.ERROR,
                    f"for {client.title}, `{key}` {problem}", key
                )

    return rule


def _judged(rule: Rule, client: Client) -> Rule:
    """`rule` with the findings `client` refuses made errors and those it ignores dropped."""

    def judged(skill: Skill) -> Iterator[Diagnostic]:
        for found in rule(skill):
            if found.code in client.ignores:
                continue
            if found.code in client.refuses and found.severity is not Severity.ERROR:
                found = found._replace(
                    severity=Severity.ERROR,
                    message=f"{found.message} ({client.title} refuses the skill)")
            elif found.code in client.accepts and found.severity is Severity.ERROR:
                found = found._replace(
                    severity=Severity.WARNING,
                    message=f"{found.message} ({client.title} loads the skill anyway; the "
                    "spec and stricter clients do not)")
            yield found

    return judged


def _rules_for(client: Client, fixes: bool) -> tuple[Rule, ...]:
    replacement = client_fields_rule(client)
    rules = [replacement if r is unknown_fields_rule else r for r in FRONTMATTER_RULES]
    rules.extend(client.rules)
    if not fixes:
        rules = [findings_only(r) for r in rules]
    if client.refuses or client.ignores or client.accepts:
        return tuple(_judged(r, client) for r in rules)
    return tuple(rules)


_RULES = {(key, fixes): _rules_for(client, fixes)
          for key, client in CLIENTS.items() if key != SPEC for fixes in (True, False)}


def frontmatter_rules(target: str, fixes: bool = True) -> tuple[Rule, ...]:
    """The frontmatter rules for a target; the spec's own for `spec` (and nothing else runs
    per field, so the default path costs what it did). Without `fixes`, they find the same
    things and build no fix."""
    if target == SPEC:
        return FRONTMATTER_RULES if fixes else FRONTMATTER_FINDINGS
    try:
        return _RULES[target, fixes]
    except KeyError:
        raise ValueError(
            f"unknown target {target!r}: choose one of {', '.join(TARGETS)}"
        ) from None
