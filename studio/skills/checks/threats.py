"""Threat findings: what in a skill's text or scripts could turn an agent against its user.

A skill is instructions an agent follows and scripts it runs. These rules flag what a reviewer
should look at before trusting one: characters a person cannot see (bidirectional controls,
zero-width and tag characters, which can hide or reorder instructions), instructions hidden in
HTML comments (a model reads them, a rendered page does not show them), a download or a decoded
blob piped into a shell, a URL that carries data out (built from the environment or a file, or a
webhook), and reads of credentials (SSH keys, cloud and registry tokens, secrets in the
environment). They are warnings with their own codes (SK5xx, docs/codes.md): a finding is a
reason to read the lines it points at, not proof of malice.

Cost is bounded: SKILL.md is already in memory, and each pattern runs only after a cheap
substring test finds a word it needs. The skill scanner (`studio.threatscan`) runs them on every
file of a skill through `text_threats`, and ranks each finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import studio.skills.checks.invisible as invisible
import studio.skills.checks.vendors as vendors
import studio.skills.codes as codes
from studio.skills.model import Diagnostic, Severity, Skill
from studio.skills.yaml.textpos import LineIndex

THREAT_PREFIX = "SK5"
# At most this many findings of one code in one file: one is enough to look, a hundred is noise.
MAX_PER_CODE = 5

class _Lazy:
    """A pattern compiled when first used: most skills never need these, and compiling all of
    them costs every process that imports the rules (each scan worker) some milliseconds."""

    __slots__ = ("_args", "_pattern")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._args = (source, flags)
        self._pattern: re.Pattern[str] | None = None

    def get(self) -> re.Pattern[str]:
        if self._pattern is None:
            self._pattern = re.compile(*self._args)
        return self._pattern


_HIDDEN = re.compile("[\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069\U000e0000-\U000e007f]")
# The same characters in UTF-8, by their first byte: a byte ASCII text never holds, so memchr
# (`bytes.find` of one byte) skips to the few places worth a look.
_HIDDEN_UTF8 = (
    (0xE2, re.compile(rb"\xe2(?:\x80[\x8b-\x8d\xaa-\xae]|\x81[\xa0\xa6-\xa9])")),
    (0xEF, re.compile(rb"\xef\xbb\xbf")),
    (0xF3, re.compile(rb"\xf3\xa0[\x80\x81]")),
)
# Past this many looks at one first byte (a text in Chinese, or a tree drawn in box characters,
# has thousands), the pattern searches the rest itself: it starts with a literal byte, and
# `re` steps to each in a tight loop, about 6 instructions a byte against 800 a look.
_HIDDEN_LOOKS = 4
_BOM_UTF8 = b"\xef\xbb\xbf"


def _may_hide(utf8: bytes, *, skip_bom: bool = False) -> bool:
    """Whether the UTF-8 text `utf8` holds a hidden character (`_HIDDEN`). With `skip_bom`, a
    byte-order mark as the first character is not counted (SK015 reports it on SKILL.md); any
    other first character is. Most real texts hold a few characters beyond ASCII (a dash,
    quotes, a check mark), and the pattern looks only where one starts (on 437 real SKILL.md,
    41k instructions a text against 169k for encoding the text, deleting ASCII and searching
    what was left)."""
    start = 3 if skip_bom and utf8.startswith(_BOM_UTF8) else 0
    find = utf8.find
    for lead, pattern in _HIDDEN_UTF8:
        at = find(lead, start)
        looks = _HIDDEN_LOOKS
        while at != -1:
            if not looks:
                if pattern.search(utf8, at) is not None:
                    return True
                break
            if pattern.match(utf8, at) is not None:
                return True
            looks -= 1
            at = find(lead, at + 1)
    return False


_HIDDEN_KIND = {
    **dict.fromkeys("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
                    "a bidirectional control, which can make text read in another order than it "
                    "runs"),
    **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff",
                    "an invisible zero-width character"),
}

# Comments that tools write into Markdown and that hold no instructions.
_TOOL_COMMENT = _Lazy(
    r"\s*(?:toc|/toc|end ?toc|prettier-ignore[\w-]*|markdownlint[\w-]*|vale [\w.-]+|"
    r"cspell:[^\n]*|lint[\w-]*|omit in toc|more|truncate|#region[^\n]*|#endregion)\s*\Z",
    re.IGNORECASE,
)
_WORD = _Lazy(r"[^\W\d_]{2,}")
_COMMENT_WORDS = 5

_SHELL = r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:/usr)?(?:/bin/)?(?:ba|z|da|k|fi|c|tc)?sh\b"
_PIPE_TO_SHELL = _Lazy(
    r"\b(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n|;&]*"
    r"\|\s*(?:" + _SHELL + r"|(?:sudo\s+)?python[0-9.]*\s*(?:-\s*)?(?:$|[|;&\n])|iex\b|"
    r"Invoke-Expression\b)"
    r"|\b(?:ba|z|da|k)?sh\s+(?:-c\s+)?[\"']?(?:<\(|\$\()\s*(?:curl|wget)\b"
    r"|\b(?:source|\.)\s+<\(\s*(?:curl|wget)\b"
    r"|\beval\s+[\"']?\$\(\s*(?:curl|wget)\b",
    re.MULTILINE,
)
_BASE64_TO_SHELL = _Lazy(
    r"\bbase64\s+(?:-\w*d\w*|--decode)\b[^\n;&]*\|\s*" + _SHELL
    + r"|\beval\s+[\"']?\$\([^)\n]*\bbase64\s+(?:-\w*d\w*|--decode)"
    + r"|\b(?:exec|eval)\s*\(\s*(?:base64\.b64decode|__import__\(\s*['\"]base64['\"]\s*\))"
    + r"|\b(?:exec|eval)\s*\(\s*(?:atob|Buffer\.from)\s*\(",
)
_WEBHOOK = _Lazy(
    r"https?://(?:hooks\.slack\.com/|(?:\w+\.)?discord(?:app)?\.com/api/webhooks/|webhook\.site/|"
    r"[\w-]+\.(?:requestbin\.(?:com|net)|pipedream\.net|m\.pipedream\.net|ngrok(?:-free)?\.(?:io|app)|"
    r"oast\.(?:fun|live|me|pro|site|online)|interact\.sh|burpcollaborator\.net)\b|"
    r"api\.telegram\.org/bot|[\w.-]*webhook[\w.-]*\.[a-z]{2,}/)",
    re.IGNORECASE,
)
_UPLOAD = _Lazy(
    r"\b(?:curl\b[^\n|;]*(?:\s(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form)\s*[\"']?[\w-]*=?@"
    r"|\s(?:-T|--upload-file)\s)|wget\b[^\n|;]*--post-file)"
)
_SECRET_FILE = _Lazy(
    r"(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|expanduser\(\s*['\"]~)?[/\\]?"
    r"(?:\.ssh(?:[/\\]|\b)|\.aws[/\\]credentials|\.netrc\b|\.git-credentials|\.docker[/\\]config\.json"
    r"|\.kube[/\\]config|\.pypirc|\.npmrc|\.config[/\\]gh[/\\]hosts\.yml|\.gnupg\b)"
    r"|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|/etc/shadow\b"
)
_SECRET_ENV = _Lazy(
    r"(?:\$\{?|environ(?:\.get)?\s*[\[(]\s*['\"]|getenv\s*\(\s*['\"]|process\.env\.|ENV\[\s*['\"])"
    r"([A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)"
    r"[A-Z0-9_]*)\b"
)
_SECRET_NAME = _Lazy(r"SECRET|TOKEN|PASSW|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL")
_SECRET_WORDS = (".ssh", "id_", ".aws", ".netrc", "credentials", ".docker", ".kube", ".pypirc",
                 ".npmrc", "hosts.yml", ".gnupg", "shadow")
_ENV_WORDS = ("SECRET", "TOKEN", "PASSW", "KEY", "CREDENTIAL")


def _codepoint(char: str) -> str:
    import unicodedata  # only when there is a finding to name

    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def _hidden(text: str, file: str, where: _Where, *, script: bool = False) -> Iterator[Diagnostic]:
    offsets = [match.start() for match in _HIDDEN.finditer(text)]
    ok = set() if script else invisible.accepted(text, offsets)
    shown = 0
    for offset in offsets:
        char = text[offset]
        if (char == "\ufeff" and offset == 0) or offset in ok:
            continue  # a byte-order mark (SK015 reports it on SKILL.md), or part of the text
        kind = _HIDDEN_KIND.get(char, "a Unicode tag character, invisible, which can spell out "
                                "text a model reads and a person does not see")
        line, column = where.position(offset)
        yield Diagnostic(
            codes.HIDDEN_UNICODE, Severity.WARNING,
            f"{_codepoint(char)}: {kind}. Remove it, or look at what it hides with a hex viewer",
            line, column, file=file,
        )
        shown += 1
        if shown >= MAX_PER_CODE:
            return


# Past this many `<` that start no comment (HTML, JSX), `str.find` looks for `<!--` itself.
_TAG_LOOKS = 8


def _comment_start(body: str, at: int) -> int:
    """Where the next `<!--` from `at` starts, or -1: memchr to each `<` (a text holds a few),
    several times cheaper than `str.find` of the four characters over the whole text."""
    find = body.find
    for _ in range(_TAG_LOOKS):
        at = find("<", at)
        if at == -1 or body.startswith("!--", at + 1):
            return at
        at += 1
    return find("<!--", at)


def _comments(body: str) -> Iterator[tuple[int, str]]:
    r"""Where each HTML comment of `body` starts, and what it holds: from `<!--` to the first
    `-->` after it, or to the end (what `<!--(.*?)(?:-->|\Z)` finds, with DOTALL). Found with
    `str.find`, which skips to each `<!--` several times faster than that pattern does."""
    find = body.find
    at = _comment_start(body, 0)
    while at != -1:
        end = find("-->", at + 4)
        if end == -1:
            yield at, body[at + 4:]
            return
        yield at, body[at + 4:end]
        at = _comment_start(body, end + 3)


def _html_comments(skill: Skill, where: _Where) -> Iterator[Diagnostic]:
    body = skill.body
    base = skill.body_span.start
    shown = 0
    for start, inside in _comments(body):
        # The word count first: most comments are a stamp of a word or two (a registry's
        # `<!-- tomevault:4.0:skill_md:... -->`), which the case-blind tool pattern reads slower.
        if len(_WORD.get().findall(inside)) < _COMMENT_WORDS or _TOOL_COMMENT.get().match(inside):
            continue
        line, column = where.position(base + start)
        words = " ".join(inside.split())
        excerpt = words if len(words) <= 60 else words[:57] + "..."
        yield Diagnostic(
            codes.HIDDEN_INSTRUCTIONS, Severity.WARNING,
            f"an HTML comment holds text a model reads and a rendered page hides: \"{excerpt}\". "
            "Move instructions into the visible text, or remove the comment",
            line, column, file=skill.skill_file_name,
        )
        shown += 1
        if shown >= MAX_PER_CODE:
            return


class _Where:
    """Line and column of offsets into one text: an index built only once several are asked."""

    __slots__ = ("_index", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._index: LineIndex | None = None

    def position(self, offset: int) -> tuple[int, int]:
        if self._index is None:
            self._index = LineIndex(self._text)
        return self._index.position(offset)


def _finding(code: str, message: str, offset: int, file: str, where: _Where,
             severity: Severity = Severity.WARNING) -> Diagnostic:
    line, column = where.position(offset)
    return Diagnostic(code, severity, message, line, column, file=file)


def _excerpt(text: str, start: int, end: int) -> str:
    shown = " ".join(text[start:end].split())
    return shown if len(shown) <= 70 else shown[:67] + "..."


# At most this many lines holding a trigger word are looked at in one file.
MAX_LINES = 200


def _line(text: str, at: int) -> tuple[int, int]:
    """The (start, end) of the line holding offset `at`, without its line break."""
    end = text.find("\n", at)
    return text.rfind("\n", 0, at) + 1, len(text) if end == -1 else end


class _Lines:
    """The lines of one text that hold each trigger word. A word is looked for once, however
    many patterns need it (`curl` and `wget`: a pipe into a shell, an upload): each look is a
    pass over the whole text."""

    __slots__ = ("_of", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._of: dict[str, list[tuple[int, int]]] = {}

    def _with(self, word: str) -> list[tuple[int, int]]:
        lines = self._of.get(word)
        if lines is None:
            text = self._text
            lines = self._of[word] = []
            at = text.find(word)
            while at != -1 and len(lines) < MAX_LINES:
                line = _line(text, at)
                lines.append(line)
                at = text.find(word, line[1])
        return lines

    def holding(self, words: tuple[str, ...]) -> list[tuple[int, int]]:
        """The (start, end) of each line holding one of `words`, in order: the patterns then run
        on those lines only, never over the whole text. At most MAX_LINES: the first lines of
        the first words."""
        starts: dict[int, int] = {}
        for word in words:
            for start, end in self._with(word):
                if len(starts) >= MAX_LINES:
                    break
                starts[start] = end
        return sorted(starts.items())


_URL_SCHEMES = ("http://", "https://")
# A URL ends at a backtick: in Markdown it closes the inline code the URL sits in, and where it
# opens a command substitution instead, `_substituted` finds it.
_URL_TOKEN = _Lazy(r"""https?://[^\s"'<>)`]*""")
_URL_BUILT = _Lazy(r"""\$\{?\w|\$\(|\{[^}\n]*(?:environ|getenv|env\b|open\(|read)""")
_BACKTICK_COMMAND = _Lazy(r"`[^`\n]+`")
_SHELL_WORDS = ("curl", "wget", "iwr", "irm", "Invoke-")
_ENCODED_WORDS = ("base64", "atob", "Buffer.from")
_UPLOAD_WORDS = ("curl", "wget")


