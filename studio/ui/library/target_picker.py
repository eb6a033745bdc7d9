"""The picker of a library root's validation target: "Validate for: Spec / Claude Code / ...".

Each root of the library is judged for one client (`studio.skills.checks.clients`); the picker shows
the target of the root selected in the library (or of the only root) and asks for another.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from studio.skills import SPEC
from studio.skills.checks import clients
from studio.ui.library.target_labels import target_label, target_tooltip
from studio.ui.selector import Selector


class TargetPicker(QWidget):
    """A label and a combo of the targets, for one root at a time.

    Signals:
        target_picked: (Path, str) the user picked a target for the root shown.
    """

    target_picked = Signal(Path, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._root: Path | None = None
        self.label = QLabel("Validate for:")
        self.combo = Selector()
        for key in clients.CLIENTS:
            self.combo.addItem(target_label(key), key)
            self.combo.setItemData(self.combo.count() - 1, target_tooltip(key),
                                   Qt.ItemDataRole.ToolTipRole)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.label.setBuddy(self.combo)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.label)
        layout.addWidget(self.combo)
        layout.addStretch(1)
        self.combo.activated.connect(self._on_combo_activated)
        self.show_root(None, SPEC)

    @property
    def root(self) -> Path | None:
        return self._root

    def show_root(self, root: Path | None, target: str) -> None:
        """Show the target of `root` (None: no root to pick for, the picker is off)."""
        self._root = root
        self.combo.setCurrentIndex(max(0, self.combo.findData(target)))
        self.setEnabled(root is not None)
        if root is None:
            self.combo.setToolTip("Select a root (or a skill in it) in the library to choose the "
                                  "client its skills are written for.")
        else:
            self.combo.setToolTip(f"The client the skills of {root.name or root} are written for. "
                                  f"{target_tooltip(target)}")

    def _on_combo_activated(self, index: int) -> None:
        if self._root is not None:
            self.target_picked.emit(self._root, str(self.combo.itemData(index)))
