"""The base of the errors the studio raises on purpose.

A `StudioError`'s text is written for whoever reads it (the user, or the model for a tool call):
what went wrong and what to do next, so a front end shows it as it is. The command line prints an
uncaught one as `studio COMMAND: message` and exits 2, without a traceback; a traceback is kept
for what no one meant to raise (a bug). Errors that callers catch as a standard error derive from
both (`class RefusedWrite(OSError, StudioError)`), so `except OSError` keeps catching them.

Not under it: signals a module raises and catches itself (a parser giving up on a line, a
checker's budget running out), which never reach a person as errors.
"""

from __future__ import annotations

__all__ = ["StudioError"]


class StudioError(Exception):
    """An error whose message a person can act on; `user_message` is that message."""

    @property
    def user_message(self) -> str:
        return str(self)
