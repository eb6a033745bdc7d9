"""Wrappers that run the command after them (`nohup`, `timeout`, `env`, `xargs`, `sudo`) and shell
builtins that change what later commands do (variables, aliases, traps): the wrapped command is
judged as if it stood alone."""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import replace

from studio.policy.programs.call import Call, Handler, parse_options
from studio.policy.programs.environment import setting, unsetting
from studio.policy.programs.runners import guarded
from studio.policy.programs.skillfolders import skill_deleted
from studio.policy.shell.escapes import NAME
from studio.policy.shell.expand import Arg, literal_arg


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
            guarded(parts)


def declare(call: Call) -> None:
    """export, declare, local, readonly, typeset: assignments, or a listing of every variable."""
    flags = [a for a in call.args if a.known and re.fullmatch(r"[-+][A-Za-z]+", a.text)]
    names = [a for a in call.args if a not in flags]
    if not names and not any("f" in a.text or "F" in a.text for a in flags):
        call.ask("secrets", f"`{call.name}` lists variables, which may include API keys and tokens")
        return
    if any("p" in a.text for a in flags):
        call.ask("secrets", f"`{call.name} -p` prints variables, which may hold API keys and tokens")
    for arg in names:
        if not arg.known:
            call.dynamic(arg, f"`{call.name}` sets")
            continue
        name, equals, value = arg.text.partition("=")
        name = name.rstrip("+")
        exported = call.name == "export" or any("x" in a.text and a.text.startswith("-") for a in flags)
        setting(call, name, replace(arg, text=value) if equals else None, exported=exported)
        if equals:
            call.set_variable(name, replace(arg, text=value))


def set_(call: Call) -> None:
    if not call.args:
        call.ask("secrets", "`set` lists every variable, which may include API keys and tokens")
    tracing = re.compile(r"-[a-zA-Z]*x[a-zA-Z]*|xtrace")
    if any(a.known and tracing.fullmatch(a.text) for a in call.args):
        call.ask("indirection", "`set -x` expands `$PS4` before every command, which can run commands")


def evaluating(call: Call) -> None:
    """Builtins that assign to names bash evaluates (`read 'a[$(cmd)]'`), or arithmetic."""
    call.ask(
        "indirection",
        f"`{call.name}` evaluates variable names or arithmetic, and bash runs commands hidden in "
        "array subscripts there",
    )


def printenv(call: Call) -> None:
    call.ask("secrets", f"`{call.name}` prints environment variables, which may include API keys")


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
    if not options.operands:
        call.ask(
            "indirection",
            "`exec` without a command opens, moves or closes the shell's own file descriptors for "
            "every command after it, which the policy does not model",
        )
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
    if options.has("-i", "--ignore-environment") or any(
        a.known and a.text == "-" for a in options.operands[:1]
    ):
        call.ask(
            "indirection",
            "`env -i` clears the environment, the settings the runs give git and other programs "
            "included",
        )
    for unset in options.value("-u", "--unset"):
        if unset.known:
            unsetting(call, unset.text)
        else:
            call.dynamic(unset, "`env -u` unsets")
    operands = list(options.operands)
    if operands and operands[0].known and operands[0].text == "-":
        operands.pop(0)
    while operands and operands[0].known and re.fullmatch(NAME + "=.*", operands[0].text, re.DOTALL):
        assignment = operands.pop(0)
        variable, _, value = assignment.text.partition("=")
        setting(call, variable, replace(assignment, text=value), exported=True)
    split = options.value("-S", "--split-string")
    if split:
        call.ask("indirection", "`env -S` splits a string into a command")
        if all(arg.known for arg in split + operands):
            guarded(
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
    _names_from_input(call, command, options.has("-0", "--null"))


# What takes a skill away when handed its files by xargs.
_SKILL_TAKERS = frozenset({"rm", "unlink", "shred", "rmdir", "mv", "gzip", "bzip2", "xz", "zstd", "truncate"})
_MAX_NAMES = 256


def _names_from_input(call: Call, command: list[Arg], null: bool) -> None:
    """The files xargs hands on, when the line says them (`echo SKILL.md | xargs rm`): the
    command is judged with them too. When the input is not known but the commands feeding it
    name a SKILL.md (`find . -name SKILL.md | xargs rm`), a command that deletes is blocked."""
    program = command[0].text.rpartition("/")[2] if command and command[0].known else ""
    stdin = call.inv.stdin
    if stdin is not None and not call.inv.stdin_unknown:
        names = stdin.split("\0") if null else stdin.split()
        names = [n for n in names if n][:_MAX_NAMES]
        if names:
            call.nested_args([*command, *(literal_arg(n) for n in names)])
        return
    if not re.search(r"skill\.md", call.inv.upstream, re.IGNORECASE):
        return
    if program in _SKILL_TAKERS:
        call.block(
            "destructive",
            f"hands files named SKILL.md to `{program}` through xargs; deleting, moving or replacing "
            "a skill is left to the user, in the window",
        )
        return
    # Names SKILL.md upstream: judge the command as handed one (`| xargs sed -i ...` edits it).
    found = skill_deleted(call.cwd, True) if call.cwd is not None else None
    if found is not None and call.cwd is not None:
        call.nested_args([*command, literal_arg(os.path.relpath(found, call.cwd))])


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


HANDLERS: dict[str, Handler] = {
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
    "let": evaluating,
    "read": evaluating,
    "unset": evaluating,
    "getopts": evaluating,
    "mapfile": evaluating,
    "readarray": evaluating,
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
}
