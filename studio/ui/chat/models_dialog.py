"""The Models dialog: download a small tool-capable GGUF model (or any Hugging Face repo's) into
the Hugging Face cache, with progress, speed and cancel, and use it at once.

The download runs on a worker thread (`studio.llm.hub` is blocking); it reports through Qt
signals, which Qt delivers on the window's thread, so the window never waits on the network.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.llm import RECOMMENDED, DownloadCancelled, HubError, download, format_size, parse_spec, resolve


class Download(QObject):
    """One download on a worker thread.

    Signals:
        progressed: (bytes on disk, total bytes or -1 when unknown).
        finished_with: (path) the file is in the cache.
        failed: (message, cancelled) it stopped; the message says why and what to do.
    """

    progressed = Signal(int, int)
    finished_with = Signal(str)
    failed = Signal(str, bool)

    def __init__(self, spec: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.cancel_event = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"download {spec}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def cancel(self) -> None:
        self.cancel_event.set()

    def _run(self) -> None:
        try:
            repo, file = parse_spec(self.spec)
            remote = resolve(repo, file)
            path = download(remote, cancel=self.cancel_event, progress=self._on_progress)
        except DownloadCancelled as exc:
            self.failed.emit(str(exc), True)
        except HubError as exc:
            self.failed.emit(str(exc), False)
        except OSError as exc:
            self.failed.emit(f"The model could not be written to the Hugging Face cache: "
                             f"{exc.strerror or exc}. Free some space, then download again.", False)
        else:
            self.finished_with.emit(str(path))

    def _on_progress(self, have: int, total: int | None) -> None:
        self.progressed.emit(have, -1 if total is None else total)


class ModelsDialog(QDialog):
    """Recommended models, a field for any Hub repo, and the download in progress.

    Signals:
        model_chosen: (path) the user wants to chat with this downloaded model now.
    """

    model_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Models")
        self.setMinimumWidth(560)
        self.download_job: Download | None = None
        self._downloaded = ""
        self._speed_mark: tuple[float, int] | None = None

        intro = QLabel("Small models whose chat template can call tools, so they can use skills. "
                       "They go to the Hugging Face cache, where other tools find them too.")
        intro.setWordWrap(True)
        self.recommended = QListWidget()
        for model in RECOMMENDED:
            item = QListWidgetItem(f"{model.repo.split('/')[-1]}  ·  {format_size(model.size)}\n"
                                   f"    {model.note}")
            item.setData(Qt.ItemDataRole.UserRole, model.spec)
            item.setToolTip(model.spec)
            self.recommended.addItem(item)
        self.spec_edit = QLineEdit()
        self.spec_edit.setPlaceholderText("or any Hugging Face repo: OWNER/NAME[:FILE.gguf]")
        self.download_button = QPushButton("Download")
        self.cancel_button = QPushButton("Cancel Download")
        self.cancel_button.hide()
        row = QHBoxLayout()
        row.addWidget(self.spec_edit, 1)
        row.addWidget(self.download_button)
        row.addWidget(self.cancel_button)
        self.progress = QProgressBar()
        self.progress.hide()
        self.status = QLabel()
        self.status.setObjectName("downloadStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.use_button = QPushButton("Chat with It")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.use_button, QDialogButtonBox.ButtonRole.ActionRole)
        # After addButton, which shows it: there is nothing to chat with before a download.
        self.use_button.hide()

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.recommended, 1)
        layout.addLayout(row)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

        self.recommended.currentItemChanged.connect(self._on_recommended_current_item_changed)
        self.recommended.itemActivated.connect(self._on_recommended_item_activated)
        self.download_button.clicked.connect(self._on_download_button_clicked)
        self.spec_edit.returnPressed.connect(self._on_download_button_clicked)
        self.cancel_button.clicked.connect(self.cancel_download)
        self.use_button.clicked.connect(self._on_use_button_clicked)
        buttons.rejected.connect(self.reject)
        self.recommended.setCurrentRow(0)

    @property
    def busy(self) -> bool:
        return self.download_job is not None

    def start_download(self, spec: str) -> Download | None:
        """Download `spec` (OWNER/NAME[:FILE]); a partial file of it already there is resumed."""
        spec = spec.strip()
        if self.busy or not spec:
            return None
        # The field names what is downloading, so Download after a cancel resumes that file.
        self.spec_edit.setText(spec)
        job = Download(spec, self)
        job.progressed.connect(self._on_download_progressed)
        job.finished_with.connect(self._on_download_finished_with)
        job.failed.connect(self._on_download_failed)
        self.download_job = job
        self._speed_mark = None
        self.progress.setRange(0, 0)
        self.progress.show()
        self.status.setText(f"Asking the Hub for {spec}…")
        self.use_button.hide()
        self._set_busy(True)
        job.start()
        return job

    def cancel_download(self) -> None:
        if self.download_job is not None:
            self.download_job.cancel()
            self.status.setText("Cancelling…")

    def reject(self) -> None:
        # Closing the dialog stops the download; what came is kept for the next one.
        self.cancel_download()
        super().reject()

    def _set_busy(self, busy: bool) -> None:
        self.download_button.setEnabled(not busy)
        self.spec_edit.setEnabled(not busy)
        self.recommended.setEnabled(not busy)
        self.cancel_button.setVisible(busy)

    def _on_recommended_current_item_changed(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            self.spec_edit.setText(str(item.data(Qt.ItemDataRole.UserRole)))

    def _on_recommended_item_activated(self, item: QListWidgetItem) -> None:
        self.start_download(str(item.data(Qt.ItemDataRole.UserRole)))

    def _on_download_button_clicked(self) -> None:
        self.start_download(self.spec_edit.text())

    def _on_download_progressed(self, have: int, total: int) -> None:
        now = time.monotonic()
        if self._speed_mark is None:
            self._speed_mark = (now, have)
        started, first = self._speed_mark
        elapsed = now - started
        speed = f", {format_size(int((have - first) / elapsed))}/s" if elapsed > 0.5 else ""
        if total > 0:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(have * 1000 / total))
            self.status.setText(f"{format_size(have)} of {format_size(total)}{speed}")
        else:
            self.status.setText(f"{format_size(have)}{speed}")

    def _on_download_finished_with(self, path: str) -> None:
        self.download_job = None
        self._set_busy(False)
        self._downloaded = path
        self.progress.setRange(0, 1000)
        self.progress.setValue(1000)
        self.status.setText(f"Downloaded {Path(path).name}; it is ready to chat with.")
        self.use_button.show()
        self.use_button.setDefault(True)

    def _on_download_failed(self, message: str, cancelled: bool) -> None:
        self.download_job = None
        self._set_busy(False)
        self.progress.hide()
        self.status.setText(message + (" Press Download to resume." if cancelled else ""))

    def _on_use_button_clicked(self) -> None:
        if self._downloaded:
            self.model_chosen.emit(self._downloaded)
            self.accept()
