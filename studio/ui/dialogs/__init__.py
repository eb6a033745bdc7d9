"""The studio's dialogs, all opened with `open()` and awaited (see `studio.ui.asyncqt`)."""
