"""Editing text in the studio, without Qt: frontmatter edits, offsets between Python and Qt,
copies of unsaved edits kept for recovery after a crash."""
