"""Programs that only read: allowed when everything they read is inside the workspace. Each one
says which of its arguments are files, which are patterns or data, and which options would make
it write (then it asks)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from studio.policy.call import Call, Handler, parse_options
from studio.policy.danger import unknowable
from studio.policy.decision import shorten
from studio.policy.escapes import NAME
from studio.policy.expand import Arg
from studio.policy.paths import is_inside, resolve, words
from studio.policy.skillguard import find_deletes


@dataclass(frozen=True, slots=True)
class ReadSpec:
    """How a read-only program takes its arguments.

    Attributes:
        with_value: options that take a value that is not a file.
        reads / writes: options whose value is a file it reads / writes.
        pattern: the first operand is a pattern or a script, unless one of these options gives it.
        data: no operand is a file (echo, printf, test).
        out_operand: the index of the operand it writes to (uniq IN OUT).
    """

    with_value: frozenset[str] = frozenset()
    reads: frozenset[str] = frozenset()
    writes: frozenset[str] = frozenset()
    pattern: frozenset[str] | None = None
    data: bool = False
    out_operand: int | None = None


def _spec(
    with_value: str = "",
    reads: str = "",
    writes: str = "",
    pattern: str | None = None,
    data: bool = False,
    out_operand: int | None = None,
) -> ReadSpec:
    return ReadSpec(
        frozenset(with_value.split()),
        frozenset(reads.split()),
        frozenset(writes.split()),
        frozenset(pattern.split()) if pattern is not None else None,
        data,
        out_operand,
    )


_DATA = _spec(data=True)
_FILES = _spec()
_GREP = _spec(
    "-m --max-count -A -B -C --after-context --before-context --context -d -D --devices --directories "
    "--exclude --include --exclude-dir --label --binary-files --color --colour",
    reads="-f --file --exclude-from",
    pattern="-e --regexp -f --file",
)

DATA_PROGRAMS = words(
    "echo printf true false : test [ expr seq sleep basename dirname which whoami id uname date tty "
    "nproc arch type wait exit return shift break continue umask ulimit jobs times "
    "dirs logname groups help cal yes uptime free locale tput clear shopt caller disown bg "
    "fg pwd getconf"
)

READ_SPECS: dict[str, ReadSpec] = {name: _DATA for name in DATA_PROGRAMS}
READ_SPECS.update(
    {
        name: _FILES
        for name in words(
            "cat wc file du df md5sum sha1sum sha224sum sha256sum sha384sum sha512sum shasum b2sum "
            "cksum sum rev tac realpath readlink less more zcat bzcat xzcat zless zmore comm look "
            "tree lsattr"
        )
    }
)
READ_SPECS.update(
    {
        "ls": _spec(
            "-I --ignore -w --width --hide -T --tabsize --format --sort --time --time-style "
            "--block-size --color --quoting-style --indicator-style"
        ),
        "head": _spec("-n -c --lines --bytes"),
        "tail": _spec("-n -c --lines --bytes -s --sleep-interval --pid --max-unchanged-stats"),
        "grep": _GREP,
        "egrep": _GREP,
        "fgrep": _GREP,
        "zgrep": _GREP,
        "sort": _spec(
            "-k --key -t --field-separator -S --buffer-size -T --temporary-directory --parallel --batch-size",
            reads="--files0-from",
            writes="-o --output",
        ),
        "uniq": _spec("-f -s -w --skip-fields --skip-chars --check-chars", out_operand=1),
        "cut": _spec("-d -f -b -c --delimiter --fields --bytes --characters --output-delimiter"),
        "tr": _DATA,
        "stat": _spec("-c --format --printf"),
        "nl": _spec("-b -d -f -h -i -l -n -s -v -w"),
        "od": _spec("-A -j -N -S -t -w --address-radix --skip-bytes --read-bytes --format --width"),
        "xxd": _spec("-c -g -l -s -o -n --cols --len --seek", out_operand=1),
        "hexdump": _spec("-n -s -e", reads="-f"),
        "hd": _spec("-n -s -e", reads="-f"),
        "strings": _spec("-n -t -e --bytes --radix --encoding"),
        "column": _spec("-s -c -o -N -t --separator --output-separator --table-columns"),
        "fold": _spec("-w --width"),
        "fmt": _spec("-w --width -p"),
        "paste": _spec("-d --delimiters"),
        "expand": _spec("-t --tabs"),
        "unexpand": _spec("-t --tabs"),
        "join": _spec("-t -1 -2 -j -o -e -a -v"),
        "cmp": _spec("-n -i --bytes --ignore-initial"),
        "diff": _spec(
            "-U -C --label -I --ignore-matching-lines -F -x --exclude --horizon-lines --color",
            reads="-X --exclude-from --from-file --to-file",
        ),
        "base64": _spec("-w --wrap"),
        "base32": _spec("-w --wrap"),
        "numfmt": _spec("--from --to --format --suffix --padding --field --delimiter -d"),
        "tree": _spec("-L -P -I --charset --filelimit --timefmt -H --sort", writes="-o"),
        "iconv": _spec("-f -t --from-code --to-code", writes="-o --output"),
        "file": _spec("-F --separator -e --exclude -P --parameter", reads="-f --files-from -m --magic-file"),
        "du": _spec(
            "-d --max-depth -B --block-size -t --threshold --exclude --time-style",
            reads="-X --exclude-from --files0-from",
        ),
        "jq": _spec(
            "--indent --arg --argjson --slurpfile --rawfile -L",
            reads="-f --from-file",
            pattern="-f --from-file",
        ),
    }
)

# jq's options that take two values (a name and a value).
_JQ_PAIRS = frozenset({"--arg", "--argjson", "--slurpfile", "--rawfile"})

_DELETERS = frozenset({"rm", "unlink", "shred", "rmdir"})
_FIND_ACTIONS_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_WRITES = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})
_FIND_VALUE_TESTS = words(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -size -perm -user "
    "-group -uid -gid -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -samefile "
    "-maxdepth -mindepth -links -inum -lname -ilname -printf -fstype -used -context -regextype "
    "-newermt -newerat -newerct"
)


def read_only(call: Call, spec: ReadSpec) -> None:
    options = parse_options(call.args, spec.with_value | spec.reads | spec.writes)
    for name, values in options.values.items():
        for value in values:
            if name in spec.reads:
                call.read(value)
            elif name in spec.writes:
                call.write(value)
    if spec.data:
        return
    operands = options.operands
    if spec.pattern is not None and not options.has(*spec.pattern):
        operands = operands[1:]
    for index, operand in enumerate(operands):
        if index == spec.out_operand:
            call.write(operand)
        else:
            call.read(operand)
    if call.inv.args_from_stdin:
        call.ask(
            "indirection",
            f"`{call.name}` reads the files named in its input (through xargs), which the policy cannot see",
        )


def _spec_handler(spec: ReadSpec) -> Handler:
    return lambda call: read_only(call, spec)


def sed(call: Call) -> None:
    options = parse_options(call.args, {"-e", "--expression", "-f", "--file", "-l", "--line-length"})
    scripts = options.value("-e", "--expression")
    operands = options.operands
    for script_file in options.value("-f", "--file"):
        call.read(script_file)
    if not scripts and not options.has("-f", "--file") and operands:
        scripts, operands = [operands[0]], operands[1:]
    for script in scripts:
        if not script.known:
            call.dynamic(script, "runs the sed script")
            continue
        problem = sed_problem(script.text)
        if problem is not None:
            call.runs(f"the sed script `{shorten(script.text, 60)}` {problem}")
    in_place = options.has("-i", "--in-place") or any(f.startswith("--in-place") for f in options.flags)
    for operand in operands:
        if in_place:
            call.write(operand, "edits")
        else:
            call.read(operand)


# sed commands that only print or edit the text going through: `e` (run), `r`/`R` (read a file),
# `w`/`W` (write one) and anything unknown are not among them.
_SED_SIMPLE = frozenset("pPdDnNgGhHxlzF=")
_SED_TEXT = frozenset("aic")
_SED_LABEL = frozenset(":btT")
_SED_NUMBER = frozenset("qQlL")


def sed_problem(script: str) -> str | None:
    """What in a sed script is more than printing or editing text; None when nothing is. Reads the
    script once, left to right, and gives up (not understood) on anything it does not know."""
    index, end = 0, len(script)
    while True:
        index = _sed_skip(script, index, " \t\n;")
        if index >= end:
            return None
        addressed = _sed_address(script, index)
        if addressed is None:
            return "has an address the policy cannot read"
        index = _sed_skip(script, addressed, " \t")
        if index < end and script[index] == "!":
            index = _sed_skip(script, index + 1, " \t")
        if index >= end:
            return "ends without a command"
        command = script[index]
        index += 1
        if command in "{}" or command in _SED_SIMPLE:
            continue
        if command in _SED_NUMBER:
            index = _sed_skip(script, _sed_skip(script, index, " \t"), "0123456789")
        elif command == "#" or command in _SED_LABEL:
            stop = ";\n" if command in "btT" else "\n"
            while index < end and script[index] not in stop:
                index += 1
        elif command in _SED_TEXT:
            while index < end and script[index] != "\n":
                index += 2 if script[index] == "\\" else 1
        elif command in "sy":
            if index >= end or script[index] in "\\\n":
                return f"has a `{command}` command the policy cannot read"
            delimiter = script[index]
            middle = _sed_part(script, index + 1, delimiter)
            closed = _sed_part(script, middle, delimiter) if middle is not None else None
            if closed is None:
                return f"has a `{command}` command that is never closed"
            index = closed
            if command == "s":
                flags_end = _sed_skip(script, index, "gpiImM0123456789")
                if flags_end < end and script[flags_end] in "ew":
                    return "runs commands or writes files (the `e` or `w` flag of `s`)"
                index = flags_end
        else:
            return f"has the command `{command}`, which can run commands, read or write files"


def _sed_skip(script: str, index: int, characters: str) -> int:
    while index < len(script) and script[index] in characters:
        index += 1
    return index


def _sed_part(script: str, index: int, delimiter: str) -> int | None:
    """The index after the `delimiter` that ends a regex or replacement starting at `index`."""
    while index < len(script):
        char = script[index]
        if char == "\\":
            index += 2
        elif char == delimiter:
            return index + 1
        else:
            index += 1
    return None


def _sed_address(script: str, index: int) -> int | None:
    """The index after one or two addresses (`3`, `$`, `/re/I`, `\\%re%`, `1~2`, `1,+3`)."""
    for position in range(2):
        start = index
        if index < len(script) and script[index] in "+~" and position == 1:
            index += 1
        if index < len(script) and script[index] == "$":
            index += 1
        elif index < len(script) and script[index] in "/\\":
            if script[index] == "\\":
                index += 1
                if index >= len(script):
                    return None
            found = _sed_part(script, index + 1, script[index])
            if found is None:
                return None
            index = _sed_skip(script, found, "IM")
        else:
            index = _sed_skip(script, index, "0123456789")
            if index < len(script) and script[index] == "~":
                index = _sed_skip(script, index + 1, "0123456789")
        if index == start and position == 1:
            return None
        index = _sed_skip(script, index, " \t")
        if position == 0 and index < len(script) and script[index] == ",":
            index = _sed_skip(script, index + 1, " \t")
            continue
        return index
    return index


_AWK_UNSAFE = re.compile(r"system\s*\(|\bgetline\b|\|&|\bprintf?\b[^;}]*?(>|\|)")
_AWK_ENVIRONMENT = re.compile(r"\bENVIRON\b|\bPROCINFO\b")
_AWK_SYSTEM = re.compile(r"system\s*\(\s*\"((?:[^\"\\]|\\.)*)\"\s*\)")


def awk(call: Call) -> None:
    options = parse_options(
        call.args,
        {"-f", "--file", "-v", "--assign", "-F", "--field-separator", "-e", "--source", "-i", "--include"},
    )
    programs = options.value("-e", "--source")
    operands = options.operands
    for program_file in options.value("-f", "--file", "-i", "--include"):
        call.read(program_file)
        call.runs(f"`{call.name}` runs the program in `{program_file.raw}`")
    if not programs and not options.has("-f", "--file") and operands:
        programs, operands = [operands[0]], operands[1:]
    for program in programs:
        if not program.known:
            call.dynamic(program, "runs the awk program")
            continue
        if _AWK_ENVIRONMENT.search(program.text):
            call.ask("secrets", f"the {call.name} program reads environment variables (API keys too)")
        if "@" in program.text:
            call.runs(f"the {call.name} program uses gawk's `@` syntax (load, include or indirect calls)")
        if _AWK_UNSAFE.search(program.text):
            call.runs(f"the {call.name} program can run commands or write files: `{program.text}`")
            for command in _AWK_SYSTEM.findall(program.text):
                call.nested_text(command.replace('\\"', '"'))
    for operand in operands:
        if not (operand.known and re.fullmatch(NAME + "=.*", operand.text)):
            call.read(operand)


def grep_like(call: Call) -> None:
    """rg and ag: like grep, but rg's --pre runs a program on every file."""
    options = parse_options(
        call.args,
        _GREP.with_value
        | {
            "-e",
            "--regexp",
            "-f",
            "--file",
            "-g",
            "--glob",
            "-t",
            "--type",
            "-T",
            "--type-not",
            "-j",
            "--threads",
            "-M",
            "--max-columns",
            "--sort",
            "--sortr",
            "--type-add",
            "-E",
            "--encoding",
            "--pre",
            "--pre-glob",
            "--ignore-file",
            "-r",
            "--replace",
        },
    )
    if options.has("--pre"):
        call.ask("indirection", f"`{call.name} --pre` runs a program on every file it searches")
        for program in options.value("--pre"):
            call.touch(program)
    for path in options.value("-f", "--file", "--ignore-file"):
        call.read(path)
    operands = options.operands
    if not options.has("-e", "--regexp", "-f", "--file"):
        operands = operands[1:]
    for operand in operands:
        call.read(operand)


