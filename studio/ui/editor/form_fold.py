"""Room for each view of a skill's tab: the frontmatter form stands beside the Body view, where
it is edited with it, and folds away for the views that need the width (SKILL.md, Preview, Files,
Evals), unless the user asks for it there too; it stands on the side the user picks. The choices
and the split positions are shared by every skill tab and kept with the window's settings."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QSplitter, QTabWidget, QToolButton, QWidget

DEFAULT_FORM_WIDTH = 380
SIDES = ("left", "right")


class TabLayout(QObject):
    """How the skill tabs of a window share their room.

    Attributes:
        form_with_body: the form is shown beside the Body view.
        form_with_others: the form is shown beside the other views too.
        side: "left" or "right" of the views.
        form_width: the form's width when shown.
        splits: other splitters' sizes by name (the Evals view's).

    Signals:
        changed: where the form goes changed; every tab follows.
    """

    changed = Signal()

    def __init__(self, text: str = "", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.form_with_body = True
        self.form_with_others = False
        self.side = "left"
        self.form_width = DEFAULT_FORM_WIDTH
        self.splits: dict[str, list[int]] = {}
        self._read(text)

    def restore(self, text: str) -> None:
        """Take the choices kept in the settings (`to_text`); every tab follows."""
        self._read(text)
        self.changed.emit()

    def _read(self, text: str) -> None:
        """Read `to_text`'s form; what cannot be read keeps its default (a hand-edited value)."""
        for item in text.split(";"):
            key, _, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if key == "body":
                self.form_with_body = value != "0"
            elif key == "others":
                self.form_with_others = value == "1"
            elif key == "side" and value in SIDES:
                self.side = value
            elif key == "form" and value.isdigit():
                self.form_width = max(200, int(value))
            elif key.startswith("split.") and value:
                parts = value.split(":")
                if all(part.isdigit() for part in parts):
                    self.splits[key.removeprefix("split.")] = [int(part) for part in parts]

    def to_text(self) -> str:
        """One line for the settings file: "body=1;others=0;side=left;form=380;split.evals=..."."""
        items = [f"body={int(self.form_with_body)}", f"others={int(self.form_with_others)}",
                 f"side={self.side}", f"form={self.form_width}"]
        items += [f"split.{name}={':'.join(map(str, sizes))}" for name, sizes in self.splits.items()]
        return ";".join(items)

    def form_shown(self, with_body: bool) -> bool:
        return self.form_with_body if with_body else self.form_with_others

    def set_form_shown(self, with_body: bool, shown: bool) -> None:
        if with_body:
            self.form_with_body = shown
        else:
            self.form_with_others = shown
        self.changed.emit()

    def set_side(self, side: str) -> None:
        self.side = side
        self.changed.emit()

    def split(self, name: str, default: list[int]) -> list[int]:
        sizes = self.splits.get(name)
        return sizes if sizes is not None and len(sizes) == len(default) else default

    def follow(self, name: str, splitter: QSplitter, default: list[int]) -> None:
        """Give `splitter` the sizes kept under `name`, and keep them as the user moves it."""
        splitter.setSizes(self.split(name, default))
        splitter.splitterMoved.connect(
            lambda _position, _index: self.splits.__setitem__(name, splitter.sizes()))


class FormFold(QObject):
    """Shows or folds one tab's form as its views change, from a button in the views' corner
    (a click shows or folds the form for this kind of view; its menu picks the side).

    Attributes:
        button: the corner button.
    """

    def __init__(self, splitter: QSplitter, form: QWidget, views: QTabWidget, body: QWidget,
                 layout: TabLayout) -> None:
        super().__init__(splitter)
        self._splitter = splitter
        self._form = form
        self._views = views
        self._body = body
        self.layout = layout
        self.button = QToolButton()
        self.button.setObjectName("formFoldButton")
        self.button.setText("Form")
        self.button.setCheckable(True)
        self.button.setAccessibleName("Show the frontmatter form beside this view")
        self.button.setToolTip("Show or fold the frontmatter form beside this view (it folds "
                               "away by itself for the views that need the room); the menu "
                               "picks its side")
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        menu = QMenu(self.button)
        sides = QActionGroup(menu)
        self._side_actions: dict[str, QAction] = {}
        for side in SIDES:
            action = menu.addAction(f"Form on the {side.title()}")
            action.setCheckable(True)
            sides.addAction(action)
            action.triggered.connect(lambda _checked=False, which=side: layout.set_side(which))
            self._side_actions[side] = action
        self.button.setMenu(menu)
        views.setCornerWidget(self.button, Qt.Corner.TopRightCorner)
        self.button.clicked.connect(self._on_button_clicked)
        views.currentChanged.connect(self._on_views_current_changed)
        splitter.splitterMoved.connect(self._on_splitter_moved)
        layout.changed.connect(self.apply)
        self.apply()

    @property
    def with_body(self) -> bool:
        return self._views.currentWidget() is self._body

    def apply(self) -> None:
        shown = self.layout.form_shown(self.with_body)
        index = 0 if self.layout.side == "left" else 1
        if self._splitter.indexOf(self._form) != index:
            self._splitter.insertWidget(index, self._form)
        self._form.setVisible(shown)
        self.button.setChecked(shown)
        self._side_actions[self.layout.side].setChecked(True)
        if shown:
            whole = max(self._splitter.width(), self.layout.form_width + 400)
            form = self.layout.form_width
            self._splitter.setSizes([form, whole - form] if index == 0 else [whole - form, form])

    def _on_button_clicked(self, checked: bool) -> None:
        self.layout.set_form_shown(self.with_body, checked)

    def _on_views_current_changed(self, _index: int) -> None:
        self.apply()

    def _on_splitter_moved(self, _position: int, _index: int) -> None:
        if self._form.isVisible():
            self.layout.form_width = self._form.width()
