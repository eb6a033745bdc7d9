"""Python, read with `ast`: what a value is made of, followed through assignments.

Each name assigned in a module (functions' bodies included) gets the labels of what its value
is made of: `decoded` (base64, rot13 through codecs, hex, marshal, zlib and the other
decompressors), `fetched` (urlopen, requests, httpx, a socket), `secret` (a read of a file
`places.SENSITIVE` names, or the whole environment), `home` (the home folder itself). Calls then
meet those labels: exec/eval/compile of a decoded or fetched value, a secret handed to a network
call, a write whose path is a persistence place. The reading is flow-insensitive (a name is
what any of its assignments made it): for a few hundred lines of a skill's script that costs
nothing in precision that matters and keeps the analysis one pass over the tree."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from studio.skills import codes
from studio.threatscan import places
from studio.threatscan.findings import Finding, excerpt
from studio.threatscan.registry import rule
from studio.threatscan.shellrules import DESTRUCTIVE, PERSISTENCE, SENT_SECRETS, shell_findings
from studio.threatscan.source import Source

DYNAMIC_CODE = codes.DYNAMIC_CODE
FETCH_AND_RUN = codes.FETCH_AND_RUN

_DECODERS = frozenset({
    "b64decode", "b32decode", "b16decode", "a85decode", "b85decode", "standard_b64decode",
    "urlsafe_b64decode", "decodebytes", "decodestring", "unhexlify", "a2b_base64", "a2b_hex",
    "fromhex", "decompress", "loads", "rot13", "b64", "unquote_to_bytes",
})
_CODEC_NAMES = ("rot13", "rot_13", "hex", "base64", "zlib", "bz2", "uu", "base_64", "hex_codec",
                "zlib_codec", "base64_codec")
_FETCHERS = frozenset({"urlopen", "urlretrieve", "get", "request", "recv", "recvfrom", "read",
                       "text", "content", "json", "iter_content", "stream"})
_NET_MODULES = frozenset({"requests", "httpx", "urllib", "urllib3", "aiohttp", "http", "socket",
                          "urllib.request", "request", "session", "client", "smtplib", "ftplib"})
_SENDERS = frozenset({"post", "put", "patch", "send", "sendall", "sendto", "sendmail", "request",
                      "urlopen", "Request", "storbinary", "upload", "get"})
_RUNNERS = frozenset({"exec", "eval", "compile", "execfile", "FunctionType"})
_SHELL_CALLS = frozenset({"system", "popen", "run", "call", "check_call", "check_output", "Popen",
                          "getoutput", "getstatusoutput", "spawn", "execv", "execl"})
_SHELL_MODULES = frozenset({"os", "subprocess", "commands", "pty", "sp"})
_WRITERS = frozenset({"write_text", "write_bytes", "copy", "copyfile", "copy2", "move", "symlink",
                      "symlink_to", "rename", "replace", "hardlink_to", "link"})


def _name(node: ast.AST) -> str:
    """The last name of a call's target: `base64.b64decode` -> "b64decode"."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _dotted(node: ast.AST) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Call):
        parts.append(_dotted(node.func) + "()")
    return ".".join(reversed(parts))


def _strings(node: ast.AST) -> Iterator[str]:
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            yield child.value


