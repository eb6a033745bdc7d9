"""Custom prompts: the system prompt's instructions and each tool's description in your own words
(blank: the studio's), and, read-only beside them, the exact system prompt and tools the model is
sent with the current catalog."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.agent import (
    INSTRUCTIONS,
    SessionSettings,
    default_tool_descriptions,
    make_toolbox,
    session_prompt,
)
from studio.settings import PromptSettings, SettingsStore
from studio.skills import SkillSummary
from studio.ui.fit import resize_within_screen

# Typing pauses this long before the preview is built again (a catalog of thousands of skills).
PREVIEW_DELAY_MS = 200
# What the preview is built from: the settings and skills of the chat's next turn.
NextTurn = Callable[[], tuple[SessionSettings, list[SkillSummary]]]


def preview_text(settings: SessionSettings, skills: list[SkillSummary]) -> str:
    """The system prompt a turn with `settings` starts with, then its tools as the model reads
    them."""
    prompt, skipped = session_prompt(settings, skills)
    tools = make_toolbox(settings, skills).specs()
    lines = ["SYSTEM PROMPT", "", prompt.rstrip(), "", "TOOLS", ""]
    lines += [f"{spec.name}: {spec.description}" for spec in tools]
    if skipped:
        lines += ["", "Left out of the catalog, as they would not load: " + ", ".join(skipped)]
    return "\n".join(lines) + "\n"


def _heading(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    return label


class PromptsDialog(QDialog):
    """Edits the custom prompts of the settings and shows what the model will be sent.

    Signals:
        prompts_saved: the settings now hold the prompts shown.
    """

    prompts_saved = Signal()

    def __init__(self, store: SettingsStore, next_turn: NextTurn,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("promptsDialog")
        self.setWindowTitle("Custom prompts")
        resize_within_screen(self, 1150, 720)
        self._store = store
        self._next_turn = next_turn
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        prompts = store.settings.prompts

        self.instructions_edit = QPlainTextEdit(prompts.instructions)
        self.instructions_edit.setPlaceholderText(INSTRUCTIONS)
        self.instructions_edit.setToolTip("Blank: the studio's instructions (shown greyed)")
        self.tool_edits: dict[str, QPlainTextEdit] = {}
        tools = QFormLayout()
        for name, default in default_tool_descriptions().items():
            edit = QPlainTextEdit(prompts.tools.get(name, ""))
            edit.setPlaceholderText(default)
            edit.setFixedHeight(edit.fontMetrics().lineSpacing() * 4 + 12)
            edit.textChanged.connect(self._on_text_changed)
            self.tool_edits[name] = edit
            tools.addRow(name, edit)
        editors = QWidget()
        left = QVBoxLayout(editors)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(_heading("<b>Instructions</b> on using skills (blank: the studio's, "
                                "shown greyed)"))
        left.addWidget(self.instructions_edit, 1)
        left.addWidget(_heading("<b>Tool descriptions</b> (blank: the studio's)"))
        left.addLayout(tools)

        self.preview = QPlainTextEdit()
        self.preview.setObjectName("promptPreview")
        self.preview.setReadOnly(True)
        self.preview.setFont(fixed)
        self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        shown = QWidget()
        right = QVBoxLayout(shown)
        right.setContentsMargins(0, 0, 0, 0)
        right.addWidget(_heading("<b>What the model is sent</b> with the current catalog and "
                                 "agent (a small model's context may leave skills out of it)"))
        right.addWidget(self.preview, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(editors)
        splitter.addWidget(shown)
        splitter.setSizes([500, 650])

        self.message = QLabel()
        self.message.setObjectName("fieldMessage")
        self.message.setProperty("severity", "error")
        self.message.setWordWrap(True)
        self.message.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.refresh_preview)
        self.instructions_edit.textChanged.connect(self._on_text_changed)
        self.refresh_preview()

    def prompts(self) -> PromptSettings:
        """The prompts as edited (blank ones left out)."""
        tools = {name: edit.toPlainText().strip() for name, edit in self.tool_edits.items()
                 if edit.toPlainText().strip()}
        return PromptSettings(self.instructions_edit.toPlainText().strip(), tools)

    def refresh_preview(self) -> None:
        settings, skills = self._next_turn()
        prompts = self.prompts()
        edited = replace(settings, instructions=prompts.instructions,
                         tool_descriptions=prompts.tools)
        self.preview.setPlainText(preview_text(edited, skills))

    def save(self) -> bool:
        """Keep the prompts in the settings (used from the next turn on)."""
        settings = self._store.settings
        before = settings.prompts
        settings.prompts = self.prompts()
        try:
            self._store.save(explicit=True)
        except OSError as exc:
            settings.prompts = before
            self.message.setText(f"The prompts were not saved: {exc}. Check that "
                                 f"{self._store.path.parent} can be written, then save again.")
            self.message.show()
            return False
        self.prompts_saved.emit()
        self.accept()
        return True

    def _on_text_changed(self) -> None:
        self._timer.start()
