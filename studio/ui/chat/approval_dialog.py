"""Asking the user whether a tool run may go ahead: the approval dialog, and the approver that opens
it for the agent.

One dialog per `ask` from the policy. It shows the exact command (wrapped, never cut), where it
runs, what the sandbox lets it do (or a red banner where there is none) and why the policy asks,
with the serious warnings in a red banner. The choices are Execute once (1), Always allow (2) with
the scope it grants, and Deny (3) with a reason for the model; "Allow network for this run" is a
separate box, off by default, and never part of a grant.
Deny is the default button; Esc and closing the window deny too. The dialog is opened with
`open()` and awaited (`asyncqt.ask`), so the window keeps painting and streaming while it is up.
Everything in it that a model or a skill wrote is shown exactly (`studio.textshow.shown`): a
control, escape, bidi or zero-width character is a visible marker (`\\e[2K`, `<U+202E>`), so no
command can look like another.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.agent import Approval, ApprovalRequest, Choice
from studio.textshow import shown
from studio.ui import asyncqt
from studio.ui.chat.style import APPROVAL_STYLE
from studio.ui.chat.textbox import FittedText, code_spans
from studio.ui.wrapped_label import WrappedLabel

COMMAND_LINES = 14

# The rule: paths outside the workspace (and what hides or leaks) in red; network use and
# writes to dotfiles or files in amber; running code is plain information.
RED_KINDS = frozenset({"outside", "secrets", "history", "indirection", "parse", "sandbox",
                       "threat"})
AMBER_KINDS = frozenset({"network", "dotfile", "write"})
KIND_TITLES = {
    "outside": "Outside the workspace",
    "secrets": "May expose secrets",
    "history": "Shell history",
    "indirection": "Runs commands it cannot check",
    "parse": "Cannot be checked fully",
    "network": "Uses the network",
    "dotfile": "Writes a dotfile",
    "write": "Writes files",
    "program": "Runs code",
    "sandbox": "No sandbox",
    "threat": "Threat in the skill's script",
}


_LEVEL_ORDER = {"danger": 0, "caution": 1, "info": 2}


def banner_level(kind: str) -> str:
    """"danger" (red), "caution" (amber) or "info": how a warning of this kind is shown."""
    if kind in RED_KINDS:
        return "danger"
    if kind in AMBER_KINDS:
        return "caution"
    return "info"


def _breakable(path: str) -> str:
    """A path that may wrap after any slash (a zero-width space there), so a label never cuts it."""
    return path.replace("/", "/\u200b")


def _unsandboxed(request: ApprovalRequest) -> bool:
    """No sandbox here: the red banner says so already, the sandbox line would repeat it."""
    return any(kind == "sandbox" for kind, _message in request.warnings)


def fork_text(forks: tuple[str, ...]) -> str:
    """Which fork asks, outermost first ("" when the chat itself asks)."""
    if not forks:
        return ""
    chain = " › ".join(f"<b>{html.escape(shown(skill))}</b>" for skill in forks)
    return (f"Asked inside the fork running {chain}: a sub-agent started by a skill with "
            "<code>context: fork</code>. Stop in the chat stops it.")


class ApprovalDialog(QDialog):
    """The question for one command; `approval()` is the answer once it has closed.

    Attributes:
        request: what is asked about.
        banners: one label per warning, with its `level` property ("danger", "caution", "info").
        sandbox_label: what the sandbox lets the command do (hidden where a banner says there is
            no sandbox).
        network_check: "Allow network for this run", off by default; shown only when the sandbox
            would cut the network off.
        hosts_check: "Allow network only to these hosts", off by default, with `hosts_edit`
            (the hosts the command names, editable; `*` for any) and `remember_hosts_check`
            (keep them for the workspace); shown with `network_check`.
        fork_label: which fork asks (a skill's sub-agent, see `studio.agent.fork`); hidden when
            the chat itself asks.
    """

    def __init__(self, request: ApprovalRequest, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self._choice: Choice = "deny"
        self.setObjectName("approvalDialog")
        self.setWindowTitle("Approve a command")
        self.setMinimumWidth(560)
        self.setStyleSheet(APPROVAL_STYLE)
        drafted = bool(request.preview)
        heading = self._heading(drafted)
        self.banners = [self._banner(kind, message) for kind, message in
                        sorted(request.warnings, key=lambda pair: _LEVEL_ORDER[banner_level(pair[0])])]
        self._build_command(drafted)
        self._build_context()
        self._build_network()
        self._build_choices(drafted)
        self._lay_out(heading)
        self.deny_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _heading(self, drafted: bool) -> QLabel:
        """Who asks: the heading, and the fork line under it (hidden when the chat asks)."""
        skill = html.escape(shown(self.request.skill))
        heading = QLabel(
            f"The model wants to save the skill <b>{skill}</b>" if drafted
            else f"<b>{skill}</b> wants to run a command"
        )
        heading.setWordWrap(True)
        heading.setObjectName("approvalHeading")
        self.fork_label = QLabel(fork_text(self.request.forks))
        self.fork_label.setWordWrap(True)
        self.fork_label.setObjectName("approvalFork")
        self.fork_label.setVisible(bool(self.request.forks))
        return heading

    def _banner(self, kind: str, message: str) -> QLabel:
        title = html.escape(KIND_TITLES.get(kind, shown(kind)))
        banner: QLabel = WrappedLabel(f"<b>{title}:</b> {code_spans(shown(message))}")
        banner.setObjectName("approvalBanner")
        banner.setProperty("level", banner_level(kind))
        # Margins, not the style sheet's padding, which a wrapped label leaves out when it
        # counts its lines.
        banner.setContentsMargins(9, 7, 9, 7)
        banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return banner

    def _build_command(self, drafted: bool) -> None:
        """What would run, in full: the command, or a drafted skill's files or diff."""
        self.command_box = FittedText(monospace=True, max_lines=COMMAND_LINES)
        self.command_box.setObjectName("approvalCommand")
        self.command_box.setPlainText(shown(self.request.command))
        # Reached by Tab too, so the keyboard can select and copy it; Tab leaves it again.
        self.command_box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.command_box.setTabChangesFocus(True)
        self.command_box.setAccessibleName("Command to approve")
        # A drafted skill's new files or diff, in full: what Save writes.
        self.preview_box = QPlainTextEdit()
        self.preview_box.setObjectName("approvalPreview")
        self.preview_box.setReadOnly(True)
        self.preview_box.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.preview_box.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview_box.setPlainText(shown(self.request.preview))
        self.preview_box.setVisible(drafted)

    def _build_context(self) -> None:
        """Where it runs, what the sandbox lets it do, why the policy asks, what a grant covers."""
        request = self.request
        where = f"Runs in {_breakable(shown(str(request.cwd)))}"
        if request.workspace != request.cwd:
            where += f" (workspace {_breakable(shown(str(request.workspace)))})"
        self.where_label = QLabel(html.escape(where))
        self.where_label.setWordWrap(True)
        self.where_label.setObjectName("approvalWhere")
        self.sandbox_label = QLabel(f"<b>Sandbox:</b> {html.escape(shown(request.sandbox))}")
        self.sandbox_label.setWordWrap(True)
        self.sandbox_label.setObjectName("approvalSandbox")
        self.sandbox_label.setVisible(bool(request.sandbox) and not _unsandboxed(request))
        in_banners = {message for _kind, message in request.warnings}
        reasons = [r for r in request.reasons if r not in in_banners]
        self.reasons_label = QLabel("<br>".join(f"• {code_spans(shown(r))}" for r in reasons))
        self.reasons_label.setWordWrap(True)
        self.reasons_label.setVisible(bool(reasons))
        if request.grant_scope is not None:
            scope = (f"<b>Always allow</b> would allow {code_spans(shown(request.grant_scope))}, "
                     "for this session; never the network.")
        else:
            scope = ("<b>Always allow</b> is not offered: a grant could not cover what this "
                     "command does, so it is asked about every time.")
        self.scope_label = QLabel(scope)
        self.scope_label.setWordWrap(True)
        self.scope_label.setObjectName("approvalScope")
        self.remember_check = QCheckBox("Remember it after the studio closes (saved in grants.yaml)")
        self.remember_check.setEnabled(request.grant_scope is not None)

    def _build_network(self) -> None:
        """The network for this run only: all of it, or some hosts through the proxy; shown only
        when the sandbox would cut the network off."""
        request = self.request
        self.network_check = QCheckBox("Allow network for this run")
        self.network_check.setObjectName("approvalNetwork")
        self.network_check.setToolTip("Only this run may use the network; the sandbox cuts it off "
                                      "otherwise, and Always allow never includes it")
        self.network_check.setVisible(request.network_choice)
        self.hosts_check = QCheckBox("Allow network only to these hosts:")
        self.hosts_check.setObjectName("approvalHosts")
        self.hosts_check.setToolTip("The run reaches these hosts over HTTP(S) through the "
                                    "studio's proxy, and nothing else; every connection is "
                                    "logged. *.example.com covers subdomains, * any host")
        self.hosts_edit = QLineEdit(shown(" ".join(request.hosts)))
        self.hosts_edit.setPlaceholderText("pypi.org files.pythonhosted.org")
        self.hosts_edit.setAccessibleName("Hosts the run may reach")
        self.hosts_edit.textEdited.connect(self._on_hosts_edit_text_edited)
        self.remember_hosts_check = QCheckBox("Remember these hosts for this workspace "
                                              "(saved in grants.yaml)")
        for widget in (self.hosts_check, self.hosts_edit, self.remember_hosts_check):
            widget.setVisible(request.network_choice)

    def _build_choices(self, drafted: bool) -> None:
        """The reason for a denial and the three choices; Deny is the default."""
        self.reason_edit = QLineEdit()
        self.reason_edit.setPlaceholderText("Reason for the model if you deny (optional)")
        self.reason_edit.setClearButtonEnabled(True)
        self.reason_edit.setAccessibleName("Reason for the model if you deny")
        self.once_button = QPushButton("1  Save" if drafted else "1  Execute once")
        self.always_button = QPushButton("2  Always allow")
        self.deny_button = QPushButton("3  Deny")
        self.always_button.setEnabled(self.request.grant_scope is not None)
        for button in (self.once_button, self.always_button):
            button.setAutoDefault(False)
        self.deny_button.setDefault(True)
        self.once_button.setToolTip("Run this command now, and ask again next time (key 1)")
        self.always_button.setToolTip("Run it, and run commands in the same scope without asking "
                                      "(key 2)")
        self.deny_button.setToolTip("Do not run it; the model is told, with your reason (key 3, Esc)")
        self.once_button.clicked.connect(self._on_once_button_clicked)
        self.always_button.clicked.connect(self._on_always_button_clicked)
        self.deny_button.clicked.connect(self._on_deny_button_clicked)

    def _lay_out(self, heading: QLabel) -> None:
        layout = QVBoxLayout(self)
        layout.setSpacing(8)
        above: tuple[QWidget, ...] = (heading, self.fork_label, *self.banners, self.command_box)
        for widget in above:
            layout.addWidget(widget)
        layout.addWidget(self.preview_box, 1)
        context: tuple[QWidget, ...] = (self.where_label, self.sandbox_label, self.reasons_label,
                                        self.network_check)
        for widget in context:
            layout.addWidget(widget)
        hosts_row = QHBoxLayout()
        hosts_row.addWidget(self.hosts_check)
        hosts_row.addWidget(self.hosts_edit, 1)
        layout.addLayout(hosts_row)
        below: tuple[QWidget, ...] = (self.remember_hosts_check, self.scope_label,
                                      self.remember_check, self.reason_edit)
        for widget in below:
            layout.addWidget(widget)
        buttons = QHBoxLayout()
        buttons.addWidget(self.once_button)
        buttons.addWidget(self.always_button)
        buttons.addStretch(1)
        buttons.addWidget(self.deny_button)
        layout.addLayout(buttons)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Digits typed into the reason field never get here: the line edit takes them first.
        choices = {Qt.Key.Key_1: self._on_once_button_clicked,
                   Qt.Key.Key_2: self._on_always_button_clicked,
                   Qt.Key.Key_3: self._on_deny_button_clicked}
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        choose = choices.get(Qt.Key(event.key()))
        if choose is not None and modifiers == Qt.KeyboardModifier.NoModifier:
            choose()
            return
        super().keyPressEvent(event)

    def _on_hosts_edit_text_edited(self, text: str) -> None:
        self.hosts_check.setChecked(bool(text.strip()))

    def _on_once_button_clicked(self) -> None:
        self._choice = "once"
        self.accept()

    def _on_always_button_clicked(self) -> None:
        if self.request.grant_scope is None:
            return
        self._choice = "always"
        self.accept()

    def _on_deny_button_clicked(self) -> None:
        self._choice = "deny"
        self.reject()

    def approval(self) -> Approval:
        """The user's answer: anything but Execute once or Always allow denies."""
        if self.result() == QDialog.DialogCode.Accepted and self._choice != "deny":
            remember = self._choice == "always" and self.remember_check.isChecked()
            network = self.request.network_choice and self.network_check.isChecked()
            hosts: tuple[str, ...] = ()
            if self.request.network_choice and self.hosts_check.isChecked() and not network:
                hosts = tuple(self.hosts_edit.text().replace(",", " ").split())
            return Approval(self._choice, by="user", remember=remember, network=network,
                            hosts=hosts,
                            remember_hosts=bool(hosts) and self.remember_hosts_check.isChecked())
        reason = self.reason_edit.text().strip()
        return Approval("deny", by="user", reason=reason or None)


class DialogApprover:
    """The `Approver` of the window: one modal approval dialog per request, awaited without a
    nested event loop. Cancelling the waiting task (Stop) closes the dialog."""

    def __init__(self, parent: QWidget) -> None:
        self.parent = parent

    async def approve(self, request: ApprovalRequest) -> Approval:
        dialog = ApprovalDialog(request, self.parent)
        try:
            await asyncqt.ask(dialog)
            return dialog.approval()
        finally:
            dialog.deleteLater()
