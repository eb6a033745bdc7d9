"""The Evals view's one row on top: what to run, Cancel, the iterations, the run's progress and
what the view says, and a button that shows or folds the run options. Folded, the options leave
the eval files and the results two rows more at 1280x720 (issue 44); the button's tip says what
they are set to, so a folded choice is not a hidden one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QProgressBar,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from studio.ui.evals.options import GIT_REF, HISTORY, RunOptions


def _button(text: str, tip: str) -> QToolButton:
    # Tool buttons, not push buttons: the style gives a push button a least width that left the
    # row wider than the view gets beside the library and the chat.
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    return button


class StatusLine(QLabel):
    """What the view says, on one line cut to the room it has (all of it in the tip): wrapped,
    a long progress message made the header taller and pushed the results below the fold."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._elide()

    def text(self) -> str:
        return self._full

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        super().setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight,
                                                      max(0, self.width())))


class EvalsHeader(QWidget):
    """Attributes:
        run_button, without_button, improve_button, generate_button, cancel_button: the actions.
        iterations_button: its menu saves the last run as an iteration or opens one.
        save_iteration_action, open_iteration_action: that menu's entries.
        options_button: shows or folds `options`.
        progress, status: the run's progress, and what the view says.
    """

    def __init__(self, options: RunOptions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._options = options
        self.run_button = _button("Run", "Run the trigger queries and the evals on the model "
                                  "picked in the Chat pane")
        self.without_button = _button("Run Without Skill", "Run the evals with the skill and "
                                      "without it, side by side, to see what it adds")
        self.improve_button = _button("Improve Description", "Have the model propose "
                                      "descriptions from the trigger queries that went wrong, "
                                      "and measure each")
        self.generate_button = _button("Generate Queries", "Have the model write trigger "
                                       "queries (half near misses from the skill's neighbours) "
                                       "for you to review")
        self.cancel_button = _button("Cancel", "Stop the run; what finished is kept")
        self.cancel_button.setEnabled(False)
        self.iterations_button = QToolButton()
        self.iterations_button.setText("Iterations")
        self.iterations_button.setToolTip("Save the last run as the skill workspace's next "
                                          "iteration-N/ (as skill-creator's viewer reads it), or "
                                          "open a saved one")
        self.iterations_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.iterations_button)
        self.save_iteration_action = menu.addAction("Save Run as Next Iteration")
        self.open_iteration_action = menu.addAction("Open Iteration…")
        self.iterations_button.setMenu(menu)
        self.options_button = QToolButton()
        self.options_button.setObjectName("evalOptionsButton")
        self.options_button.setText("Options")
        self.options_button.setCheckable(True)
        self.options_button.setAccessibleName("Show the run options")
        self.status = StatusLine()
        self.status.setObjectName("evalStatus")
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(120)
        self.progress.hide()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for button in (self.run_button, self.without_button, self.improve_button,
                       self.generate_button, self.cancel_button, self.iterations_button,
                       self.options_button):
            row.addWidget(button)
        row.addWidget(self.progress)
        row.addWidget(self.status, 1)
        options.hide()
        self.options_button.toggled.connect(options.setVisible)
        for box in (options.runs_box, options.threshold_box):
            box.valueChanged.connect(self._on_options_changed)
        for toggle in (options.early_stop, options.compare_box):
            toggle.toggled.connect(self._on_options_changed)
        for combo in (options.baseline_combo, options.approve_combo):
            combo.currentIndexChanged.connect(self._on_options_changed)
        options.ref_edit.textChanged.connect(self._on_options_changed)
        self._on_options_changed()

    def summary(self) -> str:
        """The run options as one line, for the folded button's tip."""
        options = self._options
        runs = options.runs_box.value()
        parts = [f"Runs: {runs}", f"threshold {options.threshold_box.value():.2f}"]
        if options.early_stop.isChecked():
            parts.append("early stop")
        if options.baseline == HISTORY:
            parts.append("baseline: the previous version")
        elif options.baseline == GIT_REF:
            parts.append(f"baseline: git ref {options.ref_edit.text().strip() or '(none given)'}")
        else:
            parts.append("no baseline")
        if options.compare_box.isChecked():
            parts.append("blind comparison")
        parts.append("asked commands run" if options.auto_approve else "asked commands denied")
        return ", ".join(parts)

    def _on_options_changed(self, *_args: object) -> None:
        self.options_button.setToolTip(f"Show or fold the run options ({self.summary()})")
