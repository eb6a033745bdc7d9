"""The form shows a skill's agents/openai.yaml (Codex) read-only, with its problems."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.skills.files import load_skill
from studio.ui.editor.frontmatter_form import FrontmatterForm
from tests.skills.helpers import frontmatter, write_skill

YAML = ('interface:\n  display_name: "Docs Editor"\n  brand_color: "#3B82F6"\n'
        'policy:\n  allow_implicit_invocation: false\n')


def test_the_form_shows_the_codex_file_and_hides_the_section_without_one(
        qtbot: QtBot, tmp_path: Path) -> None:
    form = FrontmatterForm()
    qtbot.addWidget(form)
    with_file = write_skill(tmp_path, "demo", frontmatter(), {"agents/openai.yaml": YAML})
    form.show_skill(load_skill(with_file))
    box = form.openai_yaml
    assert not box.isHidden()
    text = box.text.text()
    assert "interface.display_name" in text and "Docs Editor" in text
    assert "only `$NAME` or /skills loads it" in text and "problem" not in text
    (with_file / "agents" / "openai.yaml").write_text("policy:\n  allow_implicit_invocation: 2\n")
    form.show_skill(load_skill(with_file))
    assert "1 problem; the first, line 2" in box.text.text()
    without = write_skill(tmp_path, "plain", frontmatter("plain"))
    form.show_skill(load_skill(without))
    assert box.isHidden()
