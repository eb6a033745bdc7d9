"""The bar above the chat while commands would run without a sandbox: the real cause and what to
do about it, for as long as it lasts (there is no closing it), rather than a "no sandbox" on every
card with no way to find why."""

from __future__ import annotations

import contextlib
import html
import re
import threading

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QWidget

from studio.agent import Support, detect_sandbox

# bubblewrap's own words inside a cause ("... (bwrap: No permissions to create new namespace,
# likely because ...): ..."): three lines of the bar for what the cause already says. The bar's
# tooltip keeps them.
_BWRAP_SAID = re.compile(r" \(bwrap: .*?\)(?=[:;.]|$)")


def bar_text(support: Support) -> str:
    """What the bar says: what happened, why, what it means until then, and what to do."""
    cause = _BWRAP_SAID.sub("", support.problem)
    text = (f"<b>Commands run without a sandbox:</b> {html.escape(cause)}. Every command is "
            "asked about, even those the policy would allow, and automatic approval runs none.")
    if support.remedy:
        remedy = support.remedy[0].upper() + support.remedy[1:]
        text += f" <b>To fix:</b> {html.escape(remedy)}."
    return text


class SandboxBar(QLabel):
    """Shown while this machine offers no sandbox.

    Attributes:
        support: what the look for a sandbox found (None until it ends).

    Signals:
        support_found: (Support) the look for a sandbox ended; emitted from its thread.
    """

    support_found = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sandboxBar")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.hide()
        self.support: Support | None = None
        self.support_found.connect(self.show_support)

    def check(self) -> None:
        """Look for a sandbox away from the window's thread (it starts bubblewrap once)."""
        threading.Thread(target=self._look, name="sandbox-probe", daemon=True).start()

    def _look(self) -> None:
        support = detect_sandbox()
        # The pane may have closed while bubblewrap started: then there is nobody to tell.
        with contextlib.suppress(RuntimeError):
            self.support_found.emit(support)

    def show_support(self, support: Support) -> None:
        self.support = support
        self.setText("" if support.available else bar_text(support))
        self.setToolTip("" if support.available else support.problem)
        self.setVisible(not support.available)
