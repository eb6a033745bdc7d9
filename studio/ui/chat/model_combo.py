"""The chat's model picker: a combo box whose list stays on the screen. Model names with their
details ("qwen2.5-coder-0.5b-instruct-q4_k_m.gguf · 491 MB · Q4_K_M · 32k · tools") are longer
than the dock is wide, and a list as wide as its longest entry, opened from a dock at the screen's
right edge, ran off it."""

from __future__ import annotations

from PySide6.QtCore import QRect

from studio.ui.selector import Selector


class ModelCombo(Selector):
    """A QComboBox whose popup is moved, and narrowed if it must, to fit the available screen."""

    def showPopup(self) -> None:
        super().showPopup()
        popup = self.view().window()
        screen = self.screen()
        if popup is None or screen is None:
            return
        area: QRect = screen.availableGeometry()
        frame = popup.frameGeometry()
        if frame.width() > area.width():
            popup.resize(popup.width() - (frame.width() - area.width()), popup.height())
            frame = popup.frameGeometry()
        left = min(max(frame.left(), area.left()), area.right() + 1 - frame.width())
        if left != frame.left():
            popup.move(popup.x() + left - frame.left(), popup.y())
