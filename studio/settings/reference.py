"""docs/settings.md, written from the declaration: each setting's key in the file, its default,
what it takes and where the Settings dialog shows it. `python -m studio.settings.reference`
prints it; a test keeps the page in step."""

from __future__ import annotations

from typing import Any

from studio.settings.declare import Declared, declared
from studio.settings.schema import Settings

_HEAD = """# Settings

The studio keeps its settings in one YAML file, `settings.yaml` in the platform's config folder
(`~/.config/skill-studio` on Linux, or `$STUDIO_CONFIG_DIR`). **Settings…** in the File menu
shows most of them; the studio keeps the others itself (the window's layout, the open skills),
or another window edits them (the Prompts dialog, a root's target in the library). A value the
studio cannot use is reported and its default used; a key it does not know is kept as it is.

This page is written from the settings' declaration (`studio/settings/schema.py`): run
`python -m studio.settings.reference > docs/settings.md` after changing one.

| Setting | Default | Takes | In the dialog | What it does |
|---|---|---|---|---|
"""


def _takes(item: Declared) -> str:
    spec = item.spec
    if item.kind == "int":
        return f"{spec.low:,} to {spec.high:,}" + (f" ({spec.suffix.strip()})" if spec.suffix else "")
    if item.kind == "choice":
        return ", ".join(f"`{value}`" for value in item.values)
    if item.kind == "bool":
        return "true, false"
    if item.kind == "list":
        return spec.expected or "a list of text"
    return "a mapping" if item.kind == "mapping" else "text"


def _default(value: Any) -> str:
    if value in ("", [], {}):
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"`{value:,}`" if isinstance(value, int) else f"`{value}`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def reference() -> str:
    rows = []
    for item in declared(Settings):
        spec = item.spec
        where = f"{spec.page} ▸ {spec.group} ▸ {spec.label}" if spec.page else "—"
        rows.append(f"| `{item.key}` | {_cell(_default(item.default))} | {_cell(_takes(item))} | "
                    f"{_cell(where)} | {_cell(spec.help)} |")
    return _HEAD + "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(reference(), end="")
