"""Validation targets in the window: the picker of a root's target, the library, the Problems
panel and the open editor following it, and the form's controls for the target's fields."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from PySide6.QtWidgets import QCheckBox, QComboBox
from pytestqt.qtbot import QtBot

from studio.agent.server import ModelServer
from studio.skills.checks.clients import CLIENTS
from studio.skills.scan.targets import scan
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.mainwindow import MainWindow
from tests.fakes.fixtures import OLLAMA_MODELS
from tests.fakes.httpserver import Exchange, Request
from tests.fakes.ollama import FakeOllama
from tests.ui.helpers import WindowFactory, write_skill

FORKING = """---
name: deploy-check
description: Checks whether a deploy is safe. Use when the user asks to ship a release.
context: fork
model: qwen3:0.6b
agent: reviewer
---
# Deploy check

Run the checks.
"""


@pytest.fixture
def claude_root(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    (root / "deploy-check").mkdir(parents=True)
    (root / "deploy-check" / "SKILL.md").write_text(FORKING, encoding="utf-8")
    write_skill(root, "web-search")
    return root


def _codes(window: MainWindow) -> dict[str, int]:
    return dict(window.problems_panel.model.findings.code_counts)


def _pick(window: MainWindow, target: str) -> None:
    combo = window.library_panel.target_picker.combo
    index = combo.findData(target)
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def _open(qtbot: QtBot, window: MainWindow, directory: Path) -> SkillEditorTab:
    tab = window.editors.open_skill(directory)
    assert tab is not None
    qtbot.waitUntil(lambda: window.editors.current_skill_tab() is tab)
    return tab


def test_picking_claude_code_clears_the_spec_errors_in_place_and_is_kept(
        qtbot: QtBot, make_window: WindowFactory, claude_root: Path, tmp_path: Path) -> None:
    settings = tmp_path / "config" / "settings.yaml"
    window = make_window(claude_root, settings=settings)
    window.show_library_problems()
    qtbot.waitUntil(lambda: _codes(window).get("SK131") == 3)
    picker = window.library_panel.target_picker
    assert picker.root == claude_root and picker.combo.currentText() == "Spec"
    removed: list[int] = []
    window.library_model.rowsRemoved.connect(lambda *_: removed.append(1))

    _pick(window, "claude-code")

    # Validating again, beside the Security list's background scan, outlasted pytest-qt's 5 s on a
    # loaded CI machine: the wait is for the outcome, not for a time.
    qtbot.waitUntil(lambda: not window.loader.busy and not _codes(window), timeout=60_000)
    assert window.problems_panel.model.findings.finding_count() == 0
    assert window.library.skill_count == 2
    assert not removed, "the skills are validated again in place, not emptied and refilled"
    assert window.library_model.index(0, 0).data() == "skills (2) · Claude Code"
    assert yaml.safe_load(settings.read_text())["root_targets"] == {str(claude_root): "claude-code"}

    _pick(window, "spec")
    qtbot.waitUntil(lambda: not window.loader.busy and _codes(window).get("SK131") == 3)
    assert window.library_model.index(0, 0).data() == "skills (2)"
    assert "root_targets" not in yaml.safe_load(settings.read_text()) or not yaml.safe_load(
        settings.read_text())["root_targets"]


def test_a_root_keeps_its_target_in_the_next_session(
        qtbot: QtBot, make_window: WindowFactory, claude_root: Path, tmp_path: Path) -> None:
    settings = tmp_path / "config" / "settings.yaml"
    settings.parent.mkdir(parents=True)
    settings.write_text(yaml.safe_dump({"root_targets": {str(claude_root): "eino"}}))
    window = make_window(claude_root, settings=settings)
    window.show_library_problems()

    assert window.library.skill_count == 2
    assert window.library_panel.target_picker.combo.currentText() == "Eino"
    assert window.library_model.index(0, 0).data() == "skills (2) · Eino"
    # Eino reads `context`, `model` and `agent`; `fork` is one of its modes.
    assert window.library.problems() == []


def test_eino_warns_of_a_field_only_claude_code_reads(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    write_skill(root, "hinted")
    skill_file = root / "hinted" / "SKILL.md"
    skill_file.write_text(skill_file.read_text().replace("---\n#", "argument-hint: '[id]'\n---\n#"))
    window = make_window(root)
    window.show_library_problems()
    _pick(window, "eino")
    qtbot.waitUntil(lambda: not window.loader.busy and _codes(window) == {"SK132": 1})
    [problem] = window.library.problems()
    assert problem.diagnostic.severity == "warning" and "Eino does not read" in (
        problem.diagnostic.message)


def test_the_open_editor_and_its_form_follow_the_target(
        qtbot: QtBot, make_window: WindowFactory, claude_root: Path) -> None:
    window = make_window(claude_root)
    tab = _open(qtbot, window, claude_root / "deploy-check")
    assert sorted(d.code for d in tab.diagnostics) == ["SK131"] * 3
    assert tab.form.field_widget("context") is None

    _pick(window, "claude-code")
    qtbot.waitUntil(lambda: not tab.diagnostics)
    context = tab.form.field_widget("context")
    assert isinstance(context, QComboBox) and context.currentText() == "fork"
    assert [context.itemText(i) for i in range(context.count())] == ["(not set)", "fork"]
    assert tab.form.target_fields.isVisibleTo(tab.form)

    _pick(window, "eino")
    qtbot.waitUntil(lambda: tab.target == "eino")
    context = tab.form.field_widget("context")
    assert isinstance(context, QComboBox)
    assert [context.itemText(i) for i in range(context.count())] == [
        "(not set)", "fork", "fork_with_context"]
    assert tab.form.field_widget("argument-hint") is None
    window.show_library_problems()
    qtbot.waitUntil(lambda: not window.loader.busy)
    assert not tab.diagnostics and not _codes(window)


def test_picking_context_in_the_form_writes_the_frontmatter_and_undoes(
        qtbot: QtBot, make_window: WindowFactory, tmp_path: Path) -> None:
    root = tmp_path / "skills"
    write_skill(root, "plain")
    skill_file = root / "plain" / "SKILL.md"
    skill_file.write_text(skill_file.read_text().replace("---\n#", "version: 2\n---\n#"))
    window = make_window(root)
    _pick(window, "eino")
    qtbot.waitUntil(lambda: not window.loader.busy)
    tab = _open(qtbot, window, root / "plain")
    before = tab.text()
    context = tab.form.field_widget("context")
    assert isinstance(context, QComboBox) and context.currentText() == "(not set)"

    index = context.findText("fork_with_context")
    context.setCurrentIndex(index)
    context.activated.emit(index)

    assert "context: fork_with_context\n" in tab.text()
    assert "version: 2\n" in tab.text(), "a field Eino does not read stays where it was"
    assert tab.form.field_widget("version") is None
    qtbot.waitUntil(lambda: [d.code for d in tab.diagnostics] == ["SK132"])
    tab.undo()
    assert tab.text() == before
    qtbot.waitUntil(lambda: context.currentText() == "(not set)")


def test_a_flag_is_a_checkbox_that_writes_true_or_false(
        qtbot: QtBot, make_window: WindowFactory, claude_root: Path) -> None:
    window = make_window(claude_root)
    _pick(window, "claude-code")
    qtbot.waitUntil(lambda: not window.loader.busy)
    tab = _open(qtbot, window, claude_root / "deploy-check")
    invocable = tab.form.field_widget("user-invocable")
    assert isinstance(invocable, QCheckBox) and invocable.isChecked(), "Claude Code's default"

    invocable.click()

    assert "user-invocable: false\n" in tab.text()
    qtbot.waitUntil(lambda: not tab.diagnostics)
    agent = tab.form.field_widget("agent")
    assert isinstance(agent, QComboBox) and agent.currentText() == "reviewer"


class HeldOllama(FakeOllama):
    """A FakeOllama that answers for its models only once `release` is set."""

    def __init__(self, models: dict[str, list[str]]) -> None:
        super().__init__(models)
        self.release = threading.Event()
        self.asked = threading.Event()

    async def respond(self, request: Request, exchange: Exchange) -> None:
        if request.path == "/api/tags":
            self.asked.set()
            while not self.release.is_set():
                await exchange.pause(0.02)
        await super().respond(request, exchange)


@pytest.fixture
def held_ollama() -> Iterator[HeldOllama]:
    server = HeldOllama(OLLAMA_MODELS)
    server.start()
    yield server
    server.release.set()
    server.stop()


def test_the_model_list_comes_from_the_server_without_holding_the_window(
        qtbot: QtBot, qloop: asyncio.AbstractEventLoop, make_window: WindowFactory,
        claude_root: Path, held_ollama: HeldOllama) -> None:
    http = httpx.AsyncClient()
    try:
        window = make_window(claude_root)
        window.editors.model_names = ModelServer(http, url=held_ollama.url).model_names
        _pick(window, "claude-code")
        qtbot.waitUntil(lambda: not window.loader.busy)

        tab = _open(qtbot, window, claude_root / "deploy-check")
        model = tab.form.field_widget("model")
        assert isinstance(model, QComboBox) and model.isEditable()
        qtbot.waitUntil(held_ollama.asked.is_set)
        # The server has not answered, and the tab is open and editable all the same.
        assert model.count() == 0 and model.currentText() == "qwen3:0.6b"
        model.lineEdit().setFocus()
        qtbot.keyClicks(model.lineEdit(), "x")
        assert "model: qwen3:0.6bx\n" in tab.text()

        held_ollama.release.set()
        qtbot.waitUntil(lambda: model.count() == len(OLLAMA_MODELS))
        assert sorted(model.itemText(i) for i in range(model.count())) == sorted(OLLAMA_MODELS)
        assert model.currentText() == "qwen3:0.6bx", "the text typed is kept"
    finally:
        closing = asyncio.ensure_future(http.aclose())
        qtbot.waitUntil(closing.done, timeout=5000)


def test_a_silent_server_leaves_the_model_free_text_and_says_why(
        qtbot: QtBot, qloop: asyncio.AbstractEventLoop, make_window: WindowFactory,
        claude_root: Path) -> None:
    http = httpx.AsyncClient()
    try:
        window = make_window(claude_root)
        window.editors.model_names = ModelServer(http, url="http://127.0.0.1:9").model_names
        _pick(window, "claude-code")
        qtbot.waitUntil(lambda: not window.loader.busy)
        tab = _open(qtbot, window, claude_root / "deploy-check")
        model = tab.form.field_widget("model")
        assert isinstance(model, QComboBox)
        qtbot.waitUntil(lambda: "127.0.0.1:9" in model.toolTip(), timeout=10000)
        assert model.count() == 0 and model.currentText() == "qwen3:0.6b"
    finally:
        closing = asyncio.ensure_future(http.aclose())
        qtbot.waitUntil(closing.done, timeout=5000)


def test_the_window_finds_what_studio_validate_finds_for_each_target(
        qtbot: QtBot, make_window: WindowFactory, claude_root: Path) -> None:
    skill_file = claude_root / "web-search" / "SKILL.md"
    skill_file.write_text(skill_file.read_text().replace(
        "---\n#", "context: inline\nuser-invocable: 'no'\nversion: 3\n---\n#"))
    window = make_window(claude_root)
    for target in CLIENTS:
        _pick(window, target)
        qtbot.waitUntil(lambda: not window.loader.busy)
        shown = sorted((p.directory.name, p.diagnostic.code, p.diagnostic.line, p.diagnostic.message)
                       for p in window.library.problems())
        validated = sorted((s.directory.name, d.code, d.line, d.message)
                           for s in scan([claude_root], target=target).skills
                           for d in s.diagnostics)
        assert shown == validated, target
        assert shown, target


def test_a_value_the_target_does_not_know_is_shown_and_marked(
        qtbot: QtBot, make_window: WindowFactory, claude_root: Path) -> None:
    window = make_window(claude_root)
    _pick(window, "eino")
    qtbot.waitUntil(lambda: not window.loader.busy)
    tab = _open(qtbot, window, claude_root / "deploy-check")
    context = tab.form.field_widget("context")
    assert isinstance(context, QComboBox)
    for typed in ("isolated", "isolated-2"):
        tab.set_text(tab.text().replace("context: fork\n", f"context: {typed}\n").replace(
            "context: isolated\n", f"context: {typed}\n"))
        qtbot.waitUntil(lambda: context.property("problem") == "error")
        assert [d.code for d in tab.diagnostics] == ["SK133"]
        assert context.currentText() == typed
        assert context.count() == 4, "the choices and the one value shown as it is"
        assert "must be one of `fork`, `fork_with_context`" in context.toolTip()
    tab.undo()
    tab.undo()
    qtbot.waitUntil(lambda: not context.property("problem"))
    assert not tab.diagnostics
    assert context.currentText() == "fork" and context.count() == 3
    assert context.toolTip() == "Eino reads one of: fork, fork_with_context"


def test_a_target_picked_while_the_first_scan_runs_wins(
        qtbot: QtBot, make_window: WindowFactory, claude_root: Path) -> None:
    for index in range(40):
        write_skill(claude_root / "more", f"skill-{index}")
    window = make_window(claude_root, wait=False)
    assert window.loader.busy

    _pick(window, "claude-code")

    qtbot.waitUntil(lambda: not window.loader.busy, timeout=20000)
    assert window.library.skill_count == 42
    assert window.library.problems() == []


def test_the_picker_offers_the_new_clients_and_the_form_shows_copilots_fields(
        qtbot: QtBot, make_window: WindowFactory, claude_root: Path) -> None:
    window = make_window(claude_root)
    combo = window.library_panel.target_picker.combo
    titles = [combo.itemText(i) for i in range(combo.count())]
    assert {"Gemini CLI", "GitHub Copilot", "Cursor", "goose", "OpenCode"} <= set(titles)
    tab = _open(qtbot, window, claude_root / "deploy-check")
    _pick(window, "github-copilot")
    qtbot.waitUntil(lambda: tab.target == "github-copilot")
    context = tab.form.field_widget("context")
    assert isinstance(context, QComboBox)
    assert [context.itemText(i) for i in range(context.count())] == ["(not set)", "fork"]
    assert isinstance(tab.form.field_widget("user-invocable"), QCheckBox)
    assert tab.form.field_widget("model") is None
