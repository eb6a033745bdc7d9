"""Tool calls in the chat: the approval dialog, the cards, grants, Stop, blocked commands, and Try
in Chat with unsaved text."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from shiboken6 import isValid

from studio.agent.approval import Approval, ApprovalRequest
from studio.chats import ChatStore
from studio.ui.chat.approval_dialog import ApprovalDialog
from tests.agent.processes import processes_in
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.ui.chat.chat_helpers import ChatWindowFactory, run_turn
from tests.ui.helpers import open_dialog


def run_call(command: str) -> Call:
    return Call("run_skill_script", {"skill": "demo", "command": command})


def tool_messages(sent: dict[str, object]) -> list[str]:
    messages = sent["messages"]
    assert isinstance(messages, list)
    return [m["content"] for m in messages if m["role"] == "tool"]


def test_execute_once_runs_the_command_and_the_card_shows_its_output(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(calls(Call("activate_skill", {"name": "demo"})),
                       calls(run_call("python3 scripts/hello.py")), reply("It said hello."))
    pane = chat_window().chat.pane
    task = pane.send("say hello with the skill")
    assert task is not None
    dialog = open_dialog(qtbot, ApprovalDialog)
    assert dialog.command_box.toPlainText() == "python3 scripts/hello.py"
    assert "`python3` in `scripts/` and below" in dialog.request.grant_scope
    assert dialog.deny_button.isDefault()
    card = pane.transcript.cards()[1]
    assert card.record.status == "asking" and card.state.text() == "waiting for your approval"
    dialog.once_button.click()
    qtbot.waitUntil(task.done, timeout=10000)

    loaded, ran = pane.transcript.cards()
    assert loaded.record.status == "ok" and "Run `python3 scripts/hello.py`" in loaded.record.result
    assert ran.record.status == "ok"
    assert "hello from the skill" in ran.output.toPlainText()
    assert ran.state.text().startswith("exit 0 · ")
    assert ran.approval.text() == "Approved once by you."
    assert ran.where.text().endswith("/demo")
    assert "hello from the skill" in tool_messages(fake_ollama.chats[2])[-1]
    assert pane.transcript.answers()[-1].text == "It said hello."
    saved = ChatStore().messages(pane.session.chat.id)  # type: ignore[union-attr]
    assert [m.role for m in saved] == ["user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert saved[4].record is not None and saved[4].record.exit_code == 0


def test_deny_sends_the_reason_back_to_the_model(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(calls(run_call("python3 scripts/hello.py")), reply("Understood."))
    pane = chat_window().chat.pane
    task = pane.send("run it")
    assert task is not None
    dialog = open_dialog(qtbot, ApprovalDialog)
    dialog.reason_edit.setText("not on my machine")
    dialog.deny_button.setFocus()
    qtbot.keyClick(dialog, Qt.Key.Key_3)
    qtbot.waitUntil(task.done)
    [card] = pane.transcript.cards()
    assert card.record.status == "denied"
    assert card.approval.text() == "Denied by you: “not on my machine”"
    [result] = tool_messages(fake_ollama.chats[1])
    assert "denied by user: not on my machine" in result


def test_always_allow_skips_the_dialog_for_the_same_scope_only(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(calls(run_call("python3 scripts/hello.py")),
                       calls(run_call("python3 scripts/other.py")),
                       calls(run_call("python3 tools/third.py")), reply("Done."))
    window = chat_window()
    pane = window.chat.pane
    task = pane.send("run them all")
    assert task is not None
    first = open_dialog(qtbot, ApprovalDialog)
    qtbot.keyClick(first, Qt.Key.Key_2)
    third = open_dialog(qtbot, ApprovalDialog)
    assert third is not first and third.command_box.toPlainText() == "python3 tools/third.py"
    third.once_button.click()
    qtbot.waitUntil(task.done)

    hello, other, tools = pane.transcript.cards()
    assert hello.approval.text() == "Always allowed by you: `python3` in `scripts/` and below."
    assert other.record.approval == {"choice": "allow", "by": "policy", "reason": None,
                                     "scope": None}
    assert "other script" in other.output.toPlainText()
    assert tools.record.approval["choice"] == "once"  # type: ignore[index]
    [grant] = pane.sessions.grants.all()
    assert (grant.command, grant.folder, grant.remembered) == ("python3", "scripts/", False)

    grants_view = window.chat.show_grants()
    assert grants_view.model.rowCount() == 1
    assert grants_view.model.data(grants_view.model.index(0, 3)) == "this session"
    grants_view.revoke_rows([0])
    assert pane.sessions.grants.all() == [] and grants_view.empty.isVisibleTo(grants_view)

    audit_view = window.chat.show_audit()
    events = [audit_view.model.data(audit_view.model.index(row, 1))
              for row in range(audit_view.model.rowCount())]
    assert events.count("run") == 3 and events.count("approval") == 2
    audit_view.filter_edit.setText("tools/third")
    assert audit_view.proxy.rowCount() == 3


def test_stop_kills_a_running_script_and_its_children(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    fake_ollama.script(calls(run_call("sh scripts/sleeper.sh")))
    pane = chat_window().chat.pane
    task = pane.send("sleep")
    assert task is not None
    open_dialog(qtbot, ApprovalDialog).once_button.click()
    marker = chat_skills / "demo" / "pgid.txt"
    qtbot.waitUntil(lambda: marker.exists() and marker.read_text().strip() != "", timeout=5000)
    folder = (chat_skills / "demo").resolve()
    qtbot.waitUntil(lambda: len(processes_in(folder)) >= 2)
    qtbot.keyClick(pane.input, Qt.Key.Key_Escape)
    qtbot.waitUntil(task.done, timeout=5000)
    # The group was sent SIGKILL before the task ended; the kernel takes a moment to reap it.
    qtbot.waitUntil(lambda: processes_in(folder) == [], timeout=3000)
    [card] = pane.transcript.cards()
    assert card.record.status == "cancelled" and card.state.text() == "stopped"
    saved = ChatStore().messages(pane.session.chat.id)  # type: ignore[union-attr]
    assert [m.role for m in saved] == ["user", "assistant", "tool", "notice"]
    assert saved[2].record is not None and saved[2].record.status == "cancelled"


def test_stop_while_the_dialog_is_open_closes_it(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(calls(run_call("python3 scripts/hello.py")))
    pane = chat_window().chat.pane
    task = pane.send("run it")
    assert task is not None
    dialog = open_dialog(qtbot, ApprovalDialog)
    pane.stop_button.click()
    qtbot.waitUntil(task.done)
    assert not isValid(dialog) or not dialog.isVisible()
    assert pane.transcript.cards()[0].record.status == "cancelled"


class NeverAsked:
    async def approve(self, request: ApprovalRequest) -> Approval:
        raise AssertionError(f"the approver was asked about {request.command!r}")


def test_a_blocked_command_never_reaches_a_dialog(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(calls(run_call("rm -rf /")), reply("I may not do that."))
    pane = chat_window().chat.pane
    pane.approver = NeverAsked()  # type: ignore[assignment]
    run_turn(qtbot, pane, "wipe the disk")
    [card] = pane.transcript.cards()
    assert card.record.status == "blocked"
    assert card.state.text() == "blocked by the policy"
    assert card.approval.text() == "Blocked by the policy before anyone was asked."
    assert "blocked: `rm -rf /` deletes" in card.output.toPlainText()
    assert tool_messages(fake_ollama.chats[1])[0].startswith("blocked:")


def test_try_in_chat_uses_the_editors_unsaved_text(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    window = chat_window()
    tab = window.editors.open_skill(chat_skills / "demo")
    assert tab is not None
    tab.set_text(tab.text().replace("Says hello.", "Says hello loudly.") + "\nUNSAVED MARKER\n")
    assert window.chat.try_action.isEnabled() and window.chat.try_button.isVisible()
    window.chat.try_action.trigger()
    pane = window.chat.pane
    assert pane.skill_chooser.skills_button.text() == "demo"
    fake_ollama.script(calls(Call("activate_skill", {"name": "demo"})), reply("Loaded."))
    run_turn(qtbot, pane, "use it")
    system = fake_ollama.chats[0]["messages"][0]["content"]
    assert "Says hello loudly." in system and "<name>demo</name>" in system
    assert "UNSAVED MARKER" in tool_messages(fake_ollama.chats[1])[0]
    assert (chat_skills / "demo" / "SKILL.md").read_text().count("UNSAVED") == 0
    assert ChatStore().chats()[0].skills == ("demo",)
    window.close_without_asking()


def test_chosen_skills_limit_the_catalog(
        qtbot: QtBot, chat_window: ChatWindowFactory, fake_ollama: FakeOllama,
        chat_skills: Path) -> None:
    from tests.ui.helpers import write_skill
    write_skill(chat_skills, "second-skill")
    window = chat_window()
    pane = window.chat.pane
    assert pane.skill_chooser.skills_button.text() == "All in the library (2)"
    pane.skill_chooser.skills_menu.aboutToShow.emit()
    names = [a.text() for a in pane.skill_chooser.skills_menu.actions() if a.isCheckable()]
    assert names == ["All loadable skills in the library", "demo", "second-skill"]
    next(a for a in pane.skill_chooser.skills_menu.actions() if a.text() == "second-skill").setChecked(True)
    assert pane.skill_chooser.skills_button.text() == "second-skill"
    fake_ollama.script(reply("ok"))
    run_turn(qtbot, pane, "hi")
    system = fake_ollama.chats[0]["messages"][0]["content"]
    assert "<name>second-skill</name>" in system and "<name>demo</name>" not in system
