"""The Settings dialog: a page for each part of the studio, each field built from the setting's
declaration (`studio.settings`), its help as the tooltip. Each backend keeps its own URL and
model; the skill roots given on the command line are listed as this session's."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.settings import LAYOUT, BackendKind, Declared, Settings, declared
from studio.ui.fit import fit_to_screen
from studio.ui.settings.setting_fields import Field, field_for

PATH_ROLE = Qt.ItemDataRole.UserRole
SESSION_ROLE = Qt.ItemDataRole.UserRole + 1


def shown_settings() -> list[Declared]:
    """The settings the dialog shows, in the order of the declaration."""
    return [item for item in declared(Settings) if item.spec.page]


class SettingsDialog(QDialog):
    """Edits a copy of the settings; `result_settings()` gives the edited copy after Save.

    Attributes:
        fields: each shown setting's editor, by its key ("backend.connect_timeout").
        roots_list: the skill roots, this session's marked.
    """

    def __init__(self, settings: Settings, parent: QWidget | None = None,
                 session_roots: Sequence[Path] = ()) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(560)
        self._settings = copy.deepcopy(settings)
        self.fields: dict[str, Field] = {}
        self.roots_list = QListWidget()
        for text in self._settings.roots:
            self.add_root(Path(text))
        saved = {Path(text).expanduser() for text in self._settings.roots}
        for path in session_roots:
            if path not in saved:
                self._add_root_item(path, session=True)

        self._shown = shown_settings()
        self.pages = QTabWidget()
        scrolls: list[QScrollArea] = []
        for page, groups in LAYOUT.items():
            content = QWidget()
            column = QVBoxLayout(content)
            for group in groups:
                column.addWidget(self._group_box(page, group))
            column.addStretch(1)
            # Each page scrolls and the buttons stay: on a 720 px screen Save was off-screen.
            scroll = QScrollArea()
            scroll.setWidget(content)
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            self.pages.addTab(scroll, page)
            scrolls.append(scroll)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c0392b")
        self.problem.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        tallest = max(scrolls, key=lambda scroll: _body_height(scroll))
        fit_to_screen(self, tallest)

        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.editor("backend.kind").currentIndexChanged.connect(
            self._on_kind_combo_current_index_changed)
        for key in {item.spec.enabled_when[0] for item in self._shown if item.spec.enabled_when}:
            self.editor(key).currentIndexChanged.connect(self._update_enabled)
        self._update_enabled()

    def editor(self, key: str) -> Any:
        """The input of the setting `key` (a QSpinBox, QComboBox, QLineEdit...)."""
        return self.fields[key].editor

    def _group_box(self, page: str, group: str) -> QGroupBox:
        box = QGroupBox(group)
        form = QFormLayout(box)
        for item in self._shown:
            if (item.spec.page, item.spec.group) != (page, group):
                continue
            if item.widget == "roots":
                form.addRow(self._roots_editor())
                continue
            made = field_for(item, self._value(item))
            self.fields[item.key] = made
            form.addRow("" if item.widget == "check" else item.spec.label, made.widget)
        return box

    def _roots_editor(self) -> QWidget:
        self.roots_list.setMinimumHeight(110)
        add_folder = QPushButton("Add folder…")
        add_zip = QPushButton("Add zip…")
        remove = QPushButton("Remove")
        buttons = QHBoxLayout()
        for button in (add_folder, add_zip, remove):
            buttons.addWidget(button)
        buttons.addStretch(1)
        editor = QWidget()
        layout = QVBoxLayout(editor)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.roots_list)
        layout.addLayout(buttons)
        add_folder.clicked.connect(self._on_add_folder_clicked)
        add_zip.clicked.connect(self._on_add_zip_clicked)
        remove.clicked.connect(self._on_remove_clicked)
        return editor

    def _owner(self, item: Declared) -> Any:
        return getattr(self._settings, item.section) if item.section else self._settings

    def _value(self, item: Declared) -> Any:
        return getattr(self._owner(item), item.name)

    def accept(self) -> None:
        """Save, unless a field holds what its setting does not take: then say which and stay."""
        for made in self.fields.values():
            spec = made.declared.spec
            if spec.parse is not None and spec.parse(made.value()) is None:
                self.pages.setCurrentIndex(list(LAYOUT).index(spec.page))
                made.editor.setFocus()
                self.problem.setText(f"{spec.label} should be {spec.expected}. Correct it, or clear "
                                     "it, to save the settings.")
                self.problem.show()
                return
        super().accept()

    def result_settings(self) -> Settings:
        settings = self._settings
        settings.roots = [str(self._root_item_path(row)) for row in range(self.roots_list.count())
                          if not self.roots_list.item(row).data(SESSION_ROLE)]
        for made in self.fields.values():
            item = made.declared
            value = made.value()
            parsed = item.spec.parse(value) if item.spec.parse is not None else value
            setattr(self._owner(item), item.name, value if parsed is None else parsed)
        return settings

    def session_roots(self) -> list[Path]:
        """The roots given on the command line that are still listed (open for this session,
        not saved)."""
        return [self._root_item_path(row) for row in range(self.roots_list.count())
                if self.roots_list.item(row).data(SESSION_ROLE)]

    def add_root(self, path: Path) -> None:
        self._add_root_item(path, session=False)

    def _root_item_path(self, row: int) -> Path:
        return Path(self.roots_list.item(row).data(PATH_ROLE))

    def _add_root_item(self, path: Path, *, session: bool) -> None:
        for row in range(self.roots_list.count()):
            if self._root_item_path(row) == path:
                # Added here, a root of this session only becomes a saved one.
                item = self.roots_list.item(row)
                if item.data(SESSION_ROLE) and not session:
                    item.setData(SESSION_ROLE, False)
                    item.setText(str(path))
                    item.setToolTip("")
                return
        item = QListWidgetItem(f"{path}    (this session only)" if session else str(path))
        item.setData(PATH_ROLE, str(path))
        item.setData(SESSION_ROLE, session)
        if session:
            item.setToolTip("Given on the command line: open for this session, not saved. "
                            "Add it with Add folder… to keep it; Remove closes it.")
        self.roots_list.addItem(item)

    def _update_enabled(self) -> None:
        for made in self.fields.values():
            when = made.declared.spec.enabled_when
            if when is not None:
                made.editor.setEnabled(self.fields[when[0]].value() in when[1])

    def _on_kind_combo_current_index_changed(self, _index: int) -> None:
        # Each backend keeps its own URL and model: store the shown ones, show the new kind's.
        backend = self._settings.backend
        backend.url = self.fields["backend.url"].value()
        backend.model = self.fields["backend.model"].value()
        kind: BackendKind = self.fields["backend.kind"].value()
        backend.switch_to(kind)
        self.fields["backend.url"].show(backend.url)
        self.fields["backend.model"].show(backend.model)
        self._update_enabled()

    def _pick(self, dialog: QFileDialog, on_chosen: object) -> None:
        dialog.fileSelected.connect(on_chosen)
        dialog.open()

    def _on_add_folder_clicked(self) -> None:
        dialog = QFileDialog(self, "Add a folder of skills")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        self._pick(dialog, lambda chosen: self.add_root(Path(chosen)))

    def _on_add_zip_clicked(self) -> None:
        dialog = QFileDialog(self, "Add a zip archive of skills", "",
                             "Zip archives of skills (*.zip *.skill)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        self._pick(dialog, lambda chosen: self.add_root(Path(chosen)))

    def _on_remove_clicked(self) -> None:
        for item in self.roots_list.selectedItems():
            self.roots_list.takeItem(self.roots_list.row(item))


def _body_height(scroll: QScrollArea) -> int:
    body = scroll.widget()
    return body.sizeHint().height() if body is not None else 0
