"""The choices of a run in the Evals view, as `studio eval` takes them on its command line: runs
per query and eval, the trigger threshold and early stopping, the baseline (none, the previous
version in the history, or a git ref), the blind comparison, and what asked commands get."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from studio.evals import RunPlan

NO_BASELINE, HISTORY, GIT_REF = "none", "history", "git"


class RunOptions(QWidget):
    """Attributes:
        runs_box, threshold_box, early_stop, baseline_combo, ref_edit, compare_box,
        approve_combo: the controls.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runs_box = QSpinBox()
        self.runs_box.setRange(1, 20)
        self.runs_box.setPrefix("Runs: ")
        self.runs_box.setAccessibleName("Runs per query and eval")
        self.runs_box.setToolTip("How many times each query and eval runs: a small model's "
                                 "choices vary from run to run")
        self.threshold_box = QDoubleSpinBox()
        self.threshold_box.setRange(0.05, 1.0)
        self.threshold_box.setSingleStep(0.05)
        self.threshold_box.setValue(0.5)
        self.threshold_box.setPrefix("Threshold: ")
        self.threshold_box.setAccessibleName("Trigger threshold")
        self.threshold_box.setToolTip("A query counts as picking the skill when at least this "
                                      "share of its runs picked it")
        self.early_stop = QCheckBox("Early stop")
        self.early_stop.setToolTip("Stop a query's runs once its outcome at the threshold "
                                   "cannot change")
        self.baseline_combo = QComboBox()
        self.baseline_combo.setAccessibleName("Baseline")
        self.baseline_combo.addItem("No baseline", NO_BASELINE)
        self.baseline_combo.addItem("Previous version", HISTORY)
        self.baseline_combo.addItem("Git ref:", GIT_REF)
        self.baseline_combo.setToolTip(
            "What this version is measured against: the previous version in the studio's "
            "history (its figures), or the skill as a git ref has it (its evals run again)")
        self.ref_edit = QLineEdit("HEAD")
        self.ref_edit.setAccessibleName("Git ref of the baseline")
        self.ref_edit.setToolTip("A commit, tag or branch of the repository the skill is in")
        self.ref_edit.setMaximumWidth(90)
        self.compare_box = QCheckBox("Blind comparison")
        self.compare_box.setToolTip("A grader model compares each answer with the baseline's "
                                    "(the git ref, else the run without the skill) without "
                                    "knowing which is which")
        self.approve_combo = QComboBox()
        self.approve_combo.setAccessibleName("Asked commands")
        self.approve_combo.addItem("Run asked commands", True)
        self.approve_combo.addItem("Deny asked commands", False)
        self.approve_combo.setToolTip("What the run answers when the policy asks about a "
                                      "command: run it in the sandbox, or deny it. Blocked "
                                      "commands stay blocked either way.")
        # Two rows: in one, the options alone needed more width than the view gets at 1600x1000
        # with the library and the chat dock open, and the whole view scrolled sideways.
        how = QHBoxLayout()
        for first in (self.runs_box, self.threshold_box, self.early_stop):
            how.addWidget(first)
        how.addStretch(1)
        how.addWidget(self.approve_combo)
        against = QHBoxLayout()
        for second in (self.baseline_combo, self.ref_edit, self.compare_box):
            against.addWidget(second)
        against.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(how)
        layout.addLayout(against)
        self.baseline_combo.currentIndexChanged.connect(self._on_baseline_combo_changed)
        self._on_baseline_combo_changed()

    @property
    def auto_approve(self) -> bool:
        return bool(self.approve_combo.currentData())

    @property
    def baseline(self) -> str:
        return str(self.baseline_combo.currentData())

    def plan(self, without: bool) -> RunPlan:
        """The run the controls describe (`without`: the evals without the skill too)."""
        ref = self.ref_edit.text().strip() if self.baseline == GIT_REF else ""
        return RunPlan(runs=self.runs_box.value(), threshold=round(self.threshold_box.value(), 2),
                       early_stop=self.early_stop.isChecked(), without_skill=without,
                       baseline=ref, compare=self.compare_box.isChecked())

    def _on_baseline_combo_changed(self, _index: int = 0) -> None:
        self.ref_edit.setEnabled(self.baseline == GIT_REF)
