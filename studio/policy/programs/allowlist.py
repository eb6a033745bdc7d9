"""The programs a command may run without asking, each with the only options it may have.

This is the policy's last word on "allow": after a program's rule has checked its paths, a part
that would still be allowed asks unless its program is listed here and every option it got is
one this list names. A program or option the list does not know is not understood, and what is
not understood is asked about, never allowed. GNU long options may be abbreviated; a unique
prefix of a listed option is read as that option, an ambiguous one is not understood.

An option spec is a space-separated list: `-x` a flag, `-x:` a short option with a value (attached
or the next word), `-#` any number (`head -5`), `--name` a flag, `--name=` a value (`--name=v` or
the next word), `--name[=]` an optional value (attached only), `--name==` two values (jq's
`--arg NAME VALUE`), `!--name` an option the program has that is not allowed (so that its
abbreviations are recognised), `--=` a program that takes no abbreviations.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from studio.policy.programs.paths import words
from studio.policy.shell.expand import Arg


@dataclass(frozen=True, slots=True)
class OptionSpec:
    flags: frozenset[str]
    short_values: frozenset[str]
    numbers: bool
    long_flags: frozenset[str]
    long_values: dict[str, int]
    long_optional: frozenset[str]
    denied: frozenset[str] = frozenset()
    abbreviations: bool = True

    @property
    def long_names(self) -> tuple[str, ...]:
        return tuple(sorted(self.long_flags | set(self.long_values) | self.long_optional))


def option_spec(text: str) -> OptionSpec:
    flags: set[str] = set()
    short_values: set[str] = set()
    long_flags: set[str] = set()
    long_values: dict[str, int] = {}
    long_optional: set[str] = set()
    denied: set[str] = set()
    numbers = False
    abbreviations = True
    for item in text.split():
        if item == "-#":
            numbers = True
        elif item == "--=":
            abbreviations = False
        elif item.startswith("!"):
            denied.add(item[1:])
        elif item.endswith("[=]"):
            long_optional.add(item[:-3])
        elif item.endswith("=="):
            long_values[item[:-2]] = 2
        elif item.startswith("--") and item.endswith("="):
            long_values[item[:-1]] = 1
        elif item.startswith("--"):
            long_flags.add(item)
        elif item.endswith(":"):
            short_values.add(item[1:-1])
        else:
            flags.add(item[1:])
    return OptionSpec(
        frozenset(flags),
        frozenset(short_values),
        numbers,
        frozenset(long_flags),
        long_values,
        frozenset(long_optional),
        frozenset(denied),
        abbreviations,
    )


def resolve_long(name: str, spec: OptionSpec, *, denied: bool = False) -> str | None:
    """The listed long option `name` stands for: itself, or the one option it is a unique prefix
    of; None when it is not listed or could be more than one. With `denied`, an option the
    program has but the list does not allow counts too (so the rules see `--out` as the
    `--output` it is)."""
    names = spec.long_names
    if name in names or (denied and name in spec.denied):
        return name
    if name in spec.denied or not spec.abbreviations:
        return None
    matches = [candidate for candidate in (*names, *spec.denied) if candidate.startswith(name)]
    if len(matches) != 1:
        return None
    return matches[0] if denied or matches[0] in names else None


def expand_prefixes(args: Sequence[Arg], spec: OptionSpec) -> list[Arg]:
    """`args` with each abbreviated long option written out, so the rules see `sort --out=x` as
    `--output=x` (when that is listed); `--` ends the options."""
    result: list[Arg] = []
    ended = False
    for arg in args:
        if not ended and arg.known and arg.text.startswith("--") and len(arg.text) > 2:
            name, equals, value = arg.text.partition("=")
            full = resolve_long(name, spec, denied=True)
            if full is not None and full != name:
                arg = replace(arg, text=full + equals + value)
        ended = ended or (arg.known and arg.text == "--")
        result.append(arg)
    return result


def unknown_options(args: Sequence[Arg], spec: OptionSpec) -> list[str]:
    """The options in `args` that `spec` does not list, as written."""
    problems: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        text = arg.text
        if not arg.known or text == "-" or not text.startswith("-"):
            continue
        if text == "--":
            break
        if text.startswith("--"):
            name, equals, _ = text.partition("=")
            full = resolve_long(name, spec)
            if full is None:
                problems.append(name)
            elif full in spec.long_values:
                index += spec.long_values[full] - (1 if equals else 0)
            elif equals and full not in spec.long_optional:
                problems.append(text)
            continue
        if spec.numbers and text[1:].isdigit():
            continue
        for position in range(1, len(text)):
            letter = text[position]
            if letter in spec.short_values:
                if position == len(text) - 1:
                    index += 1
                break
            if letter not in spec.flags:
                problems.append("-" + letter)
                break
    return problems


# A rule of its own for programs whose arguments are not plain options: the reason the command is
# not understood, or None when it is.
Check = Callable[[Sequence[Arg]], "str | None"]

_COMMON = "--help --version"

OPTIONS: dict[str, OptionSpec] = {
    name: option_spec(spec + " " + _COMMON)
    for name, spec in {
        "ls": "-a -A -b -B -c -C -d -f -F -g -G -h -H -i -k -l -L -m -n -N -o -p -q -Q -r -R -s -S -t "
        "-u -U -v -x -X -Z -1 -I: -w: -T: --all --almost-all --author --escape --block-size= "
        "--ignore-backups --color[=] --colour[=] --directory --classify[=] --file-type --format= "
        "--full-time --group-directories-first --no-group --human-readable --si --dereference "
        "--dereference-command-line --dereference-command-line-symlink-to-dir --hide= --ignore= "
        "--indicator-style= --inode --kibibytes --literal --numeric-uid-gid --hide-control-chars "
        "--show-control-chars --quote-name --quoting-style= --reverse --recursive --size --sort= "
        "--time= --time-style= --tabsize= --width= --context --zero",
        "cat": "-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --number --squeeze-blank "
        "--show-ends --show-tabs --show-nonprinting",
        "tac": "-b -r -s: --before --regex --separator=",
        "rev": "",
        "wc": "-c -m -l -L -w --bytes --chars --lines --max-line-length --words --total= !--files0-from",
        "head": "-# -c: -n: -q -v -z --bytes= --lines= --quiet --silent --verbose --zero-terminated",
        "tail": "-# -c: -n: -q -v -z --bytes= --lines= --quiet --silent --verbose --zero-terminated",
        "grep": "-# -E -F -G -P -e: -f: -i -y -v -w -x -c -L -l -m: -o -q -s -b -H -h -n -T -Z -z "
        "-A: -B: -C: -a -I -d: -D: -r -R -U --extended-regexp --fixed-strings --basic-regexp "
        "--perl-regexp --regexp= --file= --ignore-case --no-ignore-case --invert-match "
        "--word-regexp --line-regexp --count --color[=] --colour[=] --files-without-match "
        "--files-with-matches --max-count= --only-matching --quiet --silent --no-messages "
        "--byte-offset --with-filename --no-filename --label= --line-number --initial-tab --null "
        "--null-data --after-context= --before-context= --context= --text --binary-files= "
        "--devices= --directories= --exclude= --exclude-from= --exclude-dir= --include= "
        "--recursive --dereference-recursive --line-buffered --binary",
        "rg": "-# -e: -f: -g: -t: -T: -A: -B: -C: -m: -d: -M: -j: -E: -r: -i -s -S -w -x -v -c -l -n "
        "-N -H -I -o -u -L -F -P -U -0 -p -q -a -b --regexp= --file= --glob= --iglob= --type= "
        "--type-not= --after-context= --before-context= --context= --max-count= --max-depth= "
        "--max-columns= --threads= --encoding= --replace= --ignore-case --case-sensitive "
        "--smart-case --word-regexp --line-regexp --invert-match --count --count-matches "
        "--files-with-matches --files-without-match --files --line-number --no-line-number "
        "--with-filename --no-filename --only-matching --follow --fixed-strings --pcre2 "
        "--multiline --null --pretty --quiet --text --byte-offset --hidden --no-ignore "
        "--no-ignore-vcs --no-heading --heading --color= --colors= --json --vimgrep --column "
        "--trim --sort= --sortr= --stats --type-list --ignore-file= --no-messages --=",
        "sort": "-b -d -f -g -h -i -M -n -R -r -V -c -C -k: -m -s -t: -u -z -S: --ignore-leading-blanks "
        "--dictionary-order --ignore-case --general-numeric-sort --human-numeric-sort "
        "--ignore-nonprinting --month-sort --numeric-sort --random-sort --reverse --version-sort "
        "--check[=] --key= --merge --stable --field-separator= --unique --zero-terminated "
        "--buffer-size= --debug -o: --output= !--compress-program !--files0-from !--random-source "
        "!--temporary-directory !--parallel !--batch-size",
        "uniq": "-c -d -D -f: -i -s: -u -w: -z --count --repeated --all-repeated[=] --skip-fields= "
        "--ignore-case --skip-chars= --unique --check-chars= --zero-terminated --group[=]",
        "cut": "-b: -c: -d: -f: -n -s -z --bytes= --characters= --delimiter= --fields= --complement "
        "--only-delimited --output-delimiter= --zero-terminated",
        "tr": "-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1",
        "diff": "-q -s -c -C: -u -U: -e -n -y -W: -t -T -r -N -a -b -w -B -i -E -Z -p -d -x: "
        "--brief --report-identical-files --context[=] --unified[=] --side-by-side --width= "
        "--expand-tabs --initial-tab --recursive --new-file --text --ignore-case "
        "--ignore-space-change --ignore-all-space --ignore-blank-lines --strip-trailing-cr "
        "--color[=] --no-dereference --label= --normal --suppress-common-lines --minimal "
        "--exclude= --show-c-function --ignore-tab-expansion --ignore-trailing-space",
        "cmp": "-b -i: -l -n: -s --print-bytes --ignore-initial= --verbose --bytes= --quiet --silent",
        "comm": "-1 -2 -3 -z --check-order --nocheck-order --output-delimiter= --total "
        "--zero-terminated",
        "stat": "-L -f -c: -t --dereference --file-system --format= --printf= --terse",
        "file": "-b -i -L -h -z -k -s -E -N -p -r --brief --mime --mime-type --mime-encoding "
        "--dereference --no-dereference --uncompress --keep-going --special-files --raw",
        "du": "-a -b -c -d: -h -k -m -s -x -L -P -S -l -B: -t: --all --apparent-size --bytes "
        "--total --max-depth= --human-readable --summarize --one-file-system --dereference "
        "--separate-dirs --count-links --si --time[=] --exclude= --threshold= --block-size= "
        "!--files0-from !--exclude-from",
        "df": "-a -h -H -i -k -l -P -T -t: -x: -B: --all --human-readable --si --inodes --local "
        "--portability --print-type --output[=] --total --type= --exclude-type= --block-size=",
        "tree": "-a -d -f -i -l -x -L: -P: -I: -p -s -h -u -g -D -F -C -n -J -X -v -t -r -c -Q -N "
        "--noreport --dirsfirst --charset= --du --prune --filelimit= --matchdirs --ignore-case",
        "realpath": "-e -m -L -P -q -s -z --relative-to= --relative-base= --canonicalize-existing "
        "--canonicalize-missing --logical --physical --quiet --strip --no-symlinks --zero",
        "readlink": "-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing "
        "--canonicalize-missing --no-newline --quiet --silent --verbose --zero",
        "nl": "-b: -d: -f: -h: -i: -l: -n: -p -s: -v: -w: --body-numbering= --section-delimiter= "
        "--footer-numbering= --header-numbering= --line-increment= --join-blank-lines= "
        "--number-format= --no-renumber --number-separator= --starting-line-number= --number-width=",
        "od": "-A: -j: -N: -S: -t: -v -w -a -b -c -d -f -i -l -o -s -x --address-radix= "
        "--skip-bytes= --read-bytes= --strings[=] --format= --output-duplicates --width[=] --endian=",
        "hexdump": "-b -c -C -d -o -x -v -n: -s: -e:",
        "hd": "-b -c -C -d -o -x -v -n: -s: -e:",
        "strings": "-a -d -t: -n: -e: -f -w -# --all --data --radix= --bytes= --encoding= "
        "--print-file-name",
        "column": "-t -s: -o: -c: -x -n -e -N: -J --table --separator= --output-separator= "
        "--table-columns= --fillrows --json",
        "fold": "-b -s -w: --bytes --spaces --width=",
        "fmt": "-# -w: -c -t -s -u -p: -g: --width= --crown-margin --tagged-paragraph --split-only "
        "--uniform-spacing --prefix= --goal=",
        "paste": "-d: -s -z --delimiters= --serial --zero-terminated",
        "expand": "-t: -i --tabs= --initial",
        "unexpand": "-t: -a --tabs= --all --first-only",
        "join": "-a: -e: -i -j: -o: -t: -v: -1: -2: -z --check-order --nocheck-order --header "
        "--ignore-case --zero-terminated",
        "base64": "-d -i -w: --decode --ignore-garbage --wrap=",
        "base32": "-d -i -w: --decode --ignore-garbage --wrap=",
        "numfmt": "-d: -z --from= --to= --format= --suffix= --padding= --field= --delimiter= "
        "--header[=] --round= --grouping --invalid= --from-unit= --to-unit= --zero-terminated",
        "look": "-b -d -f -a -t:",
        "lsattr": "-R -a -d -v -p",
        "zcat": "-f -q",
        "bzcat": "-q -s",
        "xzcat": "-q -Q",
        "md5sum": "-b -t -z --binary --text --tag --zero",
        "cksum": "-a: --algorithm= --untagged --tag --raw --base64 --length=",
        "sum": "-r -s --sysv",
        "jq": "-r -j -c -n -s -e -S -C -M -a -R --raw-output --join-output --compact-output "
        "--null-input --slurp --exit-status --sort-keys --tab --indent= --color-output "
        "--monochrome-output --ascii-output --raw-input --seq --stream --arg== --argjson== "
        "--slurpfile== --rawfile== -f: --from-file= --args --jsonargs --raw-output0 --=",
        "sed": "-n -E -r -s -u -z -e: -f: -l: --quiet --silent --regexp-extended --separate "
        "--unbuffered --null-data --posix --debug --expression= --file= --line-length= --sandbox "
        "!--in-place !--follow-symlinks",
        "awk": "-F: -v: --field-separator= --assign=",
        "pwd": "-L -P",
        "cd": "-L -P",
        "pushd": "-n",
        "popd": "-n",
        "basename": "-a -s: -z --multiple --suffix= --zero",
        "dirname": "-z --zero",
        "which": "-a",
        "type": "-a -f -p -P -t",
        "command": "-v -V -p",
        "uname": "-a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release "
        "--kernel-version --machine --processor --hardware-platform --operating-system",
        "nproc": "--all --ignore=",
        "id": "-g -G -n -r -u -z --group --groups --name --real --user --zero",
        "whoami": "",
        "groups": "",
        "logname": "",
        "arch": "",
        "tty": "-s --silent --quiet",
        "uptime": "-p -s --pretty --since",
        "free": "-b -k -m -g -h -t -w -l --bytes --kibi --mebi --gibi --human --total --wide --si",
        "cal": "-# -1 -3 -y -m -j -h",
        "seq": "-s: -w -f: --separator= --equal-width --format=",
        "sleep": "",
        "true": "",
        "false": "",
        ":": "",
        "expr": "",
        "date": "-u -R -I -d: --utc --universal --rfc-email --rfc-2822 --rfc-3339= --iso-8601[=] --date= "
        "--debug !--file !--reference !--set",
        "hostname": "-s -f -d -i -I --short --fqdn --long --domain --ip-address --all-ip-addresses",
        "locale": "-a -m -k -c --all-locales --charmaps --keyword-name --category-name",
        "getconf": "-a",
        "wait": "-n -f -p:",
        "jobs": "-l -p -r -s",
        "dirs": "-c -l -p -v",
        "times": "",
        "help": "-d -m -s",
        "exit": "",
        "return": "",
        "shift": "",
        "break": "",
        "continue": "",
        "xargs": "-0 -r -t -x -n: -L: -d: -I: -P: -s: --null --no-run-if-empty --verbose --exit "
        "--max-args= --max-lines= --delimiter= --max-procs= --max-chars= --replace=",
        "env": "-i -0 -u: --ignore-environment --null --unset=",
        "time": "-p",
        "timeout": "-s: -k: -v --signal= --kill-after= --preserve-status --foreground --verbose",
        "nice": "-n: --adjustment=",
        "stdbuf": "-i: -o: -e: --input= --output= --error=",
        "dd": "",
        "xxd": "-r -p -u -i -b -e -a -E -C -d -c: -l: -s: -g: -o: -n: -R: --=",
    }.items()
}
for _name in ["sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "shasum"]:
    OPTIONS[_name] = OPTIONS["md5sum"]
for _name in ("gawk", "mawk", "nawk"):
    OPTIONS[_name] = OPTIONS["awk"]
for _name in ("egrep", "fgrep", "zgrep"):
    OPTIONS[_name] = OPTIONS["grep"]


def _data(args: Sequence[Arg]) -> str | None:
    """echo, and programs like it, print their arguments; no argument is an option to fear."""
    return None


def _printf(args: Sequence[Arg]) -> str | None:
    first = args[0] if args else None
    if first is not None and (not first.known or first.text.startswith("-v")):
        return "`printf -v` assigns to a variable, and bash evaluates array subscripts in its name"
    return None


_PS_BSD = re.compile(r"[aAuxwfjlvrThHSmnc]*")


def _ps(args: Sequence[Arg]) -> str | None:
    spec = _PS_OPTIONS
    for index, arg in enumerate(args):
        if not arg.known:
            return f"`ps` gets `{arg.raw}`, which is only known when it runs"
        if index == 0 and not arg.text.startswith("-") and not _PS_BSD.fullmatch(arg.text):
            return f"`ps {arg.text}` is not a listing the policy knows"
    problems = unknown_options(args, spec)
    return f"`ps {problems[0]}` is not an option the policy knows" if problems else None


_PS_OPTIONS = option_spec(
    "-e -A -a -d -f -F -l -j -x -H -w -y -p: -u: -U: -g: -G: -C: -o: -q: --pid= --ppid= --sort= "
    "--forest --no-headers --cols= --columns= " + _COMMON
)


def _dd(args: Sequence[Arg]) -> str | None:
    for arg in args:
        key, equals, _ = arg.text.partition("=")
        if not arg.known or not equals or key not in _DD_KEYS:
            return f"`dd {arg.raw}` is not an operand the policy knows"
    return None


_DD_KEYS = words(
        "if of bs ibs obs cbs count skip seek status iflag oflag"
    )


def _shell(args: Sequence[Arg]) -> str | None:
    """`bash -c TEXT [NAME ARGS...]`: the text is judged as a command line of its own."""
    first = args[0] if args else None
    if first is None or not first.known or not re.fullmatch(r"-[eu]*c[eu]*", first.text):
        return "a shell run other than `bash -c '...'` reads files or settings the policy does not check"
    return None


def _interpreter(args: Sequence[Arg]) -> str | None:
    if [a.text for a in args] in (["--version"], ["-V"]):
        return None
    return "the interpreter runs code the policy does not read"


def _test(args: Sequence[Arg]) -> str | None:
    for arg in args:
        if not arg.known or arg.text in ("-v", "-R"):
            return (
                f"`test {arg.raw}` looks up a variable by a name bash evaluates, array subscripts "
                "and all"
            )
    return None


# find's tests and the actions that only print; `-exec`, `-delete`, `-fprint` and the rest are not
# here, so they ask.
_FIND_PRIMARIES = words(
        "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -size -perm "
        "-user -group -uid -gid -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer "
        "-samefile -maxdepth -mindepth -links -inum -lname -ilname -fstype -used -regextype "
        "-newermt -newerat -newerct -empty -readable -writable -executable -nouser -nogroup -true "
        "-false -print -print0 -printf -ls -prune -quit -depth -mount -xdev -follow -noleaf "
        "-daystart -not -and -or -a -o ! ( ) , -H -L -P --help --version"
    )
_FIND_VALUES = words(
        "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -size -perm "
        "-user -group -uid -gid -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer "
        "-samefile -maxdepth -mindepth -links -inum -lname -ilname -fstype -used -regextype "
        "-newermt -newerat -newerct -printf"
    )


def _find(args: Sequence[Arg]) -> str | None:
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if not arg.known:
            return f"`find` gets `{arg.raw}`, which is only known when it runs"
        if arg.text in _FIND_VALUES:
            index += 1
        elif (arg.text.startswith("-") and arg.text not in _FIND_PRIMARIES) or arg.text == "--":
            return f"`find {arg.text}` is not a test or action the policy knows"
    return None


_GIT_GLOBAL = option_spec(
    "-C: -P --no-pager --no-optional-locks --literal-pathspecs --paginate --version --help"
)
# Options every history and diff subcommand shares: formatting, limiting, diff output. None reads
# or writes a file or runs a program (`--output`, `--ext-diff`, `--textconv`, `-O` are not here).
_GIT_DIFF_OPTIONS = (
    "-p -u -s -z -U: -M -B -C -W -R -a -b -w --patch --no-patch --unified= --raw --stat[=] "
    "--shortstat --numstat --dirstat[=] --summary --name-only --name-status --check --color[=] "
    "--no-color --word-diff[=] --patience --histogram --minimal --ignore-all-space "
    "--ignore-space-change --ignore-blank-lines --find-renames[=] --find-copies[=] --no-renames "
    "--diff-filter= --no-ext-diff --no-textconv --src-prefix= --dst-prefix= --no-prefix "
    "--function-context --text --full-index --binary --abbrev[=] --exit-code --quiet "
    "--ignore-submodules[=] --relative[=] --no-relative --diff-algorithm= --indent-heuristic "
    "--compact-summary --submodule[=] --cached --staged --merge-base --help "
    "!--output !--output-indicator-new !--ext-diff !--textconv !--orderfile"
)
_GIT_LOG_OPTIONS = (
    _GIT_DIFF_OPTIONS
    + " -# -n: -S: -G: -L: -i -E -F -P --oneline --graph --decorate[=] --no-decorate --all "
    "--format= --pretty[=] --since= --after= --until= --before= --author= --committer= --grep= "
    "--max-count= --skip= --abbrev-commit --reverse --follow --date= --relative-date "
    "--first-parent --merges --no-merges --left-right --cherry-pick --topo-order --date-order "
    "--author-date-order --full-history --show-signature --boundary --branches[=] --tags[=] "
    "--remotes[=] --pickaxe-all --pickaxe-regex --invert-grep --all-match --regexp-ignore-case "
    "--no-walk[=] --simplify-by-decoration --ancestry-path --count --children --parents "
    "--show-notes[=] --no-notes --log-size --mailmap --no-mailmap --use-mailmap --encoding= "
    "--max-age= --min-age= --min-parents= --max-parents= --source --stdin --no-abbrev-commit"
)
_GIT_SUBCOMMANDS: dict[str, OptionSpec] = {}
for _names, _spec in {
    "log show whatchanged rev-list shortlog": _GIT_LOG_OPTIONS
    + " -c -e --committer --summary --email --numbered -sn",
    "diff diff-tree diff-files diff-index range-diff": _GIT_DIFF_OPTIONS
    + " -r -t --root --no-index -c --cc --combined-all-paths --stdin -m",
    # Not `-S` (a file of revisions), `--contents` or `--ignore-revs-file`: they read any file.
    "blame annotate": "-b -c -e -f -l -n -p -s -t -w -L: -M -C --root --show-stats --show-name "
    "--show-number --show-email --porcelain --line-porcelain --incremental --date= --abbrev[=] "
    "--reverse --first-parent --color-lines --color-by-age --ignore-rev= --progress "
    "--no-progress --score-debug --minimal --help !--contents !--ignore-revs-file",
    "status": "-s -b -u -v -z --short --branch --porcelain[=] --long --verbose --untracked-files[=] "
    "--ignored[=] --ignore-submodules[=] --column[=] --no-column --ahead-behind "
    "--no-ahead-behind --renames --no-renames --find-renames[=] --show-stash --null --help",
    "ls-files": "-c -d -m -o -i -s -u -k -z -t -v -f --cached --deleted --modified --others "
    "--ignored --stage --unmerged --killed --directory --no-empty-directory --exclude-standard "
    "--full-name --recurse-submodules --abbrev[=] --error-unmatch --eol --deduplicate --sparse "
    "--format= -x: --exclude= --help",
    "ls-tree": "-d -r -t -l -z --name-only --name-status --object-only --full-name --full-tree "
    "--abbrev[=] --long --format= --help",
    "cat-file": "-t -s -e -p --allow-unknown-type --help",
    "rev-parse": "-q --quiet --show-toplevel --show-prefix --show-cdup --git-dir --git-common-dir "
    "--absolute-git-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository "
    "--abbrev-ref[=] --verify --short[=] --symbolic --symbolic-full-name --all --branches[=] "
    "--tags[=] --remotes[=] --default= --show-object-format[=] --help",
    "describe": "--tags --all --always --dirty[=] --broken[=] --long --abbrev= --contains "
    "--exact-match --match= --exclude= --first-parent --candidates= --debug --help",
    "grep": "-# -n -i -v -w -l -L -c -e: -E -F -P -G -h -H -o -q -z -A: -B: -C: -I -a -r --and "
    "--or --not --all-match --cached --untracked --no-index --exclude-standard "
    "--line-number --column --ignore-case --word-regexp --invert-match --count "
    "--files-with-matches --files-without-match --only-matching --quiet --null --break "
    "--heading --show-function --function-context --max-depth= --recurse-submodules "
    "--extended-regexp --fixed-strings --perl-regexp --basic-regexp --full-name --no-color "
    "--color[=] --max-count= --threads= --text --help !--open-files-in-pager !--file",
    "name-rev": "--tags --refs= --exclude= --all --name-only --no-undefined --always --annotate-stdin",
    "merge-base": "-a --all --octopus --independent --is-ancestor --fork-point",
    "count-objects": "-v -H --verbose --human-readable",
    "check-ignore": "-q -v -n -z --quiet --verbose --non-matching --no-index",
    "check-attr": "-a -z --all --cached --source=",
    "var": "-l",
    "version": "--build-options",
    "help": "-a -g --all --guides --verbose",
    "for-each-ref": "--count= --sort= --format= --color[=] --shell --perl --python --tcl "
    "--points-at= --merged[=] --no-merged[=] --contains[=] --no-contains[=] --ignore-case",
    "show-ref": "-s -d -q --head --heads --tags --branches --verify --hash[=] --abbrev[=] "
    "--dereference --quiet --exists",
    "show-branch": "-a -r --all --remotes --list --topo-order --date-order --current --sha1-name "
    "--more= --merge-base --independent --no-name --sparse --color[=] --no-color",
    "cherry": "-v --abbrev[=]",
    "fsck": "--full --strict --no-dangling --connectivity-only --unreachable --root --tags --cache "
    "--name-objects --progress --no-progress --verbose --no-reflogs",
    "verify-commit verify-tag": "-v --verbose --raw",
    "branch": "-a -r -v -vv -l --all --remotes --verbose --list --show-current --contains[=] "
    "--no-contains[=] --merged[=] --no-merged[=] --sort= --format= --color[=] --no-color "
    "--column[=] --no-column --points-at= --abbrev= --no-abbrev -i --ignore-case",
    "tag": "-l -n -v --list --contains[=] --no-contains[=] --merged[=] --no-merged[=] --sort= "
    "--format= --points-at= --column[=] --no-column --verify --color[=] -i --ignore-case",
    "remote": "-v --verbose",
    "stash": "-p --patch --stat --name-only --oneline --format= -n:",
    "reflog": "-n: --oneline --format= --date= --all",
    "worktree": "--porcelain -v --verbose -z",
    "submodule": "--cached --recursive --quiet",
    "notes": "--ref=",
    # Not `--file`/`-f`, `--blob`, `--global`, `--system`, `--includes`: other files than the
    # repository's own configuration.
    "config": "--get --get-all --get-regexp --list -l --show-origin --show-scope --name-only "
    "--get-urlmatch --local --worktree --type= --default= --null -z --bool --int --path "
    "!--file !--blob !--global !--system !--includes",
}.items():
    for _name in _names.split():
        _GIT_SUBCOMMANDS[_name] = option_spec(_spec)


# Subcommands that take a verb (`git remote add`, `git stash drop`): the only verbs that read,
# with None for the subcommand alone. The verb is the first word that is not an option, however
# many options come before it (`git remote -v add` adds).
GIT_VERBS: dict[str, frozenset[str | None]] = {
    "remote": frozenset({None, "get-url"}),
    "stash": frozenset({"list", "show"}),
    "reflog": frozenset({None, "show"}),
    "worktree": frozenset({"list"}),
    "submodule": frozenset({None, "status", "summary"}),
    "notes": frozenset({None, "list", "show"}),
}


def git_verb(sub: str, args: Sequence[Arg]) -> str | None:
    """The verb of `git SUB args` (see GIT_VERBS): the first operand after the options `sub`
    takes (a value of `-n 3` is not a verb); "" when it is only known when the command runs."""
    spec = _GIT_SUBCOMMANDS.get(sub)
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if not arg.known:
            return ""
        text = arg.text
        if text == "--":
            following = args[index] if index < len(args) else None
            return None if following is None else following.text if following.known else ""
        if not text.startswith("-") or text == "-":
            return text
        if spec is None:
            continue
        if len(text) == 2 and text[1] in spec.short_values:
            index += 1
        elif text.startswith("--") and "=" not in text:
            index += spec.long_values.get(text, 0)
    return None


def _git(args: Sequence[Arg]) -> str | None:
    """git's global options, then the options its subcommand may have: each subcommand has its
    own list, since the same letter means different things (`log -S TEXT`, `blame -S FILE`)."""
    index = 0
    while index < len(args) and args[index].known and args[index].text.startswith("-"):
        text = args[index].text
        if unknown_options([args[index]], _GIT_GLOBAL):
            return f"`git {text}` is not a git option the policy knows"
        index += 2 if text == "-C" else 1
    if index >= len(args):
        return None
    sub = args[index]
    spec = _GIT_SUBCOMMANDS.get(sub.text) if sub.known else None
    if spec is None:
        return f"`git {sub.raw}` is not a git subcommand the policy lists as read-only"
    rest = args[index + 1 :]
    verbs = GIT_VERBS.get(sub.text)
    if verbs is not None:
        verb = git_verb(sub.text, rest)
        if verb not in verbs:
            return f"`git {sub.text} {verb or '…'}` is not a listing the policy knows to only read"
    problems = unknown_options(rest, spec)
    return f"`git {sub.text} {problems[0]}` is not an option the policy knows" if problems else None


# The options the package managers' listing subcommands may have; anything else (an index URL,
# `go env -w`, `conda env remove`) asks.
_PACKAGE_READ = option_spec(
    "-v -V -q -l -a -g --verbose --quiet --json --format= --local --user --not-required --all "
    "--depth= --long --global --parseable --version --help"
)
_PACKAGE_SUBWORDS = frozenset({"list", "ls", "info", "show", "--version", "-v", "-V", "version", "help"})


# Package managers whose project settings name a program they run for any subcommand, even
# `--version`: yarn's `yarnPath` in .yarnrc.yml, pnpm's `packageManager` (fetched from the
# registry .npmrc names), poetry's `requires-plugins`.
_PROJECT_RUNS = {
    "yarn": "yarn runs the program `yarnPath` in the project's .yarnrc.yml names",
    "pnpm": "pnpm fetches and runs the version the project's package.json names",
    "poetry": "poetry installs and runs the plugins the project's pyproject.toml requires",
}
# Listings that run code of the project's packages (uv builds one to read its metadata) or
# open a program the project's settings name (npm help's browser).
_PACKAGE_RUNNING = {("uv", "tree"), ("npm", "help"), ("uv", "help")}


def _package(args: Sequence[Arg], name: str = "") -> str | None:
    if name in _PROJECT_RUNS:
        return _PROJECT_RUNS[name]
    if not args or not args[0].known:
        return "the package manager's subcommand is not known"
    sub, rest = args[0].text, args[1:]
    if (name, sub) in _PACKAGE_RUNNING:
        return f"`{name} {sub}` can run the project's own code or a program its settings name"
    if sub in ("env", "config", "pip", "tool", "cache"):
        names = [a.text for a in rest if a.known and not a.text.startswith("-")]
        listing = bool(names) and names[0] in _PACKAGE_SUBWORDS and sub not in ("config", "cache")
        variables = sub == "env" and all(re.fullmatch(r"[A-Z][A-Z0-9_]*", n) for n in names)
        if not (listing or variables):
            return f"`{sub}` can change the package manager's settings or environments"
    problems = unknown_options(rest, _PACKAGE_READ)
    return f"`{problems[0]}` is not a package-manager option the policy knows" if problems else None


CHECKS: dict[str, Check] = {
    "test": _test,
    "[": _test,
    "find": _find,
    "git": _git,
    "echo": _data,
    "printf": _printf,
    "ps": _ps,
    "dd": _dd,
}
CHECKS.update({name: _shell for name in ("sh", "bash", "dash")})
CHECKS.update({name: _interpreter for name in ("python", "python3", "node")})
CHECKS.update(
    {
        name: functools.partial(_package, name=name)
        for name in words("pip pip3 npm yarn pnpm gem cargo go brew conda mamba micromamba uv poetry")
    }
)


def unlisted_options(name: str, args: Sequence[Arg]) -> bool:
    """Whether `name args` has an option its list (the program's, or for git the subcommand's)
    does not name; False for programs without a list."""
    spec = OPTIONS.get(name)
    if name == "git":
        index = 0
        while index < len(args) and args[index].known and args[index].text.startswith("-"):
            index += 2 if args[index].text == "-C" else 1
        sub = args[index] if index < len(args) else None
        spec = _GIT_SUBCOMMANDS.get(sub.text) if sub is not None and sub.known else None
        args = args[index + 1 :]
    return spec is not None and bool(unknown_options(args, spec))


def not_understood(name: str, args: Sequence[Arg]) -> str | None:
    """Why `name args` is not among what may run without asking; None when it is."""
    check = CHECKS.get(name)
    if check is not None:
        return check(args)
    spec = OPTIONS.get(name)
    if spec is None:
        return f"`{name}` is not on the policy's list of programs that only read"
    problems = unknown_options(args, spec)
    if problems:
        return f"`{name} {problems[0]}` is not an option the policy knows for `{name}`"
    return None
