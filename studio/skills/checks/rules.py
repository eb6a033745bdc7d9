"""The validation rules, one function each. Errors are the Agent Skills spec as skills-ref applies it;
warnings go beyond it and never make a skill invalid.

Codes: SK0xx reading and parsing, SK1xx the spec's fields, SK2xx advice on body, files and style,
SK3xx the library as a whole.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, TypeVar

import studio.skills.checks.names as names
import studio.skills.codes as codes
from studio.skills.model import LOWERCASE_SKILL_FILE as LOWER_FILE
from studio.skills.model import Diagnostic, Fix, Severity, Skill, Span, TextEdit
from studio.skills.yaml.yamledit import move_planner, newline_of, replace_value, scalar

# A rule gives its findings as any iterable: most are generators, while those that nearly
# always find nothing return a list, since a generator costs its creation and its end on every
# skill of a library scan (about 0.3 us each, a few us a skill in all).
Rule = Callable[[Skill], Iterable[Diagnostic]]

# The rules that build fixes, each taking `fixes=False` to find the same things without them
# (see `findings_only`).
_OFFERING_FIXES: set[Callable[..., Iterable[Diagnostic]]] = set()

_Offering = TypeVar("_Offering", bound=Callable[..., Iterable[Diagnostic]])


def offers_fixes(rule: _Offering) -> _Offering:
    """Marks a rule that takes `fixes`: False skips building its fixes, and nothing else."""
    _OFFERING_FIXES.add(rule)
    return rule


def findings_only(rule: Rule) -> Rule:
    """`rule` without its fixes. A library scan keeps no fixes (its cache tuples drop them), and
    deciding each one costs more than the finding: planning a move under `metadata:` for the
    field outside the spec that most skills have."""
    if rule not in _OFFERING_FIXES:
        return rule
    offering: Callable[..., Iterable[Diagnostic]] = rule  # it takes `fixes` too (see above)
    return partial(offering, fixes=False)


MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500
ALLOWED_FIELDS = frozenset(
    {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}
)

# Fields other tools add to SKILL.md, and whose extension each one is.
EXTENSION_FIELDS = {
    "argument-hint": "Claude Code",
    "disable-model-invocation": "Claude Code",
    "user-invocable": "Claude Code",
    "model": "Claude Code",
    "context": "Claude Code",
    "agent": "Claude Code",
    "hooks": "Claude Code",
    "when_to_use": "Claude Code",
    "version": "several tools",
    "author": "several tools",
    "tags": "several tools",
}



def kind_of(value: Any) -> str:
    """"an int", "a list": how messages name the YAML type a value turned out to be."""
    kind = {"NoneType": "null", "dict": "mapping", "str": "string"}.get(
        type(value).__name__, type(value).__name__
    )
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _diag(
    skill: Skill, code: str, severity: Severity, message: str, key: str, *,
    fix: Fix | None = None, value: bool = True,
) -> Diagnostic:
    spans = skill.field_spans(key)
    if spans is None:
        return Diagnostic(code, severity, message, 1, 1, fix, None, None, skill.skill_file_name,
                          key)
    span: Span = spans.value if value else spans.key
    return Diagnostic(code, severity, message, span.line, span.column, fix, span.end_line,
                      span.end_column, skill.skill_file_name, key)


def _set_field_fix(skill: Skill, key: str, text: str, title: str) -> Fix | None:
    edit = replace_value(skill, key, scalar(text))
    return Fix(title, (edit,)) if edit is not None else None


@offers_fixes
def name_rule(skill: Skill, *, fixes: bool = True) -> Iterator[Diagnostic]:
    fields = skill.fields
    if "name" not in fields:
        fix = None
        fm = skill.frontmatter
        if fixes and names.is_valid_name(skill.dir_name) and fm is not None and not fm.flow:
            start = fm.span.start
            fix = Fix(
                f"Add `name: {skill.dir_name}`",
                (TextEdit(start, start, f"name: {skill.dir_name}{newline_of(skill.source)}"),),
            )
        yield _diag(skill, codes.NAME_MISSING, Severity.ERROR,
                    "the required field `name` is missing", "name", fix=fix)
        return
    raw: Any = fields["name"]
    if not isinstance(raw, str) or not raw.strip():
        what = "empty" if raw in (None, "") or isinstance(raw, str) else kind_of(raw)
        fix = None
        if fixes and names.is_valid_name(skill.dir_name):
            fix = _set_field_fix(skill, "name", skill.dir_name, f"Set the name to `{skill.dir_name}`")
        yield _diag(
            skill, codes.NAME_NOT_A_STRING, Severity.ERROR,
            f"`name` must be a non-empty string, but it is {what}", "name",
            fix=fix,
        )
        return
    if raw == skill.dir_name and names.plainly_valid(raw):
        return  # the usual case: nothing below would find anything, and it normalizes twice
    name = names.normalize_name(raw)
    problems = names.name_problems(name)
    if not problems and name == skill.dir_name and name.isascii():
        return
    suggestion = names.suggest_name(name) if problems else name
    use = f"use `{suggestion}`"
    fixed = _set_field_fix(skill, "name", suggestion, f"Rename to `{suggestion}`") \
        if problems and fixes else None
    if len(name) > names.MAX_NAME_LENGTH:
        yield _diag(
            skill, codes.NAME_TOO_LONG, Severity.ERROR,
            f"the name is {len(name)} characters long; the limit is {names.MAX_NAME_LENGTH}: {use}",
            "name", fix=fixed,
        )
    if name != name.lower():
        yield _diag(skill, codes.NAME_UPPERCASE, Severity.ERROR,
                    f"uppercase letters: {use}", "name", fix=fixed)
    bad = sorted({c for c in name if not (c.isalnum() or c == "-")})
    if bad:
        shown = " ".join(repr(c) for c in bad[:6])
        yield _diag(
            skill, codes.NAME_BAD_CHARACTERS, Severity.ERROR,
            f"only letters, digits and hyphens are allowed, not {shown}: {use}", "name", fix=fixed,
        )
    if name.startswith("-") or name.endswith("-"):
        yield _diag(skill, codes.NAME_EDGE_HYPHEN, Severity.ERROR,
                    f"a name cannot start or end with a hyphen: {use}", "name",
                    fix=fixed)
    if "--" in name:
        yield _diag(skill, codes.NAME_DOUBLE_HYPHEN, Severity.ERROR,
                    f"a name cannot hold two hyphens in a row: {use}", "name",
                    fix=fixed)
    foreign = names.non_ascii_letters(name)
    if foreign:
        ascii_form = names.ascii_name(name)
        yield _diag(
            skill, codes.NAME_NOT_ASCII, Severity.WARNING,
            "the name has letters outside ASCII (" + " ".join(repr(c) for c in foreign[:6])
            + "); the spec describes names as a-z, 0-9 and hyphens, and Ollama and "
            f"skill-creator refuse others: use `{ascii_form}`", "name",
            fix=_ascii_fix(skill, name, ascii_form) if fixes else None,
        )
    directory = unicodedata.normalize("NFKC", skill.dir_name)
    if directory != name:
        yield _diag(
            skill, codes.NAME_NOT_FOLDER, Severity.ERROR,
            f"the name `{name}` must equal its folder's name `{skill.dir_name}`",
            "name", fix=_mismatch_fix(skill, name) if fixes else None,
        )


def _ascii_fix(skill: Skill, name: str, ascii_form: str) -> Fix | None:
    """Rename to the ASCII form, and the folder with it when the folder bears the old name."""
    if skill.read_only:
        return None
    edit = replace_value(skill, "name", scalar(ascii_form))
    if edit is None:
        return None
    if unicodedata.normalize("NFKC", skill.dir_name) == name:
        return Fix(f"Rename the skill and its folder to `{ascii_form}`", (edit,),
                   rename_directory_to=ascii_form)
    return Fix(f"Rename to `{ascii_form}`", (edit,))


def _mismatch_fix(skill: Skill, name: str) -> Fix | None:
    if skill.read_only:
        return None
    if names.is_valid_name(skill.dir_name):
        return _set_field_fix(
            skill, "name", skill.dir_name, f"Set the name to the folder's, `{skill.dir_name}`"
        )
    if names.is_valid_name(name):
        return Fix(f"Rename the folder to `{name}`", rename_directory_to=name)
    return None


def description_rule(skill: Skill) -> list[Diagnostic]:
    fields = skill.fields
    if "description" not in fields:
        return [_diag(
            skill, codes.DESCRIPTION_MISSING, Severity.ERROR,
            "the required field `description` is missing: say what the skill does and when to use it",
            "description",
        )]
    value = fields["description"]
    if not isinstance(value, str) or not value.strip():
        what = "empty" if value in (None, "") or isinstance(value, str) else kind_of(value)
        return [_diag(
            skill, codes.DESCRIPTION_NOT_A_STRING, Severity.ERROR,
            f"`description` must be a non-empty string, but it is {what}",
            "description",
        )]
    if len(value) > MAX_DESCRIPTION:
        return [_diag(
            skill, codes.DESCRIPTION_TOO_LONG, Severity.ERROR,
            f"the description is {len(value)} characters long; the limit is {MAX_DESCRIPTION}",
            "description",
        )]
    return []


def compatibility_rule(skill: Skill) -> list[Diagnostic]:
    if "compatibility" not in skill.fields:
        return []
    value = skill.fields["compatibility"]
    if value is None:
        return [_diag(
            skill, codes.COMPATIBILITY_EMPTY, Severity.WARNING,
            "`compatibility` is empty: describe the environment or remove it",
            "compatibility",
        )]
    if not isinstance(value, str):
        return [_diag(
            skill, codes.COMPATIBILITY_NOT_A_STRING, Severity.ERROR,
            f"`compatibility` must be a string, but it is {kind_of(value)}", "compatibility",
        )]
    if len(value) > MAX_COMPATIBILITY:
        return [_diag(
            skill, codes.COMPATIBILITY_TOO_LONG, Severity.ERROR,
            f"`compatibility` is {len(value)} characters long; the limit is {MAX_COMPATIBILITY}",
            "compatibility",
        )]
    return []


@offers_fixes
def unknown_fields_rule(skill: Skill, *, fixes: bool = True) -> Iterator[Diagnostic]:
    planner = None
    for key in skill.fields:
        if key in ALLOWED_FIELDS:
            continue
        owner = EXTENSION_FIELDS.get(key)
        whose = f" (an extension of {owner})" if owner else ""
        fix = None
        if fixes and not skill.read_only:
            planner = planner if planner is not None else move_planner(skill)
            plan = planner(key)
            fix = Fix(f"Move `{key}` under `metadata:`", plan=plan) if plan is not None else None
        yield _diag(
            skill, codes.UNKNOWN_FIELD, Severity.ERROR,
            f"`{key}` is not a field of the Agent Skills spec{whose}; "
            "move it under `metadata:`", key, fix=fix, value=False,
        )


@offers_fixes
def other_fields_rule(skill: Skill, *, fixes: bool = True) -> Iterator[Diagnostic]:
    fields = skill.fields
    if "license" in fields and not isinstance(fields["license"], str):
        yield _diag(skill, codes.LICENSE_NOT_A_STRING, Severity.WARNING,
                    "`license` should be a string, such as `Apache-2.0`",
                    "license")
    tools = fields.get("allowed-tools")
    if isinstance(tools, list):
        joined = " ".join(str(item) for item in tools)
        yield _diag(
            skill, codes.ALLOWED_TOOLS_LIST, Severity.WARNING,
            "`allowed-tools` is a list; the spec wants one space-separated string",
            "allowed-tools",
            fix=_set_field_fix(skill, "allowed-tools", joined, "Turn the list into one string")
            if fixes else None,
        )
    elif "allowed-tools" in fields and not isinstance(tools, str):
        yield _diag(skill, codes.ALLOWED_TOOLS_NOT_A_STRING, Severity.WARNING,
                    "`allowed-tools` should be a space-separated string",
                    "allowed-tools")
    if "metadata" in fields:
        yield from _metadata_rule(skill, fields["metadata"])


def _metadata_rule(skill: Skill, metadata: Any) -> Iterator[Diagnostic]:
    if metadata is None:
        return
    if not isinstance(metadata, dict):
        yield _diag(skill, codes.METADATA_NOT_STRINGS, Severity.WARNING,
                    "`metadata` should be a mapping of names to string values", "metadata")
        return
    for key, value in metadata.items():
        if not isinstance(value, str):
            yield _diag(
                skill, codes.METADATA_NOT_STRINGS, Severity.WARNING,
                f"metadata `{key}` is {kind_of(value)}, not a string; quote it",
                "metadata",
            )


# What a description still waiting to be written looks like: a marker word in capitals
# anywhere, an instruction to the author at its start, filler text, or the template's sentence.
_PLACEHOLDER = re.compile(
    r"\b(?:TODO|TBD|FIXME|XXX)\b"
    r"|^\s*(?i:(?:todo|tbd|fixme)\s*(?:[:.!-]|$)|describe\b|description\s+(?:goes\s+)?here\b"
    r"|\.\.\.\s*$)"
    r"|(?i:lorem ipsum|replace this (?:sentence|text|description)|your description here"
    r"|description goes here|add a description)"
)


# Each placeholder holds one of these (lowercased); most descriptions hold none, and `in` is cheap.
_PLACEHOLDER_HINTS = ("todo", "tbd", "fixme", "xxx", "describe", "description", "lorem",
                      "replace this", "...")


def placeholder_in(description: str, lowered: str | None = None) -> str | None:
    """The text that makes `description` a placeholder, or None when it reads as written.
    `lowered` is the description in lower case, when the caller has it."""
    lowered = description.lower() if lowered is None else lowered
    if not any(map(lowered.__contains__, _PLACEHOLDER_HINTS)):  # a C loop
        return None
    found = _PLACEHOLDER.search(description)
    return found.group(0).strip(" \t:.!-") or found.group(0) if found is not None else None


WHEN_WORDS = ("when", "use for", "use to", "use this", "use it", "if the user", "if you",
              "whenever", "for tasks", "for requests", "asks", "needs to", "triggers")


def description_style_rule(skill: Skill) -> Iterator[Diagnostic]:
    value = skill.description
    if not value or not value.strip():
        return
    if "<" in value or ">" in value:
        yield _diag(
            skill, codes.DESCRIPTION_ANGLE_BRACKETS, Severity.WARNING,
            "the description holds `<` or `>`; agents put descriptions into XML-like prompts",
            "description",
        )
    lowered = value.lower()
    placeholder = placeholder_in(value, lowered)
    if placeholder is not None:
        yield _diag(
            skill, codes.PLACEHOLDER_DESCRIPTION, Severity.WARNING,
            f"the description is still a placeholder (`{placeholder}`); agents choose skills by "
            "it: say what the skill does and when to use it",
            "description",
        )
    if not any(map(lowered.__contains__, WHEN_WORDS)):  # a C loop
        yield _diag(
            skill, codes.DESCRIPTION_NO_WHEN, Severity.WARNING,
            "the description never says when to use the skill; add e.g. \"Use when ...\"",
            "description",
        )


def skill_file_name_rule(skill: Skill) -> list[Diagnostic]:
    if skill.path.name == LOWER_FILE:
        return [Diagnostic(
            codes.LOWERCASE_FILE_NAME, Severity.WARNING,
            "the file is named `skill.md`; the spec names it `SKILL.md`",
            file=skill.path.name,
        )]
    return []


FRONTMATTER_RULES: tuple[Rule, ...] = (
    skill_file_name_rule,
    unknown_fields_rule,
    name_rule,
    description_rule,
    compatibility_rule,
    other_fields_rule,
    description_style_rule,
)
FRONTMATTER_FINDINGS = tuple(findings_only(rule) for rule in FRONTMATTER_RULES)
