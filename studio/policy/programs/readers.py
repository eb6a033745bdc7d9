"""Programs that only read: allowed when everything they read is inside the workspace. Each one
says which of its arguments are files, which are patterns or data, and which options would make
it write (then it asks)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from studio.policy.decision import shorten
from studio.policy.programs.awkscript import read_awk
from studio.policy.programs.call import Call, Handler, parse_options
from studio.policy.programs.danger import unknowable
from studio.policy.programs.paths import is_inside, resolve, words
from studio.policy.programs.runners import guarded
from studio.policy.programs.sedscript import SPECIAL_FILES, read_sed
from studio.policy.programs.skillfolders import skill_deleted
from studio.policy.programs.skillguard import find_deletes, find_spares_skill_files, replaces_skill_file
from studio.policy.shell.escapes import NAME
from studio.policy.shell.expand import Arg, literal_arg


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


_SED_FLAGS = frozenset("nrEsuz")
_SED_LONG_FLAGS = words(
    "--quiet --silent --regexp-extended --separate --unbuffered --null-data --posix --debug "
    "--sandbox --follow-symlinks --help --version"
)
_SED_LONG_VALUES = frozenset({"--expression", "--file", "--line-length"})


def _sed_options(call: Call) -> tuple[list[tuple[str, Arg]], list[Arg], bool]:
    """sed's own reading of its options: the scripts in order (`-e TEXT`, `-f FILE`), the files,
    and whether it edits in place (`-i[SUFFIX]`, `--in-place[=SUFFIX]`). An option the policy
    does not know asks, and the reading goes on: the files still get their checks."""
    scripts: list[tuple[str, Arg]] = []
    operands: list[Arg] = []
    in_place = False
    args = call.args
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        text = arg.text
        if not arg.known or text == "-" or not text.startswith("-"):
            operands.append(arg)
            continue
        if text == "--":
            operands.extend(args[index:])
            break
        if text.startswith("--"):
            name, equals, value = text.partition("=")
            if name == "--in-place":
                in_place = True
            elif name in _SED_LONG_VALUES:
                given: Arg | None = replace(arg, text=value) if equals else None
                if given is None and index < len(args):
                    given, index = args[index], index + 1
                if given is None:
                    call.runs(f"`sed {name}` has no value")
                elif name != "--line-length":
                    scripts.append(("-e" if name == "--expression" else "-f", given))
            elif name not in _SED_LONG_FLAGS:
                call.runs(f"`sed {text}` is not an option the policy knows")
            continue
        for position in range(1, len(text)):
            letter = text[position]
            if letter in _SED_FLAGS:
                continue
            if letter == "i":
                in_place = True
                break
            if letter in "efl":
                rest = text[position + 1 :]
                given = replace(arg, text=rest) if rest else None
                if given is None and index < len(args):
                    given, index = args[index], index + 1
                if given is None:
                    call.runs(f"`sed -{letter}` has no value")
                elif letter != "l":
                    scripts.append(("-" + letter, given))
                break
            call.runs(f"`sed -{letter}` is not an option the policy knows")
    if not scripts and operands:
        scripts, operands = [("-e", operands[0])], operands[1:]
    return scripts, operands, in_place


def sed(call: Call) -> None:
    scripts, operands, in_place = _sed_options(call)
    texts: list[str] = []
    for kind, script in scripts:
        text: str | None
        if kind == "-f":
            text = call.program_file(script, "sed")
            text = text.removesuffix("\n") if text is not None else None
        elif script.known:
            text = script.text
        else:
            call.dynamic(script, "runs the sed script")
            text = None
        if text is None:
            texts = []
            break
        texts.append(text)
    if not scripts:
        call.runs("`sed` has no script")
    if texts:
        _sed_script(call, "\n".join(texts))
    for operand in operands:
        if in_place:
            replaces_skill_file(call, operand, "edits in place (`sed -i`)")
            call.write(operand, "edits")
        else:
            call.read(operand)


def _too_long(call: Call, language: str, text: str) -> bool:
    """Ask, without reading it, about a program longer than any one-liner: reading it could
    take more than the check's budget, and nobody reviews it in an approval anyway."""
    if len(text) <= MAX_EMBEDDED:
        return False
    call.part.grantable = False
    call.runs(
        f"the {language} program is {len(text):,} characters long, more than the {MAX_EMBEDDED:,} "
        "the policy reads"
    )
    return True


def _sed_script(call: Call, text: str) -> None:
    if _too_long(call, "sed", text):
        return
    script = read_sed(text)
    shown_script = shorten(text, 60)
    if script.problem is not None or script.runs or script.writes:
        # A grant names a program and folders: "always allow sed" must not let through the next
        # script that runs or writes something else.
        call.part.grantable = False
    if script.problem is not None:
        call.runs(f"the sed script `{shown_script}` {script.problem}, so the policy cannot check it")
        return
    for command in script.runs[:_MAX_NESTED]:
        call.runs(f"the sed script `{shown_script}` runs shell commands (`e`)")
        if command.strip():
            guarded(call.nested_text(command))
    for name in script.reads:
        if name not in SPECIAL_FILES:
            call.read(literal_arg(name))
    for name in script.writes:
        if name not in SPECIAL_FILES:
            call.runs(f"the sed script `{shown_script}` writes files (`w`)")
            replaces_skill_file(call, literal_arg(name), "empties and writes over (sed's `w`)")
            call.write(literal_arg(name), "writes (sed's `w`) to")