def _commands(text: str, file: str, where: _Where, script: bool) -> Iterator[Diagnostic]:
    """Pipes into a shell, data sent out and (in scripts) credentials read. Each pattern runs
    only on the lines holding a word it needs."""
    found: list[Diagnostic] = []
    holding = _Lines(text)
    # Gates of rare characters: most texts pass none.
    # A needle of one character is found with memchr; a longer one costs ten times more, so
    # each longer test waits for its first character.
    piped = "|" in text or ("$" in text and "$(" in text) or ("<" in text and "<(" in text)
    if piped:
        found.extend(_to_shell(text, file, where, holding))
    if piped or (script and ("(base64" in text or "(atob" in text or "(Buffer" in text)):
        found.extend(_decoded(text, file, where, holding))
    urls = _url_lines(text, holding)
    if urls is not None:
        found.extend(_sent_out(text, file, where, holding, urls))
    if script:
        found.extend(_credentials(text, file, where, holding))
    # One finding of a code a line, and of each severity: an `info` one must not hide a warning.
    lines: set[tuple[str, int, Severity]] = set()
    counts: dict[tuple[str, Severity], int] = {}
    for finding in sorted(found, key=lambda d: (d.line, d.column)):
        key, kind = (finding.code, finding.line, finding.severity), (finding.code, finding.severity)
        if key in lines or counts.get(kind, 0) >= MAX_PER_CODE:
            continue
        lines.add(key)
        counts[kind] = counts.get(kind, 0) + 1
        yield finding


