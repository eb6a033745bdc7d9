"""What the approval dialog and the tool card say about the sandbox, and the dialog's separate
"Allow network for this run" box (off by default)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from studio.agent.approval import Approval, ApprovalRequest
from studio.agent.sandbox import Support
from studio.chats import ToolRecord
from studio.ui.chat.cards import ToolCard
from tests.ui.chat.chat_helpers import open_approval

SANDBOX = "writes only in /skills/demo; no network; private /tmp"
NONE_HERE = Support(None, problem="bubblewrap (bwrap) is not installed").notice()


def request(*, sandbox: str = SANDBOX, network_choice: bool = True,
            warnings: tuple[tuple[str, str], ...] = ()) -> ApprovalRequest:
    return ApprovalRequest("run_skill_script", "demo", "python3 scripts/x.py", Path("/skills/demo"),
                           Path("/skills/demo"), ("runs code",), warnings,
                           "`python3` in `scripts/`", sandbox, network_choice)


def test_the_dialog_says_what_the_sandbox_allows(qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request())
    assert dialog.sandbox_label.isVisible()
    assert dialog.sandbox_label.text() == f"<b>Sandbox:</b> {SANDBOX}"
    assert "never the network" in dialog.scope_label.text()


def test_network_is_off_unless_the_box_is_ticked(qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request())
    assert dialog.network_check.isVisible() and not dialog.network_check.isChecked()
    qtbot.keyClick(dialog, Qt.Key.Key_1)
    assert dialog.approval() == Approval("once", by="user")


def test_ticking_the_box_allows_network_for_this_run(qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request())
    dialog.network_check.click()
    qtbot.keyClick(dialog, Qt.Key.Key_1)
    assert dialog.approval() == Approval("once", by="user", network=True)


def test_a_denial_never_carries_the_network(qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request())
    dialog.network_check.setChecked(True)
    qtbot.keyClick(dialog, Qt.Key.Key_3)
    assert dialog.approval() == Approval("deny", by="user")


def test_no_network_box_where_the_run_has_the_network_already(
        qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request(network_choice=False))
    assert not dialog.network_check.isVisible()
    dialog.network_check.setChecked(True)
    qtbot.keyClick(dialog, Qt.Key.Key_1)
    assert dialog.approval().network is False


def test_hosts_are_offered_and_only_a_ticked_box_grants_them(
        qtbot: QtBot, parent: QWidget) -> None:
    from dataclasses import replace

    asked = replace(request(), hosts=("pypi.org",))
    dialog = open_approval(qtbot, parent, asked)
    assert dialog.hosts_check.isVisible() and not dialog.hosts_check.isChecked()
    assert dialog.hosts_edit.text() == "pypi.org"
    qtbot.keyClick(dialog, Qt.Key.Key_1)
    assert dialog.approval() == Approval("once", by="user")
    dialog = open_approval(qtbot, parent, asked)
    dialog.hosts_edit.clear()
    qtbot.keyClicks(dialog.hosts_edit, "pypi.org, *.pythonhosted.org")
    assert dialog.hosts_check.isChecked()
    dialog.remember_hosts_check.setChecked(True)
    dialog.once_button.click()
    assert dialog.approval() == Approval("once", by="user", hosts=("pypi.org", "*.pythonhosted.org"),
                                         remember_hosts=True)


def test_no_hosts_box_where_the_run_has_the_network_already(
        qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request(network_choice=False))
    assert not dialog.hosts_check.isVisible() and not dialog.hosts_edit.isVisible()
    dialog.hosts_check.setChecked(True)
    dialog.hosts_edit.setText("pypi.org")
    qtbot.keyClick(dialog, Qt.Key.Key_1)
    assert dialog.approval().hosts == ()


def test_without_a_sandbox_a_red_banner_says_so(qtbot: QtBot, parent: QWidget) -> None:
    dialog = open_approval(qtbot, parent, request(sandbox=NONE_HERE, network_choice=False,
                                         warnings=(("sandbox", NONE_HERE),)))
    (banner,) = dialog.banners
    assert banner.property("level") == "danger"
    assert "No sandbox" in banner.text() and "bubblewrap" in banner.text()
    assert not dialog.sandbox_label.isVisible()


def test_the_card_shows_the_sandbox_of_the_run(qtbot: QtBot) -> None:
    record = ToolRecord("c1", "run_skill_script", "demo", command="echo hi", cwd="/skills/demo",
                        status="running", sandbox=SANDBOX)
    card = ToolCard(record)
    qtbot.addWidget(card)
    card.show()
    assert card.sandbox.isVisible() and card.sandbox.text() == f"<b>Sandbox:</b> {SANDBOX}"
    assert ToolRecord.from_json(record.to_json()) == record


def test_the_card_of_an_unsandboxed_run_warns_once(qtbot: QtBot) -> None:
    record = ToolRecord("c1", "run_skill_script", "demo", command="echo hi", status="running",
                        warnings=(NONE_HERE,), sandbox=NONE_HERE)
    card = ToolCard(record)
    qtbot.addWidget(card)
    card.show()
    assert NONE_HERE in card.warnings.text()
    assert not card.sandbox.isVisible()
