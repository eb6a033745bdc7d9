"""Shell, read with the policy's own parser (`studio.policy.parse_shell`): the same reading of a
command line the agent's tool policy judges it by, so a pipeline, a substitution or a redirect
is what bash would make of it, whatever its quoting or spacing. Rules look at programs and
their arguments, never at words inside quoted text."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from studio.policy import Lit, Script, SimpleCommand, Word, parse_shell
from studio.skills import codes
from studio.skills.checks import vendor_installer
from studio.threatscan import places
from studio.threatscan.findings import Finding, excerpt
from studio.threatscan.registry import rule
from studio.threatscan.source import Source

PERSISTENCE = codes.PERSISTENCE
DESTRUCTIVE = codes.DESTRUCTIVE
REVERSE_SHELL = codes.REVERSE_SHELL
EXHAUSTION = codes.EXHAUSTION
SENT_SECRETS = codes.SECRETS_SENT

SHELL_KINDS = ("shell",)
_WRAPPERS = frozenset({"sudo", "env", "nohup", "command", "exec", "time", "nice", "doas", "xargs"})
INTERPRETERS = re.compile(r"^(?:ba|z|da|k|fi|c|tc)?sh$|^python[0-9.]*$|^perl$|^ruby$|^node$|^php$"
                          r"|^pwsh$|^powershell$|^bun$|^deno$|^osascript$")
DOWNLOADERS = frozenset({"curl", "wget", "fetch", "iwr", "irm", "Invoke-WebRequest",
                         "Invoke-RestMethod", "aria2c", "http", "https", "xh"})
_NETWORK = DOWNLOADERS | {"nc", "ncat", "netcat", "socat", "scp", "rsync", "ftp", "sftp", "telnet"}
_WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
_SIZE = re.compile(r"^(\d+)([KMGTP]?)i?B?$", re.IGNORECASE)


def _literal(word: Word) -> str:
    parts = word.parts
    if len(parts) == 1 and type(parts[0]) is Lit:  # most words: `Word.literal` of one part
        return parts[0].text
    value = word.literal
    return value if value is not None else word.raw


def _scripts(command: SimpleCommand) -> tuple[Script, ...]:
    """`command.scripts`, at once for a command of literal words only (most commands)."""
    if command.assignments or command.redirects:
        return command.scripts
    for word in command.words:
        for part in word.parts:
            if type(part) is not Lit:
                return command.scripts
    return ()


def program(command: SimpleCommand) -> tuple[str, list[str]]:
    """The program a command runs (past `sudo`, `env` and the like) and its arguments."""
    return _program([_literal(word) for word in command.words])


def _program(words: list[str]) -> tuple[str, list[str]]:
    """`program` of a command's words, each `_literal`."""
    while words:
        name = posixpath.basename(words[0])
        if name not in _WRAPPERS:
            return name, words[1:]
        rest = words[1:]
        while rest and (rest[0].startswith("-") or "=" in rest[0]):
            rest = rest[1:]
        if not rest:  # `env` alone prints the environment; `sudo -v` runs nothing else
            return name, words[1:]
        words = rest
    return "", []


_DECODERS = frozenset({"base64", "b64decode", "openssl", "xxd", "uudecode", "gunzip", "zcat", "rev",
                       "basenc"})


def _decoder(name: str, args: list[str]) -> bool:
    if name == "base64" or name == "b64decode":
        return any(a in ("--decode", "-D") or (a.startswith("-") and not a.startswith("--")
                                                and ("d" in a or "D" in a)) for a in args)
    if name == "openssl":
        return "-d" in args or "-base64" in args or "base64" in args
    if name == "xxd":
        return any(a.startswith("-r") for a in args)
    return name in ("uudecode", "gunzip", "zcat", "rev", "basenc")


def _interpreter(name: str, args: list[str]) -> bool:
    if name in ("eval", "source", ".", "iex", "Invoke-Expression"):
        return True
    return INTERPRETERS.match(name) is not None