def _to_shell(text: str, file: str, where: _Where, lines: _Lines) -> Iterator[Diagnostic]:
    for start, end in lines.holding(_SHELL_WORDS):
        for match in _PIPE_TO_SHELL.get().finditer(text, start, end):
            command = match.group()
            if "|" not in command:  # `sh -c "$(curl ...)"`: the download ends at its `)`
                close = text.find(")", match.end(), end)
                command = text[match.start():end if close == -1 else close]
            if vendors.vendor_installer(command):
                yield _finding(
                    codes.PIPE_TO_SHELL,
                    f"`{_excerpt(text, *match.span())}` runs a vendor's own installer from its "
                    "own domain, as its install page says; what it installs runs as you",
                    match.start(), file, where, Severity.INFO)
                continue
            yield _finding(
                codes.PIPE_TO_SHELL,
                f"`{_excerpt(text, *match.span())}` runs whatever the server sends, unseen and "
                "unchecked. Download to a file, check it (a pinned hash), then run it",
                match.start(), file, where)


def _decoded(text: str, file: str, where: _Where, lines: _Lines) -> Iterator[Diagnostic]:
    for start, end in lines.holding(_ENCODED_WORDS):
        for match in _BASE64_TO_SHELL.get().finditer(text, start, end):
            yield _finding(
                codes.ENCODED_TO_SHELL,
                f"`{_excerpt(text, *match.span())}` runs code hidden in an encoded string. Write "
                "the code out in plain text",
                match.start(), file, where)


