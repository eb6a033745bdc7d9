"""The app's settings file: the declared settings (`schema`) saved as YAML in the platform's
config folder.

Loading is tolerant: an unknown key is kept (and written back) with a logged warning, a field of the
wrong type falls back to its default with a message saying so. A file that cannot be read as YAML at
all is reported and left alone until the user saves the settings explicitly; it is then moved aside
as `settings.yaml.broken-<timestamp>` so nothing the user wrote is ever overwritten.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from studio import paths
from studio.fsutil import atomic_write_text, move_aside
from studio.settings.declare import Reader, declared, plain, sections, type_name
from studio.settings.schema import DEFAULT_URLS, Settings

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.yaml"


def settings_path() -> Path:
    return paths.config_dir() / SETTINGS_FILE


def settings_data(settings: Settings) -> dict[str, Any]:
    """The settings as the file holds them: each declared one in its section, in the declared
    order, then the unknown ones the file had."""
    settings.backend.remember()
    data: dict[str, Any] = {}
    for item in declared(Settings):
        owner = getattr(settings, item.section) if item.section else settings
        value = getattr(owner, item.name)
        target = data.setdefault(item.section, {}) if item.section else data
        target[item.name] = item.spec.write(value) if item.spec.write is not None else plain(value)
    ordered = {name: data[name] for name in _order() if name in data}
    for key, value in settings.extra.items():
        ordered.setdefault(key, value)
    return ordered


def _order() -> list[str]:
    """The top-level keys in the order of the fields (a section where it is declared)."""
    return [item.name for item in fields(Settings) if item.name != "extra"]


@dataclass(slots=True)
class LoadResult:
    """What loading found: the settings, and what was wrong with the file (in plain words)."""

    settings: Settings
    problems: list[str] = field(default_factory=list)
    broken: bool = False


def _read(data: dict[str, Any], where: Path) -> tuple[Settings, list[str]]:
    reader = Reader(where)
    settings = Settings()
    found = declared(Settings)
    kinds = sections(Settings)
    section_data = {name: reader.section(data, name, {item.name for item in found
                                                       if item.section == name})
                    for name in kinds}
    for item in found:
        owner = getattr(settings, item.section) if item.section else settings
        source = section_data[item.section] if item.section else data
        setattr(owner, item.name, reader.value(item, source))
    backend, written = settings.backend, section_data["backend"]
    # A URL the file does not give is the usual one of the file's backend, not of the default's.
    if not isinstance(written.get("url"), str):
        backend.url = DEFAULT_URLS[backend.kind]
    # Files from before `servers` hold only the current backend's URL and model: they seed it.
    backend.remember()
    known = {*kinds, *(item.name for item in found if not item.section)}
    for key in data:
        if key not in known:
            log.warning("%s: keeping the unknown setting `%s` as it is", where, key)
            settings.extra[str(key)] = data[key]
    return settings, reader.problems


def load_settings(path: Path | None = None) -> LoadResult:
    """Read the settings file; a missing file gives the defaults, a broken one is reported."""
    path = path if path is not None else settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return LoadResult(Settings())
    except (OSError, UnicodeDecodeError) as exc:
        return LoadResult(
            Settings(),
            [f"cannot read the settings file {path} ({exc}); the defaults are used and the file "
             "is left alone until you save the settings"],
            broken=True,
        )
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        return LoadResult(
            Settings(),
            [f"the settings file {path} is not valid YAML ({exc}); the defaults are used and the "
             "file is left alone until you save the settings"],
            broken=True,
        )
    if data is None:
        return LoadResult(Settings())
    if not isinstance(data, dict):
        return LoadResult(
            Settings(),
            [f"the settings file {path} should hold a mapping of settings, but it holds "
             f"{type_name(data)}; the defaults are used and the file is left alone until you "
             "save the settings"],
            broken=True,
        )
    settings, problems = _read(data, path)
    return LoadResult(settings, problems)


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically (creating the config folder if needed)."""
    path = path if path is not None else settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(settings_data(settings), sort_keys=False, allow_unicode=True, width=100)
    atomic_write_text(path, text)


class SettingsStore:
    """The settings of a running app, and the one file they live in.

    Automatic saves (window geometry on exit, open tabs) never replace a file that failed to load;
    an explicit save by the user first moves the broken file aside.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else settings_path()
        result = load_settings(self.path)
        self.settings = result.settings
        self.problems = result.problems
        self.broken = result.broken

    def save(self, *, explicit: bool = False) -> bool:
        """Write the settings; returns False when a broken file was kept instead."""
        if self.broken:
            if not explicit:
                log.warning("not saving settings over the unreadable %s", self.path)
                return False
            self._move_broken_aside()
        save_settings(self.settings, self.path)
        return True

    def _move_broken_aside(self) -> None:
        if self.path.exists():
            target = move_aside(self.path)
            log.warning("moved the unreadable settings file aside to %s", target)
        self.broken = False
