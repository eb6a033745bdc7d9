"""The Settings dialog's editors, one kind per widget a setting's declaration names
(`studio.settings.Setting.widget`): each shows a value, gives the edited one back, and carries the
declaration's help as its tooltip."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFontComboBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.settings import Declared


def _system_family() -> str:
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()


class Field(ABC):
    """One setting's editor.

    Attributes:
        declared: the setting.
        editor: the input itself (a spin box, a line...): what is enabled or not.
        widget: what its form row shows (the editor, with its buttons when it has some).
    """

    def __init__(self, declared: Declared, editor: QWidget, widget: QWidget | None = None) -> None:
        self.declared = declared
        self.editor = editor
        self.widget = widget if widget is not None else editor
        editor.setToolTip(declared.spec.help)

    @abstractmethod
    def value(self) -> Any:
        """The edited value, as the setting holds it."""

    @abstractmethod
    def show(self, value: Any) -> None:
        """Show the setting's `value`."""


class CheckField(Field):
    def __init__(self, declared: Declared) -> None:
        self.box = QCheckBox(declared.spec.label)
        super().__init__(declared, self.box)

    def value(self) -> bool:
        return self.box.isChecked()

    def show(self, value: Any) -> None:
        self.box.setChecked(bool(value))


class SpinField(Field):
    def __init__(self, declared: Declared) -> None:
        spec = declared.spec
        self.spin = QSpinBox()
        self.spin.setRange(spec.low, spec.high)
        self.spin.setSingleStep(spec.step)
        self.spin.setSuffix(spec.suffix)
        self.spin.setSpecialValueText(spec.special)
        super().__init__(declared, self.spin)

    def value(self) -> int:
        return self.spin.value()

    def show(self, value: Any) -> None:
        self.spin.setValue(int(value))


class ChoiceField(Field):
    def __init__(self, declared: Declared) -> None:
        self.combo = QComboBox()
        for choice in declared.values:
            self.combo.addItem(declared.spec.choices.get(choice, choice), choice)
        super().__init__(declared, self.combo)

    def value(self) -> Any:
        return self.combo.currentData()

    def show(self, value: Any) -> None:
        self.combo.setCurrentIndex(max(0, self.combo.findData(value)))


class LineField(Field):
    def __init__(self, declared: Declared) -> None:
        self.line = QLineEdit()
        self.line.setPlaceholderText(declared.spec.placeholder)
        super().__init__(declared, self.line)

    def value(self) -> str:
        return self.line.text().strip()

    def show(self, value: Any) -> None:
        self.line.setText(str(value))


class PathField(LineField):
    """A line and Browse…: a file (filtered as declared), or a folder."""

    def __init__(self, declared: Declared) -> None:
        super().__init__(declared)
        browse = QPushButton("Browse…")
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.line, 1)
        layout.addWidget(browse)
        self.widget = row
        browse.clicked.connect(self._on_browse_clicked)

    def _on_browse_clicked(self) -> None:
        spec = self.declared.spec
        dialog = QFileDialog(self.widget, f"Pick the {spec.label.lower()}", "", spec.file_filter)
        if self.declared.widget == "folder":
            dialog.setFileMode(QFileDialog.FileMode.Directory)
            dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        else:
            dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(self.line.setText)
        dialog.open()


class FoldersField(Field):
    """A list of folders with Add folder… and Remove."""

    def __init__(self, declared: Declared) -> None:
        self.list = QListWidget()
        self.list.setMaximumHeight(70)
        add = QPushButton("Add folder…")
        remove = QPushButton("Remove")
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        super().__init__(declared, self.list, box)
        add.clicked.connect(self._on_add_clicked)
        remove.clicked.connect(self._on_remove_clicked)

    def value(self) -> list[str]:
        return [self.list.item(row).text() for row in range(self.list.count())]

    def show(self, value: Any) -> None:
        self.list.clear()
        for folder in value:
            self.add(folder)

    def add(self, folder: str) -> None:
        if not self.list.findItems(folder, Qt.MatchFlag.MatchExactly):
            self.list.addItem(folder)

    def _on_add_clicked(self) -> None:
        dialog = QFileDialog(self.widget, f"Add to the {self.declared.spec.label.lower()}")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        dialog.fileSelected.connect(self.add)
        dialog.open()

    def _on_remove_clicked(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))


class LinesField(Field):
    """Lines of text, one item a line; blank lines are left out."""

    def __init__(self, declared: Declared) -> None:
        self.text = QPlainTextEdit()
        self.text.setTabChangesFocus(True)
        self.text.setMaximumHeight(70)
        self.text.setPlaceholderText(declared.spec.placeholder or "one a line")
        super().__init__(declared, self.text)

    def value(self) -> list[str]:
        return [line.strip() for line in self.text.toPlainText().splitlines() if line.strip()]

    def show(self, value: Any) -> None:
        self.text.setPlainText("\n".join(value))


class FontField(Field):
    """A fixed-width font family; the system's own is saved as blank, so that it follows the
    system."""

    def __init__(self, declared: Declared) -> None:
        self.combo = QFontComboBox()
        self.combo.setFontFilters(QFontComboBox.FontFilter.MonospacedFonts)
        super().__init__(declared, self.combo)

    def value(self) -> str:
        family = self.combo.currentFont().family()
        return "" if family == _system_family() else family

    def show(self, value: Any) -> None:
        self.combo.setCurrentText(str(value) or _system_family())


_FIELDS: dict[str, Callable[[Declared], Field]] = {
    "check": CheckField, "spin": SpinField, "choice": ChoiceField, "line": LineField,
    "file": PathField, "folder": PathField, "folders": FoldersField, "lines": LinesField,
    "font": FontField,
}


def field_for(declared: Declared, value: Any) -> Field:
    """The editor the declaration names, showing `value`."""
    made = _FIELDS[declared.widget](declared)
    made.show(value)
    return made