def _commands(script: Script) -> Iterator[tuple[SimpleCommand, Script]]:
    for command in script.commands:
        yield command, script
        for nested in _scripts(command):
            yield from _commands(nested)


def _pipelines(script: Script) -> Iterator[list[SimpleCommand]]:
    run: list[SimpleCommand] = []
    for command in script.commands:
        if run and command.pipe_in:
            run.append(command)
        else:
            if len(run) > 1:
                yield run
            run = [command]
        for nested in _scripts(command):
            yield from _pipelines(nested)
    if len(run) > 1:
        yield run


def _runs(script: Script, test: str) -> bool:
    """Whether a command in `script` (nested ones included) downloads (`test` "download") or
    decodes ("decode")."""
    for command, _ in _commands(script):
        name, args = program(command)
        if (name in DOWNLOADERS) if test == "download" else _decoder(name, args):
            return True
    return False


def _find(source: Source, command: SimpleCommand, code: str, severity: str, confidence: float,
          message: str) -> Finding:
    text = command.text
    at = source.text.find(text) if text else -1
    line, column = source.position(max(at, 0))
    return Finding(code, severity, confidence, source.file, line, column, message, excerpt(text))


# Every shape the rules find needs one of these words or a persistence place; most shell code
# quoted in skills holds neither, and is not parsed at all.
# Downloads, decoders and the environment matter only when their output goes on: into a pipe
# or a substitution.
_FLOW_PROGRAMS = re.compile(
    r"\b(?:curl|wget|fetch|iwr|irm|aria2c|base64|b64decode|openssl|xxd|uudecode|gunzip|zcat|basenc|"
    r"printenv|rev|env|cat|tar|zip|gzip|http|https|xh|Invoke-\w+)\b(?![.:/=-])"
)
_FLOW_MARKS = ("|", "$(", "`", "<(")
_LITERAL_WORDS = ("/dev/tcp", "/dev/udp", "ncat", "netcat", "socat", "crontab", "launchctl",
                  "systemctl", "fallocate", "(){", "() {", "dd ", "nc ", "yes ")
_HOME_DELETE = re.compile(r"\brm\s+-\w*[rR]")


def _triggered(text: str) -> bool:
    if any(mark in text for mark in _FLOW_MARKS) and _FLOW_PROGRAMS.search(text) is not None:
        return True
    if any(word in text for word in _LITERAL_WORDS):
        return True
    if any(mark in text for mark in ("@", " -T", "upload-file", "post-file", "scp ", "rsync ")) and (
            places.SENSITIVE.search(text) is not None):
        return True
    return ("~" in text or "HOME" in text or " /" in text) and _HOME_DELETE.search(text) is not None


# What `may_find` reads words by. A word of the parser's is one of the lexer's runs between
# these characters (its `_WORD_END`, and the backquote that ends a backquoted command's text);
# all white space counts here, which only splits more.
_WORD_GAPS = re.compile(r"[^\s;&|<>()`]+")
# Quotes and backslashes leave a literal word; a line continuation (backslash, newline) joins its
# two sides into one word, or, in a comment, ends the comment's line: marked, read both ways.
_DROPPED = str.maketrans({"'": None, '"': None, "\\": None})
_JOINED = "\x00"
_PIPE_FIRST = frozenset({"env", "printenv", "cat", "tar", "zip", "base64", "gzip"}) | _DECODERS | DOWNLOADERS
_DECODE_OR_FETCH = _DECODERS | DOWNLOADERS
_UPLOADERS = DOWNLOADERS | {"scp", "rsync", "nc", "ncat", "netcat"}
_RULED = frozenset({"nc", "ncat", "netcat", "socat", "rm", "crontab", "launchctl", "systemctl", "dd",
                    "fallocate", "yes"})
_INTERPRETER_NAMES = frozenset({"eval", "source", ".", "iex", "Invoke-Expression"})
# What every path `places.SENSITIVE` finds holds, lowercased.
_SENSITIVE_WORDS = ("ssh", "id_", "aws", "gnupg", "netrc", "git-credentials", "docker", "kube",
                    "pypirc", "npmrc", "wallet", "bitcoin", "ethereum", "keystore", "xodus",
                    "lectrum", "metamask", "nkbihf", "login", "cookies", "key4", "chrome",
                    "brave", "mozilla", "firefox", "history", "shadow", "keychain", "gh/hosts",
                    ".env")
