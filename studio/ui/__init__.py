"""The studio window (PySide6). Everything Qt lives below this package; the core knows nothing of it."""