_JQ_ENV = re.compile(r"\$ENV\b|\benv\b")


def jq(call: Call) -> None:
    args = list(call.args)
    rest: list[Arg] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg.known and arg.text in _JQ_PAIRS:
            if arg.text in ("--slurpfile", "--rawfile") and index + 2 < len(args):
                call.read(args[index + 2])
            index += 3
            continue
        if arg.known and arg.text in ("--args", "--jsonargs"):
            break
        rest.append(arg)
        index += 1
    filters = [a for a in rest if a.known and not a.text.startswith("-")][:1]
    if any(_JQ_ENV.search(f.text) for f in filters):
        call.ask("secrets", "the jq filter reads environment variables, which may include API keys")
    read_only(call_with(call, rest), READ_SPECS["jq"])


def call_with(call: Call, args: list[Arg]) -> Call:
    return Call(call.name, list(args), call.inv, call.part, call.walker, call.state)


def find(call: Call) -> None:
    args = list(call.args)
    index = 0
    while index < len(args) and args[index].known and re.fullmatch(r"-[HLP]|-O\d|-D", args[index].text):
        index += 2 if args[index].text == "-D" else 1
    if index < len(args) and args[index].known and args[index].text == "--":
        index += 1
    roots: list[Arg] = []
    while index < len(args) and not (
        args[index].known and (args[index].text.startswith(("-", "(", ")", "!", ",")))
    ):
        roots.append(args[index])
        index += 1
    expression = args[index:]
    root_paths: list[Path | None] = [call.read(root) for root in roots] if roots else [call.cwd]
    position = 0
    while position < len(expression):
        arg = expression[position]
        text = arg.text if arg.known else ""
        position += 1
        if text == "-delete":
            find_deletes(call, roots, expression)
            _find_delete(call, roots, root_paths)
        elif text in _FIND_WRITES and position < len(expression):
            call.write(expression[position])
            position += 1
        elif text in _FIND_ACTIONS_EXEC:
            command: list[Arg] = []
            while position < len(expression) and not (
                expression[position].known and expression[position].text in (";", "+")
            ):
                command.append(expression[position])
                position += 1
            position += 1
            if command and command[0].known and command[0].text.rpartition("/")[2] in _DELETERS:
                find_deletes(call, roots, expression)
                _find_delete(call, roots, root_paths)
            _find_exec(call, command, roots)
        elif text in _FIND_VALUE_TESTS:
            position += 1


