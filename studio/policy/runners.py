"""Programs that run other code: shells and interpreters, `eval` and `source`, wrappers that run
the command after them (`nohup`, `timeout`, `env`, `xargs`, `sudo`), and builtins that define code
for later (aliases, traps, functions). What they run is judged too; code the policy cannot see is
indirection and always asks."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import replace

from studio.policy.call import Call, Handler, Part, parse_options
from studio.policy.expand import Arg, literal_arg
from studio.policy.paths import is_url, words

SHELLS = words("sh bash zsh dash ksh mksh ash fish csh tcsh yash posh")

# Variables that change which program runs or what a shell does before it runs anything.
DANGEROUS_VARIABLES = words(
    "PATH LD_PRELOAD LD_LIBRARY_PATH LD_AUDIT BASH_ENV ENV IFS PROMPT_COMMAND SHELLOPTS BASHOPTS "
    "CDPATH HOME PYTHONPATH PYTHONSTARTUP PYTHONHOME PYTHONUSERBASE NODE_OPTIONS NODE_PATH PERL5OPT "
    "PERL5LIB RUBYOPT RUBYLIB PAGER EDITOR VISUAL LESSOPEN LESSCLOSE MANPAGER BROWSER SSH_ASKPASS "
    "SUDO_ASKPASS GIT_SSH GIT_SSH_COMMAND GIT_EXTERNAL_DIFF GIT_PAGER GIT_EDITOR GIT_CONFIG "
    "GIT_CONFIG_GLOBAL GIT_CONFIG_SYSTEM GIT_EXEC_PATH GIT_DIR GIT_WORK_TREE GIT_ASKPASS "
    "GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT PS4"
)
_DANGEROUS_PREFIXES = ("LD_", "DYLD_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "BASH_FUNC_")


def dangerous_variable(name: str) -> bool:
    return name in DANGEROUS_VARIABLES or name.startswith(_DANGEROUS_PREFIXES)


def variable_warning(call: Call, name: str) -> None:
    call.ask("indirection", f"sets `{name}`, which changes which programs run or how they behave")


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
        _guarded(call.nested_text(command.text, positional))


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
        _guarded(call.nested_text(inv.stdin))


def scheduler(call: Call) -> None:
    """`at` and `batch` run, later, the commands they read from their input."""
    call.ask("indirection", f"`{call.name}` schedules commands to run later, read from its input")
    for job_file in parse_options(call.args, {"-f", "-q", "-t"}).value("-f"):
        call.read(job_file)
    if call.inv.stdin is not None:
        _guarded(call.nested_text(call.inv.stdin))


def _guarded(parts: Sequence[Part]) -> None:
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
    _guarded(nested)
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
            _guarded(parts)
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


def indirect(call: Call) -> None:
    """Builtins that change what a command name means or re-run earlier commands."""
    if call.name == "hash" and not call.args:
        return
    if call.name == "hash" and not any(a.known and a.text.startswith("-p") for a in call.args):
        return
    call.ask("indirection", f"`{call.name}` can change what later commands run")


def alias(call: Call) -> None:
    definitions = [a for a in call.args if not (a.known and a.text.startswith("-"))]
    if not any(not a.known or "=" in a.text for a in definitions):
        return
    call.ask("indirection", "`alias` makes a command name run something else")
    for definition in definitions:
        if definition.known and "=" in definition.text:
            call.nested_text(definition.text.partition("=")[2])


def trap(call: Call) -> None:
    options = parse_options(call.args)
    if options.has("-p", "-l") or len(options.operands) < 2:
        return
    handler = options.operands[0]
    if not handler.known:
        call.dynamic(handler, "`trap` will run")
        return
    if handler.text not in ("", "-"):
        parts = call.nested_text(handler.text)
        if not handler.exact:
            _guarded(parts)


def declare(call: Call) -> None:
    """export, declare, local, readonly, typeset: assignments, or a listing of every variable."""
    flags = [a for a in call.args if a.known and re.fullmatch(r"[-+][A-Za-z]+", a.text)]
    names = [a for a in call.args if a not in flags]
    if not names and not any("f" in a.text or "F" in a.text for a in flags):
        call.ask("secrets", f"`{call.name}` lists variables, which may include API keys and tokens")
        return
    for arg in names:
        if not arg.known:
            call.dynamic(arg, f"`{call.name}` sets")
            continue
        name, equals, value = arg.text.partition("=")
        name = name.rstrip("+")
        if dangerous_variable(name):
            variable_warning(call, name)
        if equals:
            call.set_variable(name, replace(arg, text=value))


def set_(call: Call) -> None:
    if not call.args:
        call.ask("secrets", "`set` lists every variable, which may include API keys and tokens")


def printenv(call: Call) -> None:
    call.ask("secrets", f"`{call.name}` prints environment variables, which may include API keys")


# -- wrappers -------------------------------------------------------------------------------------


def _wrapper(with_value: str = "", flags_only: bool = False) -> Handler:
    takes = frozenset(with_value.split())

    def handler(call: Call) -> None:
        options = parse_options(call.args, takes, stop_at_operand=True)
        if not flags_only:
            call.unwrap(options.operands)

    return handler


def timeout(call: Call) -> None:
    options = parse_options(call.args, {"-s", "--signal", "-k", "--kill-after"}, stop_at_operand=True)
    call.unwrap(options.operands[1:])


def time_(call: Call) -> None:
    options = parse_options(call.args, {"-o", "--output", "-f", "--format"}, stop_at_operand=True)
    for output in options.value("-o", "--output"):
        call.write(output)
    call.unwrap(options.operands)


def command(call: Call) -> None:
    options = parse_options(call.args, stop_at_operand=True)
    if options.has("-v", "-V"):
        return
    call.unwrap(options.operands)


def exec_(call: Call) -> None:
    options = parse_options(call.args, {"-a"}, stop_at_operand=True)
    call.unwrap(options.operands)


def busybox(call: Call) -> None:
    options = parse_options(call.args, stop_at_operand=True)
    call.unwrap(options.operands)


def env(call: Call) -> None:
    options = parse_options(
        call.args, {"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}, stop_at_operand=True
    )
    base = call.inv
    for folder in options.value("-C", "--chdir"):
        path = call.read(folder)
        base = replace(base, cwd=path)
    operands = list(options.operands)
    while operands and operands[0].known and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", operands[0].text):
        name = operands.pop(0).text.partition("=")[0]
        if dangerous_variable(name):
            variable_warning(call, name)
    split = options.value("-S", "--split-string")
    if split:
        call.ask("indirection", "`env -S` splits a string into a command")
        if all(arg.known for arg in split + operands):
            _guarded(
                call.nested_text(" ".join([a.text for a in split] + [shlex.quote(a.text) for a in operands]))
            )
        return
    if not operands:
        printenv(call)
        return
    call.unwrap(operands, base)


def xargs(call: Call) -> None:
    options = parse_options(
        call.args,
        {
            "-a",
            "--arg-file",
            "-d",
            "--delimiter",
            "-E",
            "-e",
            "--eof",
            "-I",
            "--replace",
            "-L",
            "--max-lines",
            "-n",
            "--max-args",
            "-P",
            "--max-procs",
            "-s",
            "--max-chars",
            "--process-slot-var",
        },
        stop_at_operand=True,
    )
    for names_file in options.value("-a", "--arg-file"):
        call.read(names_file)
    command = list(options.operands) or [literal_arg("echo")]
    replace_with = [a.text for a in options.value("-I", "--replace") if a.known]
    if options.has("-i"):
        replace_with.append("{}")
    if replace_with:
        command = [command[0]] + [
            replace(a, known=False, exact=False) if any(r in a.text for r in replace_with) else a
            for a in command[1:]
        ]
    call.nested_args(command, args_from_stdin=not replace_with)


def watch(call: Call) -> None:
    options = parse_options(call.args, {"-n", "--interval", "-q", "--equexit"}, stop_at_operand=True)
    if options.has("-x", "--exec"):
        call.unwrap(options.operands)
    elif options.operands:
        if all(a.known for a in options.operands):
            call.nested_text(" ".join(a.text for a in options.operands))
        else:
            call.ask("indirection", "`watch` runs a command only known when it runs")


def flock(call: Call) -> None:
    options = parse_options(
        call.args, {"-w", "--timeout", "-E", "--conflict-exit-code", "-c", "--command"}, stop_at_operand=True
    )
    operands = options.operands
    if operands:
        lock = operands[0]
        if not (lock.known and lock.text.isdigit()):
            call.write(lock, "locks")
    for command_text in options.value("-c", "--command"):
        if command_text.known:
            call.nested_text(command_text.text)
        else:
            call.dynamic(command_text, "`flock -c` runs")
    call.unwrap(operands[1:])


def privileged(call: Call) -> None:
    call.block("privilege", f"runs a command with administrator rights (`{call.name}`)")
    options = parse_options(
        call.args,
        {
            "-u",
            "--user",
            "-g",
            "--group",
            "-h",
            "--host",
            "-p",
            "--prompt",
            "-U",
            "--other-user",
            "-C",
            "--close-from",
            "-D",
            "--chdir",
            "-r",
            "--role",
            "-t",
            "--type",
            "-T",
            "--command-timeout",
        },
        stop_at_operand=True,
    )
    if call.name == "su":
        for command_text in options.value("-c", "--command"):
            if command_text.known:
                call.nested_text(command_text.text)
        return
    call.unwrap(options.operands)


HANDLERS: dict[str, Handler] = {name: shell for name in SHELLS}
HANDLERS.update({name: interpreter for name in _INLINE})
HANDLERS.update(
    {
        "eval": eval_,
        "source": source,
        ".": source,
        "alias": alias,
        "trap": trap,
        "hash": indirect,
        "enable": indirect,
        "fc": indirect,
        "unalias": lambda call: None,
        "export": declare,
        "declare": declare,
        "typeset": declare,
        "local": declare,
        "readonly": declare,
        "set": set_,
        "printenv": printenv,
        "env": env,
        "xargs": xargs,
        "watch": watch,
        "flock": flock,
        "timeout": timeout,
        "time": time_,
        "command": command,
        "builtin": busybox,
        "exec": exec_,
        "busybox": busybox,
        "toybox": busybox,
        "nohup": _wrapper(),
        "setsid": _wrapper(),
        "unbuffer": _wrapper(),
        "nice": _wrapper("-n --adjustment"),
        "ionice": _wrapper("-c --class -n --classdata"),
        "stdbuf": _wrapper("-i -o -e --input --output --error"),
        "caffeinate": _wrapper("-t -w"),
        "sudo": privileged,
        "doas": privileged,
        "pkexec": privileged,
        "run0": privileged,
        "su": privileged,
        "sudoedit": privileged,
        "at": scheduler,
        "batch": scheduler,
    }
)
