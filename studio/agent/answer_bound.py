"""The most one chat answer may take, declared once for the session, the settings and the CLI:
tokens the model streams (its text and thinking, a fork's included) and seconds from the
question to the end (tool runs and approvals included). Past either the session ends the answer
with a message saying which bound was reached."""

from __future__ import annotations

MAX_ANSWER_TOKENS = 8192
MAX_ANSWER_SECONDS = 600
# As (lowest, highest) the settings accept.
ANSWER_TOKENS_RANGE = (256, 1_048_576)
ANSWER_SECONDS_RANGE = (10, 86_400)