def _find_delete(call: Call, roots: list[Arg], root_paths: list[Path | None]) -> None:
    workspace = call.context.workspace
    shown_roots: list[Arg | None] = list(roots) or [None]
    for root, path in zip(shown_roots, root_paths, strict=False):
        if root is not None and unknowable(root):
            call.block("destructive", f"deletes everything under `{root.raw}`")
            continue
        if path is None:
            continue
        if not is_inside(path, workspace):
            shown = root.raw if root is not None else str(path)
            call.block("destructive", f"deletes files under `{shown}`, outside the workspace")
        else:
            call.ask("write", f"`find -delete` deletes the files it finds under `{path}`")


def _find_exec(call: Call, command: list[Arg], roots: list[Arg]) -> None:
    if not command:
        return
    targets = roots or [Arg(".", ".")]
    for root in targets:
        replaced = [
            Arg(
                a.text.replace("{}", root.text),
                a.raw.replace("{}", root.raw),
                a.exact and root.exact,
                a.known and root.known,
                a.expanded,
                a.quoted,
            )
            if a.known and "{}" in a.text
            else a
            for a in command
        ]
        call.nested_args(replaced)


def sort(call: Call) -> None:
    if any(a.known and a.text.startswith("--compress-program") for a in call.args):
        call.ask("indirection", "`sort --compress-program` runs another program")
    read_only(call, READ_SPECS["sort"])


