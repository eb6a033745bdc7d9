"""Rendering chat messages: Markdown to HTML, throttled re-rendering while streaming, tool cards."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from studio.chats import ToolRecord
from studio.ui.chat.cards import FOLD_LINES, ToolCard, approval_text, status_text
from studio.ui.chat.render import render_finished_blocks, render_markdown
from studio.ui.chat.transcript import MessageView


def test_markdown_with_code_tables_and_no_raw_html() -> None:
    html = render_markdown("# Title\n\n```python\nx = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                           "<script>alert(1)</script> ~~gone~~")
    assert "<h1>Title</h1>" in html
    assert "<pre>" in html and "style=" in html
    assert '<table cellspacing="0"' in html
    assert "&lt;script&gt;" in html and "<s>gone</s>" in html


def test_an_unfinished_code_fence_still_renders_as_code() -> None:
    assert "<pre>" in render_markdown("Here:\n\n```python\ndef f():\n    return")


def test_streamed_text_is_rendered_once_per_interval(qtbot: QtBot) -> None:
    view = MessageView()
    qtbot.addWidget(view)
    renders: list[int] = []
    view.rendered.connect(lambda: renders.append(view.rendered_chars))
    for n in range(200):
        view.append(f"token{n} ")
    assert renders == []
    qtbot.waitUntil(lambda: bool(renders))
    assert renders == [len(view.markdown)]
    view.append("**last**")
    view.flush()
    assert renders[-1] == len(view.markdown)
    assert view.plain_text().rstrip().endswith("token199 last")


def test_a_long_answer_sets_its_finished_blocks_aside(qtbot: QtBot) -> None:
    sections = [f"## Part {n}\n\nSome *text* for part {n}, long enough to add up.\n\n"
                f"```python\nprint({n})\n```\n\n- one\n- two\n\n" for n in range(60)]
    text = "".join(sections)
    view = MessageView()
    qtbot.addWidget(view)
    for start in range(0, len(text), 7):
        view.append(text[start:start + 7])
        if start % 700 == 0:
            view.render_now()
    view.flush()
    assert len(view.segments) > 3
    assert max(len(s.toPlainText()) for s in view.segments) < len(text) / 3
    whole = QTextDocument()
    whole.setHtml(render_markdown(text))
    assert view.plain_text().split() == whole.toPlainText().split()


def test_a_block_is_set_aside_only_when_finished() -> None:
    head, covered, rest = render_finished_blocks("para one\n\n```\ncode\n\nmore", 1)
    assert covered == len("para one\n\n") and "para one" in head and "more" in rest
    assert render_finished_blocks("```\nopen fence\n\nstill code", 1)[1] == 0
    assert render_finished_blocks("title\n---", 1)[1] == 0
    assert render_finished_blocks("short\n\nnext", 100)[1] == 0


def _record(**fields: object) -> ToolRecord:
    record = ToolRecord("c1", "run_skill_script", "demo", "ls", command="ls", cwd="/s/demo")
    for key, value in fields.items():
        setattr(record, key, value)
    return record


def test_status_and_approval_texts() -> None:
    assert status_text(_record(status="ok", exit_code=0, duration=0.25)) == "exit 0 · 250 ms"
    assert status_text(_record(status="failed", exit_code=2, duration=1.5)) == "exit 2 · 1.50 s"
    assert status_text(_record(status="cancelled")) == "stopped"
    assert approval_text(_record(approval={"choice": "always", "by": "user",
                                           "scope": "`ls` anywhere in the workspace"})) == (
        "Always allowed by you: `ls` anywhere in the workspace.")
    assert approval_text(_record(approval={"choice": "once", "by": "auto-approve"})) == (
        "Approved once by auto-approve.")
    assert approval_text(_record(status="blocked")).startswith("Blocked by the policy")


def test_long_output_is_folded_and_unfolds(qtbot: QtBot) -> None:
    card = ToolCard(_record(status="running"))
    qtbot.addWidget(card)
    card.show()
    for n in range(40):
        card.record.output += f"line {n}\n"
        card.append_output(f"line {n}\n")
    assert card.fold_button.isVisible() and card.fold_button.text() == "Show all 41 lines"
    folded = card.output.height()
    card.fold_button.click()
    assert card.fold_button.text() == "Fold" and card.output.height() > folded
    card.record.status, card.record.exit_code = "ok", 0
    card.show_record()
    assert card.output.toPlainText().startswith("line 0\n") and FOLD_LINES < 41
