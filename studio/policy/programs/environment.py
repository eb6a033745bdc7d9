"""Environment variables a command line sets: `NAME=value cmd`, `env NAME=value`, `export`,
`declare -x`. Programs read their environment for far more than their options say (git alone
reads a hundred `GIT_*` names, several of which name files it reads, writes or runs), so what is
allowed is a list of names known to be harmless, each with the values it may take: locale, time
zone, colour, terminal size. Any other name asks and is never covered by a grant; a name that
makes a program load code or read a file says so, and its value is checked as a path.

A bare assignment (`x=1`, no command after it) sets a shell variable, which reaches a program
only when the name is exported. The names the runs export, and those bash itself reads (`IFS`,
`CDPATH`, `PS4`), are upper case; a name with a lower-case letter is a shell variable of the
command line's own, except the proxy settings network tools read in lower case.
"""

from __future__ import annotations

import re

from studio.policy.programs.call import Call
from studio.policy.shell.expand import Arg

# Locale names as glibc takes them without a `/` (which makes one a path to locale files):
# `C`, `POSIX`, `C.UTF-8`, `en_US.UTF-8`, `de_DE@euro`.
_LOCALE = re.compile(r"[A-Za-z0-9_.@-]{0,64}")
# Time zones by name (`UTC`, `Europe/Paris`, `EST5EDT,M3.2.0,M11.1.0`, `<+03>-3`); never a path
# from the root or with `..`, which glibc reads as a zone file anywhere.
_ZONE = re.compile(r"(?!:?/)(?!.*\.\.)[A-Za-z0-9_+\-:,.<>/]{0,64}")
_NUMBER = re.compile(r"\d{1,6}")
_FLAG = re.compile(r"[A-Za-z0-9]{0,16}")
_TERMINAL = re.compile(r"[A-Za-z0-9._+-]{1,64}")

HARMLESS: dict[str, re.Pattern[str]] = {
    "LANG": _LOCALE,
    "LC_ALL": _LOCALE,
    "LANGUAGE": re.compile(r"[A-Za-z0-9_.@:-]{0,128}"),
    "TZ": _ZONE,
    "NO_COLOR": _FLAG,
    "CLICOLOR": _FLAG,
    "CLICOLOR_FORCE": _FLAG,
    "FORCE_COLOR": _FLAG,
    "COLORTERM": _FLAG,
    "COLUMNS": _NUMBER,
    "LINES": _NUMBER,
    "TERM": _TERMINAL,
}
_LOCALE_CATEGORIES = (
    "CTYPE COLLATE MESSAGES NUMERIC TIME MONETARY PAPER NAME ADDRESS TELEPHONE MEASUREMENT IDENTIFICATION"
)
HARMLESS.update({f"LC_{category}": _LOCALE for category in _LOCALE_CATEGORIES.split()})

# Names that make a program load code, read or write a file, or run a command: said so in the
# question. Knowing them only sharpens the message; any name not in HARMLESS asks anyway.
_LOADING = re.compile(
    r"(?:LD|DYLD|GIT|PYTHON|PERL|RUBY|NODE|NPM|XDG|BASH|JAVA|GCONV|LESS|RIPGREP|GREP|MANPAGER)_?.*"
    r"|.*(?:PATH|_HOME|_DIR|_DIRS|_FILE|_CONFIG.*|RC|_OPTIONS|OPTS?|_COMMAND|ASKPASS|_PRELOAD|_LIB.*)"
    r"|LOCPATH|NLSPATH|ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|HOME|TMPDIR|PAGER|EDITOR|VISUAL"
    r"|BROWSER|TERMINFO.*|POSIXLY_CORRECT|GLOBIGNORE|EXECIGNORE"
)
# Names whose value is a file the program writes to (trace and log files).
_WRITES = re.compile(r"GIT_TRACE.*|.*LOG_?FILE|LD_DEBUG_OUTPUT|MALLOC_TRACE|HISTFILE|LESSHISTFILE")
_PROXY = re.compile(r"(?i).*_proxy")


def harmless(name: str, value: Arg | None) -> bool:
    """Whether setting `name` to `value` for a program is known to change nothing but how it
    formats its output."""
    pattern = HARMLESS.get(name)
    return (
        pattern is not None
        and value is not None
        and value.known
        and value.exact
        and pattern.fullmatch(value.text) is not None
    )


def shell_variable(name: str) -> bool:
    """A name no program or bash itself reads from the environment: one with a lower-case letter
    (the proxy settings aside)."""
    return name != name.upper() and _PROXY.fullmatch(name) is None


def setting(call: Call, name: str, value: Arg | None, *, exported: bool, verb: str = "sets") -> None:
    """Judge `name=value` set for a program (`exported`) or as a shell variable."""
    if harmless(name, value) or (not exported and shell_variable(name)):
        return
    if name in HARMLESS:
        shown_value = value.raw if value is not None else ""
        call.ask(
            "indirection",
            f"{verb} `{name}` to `{shown_value}`, which is not a plain {_WHAT[name]}: a value with "
            "a `/` or `..` can make a program read files",
        )
        return
    if _LOADING.fullmatch(name):
        call.ask(
            "indirection",
            f"{verb} `{name}`, which can make a program load code, run a command or read a file it "
            "names; only locale, time zone, colour and terminal-size settings are allowed unasked",
        )
    elif exported:
        call.ask(
            "indirection",
            f"{verb} `{name}` for the command, an environment variable the policy does not know to "
            "be harmless (only locale, time zone, colour and terminal-size settings are allowed "
            "unasked)",
        )
    elif _PROXY.fullmatch(name):
        call.ask("indirection", f"{verb} `{name}`, which tells network tools where to send their traffic")
    else:
        call.ask(
            "indirection",
            f"{verb} `{name}`, an upper-case name that bash or a program may read from the "
            "environment; use a lower-case name for a variable of your own",
        )
    if value is not None:
        _value_paths(call, name, value)


def unsetting(call: Call, name: str) -> None:
    """`env -u NAME`: taking away a setting the run gives (git's, for one) changes what runs."""
    if name not in HARMLESS:
        call.ask(
            "indirection",
            f"unsets `{name}`; the runs set some variables (git's safe settings among them) that "
            "programs rely on",
        )


def _value_paths(call: Call, name: str, value: Arg) -> None:
    """A value that names files (`GIT_GRAFT_FILE=/etc/shadow`, `GIT_TRACE=SKILL.md`) is checked
    as the paths it names: a credential blocks, a skill file written over blocks."""
    if not value.known:
        call.dynamic(value, f"sets `{name}` to")
        return
    writes = _WRITES.fullmatch(name) is not None
    for piece in value.text.split(":"):
        if not _path_like(piece):
            continue
        arg = Arg(piece, value.raw, value.exact, value.known, value.expanded, value.quoted)
        if writes:
            call.write(arg, f"has `{name}` write to")
        else:
            call.touch(arg)


def _path_like(text: str) -> bool:
    return "/" in text or text.startswith((".", "~")) or text.lower().endswith(".md")


_WHAT = {
    name: "locale name" if name.startswith(("LANG", "LC_")) else "time zone" if name == "TZ"
    else "number" if name in ("COLUMNS", "LINES") else "setting"
    for name in HARMLESS
}
