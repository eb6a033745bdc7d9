"""The chat pane's and the approval dialog's style sheets. Colours are mid tones and translucent
tints, so they read on light and dark palettes alike."""

from __future__ import annotations

CHAT_STYLE = """
QWidget#transcriptColumn { background: palette(base); }
QTextBrowser#messageText { background: transparent; }
QFrame#userMessage {
    background: rgba(47, 129, 247, 0.10);
    border: 1px solid rgba(47, 129, 247, 0.25);
    border-radius: 6px;
}
QFrame#assistantMessage { border: none; }
QLabel#roleLabel { color: #7a7f87; font-size: 8.5pt; font-weight: bold; }
QTextBrowser#thinkingText { color: #7a7f87; font-style: italic; }
QToolButton#thinkingButton { color: #7a7f87; border: none; }
QFrame#toolCard {
    background: rgba(127, 127, 127, 0.07);
    border: 1px solid rgba(127, 127, 127, 0.35);
    border-radius: 6px;
}
QTextBrowser#cardCommand, QTextBrowser#cardOutput {
    background: rgba(127, 127, 127, 0.10);
    border-radius: 3px;
}
QTextBrowser#cardOutput QScrollBar:vertical {
    background: transparent;
    width: 9px;
    margin: 2px;
}
QTextBrowser#cardOutput QScrollBar::handle:vertical {
    background: rgba(127, 127, 127, 0.55);
    border-radius: 3px;
    min-height: 18px;
}
QTextBrowser#cardOutput QScrollBar::add-line:vertical,
QTextBrowser#cardOutput QScrollBar::sub-line:vertical { height: 0; }
QTextBrowser#cardOutput QScrollBar::add-page:vertical,
QTextBrowser#cardOutput QScrollBar::sub-page:vertical { background: transparent; }
QFrame#forkCard {
    background: rgba(130, 80, 223, 0.05);
    border: none;
    border-left: 3px solid rgba(130, 80, 223, 0.60);
    border-radius: 2px;
}
QToolButton#forkHeader { font-weight: bold; border: none; }
QTextBrowser#forkText { background: transparent; }
QTextBrowser#forkNotice { background: transparent; color: #7a7f87; font-style: italic; }
QTextBrowser#forkError {
    background: rgba(210, 58, 58, 0.12);
    border: 1px solid rgba(210, 58, 58, 0.45);
    border-radius: 4px;
}
QLabel#cardWhere, QLabel#cardApproval { color: #7a7f87; }
QLabel#cardWarnings { color: #b07d00; }
QLabel#notice { color: #7a7f87; font-style: italic; padding: 2px 8px; }
QLabel#doneNotice { color: #7a7f87; font-size: 8.5pt; padding: 0 8px; }
QLabel#unverifiedNote { color: #9a6700; font-size: 8.5pt; font-style: italic; }
QLabel#errorNotice {
    background: rgba(210, 58, 58, 0.12);
    border: 1px solid rgba(210, 58, 58, 0.45);
    border-radius: 4px;
    padding: 6px 8px;
}
QLabel#chatPlaceholder { color: #7a7f87; padding: 24px; }
QLabel#serverMessage, QLabel#sandboxBar {
    background: rgba(210, 58, 58, 0.12);
    border: 1px solid rgba(210, 58, 58, 0.45);
    border-radius: 4px;
    padding: 6px 8px;
}
QLabel#statusLight { font-size: 13pt; }
"""

APPROVAL_STYLE = """
QLabel#approvalHeading { font-size: 12pt; }
QLabel#approvalBanner { border-radius: 4px; }
QLabel#approvalBanner[level="danger"] {
    background: rgba(210, 58, 58, 0.20);
    border: 2px solid #d23a3a;
}
QLabel#approvalBanner[level="caution"] {
    background: rgba(217, 154, 0, 0.20);
    border: 2px solid #d99a00;
}
QLabel#approvalBanner[level="info"] {
    background: rgba(47, 129, 247, 0.10);
    border: 1px solid rgba(47, 129, 247, 0.40);
}
QTextBrowser#approvalCommand {
    border: 1px solid rgba(127, 127, 127, 0.55);
    border-radius: 3px;
    background: palette(base);
    padding: 2px;
}
QLabel#approvalWhere { color: #7a7f87; }
QLabel#approvalFork {
    background: rgba(130, 80, 223, 0.10);
    border-left: 3px solid rgba(130, 80, 223, 0.60);
    padding: 4px 8px;
}
"""