_PLACE_WORDS = places.PLACE_WORDS
_EMPTY_PARENS = re.compile(r"\(\s*\)")


def may_find(text: str) -> bool:
    """False only when no shell rule can find anything in `text`, whatever the parser makes of
    it: most shell code quoted in skills passes `_triggered` on a common word ("dd " in "add ",
    a pipe and a `cat`) and holds no program a rule asks for; this spares it the parse.

    Every rule asks for a program by name (the last part of a literal word, past any `/`), a
    path by a word it holds, or a function. A literal word is its raw text less quotes and
    backslashes, so each name a rule asks for stands in the text so stripped, between two of
    `_WORD_GAPS`'s characters (or a `/` before it, a line continuation either side); the words
    a path rule needs (`places.PLACE_WORDS`, `_SENSITIVE_WORDS`) stand in it too. `$'...'` and
    `$"..."` decode or translate their text: such a text is always parsed."""
    if "$'" in text or '$"' in text or _JOINED in text:
        return True
    plain = text.replace("\\\n", _JOINED).translate(_DROPPED)
    names = _names(plain)
    if _JOINED in plain:
        plain = plain.replace(_JOINED, "")
    if "|" in text and not names.isdisjoint(_PIPE_FIRST) and (
            not names.isdisjoint(_NETWORK) or _interpreters(names)):
        return True
    if ("$(" in text or "`" in text or "<(" in text or ">(" in text) and (
            not names.isdisjoint(_DECODE_OR_FETCH) and _interpreters(names)):
        return True
    if not names.isdisjoint(_UPLOADERS):
        lowered = plain.lower()
        if any(word in lowered for word in _SENSITIVE_WORDS):
            return True
    if not names.isdisjoint(_RULED) or "/dev/tcp/" in plain or "/dev/udp/" in plain:
        return True
    if any(word in plain for word in _PLACE_WORDS):
        return True
    return "function" in text or _EMPTY_PARENS.search(plain) is not None


def _names(plain: str) -> set[str]:
    """The last part (past any `/`) of each word of `plain`, read both ways at a joined line."""
    names = set()
    for word in _WORD_GAPS.findall(plain):
        if _JOINED in word:
            pieces = word.split(_JOINED)
            for index in range(len(pieces)):
                names.add("".join(pieces[index:]).rpartition("/")[2])
        else:
            names.add(word.rpartition("/")[2])
    return names


def _interpreters(names: set[str]) -> bool:
    return not names.isdisjoint(_INTERPRETER_NAMES) or any(
        INTERPRETERS.match(name) is not None for name in names)


def shell_findings(source: Source, text: str | None = None) -> Iterator[Finding]:
    text = source.text if text is None else text
    if not _triggered(text) and places.persistence(text) is None:
        return
    if not may_find(text):
        return
    script = parse_shell(text)
    for pipeline in _pipelines(script):
        yield from _pipeline(source, pipeline)
    for command, _ in _commands(script):
        yield from _command(source, command)
    if script.recursive:
        yield Finding(EXHAUSTION, "high", 0.8, source.file, *source.position(0),
                      f"a function that calls itself in the background ({script.recursive[0]}): "
                      "a fork bomb's shape, which stops the machine", "")


