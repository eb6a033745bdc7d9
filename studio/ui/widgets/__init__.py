"""The studio window's widgets: library, editor tabs, problems."""
