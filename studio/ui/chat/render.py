"""Chat messages as HTML for Qt's rich text: markdown-it-py (CommonMark, tables, strikethrough)
with Pygments for fenced code.

A message is rendered again while it streams, so the costly part, highlighting code, is cached by
block: only the block still growing is highlighted again. Raw HTML from the model is shown as
text, never interpreted.
"""

from __future__ import annotations

from functools import cache, lru_cache

from markdown_it import MarkdownIt
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from studio.ui.theme import is_dark

LIGHT_CSS = """
p, ul, ol, pre, table, blockquote { margin-top: 4px; margin-bottom: 4px; }
h1 { font-size: 14pt; } h2 { font-size: 12.5pt; } h3, h4, h5, h6 { font-size: 11pt; }
h1, h2, h3, h4, h5, h6 { margin-top: 8px; margin-bottom: 4px; }
code { background-color: #eceff2; font-family: monospace; }
pre { background-color: #f3f5f7; font-family: monospace; white-space: pre-wrap; }
th { background-color: #eceff2; }
th, td { border: 1px solid #cdd3da; padding: 3px 6px; }
blockquote { color: #57606a; margin-left: 10px; }
a { color: #0969da; }
"""
DARK_CSS = (LIGHT_CSS.replace("#eceff2", "#2d333b").replace("#f3f5f7", "#22272e")
            .replace("#cdd3da", "#444c56").replace("#57606a", "#9da7b3")
            .replace("#0969da", "#58a6ff"))


def stylesheet() -> str:
    return DARK_CSS if is_dark() else LIGHT_CSS


@lru_cache(maxsize=256)
def _highlighted(code: str, language: str, dark: bool) -> str:
    try:
        lexer = get_lexer_by_name(language)
    except ClassNotFound:
        return ""
    try:
        formatter = HtmlFormatter(noclasses=True, nowrap=True,
                                  style="github-dark" if dark else "default")
    except ClassNotFound:
        formatter = HtmlFormatter(noclasses=True, nowrap=True)
    text: str = highlight(code, lexer, formatter)
    return f"<pre>{text}</pre>"


def _highlight_code(code: str, language: str, _attrs: object) -> str:
    if not language:
        return ""
    return _highlighted(code, language.split()[0].lower(), is_dark())


@cache
def _renderer() -> MarkdownIt:
    return MarkdownIt("commonmark", {"highlight": _highlight_code, "html": False}).enable(
        ["table", "strikethrough"])


def render_markdown(text: str) -> str:
    """`text` (Markdown, possibly cut off mid-stream) as HTML for a QTextDocument."""
    rendered: str = _renderer().render(text)
    # Qt draws table cell borders only with these attributes; CSS alone leaves them out.
    return rendered.replace("<table>", '<table cellspacing="0" cellpadding="4" width="100%">')
