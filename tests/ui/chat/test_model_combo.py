"""The model picker's list stays on the screen, however long the model names and wherever the
picker sits."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from studio.ui.chat.model_combo import ModelCombo


def test_a_long_list_opened_at_the_screens_right_edge_stays_on_it(qtbot: QtBot) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    combo = ModelCombo(holder)
    combo.addItems(["qwen2.5-coder-0.5b-instruct-q4_k_m.gguf · 491 MB · Q4_K_M · 32k · tools " * 3,
                    "smollm2-135m-instruct-q4_1.gguf"])
    area = holder.screen().availableGeometry()
    holder.setGeometry(area.right() - 220, area.top() + 40, 200, 80)
    combo.setGeometry(10, 10, 180, 30)
    holder.show()
    qtbot.waitExposed(holder)
    combo.showPopup()
    popup = combo.view().window()
    qtbot.waitUntil(popup.isVisible)
    frame = popup.frameGeometry()
    assert frame.left() >= area.left() and frame.right() <= area.right()
    combo.hidePopup()
