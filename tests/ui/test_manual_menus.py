"""What the README and the manual say is in a menu (`File ▸ New Skill`) is in that menu of the
window: a page that sends a newcomer to the wrong menu fails here."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from tests.ui.helpers import WindowFactory

CHECKOUT = Path(__file__).resolve().parents[2]
MENTION = re.compile(r"\b(File|Edit|Skill|View|Tools|Help) ▸ ([A-Z][\w ]*)")


def _items(menu: QMenu) -> list[str]:
    """The menu's entries (its submenus' too), as their text reads, without & and …."""
    found = []
    for action in menu.actions():
        text = action.text().replace("&", "").rstrip("…. ")
        if text:
            found.append(text)
        if isinstance(action.menu(), QMenu):
            found.extend(_items(action.menu()))
    return found


def test_every_menu_the_docs_name_holds_what_they_say(
        qtbot: QtBot, make_window: WindowFactory, skills_root: Path) -> None:
    window = make_window(skills_root)
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()
             if isinstance(a, QAction) and isinstance(a.menu(), QMenu)}
    wrong = []
    # settings.md names the Settings dialog's pages (Tools ▸ Workspace), not the menus.
    pages = [p for p in sorted((CHECKOUT / "docs").glob("*.md")) if p.name != "settings.md"]
    for page in [CHECKOUT / "README.md", *pages]:
        for menu, said in MENTION.findall(page.read_text(encoding="utf-8")):
            # The prose after the entry's name ("File ▸ Add offers the ...") is not part of it.
            words = re.sub(r"( [a-z]\w*)+ *$", "", said.strip())
            items = _items(menus[menu])
            if not any(words.startswith(item) or item.startswith(words) for item in items):
                wrong.append(f"{page.name}: {menu} ▸ {words.strip()} (the menu has {items})")
    assert wrong == [], "\n".join(wrong)
