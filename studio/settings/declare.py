"""How a setting is declared: once, as a field of the settings' dataclasses, whose name, type and
default are the field's own and whose help text, checks and place in the Settings dialog ride in
the field's metadata (qutebrowser's `configdata.yml`, as Python). Reading the file, writing it,
the dialog and docs/settings.md all walk the same declarations (`declared`)."""

from __future__ import annotations

import dataclasses
import logging
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

log = logging.getLogger(__name__)

Widget = Literal["check", "spin", "choice", "line", "file", "folder", "folders", "lines", "font",
                 "roots"]
"""How the dialog edits a setting: a check box, a number box, a list of choices, a line of
text, a file or a folder (a line and Browse…), a list of folders, lines of text (one item a
line), a fixed-width font, or the skill roots (the dialog's own box)."""


@dataclass(frozen=True, slots=True)
class Setting:
    """What the field does not say of a setting.

    Attributes:
        help: what it does, for the dialog's tooltip and docs/settings.md.
        label: its name in the dialog (a check box's text).
        page, group: where the dialog shows it; no page: the studio keeps it itself (the
            window's layout), or another dialog shows it.
        widget: how the dialog edits it; None: as its type says (bool: check, int: spin,
            str: line, a Literal: choice).
        low, high: the whole numbers it accepts; step, suffix and special (the text shown for
            `low`) shape the number box.
        choices: a Literal's values as the dialog names them.
        enabled_when: (another setting's key, its values) for which the dialog lets it be edited.
        expected: how a problem names what it should be ("a list of paths").
        parse: the setting's value from the file's, or None when it is not one (for a choice
            that also takes other spellings, or a list whose items must be of a shape).
        read: reads a mapping: (the file's value, the reader, the key) -> the value.
        write: the file's value from the setting's, when it is not the value as it is.
    """

    help: str
    label: str = ""
    page: str = ""
    group: str = ""
    widget: Widget | None = None
    low: int = 0
    high: int = 0
    step: int = 1
    suffix: str = ""
    special: str = ""
    choices: Mapping[str, str] = field(default_factory=dict)
    placeholder: str = ""
    file_filter: str = ""
    enabled_when: tuple[str, tuple[str, ...]] | None = None
    expected: str = ""
    parse: Callable[[object], object | None] | None = None
    read: Callable[[object, Reader, str], Any] | None = None
    write: Callable[[Any], Any] | None = None


def setting(default: Any = dataclasses.MISSING, *, factory: Callable[[], Any] | None = None,
            **declared: Any) -> Any:
    """A dataclass field declaring a setting (`Setting`'s keywords), its default `default` or
    made by `factory`."""
    metadata = {"setting": Setting(**declared)}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True, slots=True)
class Declared:
    """One declared setting, found in the dataclasses.

    Attributes:
        key: its name in the file, dotted below a section ("backend.connect_timeout").
        kind: "bool", "int", "text", "list", "choice" or "mapping", from the field's type.
        values: a choice's values, in the type's order.
    """

    key: str
    name: str
    kind: str
    default: Any
    spec: Setting
    values: tuple[str, ...] = ()

    @property
    def section(self) -> str:
        return self.key.rpartition(".")[0]

    @property
    def widget(self) -> Widget:
        if self.spec.widget is not None:
            return self.spec.widget
        widgets: dict[str, Widget] = {"bool": "check", "int": "spin", "text": "line",
                                      "choice": "choice", "list": "lines"}
        return widgets[self.kind]


def declared(cls: type[Any], prefix: str = "") -> list[Declared]:
    """The settings `cls` declares, sections' in their place, in the fields' order."""
    hints = typing.get_type_hints(cls)
    found: list[Declared] = []
    for item in dataclasses.fields(cls):
        hint = hints[item.name]
        if dataclasses.is_dataclass(hint):
            found.extend(declared(_as_type(hint), f"{prefix}{item.name}."))
            continue
        spec = item.metadata.get("setting")
        if spec is None:
            continue
        default = item.default_factory() if item.default_factory is not dataclasses.MISSING \
            else item.default
        kind, values = _kind(hint)
        found.append(Declared(prefix + item.name, item.name, kind, default, spec, values))
    return found


def sections(cls: type[Any]) -> dict[str, type[Any]]:
    """The sections of `cls` (a field that is itself a dataclass of settings), by name."""
    hints = typing.get_type_hints(cls)
    return {item.name: _as_type(hints[item.name]) for item in dataclasses.fields(cls)
            if dataclasses.is_dataclass(hints[item.name])}


def _as_type(hint: Any) -> type[Any]:
    """A type hint that names a dataclass, as the type it is."""
    return typing.cast(type[Any], hint)


def _kind(hint: Any) -> tuple[str, tuple[str, ...]]:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "choice", tuple(str(value) for value in typing.get_args(hint))
    if origin is list:
        return "list", ()
    if origin is dict:
        return "mapping", ()
    names = {bool: "bool", int: "int", str: "text"}
    return names[hint], ()


def type_name(value: Any) -> str:
    return {"str": "text", "int": "a number", "bool": "true/false", "list": "a list",
            "dict": "a mapping", "NoneType": "empty"}.get(type(value).__name__, type(value).__name__)


class Reader:
    """Reads checked values out of the YAML data, collecting a message for every bad one."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self.problems: list[str] = []

    def bad(self, key: str, expected: str, value: Any) -> None:
        self.problems.append(
            f"{self.where}: `{key}` should be {expected}, but it is {type_name(value)}; "
            "the default is used instead"
        )

    def value(self, setting: Declared, data: Mapping[str, Any]) -> Any:
        """The setting's value in `data` (its section's), or its default, with a problem when the
        value is not one it takes."""
        default = setting.default
        if setting.name not in data:
            return default
        value = data[setting.name]
        spec, key = setting.spec, setting.key
        if spec.read is not None:
            return spec.read(value, self, key)
        if setting.kind == "bool":
            if isinstance(value, bool):
                return value
            self.bad(key, "true or false", value)
        elif setting.kind == "int":
            if isinstance(value, int) and not isinstance(value, bool) and spec.low <= value <= spec.high:
                return value
            self.bad(key, f"a whole number from {spec.low} to {spec.high}", value)
        elif setting.kind == "text":
            if value is None:
                return default
            if isinstance(value, str):
                return value
            self.bad(key, "text", value)
        elif setting.kind == "list":
            if value is None:
                return []
            parsed = spec.parse(value) if spec.parse is not None else (
                list(value) if isinstance(value, list) and all(isinstance(v, str) for v in value)
                else None)
            if parsed is not None:
                return parsed
            self.bad(key, spec.expected or "a list of text", value)
        elif setting.kind == "choice":
            parsed = spec.parse(value) if spec.parse is not None else (
                value if value in setting.values else None)
            if parsed is not None:
                return parsed
            self.problems.append(f"{self.where}: `{key}` is {value!r}; it must be one of "
                                 f"{', '.join(setting.values)}; {default} is used instead")
        return default

    def section(self, data: Mapping[str, Any], key: str, known: set[str]) -> dict[str, Any]:
        value = data.get(key, {})
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.bad(key, "a mapping", value)
            return {}
        for unknown in sorted(set(value) - known, key=str):
            log.warning("%s: ignoring the unknown setting `%s.%s`", self.where, key, unknown)
        return value


def plain(value: Any) -> Any:
    """`value` as YAML holds it: a dataclass as a mapping of its fields, lists and mappings
    copied."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {item.name: plain(getattr(value, item.name)) for item in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {key: plain(entry) for key, entry in value.items()}
    if isinstance(value, list):
        return [plain(entry) for entry in value]
    return value
