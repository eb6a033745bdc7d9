"""Codex's `agents/openai.yaml` beside a skill's SKILL.md: read, checked, and shown in the form.

https://developers.openai.com/codex/skills (read 2026-11-26) documents it as
```
interface: {display_name, short_description, icon_small, icon_large, brand_color,
            default_prompt}
policy: {allow_implicit_invocation: bool}      # false: only `$NAME` or /skills loads it
dependencies: {tools: [{type, value, description, transport, url}]}
```
Codex still loads the skill when the file is wrong, so findings are warnings, each at the line
and column of the value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import yaml

import studio.skills.codes as codes
from studio.skills.model import Diagnostic, Severity, Skill

OPENAI_YAML = PurePosixPath("agents/openai.yaml")
MAX_BYTES = 256_000
INTERFACE_KEYS = ("display_name", "short_description", "icon_small", "icon_large", "brand_color",
                  "default_prompt")
TOOL_KEYS = ("type", "value", "description", "transport", "url")
_COLOR = re.compile(r"#[0-9A-Fa-f]{6}")


@dataclass(slots=True)
class Finding:
    message: str
    line: int
    column: int
    unknown: bool = False


@dataclass(slots=True)
class OpenAIYaml:
    """What a skill's agents/openai.yaml says, as far as it could be read, and what is wrong."""

    interface: dict[str, str] = field(default_factory=dict)
    allow_implicit_invocation: bool | None = None
    tools: list[dict[str, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _mapping(node: yaml.Node, where: str, result: OpenAIYaml) -> dict[str, tuple[yaml.Node,
                                                                                   yaml.Node]]:
    if not isinstance(node, yaml.MappingNode):
        result.findings.append(Finding(f"{where} must be a mapping", *_mark(node)))
        return {}
    return {str(key.value): (key, value) for key, value in node.value
            if isinstance(key, yaml.ScalarNode)}


def _text(node: yaml.Node, where: str, result: OpenAIYaml) -> str | None:
    if isinstance(node, yaml.ScalarNode) and node.tag.endswith(":str"):
        return str(node.value)
    result.findings.append(Finding(f"`{where}` must be a string", *_mark(node)))
    return None


def parse_openai_yaml(text: str, directory: Path | None = None) -> OpenAIYaml:
    """The file's content and findings; `directory` (the skill's) lets icon paths be checked."""
    result = OpenAIYaml()
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        result.findings.append(Finding(f"is not valid YAML: {exc.problem}", line, column))
        return result
    except yaml.YAMLError as exc:
        result.findings.append(Finding(f"is not valid YAML: {exc}", 1, 1))
        return result
    if root is None:
        return result
    top = _mapping(root, "the file", result)
    for key, (key_node, value) in top.items():
        if key == "interface":
            _interface(value, result, directory)
        elif key == "policy":
            _policy(value, result)
        elif key == "dependencies":
            _dependencies(value, result)
        else:
            result.findings.append(Finding(
                f"Codex does not read `{key}`; it reads `interface`, `policy` and "
                "`dependencies`", *_mark(key_node), unknown=True))
    return result


def _interface(node: yaml.Node, result: OpenAIYaml, directory: Path | None) -> None:
    for key, (key_node, value) in _mapping(node, "`interface`", result).items():
        if key not in INTERFACE_KEYS:
            result.findings.append(Finding(
                f"Codex does not read `interface.{key}`; it reads " + ", ".join(INTERFACE_KEYS),
                *_mark(key_node), unknown=True))
            continue
        text = _text(value, f"interface.{key}", result)
        if text is None:
            continue
        result.interface[key] = text
        if key == "brand_color" and not _COLOR.fullmatch(text):
            result.findings.append(Finding(
                f"`interface.brand_color` must be a colour like `#3B82F6`, not `{text}`",
                *_mark(value)))
        if key.startswith("icon_") and directory is not None:
            icon = PurePosixPath(text.replace("\\", "/"))
            if icon.is_absolute() or ".." in icon.parts or not (directory / icon).is_file():
                result.findings.append(Finding(
                    f"`interface.{key}` names `{text}`, which is not a file in the skill's folder",
                    *_mark(value)))


def _policy(node: yaml.Node, result: OpenAIYaml) -> None:
    for key, (key_node, value) in _mapping(node, "`policy`", result).items():
        if key != "allow_implicit_invocation":
            result.findings.append(Finding(
                f"Codex does not read `policy.{key}`; it reads `allow_implicit_invocation`",
                *_mark(key_node), unknown=True))
            continue
        if isinstance(value, yaml.ScalarNode) and value.tag.endswith(":bool"):
            result.allow_implicit_invocation = value.value.lower() in ("true", "yes", "on")
        else:
            result.findings.append(Finding(
                "`policy.allow_implicit_invocation` must be true or false", *_mark(value)))


def _dependencies(node: yaml.Node, result: OpenAIYaml) -> None:
    for key, (key_node, value) in _mapping(node, "`dependencies`", result).items():
        if key != "tools":
            result.findings.append(Finding(
                f"Codex does not read `dependencies.{key}`; it reads `tools`", *_mark(key_node),
                unknown=True))
            continue
        if not isinstance(value, yaml.SequenceNode):
            result.findings.append(Finding("`dependencies.tools` must be a list", *_mark(value)))
            continue
        for index, item in enumerate(value.value):
            where = f"dependencies.tools[{index}]"
            tool: dict[str, str] = {}
            entries = _mapping(item, f"`{where}`", result)
            for tool_key, (tool_key_node, tool_value) in entries.items():
                if tool_key not in TOOL_KEYS:
                    result.findings.append(Finding(
                        f"Codex does not read `{where}.{tool_key}`", *_mark(tool_key_node),
                        unknown=True))
                    continue
                text = _text(tool_value, f"{where}.{tool_key}", result)
                if text is not None:
                    tool[tool_key] = text
            if entries and ("type" not in entries or "value" not in entries):
                result.findings.append(Finding(
                    f"`{where}` needs a `type` (such as `mcp`) and a `value`", *_mark(item)))
            if tool:
                result.tools.append(tool)


def read_openai_yaml(directory: Path) -> OpenAIYaml | None:
    """The skill's agents/openai.yaml, or None when it has none."""
    path = directory / OPENAI_YAML
    if not path.is_file():
        return None
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        return OpenAIYaml(findings=[Finding(f"cannot be read: {exc.strerror or exc}", 1, 1)])
    if len(data) > MAX_BYTES:
        return OpenAIYaml(findings=[Finding(f"is larger than {MAX_BYTES // 1000} KB", 1, 1)])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return OpenAIYaml(findings=[Finding(f"is not UTF-8 text (byte {exc.start})", 1, 1)])
    return parse_openai_yaml(text, directory)


def openai_yaml_rule(skill: Skill) -> Iterator[Diagnostic]:
    """The Codex target's findings in agents/openai.yaml."""
    if skill.read_only:
        return
    found = read_openai_yaml(skill.directory)
    if found is None:
        return
    for finding in found.findings:
        code = codes.OPENAI_YAML_UNKNOWN if finding.unknown else codes.OPENAI_YAML_INVALID
        yield Diagnostic(code, Severity.WARNING, f"{OPENAI_YAML}: {finding.message}",
                         finding.line, finding.column, file=str(OPENAI_YAML))


def describe(found: OpenAIYaml) -> list[tuple[str, str]]:
    """The file's settings as (label, value) rows, for the frontmatter form."""
    rows = [(f"interface.{key}", found.interface[key]) for key in INTERFACE_KEYS
            if key in found.interface]
    if found.allow_implicit_invocation is not None:
        rows.append(("policy.allow_implicit_invocation",
                     "true" if found.allow_implicit_invocation else
                     "false (only `$NAME` or /skills loads it)"))
    for index, tool in enumerate(found.tools):
        rows.append((f"dependencies.tools[{index}]",
                     " ".join(f"{k}={v}" for k, v in tool.items())))
    return rows


__all__ = ["OPENAI_YAML", "OpenAIYaml", "describe", "openai_yaml_rule", "parse_openai_yaml",
           "read_openai_yaml"]

