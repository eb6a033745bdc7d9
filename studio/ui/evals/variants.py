"""Description variants the model proposed from the trigger failures: each shown as a word diff
against the current description, with its precision and recall on the training queries and on
the held-out ones it was not written from, and a button that applies it in the editor."""

from __future__ import annotations

import difflib
import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from studio.evals import Improvement, TriggerReport, Variant, percent

REMOVED = "background-color: rgba(210, 58, 58, 0.25); text-decoration: line-through;"
ADDED = "background-color: rgba(45, 164, 78, 0.3);"


def diff_html(old: str, new: str) -> str:
    """`new` against `old`, word by word: removed words struck through, added ones marked."""
    before, after = old.split(), new.split()
    parts: list[str] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal":
            parts.append(html.escape(" ".join(before[a1:a2])))
            continue
        if a2 > a1:
            parts.append(f'<span style="{REMOVED}">{html.escape(" ".join(before[a1:a2]))}</span>')
        if b2 > b1:
            parts.append(f'<span style="{ADDED}">{html.escape(" ".join(after[b1:b2]))}</span>')
    return " ".join(parts)


def figures_text(report: TriggerReport) -> str:
    if not report.queries:
        return "no queries"
    return f"precision {percent(report.precision)}, recall {percent(report.recall)}"


def variant_figures(variant: Variant) -> str:
    return (f"Training queries: {figures_text(variant.train)} · held out: "
            f"{figures_text(variant.held_out)}")


class VariantCard(QFrame):
    """Signals:
        apply_requested: (str) the description to apply.
    """

    apply_requested = Signal(str)

    def __init__(self, variant: Variant, current: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.variant = variant
        self.setObjectName("variantCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.diff = QLabel(diff_html(current, variant.description))
        self.diff.setWordWrap(True)
        self.diff.setTextFormat(Qt.TextFormat.RichText)
        self.diff.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.figures = QLabel(variant_figures(variant))
        self.apply_button = QPushButton("Apply")
        self.apply_button.setToolTip("Put this description in the skill's frontmatter (Ctrl+Z "
                                     "in the editor undoes it; save to keep it)")
        self.apply_button.clicked.connect(self._on_apply_button_clicked)
        row = QHBoxLayout()
        row.addWidget(self.figures, 1)
        row.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.diff)
        layout.addLayout(row)

    def _on_apply_button_clicked(self) -> None:
        self.apply_requested.emit(self.variant.description)


class VariantsView(QScrollArea):
    """The current description's figures and one card per variant, best first.

    Signals:
        apply_requested: (str) a variant's Apply was clicked.
    """

    apply_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.cards: list[VariantCard] = []
        self._column = QWidget()
        self._layout = QVBoxLayout(self._column)
        self.heading = QLabel("Improve Description proposes better descriptions from the trigger "
                              "queries the skill gets wrong, and measures each on queries held "
                              "out from the ones it was written from.")
        self.heading.setWordWrap(True)
        self._layout.addWidget(self.heading)
        self._layout.addStretch(1)
        self.setWidget(self._column)

    def show_improvement(self, improvement: Improvement) -> None:
        for card in self.cards:
            self._layout.removeWidget(card)
            card.deleteLater()
        self.cards = []
        current = improvement.current
        text = f"<b>Now:</b> {html.escape(current.description)}<br>{variant_figures(current)}"
        if improvement.note:
            text += f"<br>{html.escape(improvement.note)}"
        self.heading.setText(text)
        for variant in improvement.variants:
            card = VariantCard(variant, current.description)
            card.apply_requested.connect(self.apply_requested)
            self._layout.insertWidget(self._layout.count() - 1, card)
            self.cards.append(card)
