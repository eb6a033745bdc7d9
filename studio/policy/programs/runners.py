"""Programs that run code: shells and interpreters (with `-c`, a script file or their input),
`eval`, `source`, and `at`. What they run is judged too, as far as it can be seen; code the policy
cannot see is indirection and always asks."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from studio.policy.programs.call import Call, Handler, Part, parse_options
from studio.policy.programs.paths import is_url, words
from studio.policy.programs.skillguard import inline_deletes, replaces_skill_file
from studio.policy.shell.expand import Arg, literal_arg

SHELLS = words("sh bash zsh dash ksh mksh ash fish csh tcsh yash posh")

# Variables that change which program runs or what a shell does before it runs anything.
# -- shells ---------------------------------------------------------------------------------------


def shell(call: Call) -> None:
    args = call.args
    index = 0
    command_mode = False
    while index < len(args):
        arg = args[index]
        text = arg.text if arg.known else ""
        if text in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            if text in ("--rcfile", "--init-file") and index + 1 < len(args):
                call.read(args[index + 1])
            index += 2
            continue
        if text == "--":
            index += 1
            break
        if text.startswith("--") or (len(text) > 1 and text[0] in "-+" and text[1:].isalpha()):
            command_mode = command_mode or (not text.startswith("--") and "c" in text[1:])
            index += 1
            continue
        break
    operands = list(args[index:])
    if command_mode:
        _shell_command(call, operands)
    elif operands:
        script = operands[0]
        if script.known and not script.expanded:
            call.runs(f"`{call.name}` runs the shell script `{script.raw}`")
            call.read(script)
        else:
            call.ask("indirection", f"`{call.name}` runs a script (`{script.raw}`) only known when it runs")
        for operand in operands[1:]:
            call.touch(operand)
    else:
        _from_stdin(call, "commands")


def _shell_command(call: Call, operands: list[Arg]) -> None:
    if not operands:
        call.ask("parse", f"`{call.name} -c` has no command to run")
        return
    command, positional = operands[0], operands[1:]
    if command.exact:
        call.nested_text(command.text, positional)
        return
    call.ask(
        "indirection",
        f"the code `{call.name} -c` runs (`{command.raw}`) is only known when the command runs",
    )
    if command.known:
        guarded(call.nested_text(command.text, positional))


def _from_stdin(call: Call, what: str) -> None:
    """A shell or interpreter with no script runs what it reads: visible or not, it asks."""
    inv = call.inv
    if inv.stdin is None and not inv.stdin_unknown:
        call.runs(f"`{call.name}` starts an interactive session")
        return
    call.ask(
        "indirection",
        f"`{call.name}` runs {what} it reads from its input, which the policy cannot fully check",
    )
    if inv.stdin is not None and call.name in SHELLS:
        guarded(call.nested_text(inv.stdin))
    elif inv.stdin is not None:
        inline_deletes(call, inv.stdin)


def scheduler(call: Call) -> None:
    """`at` and `batch` run, later, the commands they read from their input."""
    call.ask("indirection", f"`{call.name}` schedules commands to run later, read from its input")
    for job_file in parse_options(call.args, {"-f", "-q", "-t"}).value("-f"):
        call.read(job_file)
    if call.inv.stdin is not None:
        guarded(call.nested_text(call.inv.stdin))


def guarded(parts: Sequence[Part]) -> None:
    """Parts judged from a guess can escalate the verdict but never be granted."""
    for part in parts:
        part.grantable = False


# -- interpreters ---------------------------------------------------------------------------------

_INLINE = {
    "python": ("-c",),
    "pypy": ("-c",),
    "node": ("-e", "--eval", "-p", "--print"),
    "nodejs": ("-e", "--eval", "-p", "--print"),
    "bun": ("-e", "--eval", "-p", "--print"),
    "deno": (),
    "ruby": ("-e",),
    "perl": ("-e", "-E"),
    "php": ("-r",),
    "lua": ("-e",),
    "luajit": ("-e",),
    "Rscript": ("-e",),
    "julia": ("-e", "-E"),
    "osascript": ("-e",),
    "pwsh": ("-c", "-Command", "-command", "-EncodedCommand", "-enc", "-e", "-ec"),
    "powershell": ("-c", "-Command", "-command", "-EncodedCommand", "-enc", "-e", "-ec"),
    "tclsh": (),
    "java": (),
    "groovy": ("-e",),
    "R": ("-e",),
}
_WITH_VALUE = {
    "python": ("-W", "-X", "--check-hash-based-pycs"),
    "pypy": ("-W", "-X"),
    "node": ("-r", "--require", "--import", "--loader", "-C", "--conditions", "--input-type"),
    "ruby": ("-I", "-r", "-C", "-E", "--encoding"),
    "perl": ("-I", "-M", "-m"),
    "php": ("-d", "-c", "-z"),
    "java": ("-cp", "-classpath", "--class-path", "-p", "--module-path"),
}
_PYTHON = re.compile(r"(python|pypy)(\d+(\.\d+)?)?")
_VERSION_FLAGS = words("--version -V -version --help -h -v")
_SHELL_CALL = re.compile(
    r"(?:system|popen|exec|execSync|spawnSync|check_output|check_call|call|run|Popen|getoutput|"
    r"getstatusoutput|shell_exec|passthru|spawn)\s*\(\s*(?:\[([^\]]*)\]|(['\"])((?:(?!\2).)*)\2)"
)
_STRING = re.compile(r"'((?:[^'\\\n]|\\.)*)'|\"((?:[^\"\\\n]|\\.)*)\"")
_BACKTICKS = re.compile(r"`([^`]+)`")


def interpreter_family(name: str) -> str | None:
    match = _PYTHON.fullmatch(name)
    if match:
        return match.group(1)
    return name if name in _INLINE else None


def interpreter(call: Call) -> None:
    family = interpreter_family(call.name) or call.name
    args = call.args
    if len(args) == 1 and args[0].known and args[0].text in _VERSION_FLAGS:
        return
    if family in ("perl", "ruby"):
        _in_place(call)
    inline_flags = _INLINE.get(family, ())
    takes = _WITH_VALUE.get(family, ())
    index = 0
    while index < len(args):
        arg = args[index]
        text = arg.text if arg.known else ""
        if family in ("deno", "bun") and text in ("eval", "-e", "--eval"):
            _inline(call, text, args[index + 1] if index + 1 < len(args) else None)
            return
        if family in ("deno", "bun") and text in ("run", "x"):
            if text == "x":
                call.network(f"`{call.name} x` downloads and runs packages")
            index += 1
            continue
        flag = next(
            (
                f
                for f in inline_flags
                if text == f
                or (
                    len(f) == 2
                    and text.startswith("-")
                    and not text.startswith("--")
                    and f[1] in text[1:]
                    and text[1:].isalpha()
                )
            ),
            None,
        )
        if flag is not None:
            _inline(call, text, args[index + 1] if index + 1 < len(args) else None)
            return
        if family == "python" and text == "-m":
            _module(call, args[index + 1] if index + 1 < len(args) else None, args[index + 2 :])
            return
        if text in takes:
            index += 2
            continue
        if family == "java" and text == "-jar":
            index += 1
            break
        if text.startswith("-") and text != "-":
            index += 1
            continue
        break
    operands = list(args[index:])
    if not operands or (operands[0].known and operands[0].text == "-"):
        _from_stdin(call, "code")
        return
    script = operands[0]
    if script.known and not script.expanded:
        call.runs(f"`{call.name}` runs `{script.raw}`, code that can do anything the user can")
        call.read(script)
    else:
        call.ask("indirection", f"`{call.name}` runs code (`{script.raw}`) only known when it runs")
    for operand in operands[1:]:
        call.touch(operand)


def _in_place(call: Call) -> None:
    """`perl -pi -e CODE FILE` and `ruby -i`: every file named is rewritten in place."""
    if not any(a.known and _in_place_switch(a.text) for a in call.args):
        return
    for arg in call.args:
        if arg.known and not arg.text.startswith("-"):
            replaces_skill_file(call, arg, f"edits in place (`{call.name} -i`)")


# Switches whose value follows them in the same word (`-Mstrict`, `-e`, `-0777`): an `i` after
# one of them is part of the value, not the in-place switch.
_VALUE_SWITCHES = frozenset("eEMmIxCFdD0lr")


def _in_place_switch(text: str) -> bool:
    if not text.startswith("-") or text.startswith("--"):
        return False
    for letter in text[1:]:
        if letter == "i":
            return True
        if letter in _VALUE_SWITCHES:
            return False
    return False


def _module(call: Call, module: Arg | None, rest: Sequence[Arg]) -> None:
    if module is None or not module.known:
        call.ask("indirection", f"`{call.name} -m` runs a module the policy cannot tell")
        return
    call.runs(f"`{call.name} -m {module.text}` runs the Python module `{module.text}`")
    call.part.program = f"{call.name} -m {module.text}"
    for operand in rest:
        call.touch(operand)


def _inline(call: Call, flag: str, code: Arg | None) -> None:
    call.ask("indirection", f"`{call.name} {flag}` runs inline code, which the policy cannot check")
    if code is None or not code.known:
        return
    inline_deletes(call, code.text)
    inline_code(call, code.text)


def inline_code(call: Call, code: str) -> None:
    """Look inside inline code for what gives it away: shell commands it runs, files and URLs."""
    nested: list[Part] = []
    for listed, _, single in _SHELL_CALL.findall(code):
        if single:
            nested.extend(call.nested_text(single))
        elif listed:
            words = [a or b for a, b in _STRING.findall(listed)]
            if words:
                nested.extend(call.nested_text(shlex.join(words)))
    for command in _BACKTICKS.findall(code):
        nested.extend(call.nested_text(command))
    guarded(nested)
    for single, double in _STRING.findall(code):
        literal = single or double
        if is_url(literal):
            call.url(literal_arg(literal))
        elif literal.startswith(("/", "~", "./", "../")) or "/." in literal or literal.startswith("."):
            call.touch(_tilde(call, literal))


def _tilde(call: Call, text: str) -> Arg:
    if text == "~" or text.startswith("~/"):
        return Arg(str(call.context.home) + text[1:], text)
    return literal_arg(text)


# -- eval, source and friends ---------------------------------------------------------------------


def eval_(call: Call) -> None:
    call.ask(
        "indirection",
        "`eval` runs text as a new command line; what it runs was checked as far as the text is known",
    )
    if not call.args:
        return
    text = " ".join(arg.text for arg in call.args)
    if all(arg.known for arg in call.args):
        parts = call.nested_text(text)
        if not all(arg.exact for arg in call.args):
            guarded(parts)
    for arg in call.args:
        if not arg.known:
            call.dynamic(arg, "`eval` runs")


def source(call: Call) -> None:
    if not call.args:
        call.ask("parse", f"`{call.name}` has no file to run")
        return
    script = call.args[0]
    if script.known and not script.expanded:
        call.runs(f"`{call.name}` runs the shell file `{script.raw}` inside this shell")
        call.read(script)
    else:
        call.ask("indirection", f"`{call.name}` runs a file (`{script.raw}`) only known when it runs")
    for arg in call.args[1:]:
        call.touch(arg)


HANDLERS: dict[str, Handler] = {name: shell for name in SHELLS}
HANDLERS.update({name: interpreter for name in _INLINE})
HANDLERS.update({"eval": eval_, "source": source, ".": source, "at": scheduler, "batch": scheduler})
