"""Opens every dialog of studio/ui on the screen the process has (the test gives it a
1280x720 one) and prints, as JSON, each dialog's size and the buttons that fall outside it or off
the screen. Run by tests/ui/test_dialogs_fit.py in a process of its own: the tests' shared
application has the offscreen platform's default screen, whose size cannot change once made."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QScrollArea, QWidget

from studio.agent.agents import AgentSpec
from studio.agent.approval import ApprovalRequest
from studio.agent.session import SessionSettings
from studio.editing.fix_batch import BatchPlan, LeftOut
from studio.editing.recovery import Unreadable
from studio.paths import manual_folder
from studio.policy.audit import AuditLog
from studio.policy.grants import Grants
from studio.settings import Settings, SettingsStore
from studio.skills.install.download import InstallPlan
from studio.ui.chat.agent_dialog import AgentDialog
from studio.ui.chat.approval_dialog import ApprovalDialog
from studio.ui.chat.audit_dialog import AuditDialog
from studio.ui.chat.grants_dialog import GrantsDialog
from studio.ui.chat.models_dialog import ModelsDialog
from studio.ui.chat.prompts_dialog import PromptsDialog
from studio.ui.chat.skill_folder_dialog import SkillFolderDialog
from studio.ui.clients import ClientsView
from studio.ui.editor.recovery_dialog import RecoveryDialog
from studio.ui.library.install_url import InstallPlanDialog, InstallUrlDialog
from studio.ui.library.lock_sync import LockReportDialog
from studio.ui.library.skill_name import NewSkillDialog, RenameSkillDialog
from studio.ui.manual import ManualDialog
from studio.ui.problems.fix_preview import FixPreviewDialog
from studio.ui.settings.settings_dialog import SettingsDialog
from studio.ui.shortcuts import ShortcutsDialog
from studio.ui.tasks import TaskSet
from studio.ui.theme import apply_style


async def _no_scan(*_arguments: object) -> Any:
    """The Clients view's scans never run here: opening it does not start one."""
    raise AssertionError("the Clients view scanned while only being opened")


def dialogs(scratch: Path, parent: QWidget) -> dict[str, Callable[[], QDialog]]:
    skills = scratch / "skills"
    request = ApprovalRequest("run_skill_script", "demo", "python scripts/run.py --all",
                              skills / "demo", skills, ("the skill runs a script",), (), None)
    batch = BatchPlan("SK131", [], [LeftOut(skills / f"s{n}", "unsaved") for n in range(30)])
    return {
        "SettingsDialog": lambda: SettingsDialog(Settings(roots=[str(skills)]), parent,
                                                 session_roots=[scratch / "more"]),
        "ApprovalDialog": lambda: ApprovalDialog(request, parent),
        "AgentDialog": lambda: AgentDialog("Save as agent", AgentSpec("helper"), [], parent),
        "AuditDialog": lambda: AuditDialog(AuditLog(scratch / "audit.jsonl"), parent),
        "GrantsDialog": lambda: GrantsDialog(Grants(scratch / "grants.json"), parent),
        "FixPreviewDialog": lambda: FixPreviewDialog(batch, parent),
        "InstallUrlDialog": lambda: InstallUrlDialog([skills], parent),
        "InstallPlanDialog": lambda: InstallPlanDialog(
            InstallPlan("https://example.org/skills.zip", skills, "0" * 64, scratch), parent),
        "LockReportDialog": lambda: LockReportDialog(
            "Check Against skills-lock.json", "2 of 40 skills differ from skills-lock.json.",
            [f"skill-{n}: modified\n  changed references/guide-{n}.md" for n in range(40)],
            parent),
        "ModelsDialog": lambda: ModelsDialog(parent),
        "PromptsDialog": lambda: PromptsDialog(SettingsStore(scratch / "settings.yaml"),
                                               lambda: (SessionSettings(), []), parent),
        "RecoveryDialog": lambda: RecoveryDialog(
            [], [Unreadable(scratch / "r.json", "bad JSON")], parent),
        "SkillFolderDialog": lambda: SkillFolderDialog([skills], "demo", parent),
        "NewSkillDialog": lambda: NewSkillDialog([skills], None, parent),
        "RenameSkillDialog": lambda: RenameSkillDialog(skills / "demo", parent),
        "ShortcutsDialog": lambda: ShortcutsDialog(parent),
        "ClientsView": lambda: ClientsView(_no_scan, _no_scan, TaskSet(), parent),
        "ManualDialog": lambda: ManualDialog(manual_folder() or scratch, parent),
    }


def main() -> None:
    scratch = Path(sys.argv[1])
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    apply_style(app)
    parent = QWidget()
    parent.resize(1280, 720)
    parent.show()
    screen = app.primaryScreen().availableGeometry()
    sizes: dict[str, dict[str, object]] = {}
    for name, make in dialogs(scratch, parent).items():
        dialog = make()
        dialog.show()
        app.processEvents()
        frame = dialog.geometry()
        outside = []
        for button in dialog.findChildren(QAbstractButton):
            if not button.isVisibleTo(dialog):
                continue
            # A button in a scrolling body is reached by scrolling: its scroll area must fit.
            shown: QWidget = button
            parent = button.parentWidget()
            while parent is not None and parent is not dialog:
                if isinstance(parent, QScrollArea):
                    shown = parent
                parent = parent.parentWidget()
            rect = QRect(shown.mapTo(dialog, QPoint(0, 0)), shown.size())
            on_screen = rect.translated(dialog.geometry().topLeft())
            if not dialog.rect().contains(rect) or not screen.contains(on_screen):
                outside.append(button.text() or button.objectName() or type(button).__name__)
        sizes[name] = {"size": [frame.width(), frame.height()], "outside": outside}
        dialog.close()
        dialog.deleteLater()
    print(json.dumps({"screen": [screen.width(), screen.height()], "dialogs": sizes}))


if __name__ == "__main__":
    main()