# The longest program (sed script, awk program, jq filter) the policy reads.
MAX_EMBEDDED = 16 * 1024
# Commands hidden in an embedded program (sed's `e`, awk's `system("...")`) judged one by one.
_MAX_NESTED = 16


_AWK_PROGRAM_OPTIONS = frozenset({"-f", "--file", "-i", "--include", "-l", "--load", "-E", "--exec"})


def awk(call: Call) -> None:
    options = parse_options(
        call.args,
        {"-v", "--assign", "-F", "--field-separator", "-e", "--source", *_AWK_PROGRAM_OPTIONS},
    )
    programs = options.value("-e", "--source")
    operands = options.operands
    _awk_writes(call)
    for name in sorted(_AWK_PROGRAM_OPTIONS):
        for program_file in options.value(name):
            call.read(program_file)
            call.runs(f"`{call.name} {name}` runs or loads the program in `{program_file.raw}`")
    has_file = options.has("-f", "--file", "-E", "--exec")
    if not programs and not has_file and operands:
        programs, operands = [operands[0]], operands[1:]
    if not _too_long(call, call.name, "\n".join(p.text for p in programs)):
        for program in programs:
            if not program.known:
                call.dynamic(program, "runs the awk program")
                continue
            _awk_program(call, program.text)
    for assignment in options.value("-v", "--assign"):
        _awk_assignment(call, assignment)
    # gawk's `inplace` extension (`-i inplace`, `@include "inplace"`) rewrites every file it reads.
    in_place = any(
        value.known and value.text.removesuffix(".awk") == "inplace"
        for value in options.value("-i", "--include")
    ) or any(p.known and "@" in p.text and "inplace" in p.text for p in programs)
    for operand in operands:
        if operand.known and re.fullmatch(NAME + "=.*", operand.text, re.DOTALL):
            _awk_assignment(call, operand)
        else:
            if in_place:
                replaces_skill_file(call, operand, f"edits in place (`{call.name} -i inplace`)")
                call.write(operand, "edits")
            else:
                call.read(operand)


def _awk_program(call: Call, text: str) -> None:
    if _too_long(call, call.name, text):
        return
    program = read_awk(text)
    shown_program = shorten(text, 60)
    if program.problem is not None or program.unsafe:
        call.part.grantable = False
    if program.problem is not None:
        call.runs(
            f"the {call.name} program `{shown_program}` {program.problem}, so the policy cannot check it"
        )
        return
    if program.environment:
        call.ask("secrets", f"the {call.name} program reads environment variables (API keys too)")
    for what in program.unsafe:
        call.runs(f"the {call.name} program {what}: `{shown_program}`")
    for output in program.outputs[:_MAX_NESTED]:
        call.write(literal_arg(output), f"the {call.name} program writes (`print >`) to")
    if program.computed_output and "skill.md" in (program.strings + text).lower():
        call.block(
            "destructive",
            f"has the {call.name} program write (`print >`) to a file whose name it builds, and it "
            "names SKILL.md; writing over a skill is left to the user, in the window",
        )
    for command in program.commands[:_MAX_NESTED]:
        guarded(call.nested_text(command))


# awk's own variables that only shape how it splits and prints; any other upper-case name is
# one of awk's (ARGC, SYMTAB, PROCINFO...) or gawk's, which may choose what it reads.
_AWK_PLAIN_VARIABLES = words("FS OFS RS ORS SUBSEP CONVFMT OFMT IGNORECASE FIELDWIDTHS FPAT")


def _awk_assignment(call: Call, assignment: Arg) -> None:
    """`-v NAME=VALUE` and `NAME=VALUE` operands: plain data when NAME is the program's own
    (with a lower-case letter) or one of awk's formatting variables."""
    name = assignment.text.partition("=")[0] if assignment.known else ""
    if not assignment.known or not (name != name.upper() or name in _AWK_PLAIN_VARIABLES):
        call.runs(f"`{call.name}` sets `{assignment.raw}`, which may change the files it reads")


# gawk's options that write a file, each with the name it writes when given none:
# --dump-variables, --profile, --pretty-print.
_AWK_WRITERS = {
    "-d": "awkvars.out", "--dump-variables": "awkvars.out",
    "-p": "awkprof.out", "--profile": "awkprof.out",
    "-o": "awkprof.out", "--pretty-print": "awkprof.out",
}