def _substituted(text: str, start: int, after: int, end: int) -> bool:
    """Whether the backtick that ends the URL at `start` (if one does) opens a command
    substitution: it does when the backticks before it on its line are paired (so it closes no
    inline code or substitution) and another closes it further on."""
    if after >= end or text[after] != "`":
        return False
    line = text.rfind("\n", 0, start) + 1
    opened = text.count("`", line, start) - text.count("\\`", line, start)
    return opened % 2 == 0 and _BACKTICK_COMMAND.get().match(text, after, end) is not None


_OWN_VENDOR = "its address carries a token to that token's own vendor, as the vendor's API asks"


def _url_lines(text: str, lines: _Lines) -> list[tuple[int, int]] | None:
    """The lines holding `http://` or `https://`, as `lines.holding` gives them, in one pass over
    the text for `://` (not one for each scheme); None when the text holds no `://`."""
    find = text.find
    at = find("://")
    if at == -1:
        return None
    starts: dict[int, int] = {}
    while at != -1:
        if (at >= 4 and text.startswith("http", at - 4)) or (
                at >= 5 and text.startswith("https", at - 5)):
            start, end = _line(text, at)
            starts[start] = end
            if len(starts) >= MAX_LINES:  # which lines are kept then depends on the order
                return lines.holding(_URL_SCHEMES)
            at = find("://", end)
        else:
            at = find("://", at + 3)
    return sorted(starts.items())


