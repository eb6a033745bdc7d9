"""The Settings dialog's model-server timeouts: shown from the settings, saved as edited."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from studio.settings import CONNECT_TIMEOUT_RANGE, IDLE_TIMEOUT_RANGE, Settings
from studio.ui.dialogs.settings_dialog import SettingsDialog


def test_the_timeouts_are_shown_and_saved(qtbot: QtBot) -> None:
    settings = Settings()
    settings.backend.connect_timeout, settings.backend.idle_timeout = 7, 240
    dialog = SettingsDialog(settings)
    qtbot.addWidget(dialog)
    assert (dialog.connect_spin.value(), dialog.idle_spin.value()) == (7, 240)
    assert (dialog.connect_spin.minimum(), dialog.connect_spin.maximum()) == CONNECT_TIMEOUT_RANGE
    assert (dialog.idle_spin.minimum(), dialog.idle_spin.maximum()) == IDLE_TIMEOUT_RANGE
    dialog.connect_spin.setValue(3)
    dialog.idle_spin.setValue(900)
    edited = dialog.result_settings()
    assert (edited.backend.connect_timeout, edited.backend.idle_timeout) == (3, 900)
    assert (settings.backend.connect_timeout, settings.backend.idle_timeout) == (7, 240)