class _Module:
    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.labels: dict[str, set[str]] = {}
        self.returns: dict[str, set[str]] = {}
        self._walked: dict[int, list[ast.AST]] = {}

    def walk(self, node: ast.AST) -> list[ast.AST]:
        """`ast.walk(node)`, in its order, kept: the labels are spread over the same nodes in
        up to three rounds, each walking the tree, every function in it and every value."""
        walked = self._walked.get(id(node))
        if walked is None:
            walked = self._walked[id(node)] = list(ast.walk(node))
        return walked

    def label(self, node: ast.AST | None) -> set[str]:
        """What a value is made of."""
        found: set[str] = set()
        if node is None:
            return found
        for child in self.walk(node):
            if isinstance(child, ast.Name):
                found |= self.labels.get(child.id, set())
            elif isinstance(child, ast.Call):
                found |= self._call_label(child)
            elif isinstance(child, ast.Attribute) and _dotted(child) == "os.environ":
                found |= self._environ(child, node)
        return found

    def _environ(self, attribute: ast.Attribute, whole: ast.AST) -> set[str]:
        # `os.environ["X"]` and `os.environ.get("X")` read one variable; the mapping itself,
        # passed on whole, is every secret the user has.
        for child in self.walk(whole):
            if isinstance(child, ast.Subscript) and child.value is attribute:
                return set()
            if (isinstance(child, ast.Attribute) and child.value is attribute
                    and child.attr in ("get", "setdefault", "pop", "__getitem__")):
                return set()
        return {"secret"}

    def _call_label(self, call: ast.Call) -> set[str]:
        name = _name(call.func)
        dotted = _dotted(call.func)
        found: set[str] = set()
        if name in _DECODERS and not dotted.startswith(("json.", "yaml.", "tomllib.", "toml.")):
            found.add("decoded")
        if name in ("decode", "encode") and any(s.lower() in _CODEC_NAMES for s in _strings(call)):
            found.add("decoded")
        if name == "join" and any(isinstance(n, ast.Call) and _name(n.func) == "chr"
                                  for n in ast.walk(call)):
            found.add("decoded")
        root = dotted.split(".", 1)[0]
        if name in ("urlopen", "urlretrieve", "recv", "recvfrom") or (
                name in ("get", "request", "stream") and root in _NET_MODULES):
            found.add("fetched")
        if name in ("open", "read_text", "read_bytes", "read", "load", "glob", "walk", "listdir",
                    "expanduser", "Path", "join") and any(
                        places.SENSITIVE.search(s) for s in _strings(call)):
            found.add("secret")
        if name == "home" or (name == "expanduser" and any(s.rstrip("/") == "~" for s in _strings(call))):
            found.add("home")
        if name in ("getenv",) and any(s == "HOME" for s in _strings(call)):
            found.add("home")
        if name in ("copy", "dict", "items") and "os.environ" in dotted:
            found.add("secret")
        found |= self.returns.get(name, set())
        return found

    def propagate(self) -> None:
        for _ in range(3):
            changed = False
            for node in self.walk(self.tree):
                targets: list[ast.AST] = []
                value: ast.AST | None = None
                if isinstance(node, ast.Assign):
                    targets, value = list(node.targets), node.value
                elif isinstance(node, ast.AnnAssign | ast.AugAssign):
                    targets, value = [node.target], node.value
                elif isinstance(node, ast.With):
                    for item in node.items:
                        if item.optional_vars is not None:
                            changed |= self._assign([item.optional_vars], item.context_expr)
                    continue
                elif isinstance(node, ast.For):
                    targets, value = [node.target], node.iter
                elif isinstance(node, ast.NamedExpr):
                    targets, value = [node.target], node.value
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    made: set[str] = set()
                    for child in self.walk(node):
                        if isinstance(child, ast.Return):
                            made |= self.label(child.value)
                    if made - self.returns.get(node.name, set()):
                        self.returns.setdefault(node.name, set()).update(made)
                        changed = True
                    continue
                if value is not None:
                    changed |= self._assign(targets, value)
            if not changed:
                return

    def _assign(self, targets: list[ast.AST], value: ast.AST) -> bool:
        made = self.label(value)
        if (isinstance(value, ast.Constant) and isinstance(value.value, str)
                and places.SENSITIVE.search(value.value)):
            made = made | {"secret"}
        if not made:
            return False
        changed = False
        for target in targets:
            for child in self.walk(target):
                if isinstance(child, ast.Name) and made - self.labels.get(child.id, set()):
                    self.labels.setdefault(child.id, set()).update(made)
                    changed = True
        return changed


def _where(source: Source, node: ast.AST) -> tuple[int, int]:
    line = getattr(node, "lineno", 1) + source.line_base - 1
    return line, getattr(node, "col_offset", 0) + 1


def _evidence(source: Source, node: ast.AST) -> str:
    segment = ast.get_source_segment(source.text, node) or ""
    return excerpt(segment, 80)


# Python quoted in Markdown is parsed only when it holds a word some rule needs.
_RUN_WORDS = ("exec", "eval", "compile", "__import__", "system", "subprocess", "Popen", "rmtree")
_SEND_WORDS = ("sendall", "post(", "put(", "urlopen", "send(")
_SECRET_WORDS = ("environ", ".ssh", "wallet", "keystore", "history", "Cookies", "Login Data",
                 "expanduser", "home()", "credentials", ".env")


def _worth_parsing(text: str) -> bool:
    if any(word in text for word in _RUN_WORDS):
        return True
    if any(word in text for word in _SEND_WORDS) and any(word in text for word in _SECRET_WORDS):
        return True
    return places.persistence(text) is not None


