"""The name field's message, said as the user types."""

from __future__ import annotations

import pytest

from studio.ui.editor.frontmatter_form import name_message


@pytest.mark.parametrize(("typed", "message"), [
    ("pdf-tools", ""),
    ("PDF-tools", "Uppercase letters: use `pdf-tools`."),
    ("pdf tools", "Characters other than letters, digits and hyphens (' '): use `pdf-tools`."),
    ("", "A name is required: lowercase letters, digits and hyphens, like `pdf-tools`."),
    ("other", "The folder is named `pdf-tools`; the name must match it. Rename the skill (F2) "
              "to change both."),
])
def test_the_name_message_says_what_is_wrong_at_once(typed: str, message: str) -> None:
    assert name_message(typed, "pdf-tools")[0] == message
