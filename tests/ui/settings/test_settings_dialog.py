"""The Settings dialog: every shown setting on its page, built from its declaration; the model
backend's timeouts, each backend's URL and model, context, threads, workspace and model folders,
and the eval servers, shown from the settings and saved as edited."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from studio.settings import (
    CONNECT_TIMEOUT_RANGE,
    CONTEXT_SIZE_RANGE,
    DEFAULT_URLS,
    IDLE_TIMEOUT_RANGE,
    LAYOUT,
    Settings,
    declared,
)
from studio.ui.settings.settings_dialog import SettingsDialog, shown_settings
from tests.test_settings import other_value
from tests.ui.helpers import WindowFactory, open_dialog, start


def test_the_timeouts_are_shown_and_saved(qtbot: QtBot) -> None:
    settings = Settings()
    settings.backend.connect_timeout, settings.backend.idle_timeout = 7, 240
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    connect, idle = dialog.editor("backend.connect_timeout"), dialog.editor("backend.idle_timeout")
    assert (connect.value(), idle.value()) == (7, 240)
    assert (connect.minimum(), connect.maximum()) == CONNECT_TIMEOUT_RANGE
    assert (idle.minimum(), idle.maximum()) == IDLE_TIMEOUT_RANGE
    connect.setValue(3)
    idle.setValue(900)
    edited = dialog.result_settings()
    assert (edited.backend.connect_timeout, edited.backend.idle_timeout) == (3, 900)
    assert (settings.backend.connect_timeout, settings.backend.idle_timeout) == (7, 240)


def test_switching_backends_in_the_dialog_keeps_each_url_and_model(qtbot: QtBot) -> None:
    settings = Settings()
    settings.backend.url, settings.backend.model = "http://box:11434", "qwen3:0.6b"
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    kind, url, model = (dialog.editor(f"backend.{name}") for name in ("kind", "url", "model"))
    kind.setCurrentIndex(kind.findData("openai"))
    assert url.text() == DEFAULT_URLS["openai"] and model.text() == ""
    url.setText("http://box:1234/v1")
    kind.setCurrentIndex(kind.findData("ollama"))
    assert (url.text(), model.text()) == ("http://box:11434", "qwen3:0.6b")
    kind.setCurrentIndex(kind.findData("openai"))
    edited = dialog.result_settings().backend
    assert (edited.kind, edited.url) == ("openai", "http://box:1234/v1")
    assert edited.servers["ollama"].url == "http://box:11434"


def test_context_threads_workspace_and_model_folders_are_shown_and_saved(
        qtbot: QtBot, tmp_path: Path) -> None:
    settings = Settings(model_folders=["/models/a"])
    settings.backend.context_size, settings.backend.threads = 4096, 2
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    context, threads = dialog.editor("backend.context_size"), dialog.editor("backend.threads")
    mode, workspace = dialog.editor("backend.workspace_mode"), dialog.editor("backend.workspace")
    assert (context.value(), threads.value()) == (4096, 2)
    assert (context.minimum(), context.maximum()) == CONTEXT_SIZE_RANGE
    assert mode.currentData() == "skill" and not workspace.isEnabled()
    context.setValue(16384)
    threads.setValue(0)
    mode.setCurrentIndex(mode.findData("project"))
    assert workspace.isEnabled()
    workspace.setText(str(tmp_path))
    dialog.fields["model_folders"].add(str(tmp_path / "gguf"))
    dialog.fields["model_folders"].add("/models/a")
    edited = dialog.result_settings()
    assert (edited.backend.context_size, edited.backend.threads) == (16384, 0)
    assert (edited.backend.workspace_mode, edited.backend.workspace) == ("project", str(tmp_path))
    assert edited.model_folders == ["/models/a", str(tmp_path / "gguf")]


def test_the_root_given_on_the_command_line_is_listed_and_can_be_closed(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    task = start(window.open_settings())
    dialog = open_dialog(qtbot, SettingsDialog)
    shown = [dialog.roots_list.item(row) for row in range(dialog.roots_list.count())]
    assert [item.data(Qt.ItemDataRole.UserRole) for item in shown] == [str(skills_root)]
    assert "this session only" in shown[0].text()
    assert dialog.result_settings().roots == []
    dialog.roots_list.setCurrentRow(0)
    dialog.roots_list.item(0).setSelected(True)
    dialog._on_remove_clicked()
    dialog.accept()
    qtbot.waitUntil(task.done)
    assert window.roots.session_roots == [] and not window.library.roots()
    assert window.settings.roots == []


def test_a_session_root_added_in_the_dialog_is_saved(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = SettingsDialog(Settings(roots=["~/skills"]), session_roots=[tmp_path / "more"])
    qtbot.addWidget(dialog)
    dialog.add_root(tmp_path / "more")
    assert dialog.result_settings().roots == ["~/skills", str(tmp_path / "more")]
    assert dialog.session_roots() == []


def test_the_answer_bounds_are_shown_and_saved(qtbot: QtBot) -> None:
    settings = Settings()
    settings.backend.answer_tokens, settings.backend.answer_seconds = 4096, 120
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    tokens, seconds = dialog.editor("backend.answer_tokens"), dialog.editor("backend.answer_seconds")
    assert (tokens.value(), seconds.value()) == (4096, 120)
    tokens.setValue(20000)
    seconds.setValue(1800)
    edited = dialog.result_settings().backend
    assert (edited.answer_tokens, edited.answer_seconds) == (20000, 1800)
    assert (settings.backend.answer_tokens, settings.backend.answer_seconds) == (4096, 120)


def test_every_shown_setting_is_on_its_page_and_saved_as_edited(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    pages = [dialog.pages.tabText(index) for index in range(dialog.pages.count())]
    assert pages == list(LAYOUT)
    for item in shown_settings():
        assert item.spec.group in LAYOUT[item.spec.page], item.key
        if item.widget == "roots":
            continue
        made = dialog.fields[item.key]
        page = dialog.pages.widget(pages.index(item.spec.page))
        assert page.isAncestorOf(made.widget), item.key
        assert made.editor.toolTip() == item.spec.help
    assert {item.key for item in shown_settings()} - set(dialog.fields) == {"roots"}
    # The rest the studio keeps itself or other windows edit: a new setting is shown unless it
    # joins these on purpose.
    assert {item.key for item in declared(Settings) if not item.spec.page} == {
        "backend.servers", "window.geometry", "window.state", "window.docks", "window.tabs",
        "prompts.instructions", "prompts.tools", "open_tabs", "root_targets", "library_flat",
        "backend.recent_models"}
    # Each edited value lands in the setting (the kind last: it switches the URL and model).
    edited = {item.key: other_value(item) for item in shown_settings()
              if item.widget not in ("roots", "font") and item.key != "backend.kind"}
    for key, value in edited.items():
        dialog.fields[key].show(value)
    result = dialog.result_settings()
    for key, value in edited.items():
        section, _, name = key.rpartition(".")
        assert getattr(getattr(result, section) if section else result, name) == value, key


def test_eval_servers_and_their_concurrency_are_on_the_models_page(qtbot: QtBot) -> None:
    settings = Settings()
    settings.evals.servers, settings.evals.concurrency = ["http://a:8080/v1"], 3
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    servers, concurrency = dialog.editor("evals.servers"), dialog.editor("evals.concurrency")
    assert servers.toPlainText() == "http://a:8080/v1" and concurrency.value() == 3
    assert "one URL a line" in servers.toolTip() and concurrency.minimum() == 1
    servers.setPlainText("http://a:8080/v1\n\n  https://b:8081  \n")
    concurrency.setValue(2)
    evals = dialog.result_settings().evals
    assert (evals.servers, evals.concurrency) == (["http://a:8080/v1", "https://b:8081"], 2)


def test_a_server_that_is_no_url_keeps_the_dialog_open_and_says_why(qtbot: QtBot) -> None:
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.editor("evals.servers").setPlainText("box:8080")
    dialog.accept()
    assert dialog.isVisible() and dialog.result() != SettingsDialog.DialogCode.Accepted
    assert "Eval servers should be a list of http:// or https:// URLs" in dialog.problem.text()
    assert dialog.pages.tabText(dialog.pages.currentIndex()) == "Models"
    dialog.editor("evals.servers").setPlainText("http://box:8080")
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
