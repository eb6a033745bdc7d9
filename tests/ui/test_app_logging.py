"""The window's log goes to its log file; the terminal that started it gets warnings and errors
only (not every HTTP request)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.ui.app import configure_logging


@pytest.fixture
def root_logger() -> Iterator[logging.Logger]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield root
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def test_info_goes_to_the_log_file_and_warnings_to_the_terminal_too(
        root_logger: logging.Logger, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log_file = tmp_path / "data" / "studio.log"
    assert configure_logging(log_file) == log_file
    logging.getLogger("httpx").info('HTTP Request: POST http://127.0.0.1:11434/api/chat "200 OK"')
    logging.getLogger("studio.ui").warning("the scan of a folder stopped")
    for handler in root_logger.handlers:
        handler.flush()
    terminal = capsys.readouterr().err
    assert "HTTP Request" not in terminal
    assert "the scan of a folder stopped" in terminal
    written = log_file.read_text(encoding="utf-8")
    assert "HTTP Request: POST" in written and "the scan of a folder stopped" in written


def test_a_log_file_that_cannot_be_written_leaves_the_terminal_handler(
        root_logger: logging.Logger, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert configure_logging(blocked / "studio.log") is None
    assert "the log cannot be written" in capsys.readouterr().err
