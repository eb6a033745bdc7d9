"""The main window's size, place and panel sizes: restored at start within the screen it opens on,
and remembered when it closes."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow

from studio.settings import Settings

# Each panel's least size in pixels and largest share of the window, when a layout is restored.
DOCK_BOUNDS = {"libraryDock": (200, 0.4), "problemsDock": (120, 0.4), "chatDock": (340, 0.45)}


def dock_shares(text: str) -> dict[str, float]:
    """"problemsDock=0.25,libraryDock=0.2" as a mapping; what cannot be read is left out."""
    shares = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        try:
            share = float(value)
        except ValueError:
            continue
        if name.strip() in DOCK_BOUNDS and 0 < share < 1:
            shares[name.strip()] = share
    return shares


class WindowGeometry(QObject):
    """Restores and remembers the window's geometry, its docks' layout and their shares of it."""

    def __init__(self, window: QMainWindow, docks: list[QDockWidget]) -> None:
        super().__init__(window)
        self._window = window
        self._docks_shown = docks
        self._saved_shares: dict[str, float] = {}

    def restore(self, settings: Settings) -> None:
        window, saved = self._window, settings.window
        if not (settings.remember_window and saved.geometry):
            self._fit_to_screen()
        if not settings.remember_window:
            return
        if saved.geometry:
            window.restoreGeometry(QByteArray.fromBase64(saved.geometry.encode("ascii")))
        if saved.state:
            window.restoreState(QByteArray.fromBase64(saved.state.encode("ascii")))
        self._fit_geometry_to_screen()
        self._saved_shares = dock_shares(saved.docks)
        # Applied once the window is laid out on its screen.
        QTimer.singleShot(0, self, self._restore_dock_shares)

    def remember(self, settings: Settings) -> None:
        """Keep the window's geometry, layout and panel shares in `settings` (not saved here)."""
        window = self._window
        settings.window.geometry = bytes(window.saveGeometry().toBase64().data()).decode("ascii")
        settings.window.state = bytes(window.saveState().toBase64().data()).decode("ascii")
        settings.window.docks = ",".join(
            f"{dock.objectName()}={share:.3f}" for dock, share in self._dock_shares())

    def _fit_geometry_to_screen(self) -> None:
        window = self._window
        screen = window.screen().availableGeometry()
        if window.width() > screen.width() or window.height() > screen.height():
            window.resize(min(window.width(), screen.width()),
                          min(window.height(), screen.height()))
            window.move(max(screen.left(), min(window.x(), screen.right() - window.width())),
                        max(screen.top(), min(window.y(), screen.bottom() - window.height())))

    def _docks(self) -> list[tuple[QDockWidget, Qt.Orientation]]:
        """The docked panels with the direction their size is measured in."""
        found = []
        for dock in self._docks_shown:
            if dock.isHidden() or dock.isFloating():
                continue
            area = self._window.dockWidgetArea(dock)
            vertical = area in (Qt.DockWidgetArea.TopDockWidgetArea,
                                Qt.DockWidgetArea.BottomDockWidgetArea)
            found.append((dock, Qt.Orientation.Vertical if vertical
                          else Qt.Orientation.Horizontal))
        return found

    def _dock_shares(self) -> list[tuple[QDockWidget, float]]:
        window = self._window
        shares = []
        for dock, orientation in self._docks():
            if orientation == Qt.Orientation.Vertical:
                shares.append((dock, dock.height() / max(1, window.height())))
            else:
                shares.append((dock, dock.width() / max(1, window.width())))
        return shares

    def _restore_dock_shares(self) -> None:
        """Give each docked panel its saved share of this window, within its bounds (a layout
        saved at 1600x1000 came back at 720 px with Problems over most of the window)."""
        window = self._window
        for dock, orientation in self._docks():
            vertical = orientation == Qt.Orientation.Vertical
            whole = window.height() if vertical else window.width()
            now = dock.height() if vertical else dock.width()
            share = self._saved_shares.get(dock.objectName(), now / whole if whole else 0)
            low, high = DOCK_BOUNDS[dock.objectName()]
            size = round(min(max(share, low / whole if whole else 0), high) * whole)
            # Only ever smaller: a panel made larger than Qt laid it out widens the window past
            # the size it was given.
            if size < now:
                window.resizeDocks([dock], [size], orientation)

    def _fit_to_screen(self) -> None:
        """First start: a generous size that fits the screen (1366x768 included), centred."""
        window = self._window
        screen = window.screen().availableGeometry()
        width, height = min(1440, screen.width()), min(900, screen.height())
        window.resize(width, height)
        window.move(screen.x() + (screen.width() - width) // 2,
                    screen.y() + (screen.height() - height) // 2)
