"""The Problems panel's tabs, one per source of findings, as an IDE shows its problem sources
(VS Code's panel tabs with a count each, Qt Creator's output panes): the validator's problems
and the skill scanner's findings (Security). Each says how many it holds whatever the filter
hides, the Security tab with the icon of its worst finding, so a finding is seen while the other
tab is shown, and a source with nothing to show takes no room."""

from __future__ import annotations

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QTabBar, QWidget

from studio.ui.icons import severity_icon
from studio.ui.numbers import count_text
from studio.ui.problems.security_model import SecurityModel
from studio.ui.problems.security_rows import DIAGNOSTIC_SEVERITY, WORST_FIRST

PROBLEMS_TAB, SECURITY_TAB = 0, 1


class SourceTabs(QTabBar):
    """The Problems and Security tabs and their counts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("problemSources")
        self.setDocumentMode(True)
        self.setDrawBase(False)
        self.setExpanding(False)
        self.addTab("Problems")
        self.addTab("Security")
        self.setTabToolTip(PROBLEMS_TAB, "What the validator finds in each skill's SKILL.md and "
                           "files, with fixes")

    def count_problems(self, total: int) -> None:
        self.setTabText(PROBLEMS_TAB, f"Problems ({count_text(total)})" if total else "Problems")

    def count_security(self, model: SecurityModel) -> None:
        """ "Security (3)" with the icon of the worst finding; the levels shown in its tooltip."""
        counts = model.rows.levels
        total = sum(counts.values())
        label = f"Security ({count_text(total)})" if total else (
            "Security (scanning…)" if model.pending else "Security")
        self.setTabText(SECURITY_TAB, label)
        worst = next((level for level in WORST_FIRST if counts[level]), None)
        self.setTabIcon(SECURITY_TAB, severity_icon(DIAGNOSTIC_SEVERITY[worst])
                        if worst is not None else QIcon())
        self.setTabToolTip(SECURITY_TAB, f"{model.title()}: what the skill scanner (`studio "
                           "scan`) finds in every file of each skill, worst first")