def _pipeline(source: Source, pipeline: list[SimpleCommand]) -> Iterator[Finding]:
    stages = [program(command) for command in pipeline]
    whole = " | ".join(command.text for command in pipeline)
    for index, (name, args) in enumerate(stages):
        later = stages[index + 1:]
        if name in ("env", "printenv", "cat", "tar", "zip", "base64", "gzip"):
            sensitive = name in ("env", "printenv") or any(places.SENSITIVE.search(a) for a in args)
            if sensitive and any(n in _NETWORK for n, _ in later):
                yield _find(source, pipeline[index], SENT_SECRETS, "critical", 0.85,
                            f"`{excerpt(whole, 60)}` sends secrets (keys, tokens or the whole "
                            "environment) over the network")
                return
        if not any(_interpreter(n, a) for n, a in later):
            continue
        if _decoder(name, args):
            yield _find(source, pipeline[index], codes.ENCODED_TO_SHELL, "critical", 0.9,
                        f"`{excerpt(whole, 60)}` decodes hidden code and runs it. Write the code "
                        "out in plain text")
            return
        if name in DOWNLOADERS:
            if vendor_installer(whole):
                yield _find(source, pipeline[index], codes.PIPE_TO_SHELL, "low", 0.5,
                            f"`{excerpt(whole, 60)}` runs a vendor's own installer from its own "
                            "domain; what it installs runs as you")
            else:
                yield _find(source, pipeline[index], codes.PIPE_TO_SHELL, "high", 0.8,
                            f"`{excerpt(whole, 60)}` runs whatever the server sends, unseen. "
                            "Download to a file, check it (a pinned hash), then run it")
            return


def _command(source: Source, command: SimpleCommand) -> Iterator[Finding]:
    words = [_literal(w) for w in command.words]
    name, args = _program(words)
    if name and (_interpreter(name, args) or name in ("eval",)):
        nested = [script for word in command.words for script in word.scripts]
        for script in nested:
            if _runs(script, "decode"):
                yield _find(source, command, codes.ENCODED_TO_SHELL, "critical", 0.9,
                            f"`{excerpt(command.text, 60)}` runs code decoded from a hidden string")
                break
            if _runs(script, "download"):
                if vendor_installer(command.text):
                    yield _find(source, command, codes.PIPE_TO_SHELL, "low", 0.5,
                                f"`{excerpt(command.text, 60)}` runs a vendor's installer")
                else:
                    yield _find(source, command, codes.PIPE_TO_SHELL, "high", 0.8,
                                f"`{excerpt(command.text, 60)}` runs what a download returns, "
                                "unseen. Download, check, then run")
                break
    if name in DOWNLOADERS or name in ("scp", "rsync", "nc", "ncat", "netcat"):
        uploads = [a for a in args if places.SENSITIVE.search(a) and (
            "@" in a or name in ("scp", "rsync", "nc", "ncat", "netcat"))]
        uploads += [args[i + 1] for i, a in enumerate(args[:-1])
                    if a in ("-T", "--upload-file", "--post-file") and places.SENSITIVE.search(args[i + 1])]
        if uploads:
            yield _find(source, command, SENT_SECRETS, "critical", 0.85,
                        f"`{excerpt(command.text, 60)}` uploads {excerpt(uploads[0], 40)}, a file "
                        "of secrets (keys, tokens, history), over the network")
    targets = [redirect.target.raw for redirect in command.redirects if redirect.target is not None]
    if any("/dev/tcp/" in w or "/dev/udp/" in w for w in words + targets):
        yield _find(source, command, REVERSE_SHELL, "critical", 0.9,
                    f"`{excerpt(command.text, 60)}` opens a raw network connection from the "
                    "shell (/dev/tcp): the shape of a reverse shell")
    elif name in ("nc", "ncat", "netcat") and any(a in ("-e", "-c") or a.startswith("-e") for a in args):
        yield _find(source, command, REVERSE_SHELL, "critical", 0.9,
                    f"`{excerpt(command.text, 60)}` hands a shell to a network connection")
    elif name == "socat" and any("exec:" in a.lower() or "system:" in a.lower() for a in args):
        yield _find(source, command, REVERSE_SHELL, "critical", 0.85,
                    f"`{excerpt(command.text, 60)}` hands a program to a network connection")
    if name == "rm" and any(_recursive(a) for a in args):
        for arg in args:
            if not arg.startswith("-") and places.HOME_ONLY.match(arg):
                yield _find(source, command, DESTRUCTIVE, "critical", 0.9,
                            f"`{excerpt(command.text, 60)}` deletes the whole home folder (or "
                            "the whole disk) and everything in it")
                break
    if name == "crontab" and args[:1] != ["-l"] and (command.pipe_in or args):
        # `crontab -e` opens an editor for a person: a change, but not one made unseen.
        level = "medium" if args == ["-e"] else _quoted(source, "high")
        yield _find(source, command, PERSISTENCE, level, 0.8,
                        f"`{excerpt(command.text, 60)}` installs a cron job: something that "
                        "runs again on a timer, after the skill is done")
    if name == "launchctl" and args[:1] and args[0] in ("load", "bootstrap", "enable", "submit"):
        yield _find(source, command, PERSISTENCE, _quoted(source, "high"), 0.8,
                    f"`{excerpt(command.text, 60)}` registers a launch agent that starts at login")
    if name == "systemctl" and "--user" in args and ("enable" in args or "link" in args):
        yield _find(source, command, PERSISTENCE, _quoted(source, "high"), 0.7,
                    f"`{excerpt(command.text, 60)}` enables a user service that starts at login")
    written = [redirect.target.raw for redirect in command.redirects
               if redirect.target is not None and redirect.op in _WRITE_REDIRECTS]
    if name == "tee":
        written.extend(a for a in args if not a.startswith("-"))
    elif name in ("cp", "mv", "install", "ln") and len([a for a in args if not a.startswith("-")]) >= 2:
        written.append(args[-1])
    for path in written:
        place = places.persistence(path)
        if place is not None:
            level = place if places.AGENT_HOME.search(path) else _quoted(source, place)
            yield _find(source, command, PERSISTENCE, level, 0.75,
                        f"`{excerpt(command.text, 60)}` writes to {path}: a place that makes "
                        "something run or be told to the agent again later")
            break
    yield from _exhaustion(source, command, name, args, written)