def _sent_out(text: str, file: str, where: _Where, lines: _Lines,
              urls: list[tuple[int, int]]) -> Iterator[Diagnostic]:
    sent: list[tuple[int, int, str]] = []
    webhook = _WEBHOOK.get()
    for start, end in urls:
        # A URL on a line without `$`, `{` or a backtick is neither built nor substituted: it
        # counts only as a webhook, and one search of the line tells there is none.
        if (text.find("$", start, end) == -1 and text.find("{", start, end) == -1
                and text.find("`", start, end) == -1 and webhook.search(text, start, end) is None):
            continue
        at = text.find("http", start, end)
        while at != -1:
            token = _URL_TOKEN.get().match(text, at, end)
            if token is not None:
                url = token.group()
                built = _URL_BUILT.get().search(url) if "$" in url else (
                    _URL_BUILT.get().search(text, at, end) if "{" in url else None)
                if built is not None and "$" in url and vendors.url_to_own_host(
                        url, _SECRET_NAME.get()):
                    sent.append((at, token.end(), _OWN_VENDOR))
                elif built is not None or _substituted(text, at, token.end(), end):
                    sent.append((at, token.end(), "its address is built from values read when "
                                 "it runs (a variable, a command's output or a file), which can "
                                 "carry them out"))
                elif webhook.match(text, at, end) is not None:
                    sent.append((at, token.end(), "it is a webhook or request collector, a "
                                 "common drop for stolen data"))
            at = text.find("http", at + 4, end)
    for start, end in lines.holding(_UPLOAD_WORDS):
        sent.extend((match.start(), match.end(), "it uploads a file's content")
                    for match in _UPLOAD.get().finditer(text, start, end))
    for start, end, why in sorted(sent):
        yield _finding(
            codes.DATA_OUT, f"`{_excerpt(text, start, end)}` may send data out: {why}. "
            "Check what it sends and to whom", start, file, where,
            Severity.INFO if why is _OWN_VENDOR else Severity.WARNING)