def python_findings(source: Source) -> Iterator[Finding]:
    if source.quoted and not _worth_parsing(source.text):
        return
    try:
        tree = ast.parse(source.text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    module = _Module(tree)
    module.propagate()
    writes_anywhere = False
    persistence_strings: list[tuple[ast.Constant, str]] = []
    for node in module.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            level = places.persistence(node.value) if len(node.value) < 300 else None
            if level is not None:
                persistence_strings.append((node, level))
        elif isinstance(node, ast.BinOp | ast.Call):
            joined = _home_joined(module, node)
            if joined is not None:
                persistence_strings.append(joined)
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        argument = node.args[0] if node.args else None
        if name in _RUNNERS:
            yield from _runner(source, module, node, argument)
        elif (name == "__import__" and argument is not None
              and module.label(argument) & {"decoded", "fetched"}):
            yield Finding(codes.ENCODED_TO_SHELL, "critical", 0.8, source.file, *_where(source, node),
                          "imports a module whose name is decoded at run time",
                          _evidence(source, node))
        if name in _SHELL_CALLS and argument is not None and (
                _dotted(node.func).split(".", 1)[0] in _SHELL_MODULES or (isinstance(node.func, ast.Name)
                and name in ("system", "popen", "Popen", "check_output", "check_call", "getoutput"))):
            made = module.label(argument)
            if "decoded" in made:
                yield Finding(codes.ENCODED_TO_SHELL, "critical", 0.85, source.file, *_where(source, node),
                              "runs a command decoded from a hidden string", _evidence(source, node))
            elif "fetched" in made:
                yield Finding(FETCH_AND_RUN, "critical", 0.85, source.file, *_where(source, node),
                              "runs a command it downloaded", _evidence(source, node))
            for text in _strings(argument):
                if len(text) < 4000:
                    quoted = Source(source.file, text, "shell", _where(source, argument)[0], True)
                    yield from shell_findings(quoted)
        if name in _SENDERS or (name in ("write", "send") and "socket" in _dotted(node.func)):
            root = _dotted(node.func).split(".", 1)[0]
            network = name in ("post", "put", "patch", "sendall", "sendto", "sendmail", "urlopen",
                               "Request", "storbinary", "upload") or root in _NET_MODULES
            if network:
                sent = set()
                positional = node.args[1:] if name == "urlopen" else node.args
                for part in [*positional, *node.keywords]:
                    sent |= module.label(part.value if isinstance(part, ast.keyword) else part)
                if "secret" in sent:
                    yield Finding(SENT_SECRETS, "critical", 0.85, source.file, *_where(source, node),
                                  "sends secrets it read (keys, wallets, browser data, shell "
                                  "history or the whole environment) over the network",
                                  _evidence(source, node))
        if name == "rmtree" and argument is not None and _home_itself(module, argument):
            yield Finding(DESTRUCTIVE, "critical", 0.85, source.file, *_where(source, node),
                          "deletes the whole home folder", _evidence(source, node))
        if name in _WRITERS or (name == "open" and _writes(node)) or name in ("write",):
            writes_anywhere = True
    if writes_anywhere:
        for constant, level in persistence_strings[:3]:
            path = str(constant.value)
            yield Finding(PERSISTENCE, level, 0.6, source.file, *_where(source, constant),
                          f"writes files, and names {excerpt(path, 50)}: a place that makes "
                          "something run, or the agent be told something, again later",
                          excerpt(path, 80))


def _home_joined(module: _Module, node: ast.BinOp | ast.Call) -> tuple[ast.Constant, str] | None:
    """A path joined to the home folder (`Path.home() / ".bashrc"`, `os.path.join(home, ...)`)
    as the persistence place it names, ranked as that path under `~`."""
    if isinstance(node, ast.BinOp):
        if not isinstance(node.op, ast.Div) or "home" not in module.label(node.left):
            return None
        parts = [node.right]
    elif _name(node.func) in ("join", "joinpath") and node.args and "home" in module.label(node.args[0]):
        parts = node.args[1:]
    else:
        return None
    constants = [p for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)]
    if not constants:
        return None
    path = "~/" + "/".join(str(c.value) for c in constants)
    level = places.persistence(path)
    return (constants[0], level) if level is not None else None


def _home_itself(module: _Module, argument: ast.AST) -> bool:
    """Whether a path is the home folder itself (not a folder inside it)."""
    if isinstance(argument, ast.Constant):
        return isinstance(argument.value, str) and places.HOME_ONLY.match(argument.value) is not None
    if isinstance(argument, ast.BinOp) or (
            isinstance(argument, ast.Call) and _name(argument.func) in ("join", "joinpath")):
        return False
    return "home" in module.label(argument)


def _writes(call: ast.Call) -> bool:
    mode = call.args[1] if len(call.args) > 1 else next(
        (k.value for k in call.keywords if k.arg == "mode"), None)
    return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and any(
        c in mode.value for c in "wax+")


def _runner(source: Source, module: _Module, node: ast.Call, argument: ast.AST | None) -> Iterator[Finding]:
    if argument is None or isinstance(argument, ast.Constant):
        return
    made = module.label(argument)
    where = _where(source, node)
    if "decoded" in made:
        yield Finding(codes.ENCODED_TO_SHELL, "critical", 0.9, source.file, *where,
                      "runs code decoded from a hidden string (base64, rot13, hex, marshal, "
                      "zlib...). Write the code out in plain text", _evidence(source, node))
    elif "fetched" in made:
        yield Finding(FETCH_AND_RUN, "critical", 0.9, source.file, *where,
                      "runs code it downloads: what runs is whatever the server sends that day",
                      _evidence(source, node))
    elif _name(node.func) in ("exec", "eval", "execfile"):
        yield Finding(DYNAMIC_CODE, "medium", 0.5, source.file, *where,
                      f"{_name(node.func)}() of a value built at run time: check where it comes from",
                      _evidence(source, node))


@rule("python-code", ("python", "setup.py"), "Python read with ast: decoded or downloaded code "
      "run, secrets sent out, persistence writes, home deletes, shell commands it runs")
def python_rule(source: Source) -> Iterator[Finding]:
    yield from python_findings(source)
