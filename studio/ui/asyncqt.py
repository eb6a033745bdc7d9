"""Awaiting Qt dialogs from coroutines without nested event loops.

`QDialog.exec()` inside a coroutine runs a second event loop; when another task wakes inside it,
qasync fails with "Cannot enter into task". Dialogs are therefore opened with `open()` and the
coroutine awaits a future that the dialog's `finished` signal resolves.
"""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QAbstractButton, QDialog, QMessageBox


async def ask(dialog: QDialog) -> int:
    """Open `dialog` (window-modal) and return its result code once it is closed.

    Cancelling the awaiting task rejects the dialog, so no dialog outlives the question it asked.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[int] = loop.create_future()

    def on_finished(result: int) -> None:
        if not future.done():
            future.set_result(result)

    dialog.finished.connect(on_finished)
    dialog.open()
    try:
        return await future
    except asyncio.CancelledError:
        dialog.reject()
        raise
    finally:
        dialog.finished.disconnect(on_finished)


async def choose(box: QMessageBox) -> QAbstractButton | None:
    """Open a message box and return the button the user clicked (None if it was dismissed)."""
    await ask(box)
    return box.clickedButton()


async def answer(box: QMessageBox) -> QMessageBox.StandardButton:
    """Open a message box and return the standard button clicked (Cancel if it was dismissed)."""
    clicked = await choose(box)
    if clicked is None:
        return QMessageBox.StandardButton.Cancel
    return box.standardButton(clicked)


async def confirmed(box: QMessageBox) -> bool:
    """Ask a yes-or-no question: True only when the user clicked Yes."""
    return await answer(box) == QMessageBox.StandardButton.Yes
