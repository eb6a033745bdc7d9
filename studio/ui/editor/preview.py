"""The rendered Markdown of a skill: markdown-it-py (CommonMark + tables), Pygments for code."""

from __future__ import annotations

import html
from functools import cache

from markdown_it import MarkdownIt
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QWidget

from studio.ui.theme import is_dark

LIGHT_CSS = """
body { font-size: 10.5pt; }
h1, h2, h3 { color: #1f2328; margin-top: 14px; }
code { background-color: #eff1f3; font-family: monospace; }
pre { background-color: #f6f8fa; padding: 8px; font-family: monospace; }
table { border-collapse: collapse; }
th { background-color: #eff1f3; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; }
blockquote { color: #57606a; margin-left: 12px; }
table.frontmatter { margin-bottom: 12px; }
table.frontmatter th { width: 90px; }
"""
DARK_CSS = (LIGHT_CSS.replace("#1f2328", "#e6edf3").replace("#eff1f3", "#30363d")
            .replace("#f6f8fa", "#1c2128").replace("#d0d7de", "#444c56")
            .replace("#57606a", "#9da7b3").replace("#6e7781", "#8b949e"))


def _highlight_code(code: str, language: str, _attrs: object) -> str:
    try:
        lexer = get_lexer_by_name(language or "text")
    except ClassNotFound:
        return ""
    style = "github-dark" if is_dark() else "default"
    try:
        formatter = HtmlFormatter(noclasses=True, nowrap=True, style=style)
    except ClassNotFound:
        formatter = HtmlFormatter(noclasses=True, nowrap=True)
    highlighted: str = highlight(code, lexer, formatter)
    return f"<pre>{highlighted}</pre>"


@cache
def _renderer() -> MarkdownIt:
    return MarkdownIt("commonmark", {"highlight": _highlight_code, "html": False}).enable("table")


def render_markdown(body: str) -> str:
    """The body as HTML, with fenced code blocks highlighted."""
    rendered: str = _renderer().render(body)
    return rendered


def render_skill(name: str | None, description: str | None, body: str) -> str:
    """A skill's name and description as a header, then its body."""
    rows = [(key, value) for key, value in (("name", name), ("description", description))
            if value]
    parts = []
    if rows:
        parts.append("<table class='frontmatter' width='100%'>")
        parts.extend(f"<tr><th align='left'>{key}</th><td>{html.escape(value)}</td></tr>"
                     for key, value in rows if value is not None)
        parts.append("</table>")
    parts.append(render_markdown(body))
    return "".join(parts)


class PreviewView(QTextBrowser):
    """Shows rendered Markdown; links to files of the skill are reported, not followed.

    Signals:
        link_clicked: carries the link's target as written (e.g. `references/api.md`).
    """

    link_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._on_self_anchor_clicked)
        self._html = ""

    def show_skill(self, name: str | None, description: str | None, body: str) -> None:
        rendered = render_skill(name, description, body)
        if rendered == self._html:
            return
        self._html = rendered
        scroll = self.verticalScrollBar().value()
        self.document().setDefaultStyleSheet(DARK_CSS if is_dark() else LIGHT_CSS)
        self.setHtml(rendered)
        self.verticalScrollBar().setValue(scroll)

    def forget(self) -> None:
        """Render again next time even if the text is the same (the palette changed)."""
        self._html = ""

    def _on_self_anchor_clicked(self, url: QUrl) -> None:
        self.link_clicked.emit(url.toString())
