"""The window's actions and menus, built once and handed to whoever adds to them (the chat dock
adds Try in Chat to the Skill menu, its dock to View, and its dialogs to Tools)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from studio.ui.about import show_about
from studio.ui.manual import show_manual
from studio.ui.shortcuts import show_shortcuts

Shortcut = QKeySequence | QKeySequence.StandardKey | str | None


@dataclass(frozen=True, slots=True)
class Menus:
    file: QMenu
    edit: QMenu
    skill: QMenu
    view: QMenu
    tools: QMenu
    locations: QMenu
    help: QMenu


def make_action(window: QMainWindow, text: str, slot: Callable[[], object],
                shortcut: Shortcut = None, tip: str = "") -> QAction:
    """An action of the window (its shortcut works wherever the focus is in it)."""
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    action.triggered.connect(slot)
    window.addAction(action)
    return action


def make_menus(window: QMainWindow, file: list[QAction | QMenu | None],
               edit: list[QAction | QMenu | None], skill: list[QAction | QMenu | None],
               view: list[QAction | QMenu | None], locations: QMenu) -> Menus:
    """The menu bar: File, Edit, Skill, View and Tools, each filled in order (None is a
    separator), and Help with the keyboard shortcuts, the manual and About."""
    bar = window.menuBar()
    built: list[QMenu] = []
    for title, items in (("&File", file), ("&Edit", edit), ("&Skill", skill), ("&View", view),
                         ("&Tools", [])):
        menu = bar.addMenu(title)
        for item in items:
            if item is None:
                menu.addSeparator()
            elif isinstance(item, QMenu):
                menu.addMenu(item)
            else:
                menu.addAction(item)
        built.append(menu)
    file_menu, edit_menu, skill_menu, view_menu, tools_menu = built
    help_menu = bar.addMenu("&Help")
    shortcuts = make_action(window, "&Keyboard Shortcuts", lambda: show_shortcuts(window), "Ctrl+/",
                            "Every shortcut of the window, searchable")
    manual = make_action(window, "&Manual", lambda: show_manual(window),
                         QKeySequence.StandardKey.HelpContents,
                         "The studio's manual (the docs/ pages), read in the window")
    help_menu.addAction(shortcuts)
    help_menu.addAction(manual)
    help_menu.addSeparator()
    about = make_action(window, "&About Skill Studio", lambda: show_about(window), None,
                        "The studio's version, its Qt and the folders it keeps its files in")
    about.setMenuRole(QAction.MenuRole.AboutRole)
    help_menu.addAction(about)
    return Menus(file_menu, edit_menu, skill_menu, view_menu, tools_menu, locations, help_menu)
