"""JavaScript and TypeScript, read with a light tokenizer: strings, comments and regular
expressions are set aside first, so a rule sees code, then a few shapes are matched on what is
left: code run from a decoded string (`eval(String.fromCharCode(...))`, `eval(atob(...))`),
code run from a download (`new Function(await fetch(...))`, `eval(await (await fetch()).text())`),
and commands run through `child_process`. Not a parser: a shape split over many statements
through variables is found only when the variable is named in the run call and assigned from
the decoder or download on one line."""

from __future__ import annotations

import re
from collections.abc import Iterator

from studio.skills import codes
from studio.threatscan.findings import Finding, excerpt
from studio.threatscan.pyrules import DYNAMIC_CODE, FETCH_AND_RUN
from studio.threatscan.registry import rule
from studio.threatscan.shellrules import shell_findings
from studio.threatscan.source import Source

_TOKEN = re.compile(r"""//[^\n]*|/\*.*?\*/|`(?:\\.|[^`\\])*`|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""",
                    re.DOTALL)
_RUN = re.compile(r"\b(?:eval|Function|setTimeout|setInterval|execScript|vm\.runIn\w+Context|"
                  r"runInThisContext)\s*\(")
_DECODE = re.compile(r"String\.fromCharCode|\batob\s*\(|Buffer\.from\s*\([^)]*,\s*S\d+\s*\)|"
                     r"unescape\s*\(|decodeURIComponent\s*\(\s*escape")
_FETCH = re.compile(r"\bfetch\s*\(|\baxios\b|\bhttps?\.get\s*\(|XMLHttpRequest|\bgot\s*\(|"
                    r"require\(\s*S\d+\s*\)\.get")
_ASSIGN = re.compile(r"\b(?:const|let|var)\s+(\w+)\s*=\s*([^;\n]*)")
_CHILD = re.compile(r"\b(?:exec|execSync|spawn|spawnSync|execFile|execFileSync)\s*\(")


def _code_only(text: str) -> tuple[str, list[str]]:
    """The text with each string replaced by `S<n>` and each comment by spaces, and the strings."""
    strings: list[str] = []

    def replace(match: re.Match[str]) -> str:
        token = match.group()
        if token.startswith(("//", "/*")):
            return re.sub(r"[^\n]", " ", token)
        strings.append(token[1:-1])
        name = f"S{len(strings) - 1}"
        if "\n" in token:  # keep the lines where they were
            return name + "\n" * token.count("\n")
        return name + " " * max(0, len(token) - len(name))

    return _TOKEN.sub(replace, text), strings


# A name `_RUN` finds in the code is in the text as it is: setting strings and comments aside
# only blanks characters around it. A text with none of them (and no child_process) is done.
_RUN_NAMES = re.compile(r"\b(?:eval|Function|setTimeout|setInterval|execScript|runInThisContext)"
                        r"|vm\.runIn")


def js_findings(source: Source) -> Iterator[Finding]:
    if "child_process" not in source.text and _RUN_NAMES.search(source.text) is None:
        return
    code, strings = _code_only(source.text)
    decoded_names: set[str] = set()
    fetched_names: set[str] = set()
    for match in _ASSIGN.finditer(code):
        value = match.group(2)
        if _DECODE.search(value):
            decoded_names.add(match.group(1))
        if _FETCH.search(value):
            fetched_names.add(match.group(1))
    for match in _ASSIGN.finditer(code):  # one step further: `const text = await res.text()`
        if any(re.search(rf"\b{name}\b", match.group(2)) for name in fetched_names):
            fetched_names.add(match.group(1))
    for shown, match in enumerate(_RUN.finditer(code)):
        if shown >= 20:
            break
        inside = _argument(code, match.end())
        line, column = source.position(match.start())
        evidence = excerpt(source.text[match.start():match.end() + len(inside) + 1], 80)
        words = set(re.findall(r"\w+", inside))
        if _DECODE.search(inside) or words & decoded_names:
            yield Finding(codes.ENCODED_TO_SHELL, "critical", 0.9, source.file, line, column,
                          "runs code decoded from a hidden string (fromCharCode, atob, Buffer)",
                          evidence)
        elif _FETCH.search(inside) or words & fetched_names:
            yield Finding(FETCH_AND_RUN, "critical", 0.9, source.file, line, column,
                          "runs code it downloads", evidence)
        elif match.group().startswith(("eval", "Function")) and inside.strip() and not re.fullmatch(
                r"\s*S\d+\s*", inside):
            yield Finding(DYNAMIC_CODE, "medium", 0.5, source.file, line, column,
                          "eval or Function of a value built at run time: check where it comes from",
                          evidence)
    if "child_process" in source.text:
        for match in _CHILD.finditer(code):
            inside = _argument(code, match.end())
            words = set(re.findall(r"\w+", inside))
            if words & (decoded_names | fetched_names) or _DECODE.search(inside) or _FETCH.search(inside):
                line, column = source.position(match.start())
                yield Finding(FETCH_AND_RUN, "critical", 0.8, source.file, line, column,
                              "runs a command decoded or downloaded at run time",
                              excerpt(source.text[match.start():match.end() + 60], 80))
                break
            for index in re.findall(r"S(\d+)", inside):
                if int(index) < len(strings):
                    quoted = Source(source.file, strings[int(index)], "shell",
                                    source.position(match.start())[0], True)
                    yield from shell_findings(quoted)


def _argument(code: str, start: int) -> str:
    depth, at = 1, start
    while at < len(code) and depth and at - start < 2000:
        char = code[at]
        depth += 1 if char in "([{" else -1 if char in ")]}" else 0
        at += 1
    return code[start:at - 1]


@rule("javascript-code", ("javascript",), "JavaScript through a light tokenizer: decoded or "
      "downloaded code run, child_process commands")
def javascript_rule(source: Source) -> Iterator[Finding]:
    yield from js_findings(source)