_TEST_FILE_OPERATORS = words("-a -b -c -d -e -f -g -G -h -k -L -N -O -p -r -s -S -u -w -x")
_TEST_FILE_PAIRS = frozenset({"-nt", "-ot", "-ef"})


def test(call: Call) -> None:
    """test and `[`: only look at files, but whether a file exists outside the workspace is
    already something read there."""
    args = [a for a in call.args if not (call.name == "[" and a.known and a.text == "]")]
    for index, arg in enumerate(args):
        text = arg.text if arg.known else ""
        if text in _TEST_FILE_OPERATORS and index + 1 < len(args):
            call.probe(args[index + 1])
        elif text in _TEST_FILE_PAIRS and 0 < index < len(args) - 1:
            call.probe(args[index - 1])
            call.probe(args[index + 1])


def ps(call: Call) -> None:
    """`ps e` and `ps -o environ` show every process's environment, API keys included."""
    for arg in call.args:
        if arg.known and ((not arg.text.startswith("-") and "e" in arg.text) or "environ" in arg.text):
            call.ask("secrets", "`ps` with `e` shows the environment of processes, which may hold API keys")
            return


def system_setting(call: Call) -> None:
    """`hostname` and `date` print, unless given a value to set."""
    setting = [a for a in call.args if not (a.known and a.text.startswith(("+", "-")))]
    if call.name == "date":
        setting = [a for a in call.args if a.known and a.text in ("-s", "--set")] or [
            a for a in call.args if a.known and a.text.startswith("--set=")
        ]
    if setting:
        call.runs(f"`{call.name}` changes a system setting")
    if call.name == "date":
        options = parse_options(call.args, {"-d", "--date", "-f", "--file", "-r", "--reference"})
        for source in options.value("-f", "--file", "-r", "--reference"):
            call.read(source)