def _credentials(text: str, file: str, where: _Where, lines: _Lines) -> Iterator[Diagnostic]:
    for start, end in lines.holding(_SECRET_WORDS):
        for match in _SECRET_FILE.get().finditer(text, start, end):
            yield _finding(
                codes.READS_CREDENTIALS,
                f"`{_excerpt(text, *match.span())}`: reads credentials (SSH keys, cloud, "
                "registry or login tokens). A skill's script seldom needs them; check why",
                match.start(), file, where)
    hosts: list[str | None] | None = None
    for start, end in lines.holding(_ENV_WORDS):
        for match in _SECRET_ENV.get().finditer(text, start, end):
            name = match.group(1)
            if name in vendors.TOKEN_HOSTS:
                if hosts is None:  # every URL of the file, read once a vendor's token is
                    hosts = [vendors.host(url.group()) for url in _URL_TOKEN.get().finditer(text)]
                if vendors.token_to_own_host(name, hosts):
                    yield _finding(
                        codes.READS_CREDENTIALS,
                        f"reads the secret `{name}` from the environment, and sends it only to "
                        "its own vendor's hosts", match.start(), file, where, Severity.INFO)
                    continue
            yield _finding(
                codes.READS_CREDENTIALS,
                f"reads the secret `{name}` from the environment; check where it "
                "goes", match.start(), file, where)


def skill_file_threats(skill: Skill) -> list[Diagnostic]:
    """The threat findings in a skill's SKILL.md (already in memory)."""
    text = skill.source
    if not text:
        return []
    where = _Where(text)
    found: list[Diagnostic] = []
    name = skill.skill_file_name
    # An ASCII text (CPython knows it without a scan) holds no hidden character.
    if not text.isascii() and _may_hide(skill.source_bytes or text.encode("utf-8", "surrogatepass"),
                                        skip_bom=True):
        found.extend(_hidden(text, name, where))
    if "<" in text:
        found.extend(_html_comments(skill, where))
    found.extend(_commands(text, name, where, script=False))
    return found


def text_threats(text: str, relative: str) -> list[Diagnostic]:
    """The threat findings in the text of one of a skill's files (`relative` to its folder):
    hidden characters everywhere, and under `scripts/` and `references/` also pipes into a
    shell and data sent out, and under `scripts/` credentials read."""
    found: list[Diagnostic] = []
    where = _Where(text)
    script = relative.startswith("scripts/")
    if not text.isascii() and _may_hide(text.encode("utf-8", "surrogatepass")):
        found.extend(_hidden(text, relative, where, script=script))
    if script or relative.startswith("references/"):
        found.extend(_commands(text, relative, where, script=script))
    return found


def threats_rule(skill: Skill) -> list[Diagnostic]:
    """The validator's rule: SKILL.md only. A library scan runs it on every skill, and reading
    each skill's scripts costs it about 5% more (benchmarks/validate_corpus.py); every file is
    read where a person is about to trust the skill, by the scanner (`studio.threatscan`: the
    install preview, `studio scan`, a script's first run), which runs these rules on each file
    through `text_threats` and ranks what they find. A list, not a generator: the validator
    extends its list with it, for every skill."""
    return skill_file_threats(skill)
