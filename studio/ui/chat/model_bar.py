"""The chat's model bar: which kind of server, which model on it, whether it answers, and Think;
when there is nothing to chat with, the first-run panel offers the ways to get a model.

What is picked is saved in Settings at once, so the next start (and the Evals view, which runs on
the same model) finds it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QSizePolicy, QToolButton, QWidget

from studio.agent import SessionSettings, engine_problem
from studio.llm import LLMError
from studio.settings import BACKEND_KINDS, BackendKind, PromptSettings, SettingsStore
from studio.ui.chat.backend import (
    BACKEND_LABELS,
    Backend,
    ModelChoice,
    local_choice,
    local_models,
    turn_settings,
    url_for,
)
from studio.ui.chat.first_run import FirstRunPanel
from studio.ui.chat.model_combo import ModelCombo
from studio.ui.chat.models_dialog import ModelsDialog
from studio.ui.selector import Selector
from studio.ui.tasks import TaskSet

LIGHT_COLOURS = {"ready": "#2da44e", "checking": "#d99a00", "starting": "#d99a00",
                 "down": "#d23a3a", "idle": "#7a7f87", "unknown": "#7a7f87"}


class ModelBar(QObject):
    """Picks the model the chat (and the Evals view) runs on; the pane lays out its widgets.

    Attributes:
        backend: the model server.
        backend_combo, model_combo: the server kind and the model picked.
        status_light, refresh_button: whether the server answers, and asking it again.
        think_check: whether the model thinks before it answers.
        server_message: what went wrong with the server, shown only then.
        first_run: the ways to get a model, shown while there is none to chat with.
        models_dialog: the Models dialog, once opened.
    """

    def __init__(self, settings: SettingsStore, tasks: TaskSet, host: QWidget) -> None:
        super().__init__(host)
        self._settings = settings
        self._tasks = tasks
        self._busy = False
        self._host = host
        self._choices: list[ModelChoice] = []
        self._filling = False
        self.backend = Backend(self)

        self.backend_combo = Selector()
        for kind in BACKEND_KINDS:
            self.backend_combo.addItem(BACKEND_LABELS[kind], kind)
        self.backend_combo.setToolTip("Which kind of model server to chat with")
        self.backend_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.backend_combo.setMinimumContentsLength(7)
        self.model_combo = ModelCombo()
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_combo.setMinimumContentsLength(6)
        self.model_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.model_combo.setToolTip("The model to chat with; “no tools” models cannot use skills")
        self.status_light = QLabel("●")
        self.status_light.setObjectName("statusLight")
        self.refresh_button = QToolButton()
        self.refresh_button.setText("⟳")
        self.refresh_button.setToolTip("Ask the server for its models again")
        self.think_check = QCheckBox("Think")
        self.think_check.setToolTip("Let the model think before it answers (models that can)")
        self.server_message = QLabel()
        self.server_message.setObjectName("serverMessage")
        self.server_message.setWordWrap(True)
        self.server_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.server_message.hide()
        self.first_run = FirstRunPanel()
        self.first_run.hide()
        self.models_dialog: ModelsDialog | None = None

        self.backend_combo.currentIndexChanged.connect(self._on_backend_combo_current_index_changed)
        self.model_combo.currentIndexChanged.connect(self._on_model_combo_current_index_changed)
        self.think_check.toggled.connect(self._on_think_check_toggled)
        self.refresh_button.clicked.connect(self._on_refresh_button_clicked)
        self.backend.state_changed.connect(self._on_backend_state_changed)
        self.first_run.local_models_requested.connect(self._on_first_run_local_models_requested)
        self.first_run.local_model_chosen.connect(self.use_local_model)
        self.first_run.download_requested.connect(self.show_models_dialog)
        self.first_run.server_chosen.connect(self.connect_to)
        self._load_settings()
        self._on_backend_state_changed(self.backend.state, self.backend.message)

    def _load_settings(self) -> None:
        backend = self._settings.settings.backend
        self._filling = True
        self.backend_combo.setCurrentIndex(BACKEND_KINDS.index(backend.kind))
        self.think_check.setChecked(backend.think)
        self._filling = False
        self.backend.configure(backend.kind, url_for(backend, backend.kind),
                               (backend.connect_timeout, backend.idle_timeout))
        self._fill_models([])

    def attach(self, http: httpx.AsyncClient) -> None:
        """Connect to the app's HTTP client and ask the server for its models."""
        self.backend.attach(http)
        self.refresh_models()

    def refresh_models(self) -> asyncio.Task[None]:
        return self._tasks.spawn(self._refresh_models())

    def apply_settings(self) -> asyncio.Task[None]:
        """Show the backend, model and options Settings now hold, and ask the server again."""
        self._load_settings()
        if self.first_run.local_note.isVisibleTo(self.first_run):
            # What it said was found may have changed: a GGUF file set, a model folder added.
            self._on_first_run_local_models_requested()
        return self.refresh_models()

    async def _refresh_models(self) -> None:
        settings = self._settings.settings
        backend = settings.backend
        self.backend.configure(backend.kind, url_for(backend, backend.kind),
                               (backend.connect_timeout, backend.idle_timeout))
        asked = (backend.kind, url_for(backend, backend.kind))
        await self.backend.stop_unused_engine()
        try:
            choices = await self.backend.list_models(backend.gguf_path, settings.model_folders)
        except LLMError:
            choices = []
        # A slow answer from a server the user has since switched away from is not shown.
        backend = self._settings.settings.backend
        if (backend.kind, url_for(backend, backend.kind)) == asked:
            self._fill_models(choices)

    def use_local_model(self, path: str) -> asyncio.Task[None]:
        """Chat with the GGUF file at `path` in the embedded engine, from now on."""
        backend = self._settings.settings.backend
        backend.switch_to("embedded")
        backend.gguf_path = path
        self._save_settings()
        return self.apply_settings()

    def connect_to(self, kind: str, url: str) -> asyncio.Task[None]:
        """Chat with the `kind` server at `url`, from now on."""
        backend = self._settings.settings.backend
        backend.switch_to(kind if kind in BACKEND_KINDS else "openai")  # type: ignore[arg-type]
        backend.url = url
        self._save_settings()
        return self.apply_settings()

    def show_models_dialog(self) -> ModelsDialog:
        """Open the Models dialog (one at a time: a download in progress stays on show)."""
        if self.models_dialog is None:
            self.models_dialog = ModelsDialog(self._host.window())
            self.models_dialog.model_chosen.connect(self.use_local_model)
        self.models_dialog.show()
        self.models_dialog.raise_()
        return self.models_dialog

    def current_model(self) -> ModelChoice | None:
        index = self.model_combo.currentIndex()
        return self._choices[index] if 0 <= index < len(self._choices) else None

    def turn_settings(self, think: bool, prompts: PromptSettings | None = None) -> SessionSettings:
        """The core session's settings for a turn on the model picked (none picked: no model)."""
        choice = self.current_model()
        return turn_settings(self._settings.settings.backend,
                             choice.name if choice is not None else "", think, prompts)

    def thinks(self) -> bool:
        """Whether the next turn asks the model to think (ticked, and the model can)."""
        return self.think_check.isChecked() and self.think_check.isEnabled()

    def set_busy(self, busy: bool) -> None:
        """Whether an answer is running: the first-run panel does not cover one."""
        self._busy = busy

    def _update_first_run(self) -> None:
        # Nothing to chat with: offer the ways to get a model instead of only saying so.
        state = self.backend.state
        stuck = state == "down" or (state == "idle" and not self._choices)
        self.first_run.setVisible(stuck and not self._busy)

    def _on_first_run_local_models_requested(self) -> None:
        self._tasks.spawn(self._show_local_models())

    async def _show_local_models(self) -> None:
        problem = engine_problem()
        if problem is not None:
            self.first_run.show_engine_problem(problem)
            return
        settings = self._settings.settings
        found = await local_models(settings.model_folders)
        choices = [local_choice(m) for m in found if m.facts is not None]
        # The GGUF file Settings name is one on this computer too, wherever it is.
        configured = settings.backend.gguf_path
        if configured and Path(configured).is_file() and all(c.name != configured
                                                             for c in choices):
            choices.insert(0, ModelChoice(configured, Path(configured).name,
                                          details="set in Settings"))
        self.first_run.show_local_models(choices)

    def _fill_models(self, choices: list[ModelChoice]) -> None:
        backend = self._settings.settings.backend
        wanted = backend.gguf_path if backend.kind == "embedded" else backend.model
        if wanted and all(choice.name != wanted for choice in choices):
            label = Path(wanted).name if backend.kind == "embedded" else wanted
            choices = [*choices, ModelChoice(wanted, label)]
        self._choices = choices
        self._filling = True
        self.model_combo.clear()
        for choice in choices:
            self.model_combo.addItem(choice.marked_label, choice.name)
            if choice.details:
                self.model_combo.setItemData(self.model_combo.count() - 1,
                                             f"{choice.marked_label}\n{choice.name}",
                                             Qt.ItemDataRole.ToolTipRole)
            if choice.supports_tools is False:
                self.model_combo.setItemData(
                    self.model_combo.count() - 1,
                    "This model cannot use tools, so it cannot load or run skills.",
                    Qt.ItemDataRole.ToolTipRole)
        names = [choice.name for choice in choices]
        self.model_combo.setCurrentIndex(names.index(wanted) if wanted in names else 0)
        self._filling = False
        if choices and self.model_combo.currentIndex() >= 0:
            self._model_chosen(choices[self.model_combo.currentIndex()])
        self.model_combo.setPlaceholderText("no models" if not choices else "")
        self._update_first_run()

    def _model_chosen(self, choice: ModelChoice) -> None:
        backend = self._settings.settings.backend
        self.think_check.setEnabled(choice.supports_thinking is not False)
        self.think_check.setToolTip(
            "This model cannot think" if choice.supports_thinking is False
            else "Let the model think before it answers")
        if backend.kind == "embedded":
            changed = backend.gguf_path != choice.name
            backend.gguf_path = choice.name
        else:
            changed = backend.model != choice.name
            backend.model = choice.name
        if changed:
            self._save_settings()

    def _save_settings(self) -> None:
        try:
            self._settings.save()
        except OSError as exc:
            self.server_message.setText(f"The chat settings could not be saved: {exc}")
            self.server_message.show()

    def _on_backend_combo_current_index_changed(self, index: int) -> None:
        if self._filling:
            return
        backend = self._settings.settings.backend
        kind: BackendKind = BACKEND_KINDS[index]  # type: ignore[assignment]
        backend.switch_to(kind)
        self._save_settings()
        self.refresh_models()

    def _on_model_combo_current_index_changed(self, index: int) -> None:
        if not self._filling and 0 <= index < len(self._choices):
            self._model_chosen(self._choices[index])

    def _on_think_check_toggled(self, checked: bool) -> None:
        if not self._filling:
            self._settings.settings.backend.think = checked
            self._save_settings()

    def _on_refresh_button_clicked(self) -> None:
        self.refresh_models()

    def _on_backend_state_changed(self, state: str, message: str) -> None:
        self.status_light.setStyleSheet(f"color: {LIGHT_COLOURS.get(state, '#7a7f87')};")
        self.status_light.setToolTip(message or "Not checked yet")
        self.server_message.setText(message)
        self.server_message.setVisible(state == "down" and bool(message))
        self._update_first_run()