def cd(call: Call) -> None:
    """cd changes where the rest of the line runs; the policy follows every folder it may be in."""
    options = parse_options(call.args)
    operands = [o for o in options.operands if not (o.known and o.text == "-")]
    if call.name == "popd":
        return
    if any(o.known and o.text == "-" for o in options.operands):
        _add_cwd(call, None)
        return
    target = operands[0] if operands else None
    if target is None:
        _add_cwd(call, call.context.home)
        call.ask("outside", "`cd` with no folder goes to the home folder, outside the workspace")
        return
    if not target.known or (call.cwd is None and not target.text.startswith("/")):
        _add_cwd(call, None)
        return
    path = call.read(target)
    _add_cwd(call, path if path is not None else resolve(target.text, call.cwd or call.context.cwd))


def _add_cwd(call: Call, folder: Path | None) -> None:
    cwds = call.state.cwds
    if folder not in cwds and len(cwds) < 8:
        cwds.append(folder)
    call.state.chain = [folder]


HANDLERS: dict[str, Handler] = {name: _spec_handler(spec) for name, spec in READ_SPECS.items()}
HANDLERS.update(
    {
        "sed": sed,
        "awk": awk,
        "gawk": awk,
        "mawk": awk,
        "nawk": awk,
        "rg": grep_like,
        "ag": grep_like,
        "jq": jq,
        "sort": sort,
        "hostname": system_setting,
        "date": system_setting,
        "test": test,
        "[": test,
        "ps": ps,
        "find": find,
        "cd": cd,
        "pushd": cd,
        "popd": cd,
    }
)
