"""The clients a skill can be written for, and the frontmatter fields each one reads.

`studio validate --target T` judges a skill the way client T treats it: a field T reads is
checked for its type and values (SK133, an error), a field T does not read is a warning (SK132)
where the bare spec (`spec`, the default) makes it an error (SK131). The tables follow each
client's own documentation: Claude Code's skills reference, Eino's skill middleware, Ollama's
agent skills and Codex's skills page.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from studio.skills import codes
from studio.skills.model import Diagnostic, Fix, Severity, Skill
from studio.skills.rules import FRONTMATTER_RULES, Rule, kind_of, unknown_fields_rule
from studio.skills.yamledit import move_plan

SPEC = "spec"


@dataclass(frozen=True, slots=True)
class FieldKind:
    """What one field's value must be: one of `types` (YAML's: str, bool, dict, list) and, when
    `choices` is set, one of those strings."""

    types: tuple[type, ...]
    choices: tuple[str, ...] = ()

    def problem(self, value: object) -> str | None:
        if not isinstance(value, self.types) or (
            isinstance(value, bool) and bool not in self.types
        ):
            wanted = " or ".join(_TYPE_WORDS[t] for t in self.types)
            return f"must be {wanted}, but it is {kind_of(value)}"
        if self.choices and value not in self.choices:
            return "must be one of " + ", ".join(f"`{c}`" for c in self.choices) + f", not `{value}`"
        return None


_TYPE_WORDS = {str: "a string", bool: "true or false", dict: "a mapping", list: "a list"}

TEXT = FieldKind((str,))
FLAG = FieldKind((bool,))
MAPPING = FieldKind((dict,))
TEXT_OR_LIST = FieldKind((str, list))

# The spec's own fields keep the spec's rules (SK1xx); every client reads them.
_SPEC_FIELDS = frozenset({"name", "description", "license", "compatibility", "metadata",
                          "allowed-tools"})


@dataclass(frozen=True, slots=True)
class Client:
    """A target: its name on the command line, how messages name it, and the fields beyond the
    spec's that it reads."""

    key: str
    title: str
    fields: dict[str, FieldKind]

    def reads(self, key: str) -> bool:
        return key in _SPEC_FIELDS or key in self.fields


CLIENTS: dict[str, Client] = {
    client.key: client
    for client in (
        Client("spec", "the Agent Skills spec", {}),
        Client("claude-code", "Claude Code", {
            "when_to_use": TEXT,
            "argument-hint": TEXT,
            "disable-model-invocation": FLAG,
            "user-invocable": FLAG,
            "allowed-tools": TEXT_OR_LIST,
            "model": TEXT,
            "effort": FieldKind((str,), ("low", "medium", "high", "max")),
            "context": FieldKind((str,), ("fork",)),
            "agent": TEXT,
            "hooks": MAPPING,
            "paths": TEXT_OR_LIST,
            "shell": FieldKind((str,), ("bash", "powershell")),
        }),
        Client("eino", "Eino", {
            "context": FieldKind((str,), ("fork", "fork_with_context")),
            "agent": TEXT,
            "model": TEXT,
        }),
        # Ollama's agent skills read the name and the description; Codex reads the spec's fields
        # (its extras live in agents/openai.yaml, not in the frontmatter).
        Client("ollama", "Ollama", {}),
        Client("codex", "Codex", {}),
    )
}
TARGETS = tuple(CLIENTS)

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

    def rule(skill: Skill) -> Iterator[Diagnostic]:
        for key, value in skill.fields.items():
            if key in _SPEC_FIELDS:
                continue
            kind = client.fields.get(key)
            if kind is None:
                plan = None if skill.read_only else move_plan(skill, key)
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


def _rules_for(client: Client) -> tuple[Rule, ...]:
    replacement = client_fields_rule(client)
    return tuple(replacement if r is unknown_fields_rule else r for r in FRONTMATTER_RULES)


_RULES = {key: _rules_for(client) for key, client in CLIENTS.items() if key != SPEC}


def frontmatter_rules(target: str) -> tuple[Rule, ...]:
    """The frontmatter rules for a target; the spec's own for `spec` (and nothing else runs
    per field, so the default path costs what it did)."""
    if target == SPEC:
        return FRONTMATTER_RULES
    try:
        return _RULES[target]
    except KeyError:
        raise ValueError(
            f"unknown target {target!r}: choose one of {', '.join(TARGETS)}"
        ) from None
