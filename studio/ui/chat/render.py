"""Chat messages as HTML for Qt's rich text: markdown-it-py (CommonMark, tables, strikethrough)
with Pygments for fenced code.

A message is rendered again while it streams, so rendering keeps its costs bounded: finished
blocks can be split off and set aside (`render_finished_blocks`), a code block is highlighted
only once its closing fence has arrived (and then cached), and a language name still being typed
("pyt…") never sets off a lexer lookup. Raw HTML from the model is shown as text, never
interpreted, and so are bidi overrides, zero-width and control characters: each is a visible
marker (`<U+202E>`, `studio.textshow`), the joiners of emoji and of words kept.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from functools import cache, lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_all_lexers, get_lexer_by_name
from pygments.util import ClassNotFound

from studio.textshow import shown_in_html
from studio.ui import collector
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

# The languages models write most; `warm_up` prepares their lexers before the first answer.
COMMON_LANGUAGES = ("python", "bash", "json", "yaml", "javascript", "markdown", "text")

# Lines as markdown-it counts them: it treats "\r\n", "\r" and "\n" alike.
_LINES = re.compile(r".*?(?:\r\n|\r|\n)|.+$", re.DOTALL)
# A lexer's first use compiles its regular expressions; two threads must not do that at once.
_lexer_lock = threading.Lock()


def stylesheet() -> str:
    return DARK_CSS if is_dark() else LIGHT_CSS


@cache
def _known_languages() -> frozenset[str]:
    return frozenset(alias.lower() for _name, aliases, _files, _types in get_all_lexers()
                     for alias in aliases)


@cache
def _lexer(language: str) -> Lexer | None:
    if language not in _known_languages():
        return None
    with _lexer_lock:
        try:
            return get_lexer_by_name(language)
        except ClassNotFound:
            return None


def warm_up() -> None:
    """Load the common lexers (a first use costs tens of milliseconds each); run it in a thread
    so that the first code block of an answer does not stall the window. Their imports make tens
    of thousands of objects that live as long as the process: a collection in the middle would
    hold the interpreter lock, and so the window, for its whole walk; after, they are exempted."""
    with collector.paused():
        for language in COMMON_LANGUAGES:
            _lexer(language)
    collector.settle()


@lru_cache(maxsize=256)
def _highlighted(code: str, language: str, dark: bool) -> str:
    lexer = _lexer(language)
    if lexer is None:
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


def _for_qt(rendered: str) -> str:
    # Qt draws table cell borders only with these attributes; CSS alone leaves them out.
    return rendered.replace("<table>", '<table cellspacing="0" cellpadding="4" width="100%">')


def _plain_if_open(tokens: Sequence[Token], lines: Sequence[str]) -> None:
    """Show a code block whose closing fence has not arrived yet without highlighting."""
    for token in reversed(tokens):
        if token.type == "fence" and token.map:
            closing = lines[token.map[1] - 1].strip() if token.map[1] - 1 > token.map[0] else ""
            if not (closing.startswith(token.markup) and set(closing) == {token.markup[0]}):
                token.info = ""
            return
        if token.level == 0 and token.nesting != -1:
            return


def _render(tokens: Sequence[Token]) -> str:
    md = _renderer()
    return shown_in_html(_for_qt(md.renderer.render(tokens, md.options, {})))


def render_markdown(text: str) -> str:
    """`text` (Markdown, possibly cut off mid-stream) as HTML for a QTextDocument."""
    with collector.paused():
        tokens = _renderer().parse(text)
        _plain_if_open(tokens, _LINES.findall(text))
        return _render(tokens)


def render_finished_blocks(text: str, at_least: int) -> tuple[str, int, str]:
    """Split streaming Markdown where its finished top-level blocks end, and render both parts.

    Returns (HTML of the finished blocks, how many characters of `text` they cover, HTML of the
    rest). A block counts as finished once another top-level block has started after a blank
    line, so later text can no longer change it; the split is made only when the finished part
    is at least `at_least` characters long (else the first two values are "" and 0).
    """
    with collector.paused():
        tokens = _renderer().parse(text)
        lines = _LINES.findall(text)
        _plain_if_open(tokens, lines)
        for index in range(len(tokens) - 1, 0, -1):
            token = tokens[index]
            if token.level != 0 or token.nesting == -1 or not token.map:
                continue
            line = token.map[0]
            if line == 0 or lines[line - 1].strip():
                continue
            covered = sum(len(part) for part in lines[:line])
            if covered < at_least:
                break
            return _render(tokens[:index]), covered, _render(tokens[index:])
        return "", 0, _render(tokens)
