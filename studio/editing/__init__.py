"""Editing text in the studio, without Qt: frontmatter edits, offsets between Python and Qt,
autosaves of unsaved edits."""
