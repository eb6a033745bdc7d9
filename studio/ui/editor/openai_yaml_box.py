"""The form's read-only section for Codex's `agents/openai.yaml` beside SKILL.md: what it sets,
and how many problems `--target codex` finds in it. The file is edited as a file (it opens from
the library's file list); the form only shows it."""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout, QWidget

from studio.skills.checks import openai_yaml


class OpenAIYamlBox(QGroupBox):
    """Shows a skill's agents/openai.yaml, hidden when the skill has none.

    Attributes:
        text: the label listing the file's settings and problems.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(f"Codex ({openai_yaml.OPENAI_YAML})", parent)
        self.setObjectName("openaiYamlBox")
        self.text = QLabel()
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        self.hide()

    def show_folder(self, directory: Path | None) -> None:
        """Show the file of the skill in `directory` (None: a skill in an archive)."""
        found = openai_yaml.read_openai_yaml(directory) if directory is not None else None
        if found is None:
            self.hide()
            return
        rows = "".join(f"<tr><td><code>{escape(key)}</code>&nbsp;</td><td>{escape(value)}</td></tr>"
                       for key, value in openai_yaml.describe(found))
        parts = [f"<table>{rows}</table>" if rows else "<p>The file sets nothing.</p>"]
        if found.findings:
            count = len(found.findings)
            first = found.findings[0]
            parts.append(f"<p>{count} problem{'s' if count != 1 else ''}; the first, line "
                         f"{first.line}: {escape(first.message)}. Validate for Codex to see "
                         "them all.</p>")
        self.text.setText("".join(parts))
        self.show()