def _awk_writes(call: Call) -> None:
    for arg in call.args:
        if not arg.known or not arg.text.startswith("-") or arg.text == "--":
            if arg.known and arg.text == "--":
                return
            continue
        name, equals, value = arg.text.partition("=")
        if name.startswith("--"):
            written = value if equals else _AWK_WRITERS.get(name)
            if name in _AWK_WRITERS and written:
                call.write(replace(arg, text=written), f"`{call.name} {name}` writes to")
        elif arg.text[:2] in _AWK_WRITERS:
            written = arg.text[2:] or _AWK_WRITERS[arg.text[:2]]
            call.write(replace(arg, text=written), f"`{call.name} {arg.text[:2]}` writes to")


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


# jq builtins and keywords that reach beyond the input: the environment, the names of the input
# files, modules loaded from the file system (`import "x" as x {search: "/etc"}` reads any JSON).
_JQ_SECRETS = frozenset({"env", "$ENV", "ENV"})
_JQ_OUTSIDE = {
    "input_filename": "tells the names of the files it reads",
    "import": "loads modules from the file system",
    "include": "loads modules from the file system",
    "modulemeta": "reads modules from the file system",
    "get_search_list": "tells where it looks for modules",
    "$__prog_args": "reads the program's arguments",
}
_JQ_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JQ_NAME = re.compile(r"(?<![.\w$])\$?[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*")


def jq_filter(call: Call, text: str) -> None:
    """Ask about a jq filter that reads the environment, file names or modules. Names are looked
    for everywhere but in strings and after a `.` (`.env` is a field of the input)."""
    if _too_long(call, "jq", text):
        return
    # Strings hold no code, unless one interpolates (`"\\(env)"`): then where a string ends
    # depends on the code inside it, and every string is read as code.
    code = text if "\\(" in text else _JQ_STRING.sub('""', text)
    for name in dict.fromkeys(_JQ_NAME.findall(code)):
        if name in _JQ_SECRETS:
            call.ask("secrets", "the jq filter reads environment variables, which may include API keys")
        elif name in _JQ_OUTSIDE:
            call.runs(f"the jq filter uses `{name}`, which {_JQ_OUTSIDE[name]}")


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
        if arg.known and (arg.text.startswith("-L") or arg.text.startswith("--library-path")):
            call.runs("`jq -L` loads modules from the folders it names")
        rest.append(arg)
        index += 1
    options = parse_options(rest, READ_SPECS["jq"].with_value | {"-f", "--from-file"})
    program_files = options.value("-f", "--from-file")
    for program_file in program_files:
        text = call.program_file(program_file, "jq")
        if text is not None:
            jq_filter(call, text)
    if not program_files:
        filters = options.operands[:1]
        for given in filters:
            if given.known:
                jq_filter(call, given.text)
            else:
                call.dynamic(given, "runs the jq filter")
    read_only(call_with(call, rest), READ_SPECS["jq"])


def wait(call: Call) -> None:
    """`wait -p NAME` stores a process id in the variable NAME; bash evaluates an array
    subscript in it (`wait -p 'a[$(cmd)]'` runs cmd), so anything but a plain name asks."""
    for name in parse_options(call.args, {"-p"}).value("-p"):
        if not (name.known and re.fullmatch(NAME, name.text)):
            call.ask(
                "indirection",
                f"`wait -p {name.raw}` names a variable bash evaluates (an array subscript runs commands)",
            )


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
            _find_exec(call, command, roots, expression)
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


def _find_exec(call: Call, command: list[Arg], roots: list[Arg], expression: list[Arg]) -> None:
    """Judge the command `-exec` runs with `{}` as each root, and, when the expression may
    match a SKILL.md, as one found below them: `find . -name '*.md' -exec sed -i ... {} +`
    edits the skill files too."""
    if not command:
        return
    targets = list(roots or [Arg(".", ".")])
    if call.cwd is not None and not find_spares_skill_files(expression):
        for root in list(targets):
            if not root.known:
                continue
            found = skill_deleted(resolve(root.text, call.cwd), True)
            if found is not None:
                relative = os.path.relpath(found, call.cwd)
                targets.append(Arg(relative, relative))
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
    """`hostname` and `date` print, unless given a value to set. `date` prints only with no
    operand or one `+FORMAT`: any other operand (`date 01010101`) or `-s` sets the clock."""
    if call.name != "date":
        if any(not (a.known and a.text.startswith(("+", "-"))) for a in call.args):
            call.runs(f"`{call.name}` changes a system setting")
        return
    options = parse_options(call.args, {"-d", "--date", "-f", "--file", "-r", "--reference", "-s", "--set"})
    operands = options.operands
    formats = [a for a in operands if a.known and a.text.startswith("+")]
    if options.has("-s", "--set") or len(operands) > 1 or len(formats) != len(operands):
        call.runs("`date` with an operand other than `+FORMAT`, or `-s`, sets the system clock")
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
        "wait": wait,
        "pushd": cd,
        "popd": cd,
    }
)
