"""In the window too, what a model, a tool or a skill wrote is shown, never obeyed: the approval
dialog and the tool cards show a command's controls, escapes, bidi and zero-width characters as
markers (`\\e[2K`, `<U+202E>`), and the chat's rendered answer shows bidi overrides and escapes
as text while keeping the joiners of emoji."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from studio.agent import ApprovalRequest
from studio.chats import ToolRecord
from studio.ui.chat.cards import ToolCard
from studio.ui.chat.render import render_markdown
from studio.ui.chat.transcript import AssistantItem, NoticeItem
from tests.ui.chat.chat_helpers import open_approval

HIDDEN = "rm -rf ~/work\x1b[2K\rls -la \u202ecod.exe\u200b"
SHOWN = "rm -rf ~/work\\e[2K\\rls -la <U+202E>cod.exe<U+200B>"
# What Qt would act on or hide: controls, bidi and zero-width characters, line separators.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")


def test_the_approval_dialog_shows_the_hidden_parts_of_a_command(qtbot: QtBot, parent: QWidget) -> None:
    request = ApprovalRequest(
        "run_skill_script", "demo\u202e", HIDDEN, Path("/skills/demo\x1b]0;t\x07"), Path("/skills/demo"),
        ("reads `x\u2066y`",), (("outside", "reads `../\x1b[31mx`, outside the workspace"),),
        "`ls\u200d` anywhere", sandbox="writes only in /skills/demo\x07",
        network_choice=True, hosts=("exa\u200bmple.com",))
    dialog = open_approval(qtbot, parent, request)
    assert dialog.command_box.toPlainText() == SHOWN
    texts = [label.text() for label in (*dialog.banners, dialog.where_label, dialog.sandbox_label,
                                        dialog.reasons_label, dialog.scope_label)]
    texts.append(dialog.hosts_edit.text())
    texts.append(dialog.findChild(QWidget, "approvalHeading").text())  # type: ignore[union-attr]
    for text in texts:
        assert RAW.search(text.replace("/\u200b", "/")) is None, repr(text)
    joined = " ".join(texts)
    for marker in ("demo&lt;U+202E&gt;", "\\e]0;t\\a", "\\e[31mx", "x&lt;U+2066&gt;y",
                   "ls&lt;U+200D&gt;", "/skills/demo\\a", "exa<U+200B>mple.com"):
        assert marker in joined, marker


def test_a_tool_card_shows_the_markers_in_its_command_output_and_approval(qtbot: QtBot) -> None:
    record = ToolRecord("c1", "run_skill_script", "demo\u202e", command=HIDDEN,
                        cwd="/skills/<b>demo</b>\u202e", status="ok", exit_code=0,
                        warnings=("writes `\x1b[2Jx`",), output="done\x1b]52;c;aGk=\x07\n",
                        approval={"choice": "deny", "by": "user", "reason": "no\x1b[2J"},
                        sandbox="no network\u2028")
    card = ToolCard(record)
    qtbot.addWidget(card)
    assert card.command.toPlainText() == SHOWN
    assert card.output.toPlainText() == "done\\e]52;c;aGk=\\a\n"
    assert card.where.text() == "in /skills/<b>demo</b><U+202E>"  # plain text, not markup
    assert "demo&lt;U+202E&gt;" in card.title.text()
    assert "\\e[2Jx" in card.warnings.text()
    assert card.approval.text() == "Denied by you: “no\\e[2J”"
    assert "no network&lt;U+2028&gt;" in card.sandbox.text()
    card.append_output("more\x1b[2K\r")
    assert card.output.toPlainText().endswith("more\\e[2K\\r")
    for text in (card.title.text(), card.where.text(), card.warnings.text(), card.approval.text(),
                 card.sandbox.text(), card.output.toPlainText(), card.command.toPlainText()):
        assert RAW.search(text) is None, repr(text)


def test_a_rendered_answer_shows_bidi_and_escapes_and_keeps_emoji_joiners() -> None:
    rendered = render_markdown("Paid \u202e01$ \x1b[2J and 👩\u200d💻 and `code\u2066`")
    assert "Paid &lt;U+202E&gt;01$ \\e[2J" in rendered
    assert "👩\u200d💻" in rendered
    assert "code&lt;U+2066&gt;" in rendered
    assert "<U+" not in rendered


def test_streamed_thinking_is_shown_with_markers(qtbot: QtBot) -> None:
    item = AssistantItem()
    qtbot.addWidget(item)
    item.append_thinking("think \x1b")
    item.append_thinking("]0;title\x07")
    assert item.thinking_view.toPlainText() == "think \\e]0;title\\a"


def test_a_notice_is_plain_text_with_markers(qtbot: QtBot) -> None:
    notice = NoticeItem("server said <b>boom</b>\x1b[2J \u202e", "error")
    qtbot.addWidget(notice)
    assert notice.text() == "server said <b>boom</b>\\e[2J <U+202E>"
    assert notice.textFormat() == Qt.TextFormat.PlainText