def _quoted(source: Source, level: str) -> str:
    """A persistence step shown in Markdown's code (setup a person reads, often documented
    shell completion or a login service) ranks one level below the same step in a script that
    runs it; the step is still reported."""
    return {"high": "medium", "medium": "low"}.get(level, level) if source.quoted else level


def _recursive(arg: str) -> bool:
    return arg in ("--recursive",) or (arg.startswith("-") and not arg.startswith("--")
                                       and ("r" in arg or "R" in arg))


def _exhaustion(source: Source, command: SimpleCommand, name: str, args: list[str],
                written: list[str]) -> Iterator[Finding]:
    if name == "dd":
        options = dict(a.split("=", 1) for a in args if "=" in a)
        target = options.get("of", "")
        if re.match(r"/dev/(?:sd|nvme|disk|hd|vd|xvd|mmcblk)", target):
            yield _find(source, command, DESTRUCTIVE, "critical", 0.9,
                        f"`{excerpt(command.text, 60)}` overwrites a whole disk")
        elif options.get("if", "") in ("/dev/zero", "/dev/urandom", "/dev/random") and "count" not in options:
            yield _find(source, command, EXHAUSTION, "high", 0.8,
                        f"`{excerpt(command.text, 60)}` writes without end until the disk is full")
    elif name == "fallocate":
        for index, arg in enumerate(args):
            if arg in ("-l", "--length") and index + 1 < len(args):
                size = _SIZE.match(args[index + 1])
                if size and size.group(2).upper() in ("G", "T", "P") and int(size.group(1)) >= 10:
                    yield _find(source, command, EXHAUSTION, "high", 0.7,
                                f"`{excerpt(command.text, 60)}` takes a large part of the disk")
    elif name == "yes" and written:
        yield _find(source, command, EXHAUSTION, "high", 0.8,
                    f"`{excerpt(command.text, 60)}` writes without end until the disk is full")


@rule("shell-code", SHELL_KINDS, "pipes into a shell, decoded code run, reverse shells, home "
      "deletes, persistence and disk fills in shell code, read with the policy's parser")
def shell_rule(source: Source) -> Iterator[Finding]:
    yield from shell_findings(source)
