"""Programs that create, change, move or pack files: they ask, and each of their paths is checked
for being outside the workspace, a dotfile or a credential."""

from __future__ import annotations

import os
import re

from studio.policy.programs.call import LEFT_TO_USER, Call, Handler, parse_options
from studio.policy.programs.danger import dangerous_mode
from studio.policy.programs.paths import words
from studio.policy.programs.skillfolders import SKILL_FILES
from studio.policy.programs.skillguard import copies_over_skill, replaces_skill_file, takes_skill
from studio.policy.shell.expand import Arg


def _mode_check(call: Call, modes: list[Arg]) -> None:
    for mode in modes:
        why = dangerous_mode(mode.text) if mode.known else None
        if why is not None:
            call.block("privilege", why)


def copy_like(call: Call) -> None:
    """cp, mv, ln, install: sources then a destination (or -t DIR)."""
    options = parse_options(
        call.args,
        {
            "-t",
            "--target-directory",
            "-S",
            "--suffix",
            "-m",
            "--mode",
            "-o",
            "--owner",
            "-g",
            "--group",
            "--backup",
        },
    )
    _mode_check(call, options.value("-m", "--mode"))
    if options.has("-o", "--owner", "-g", "--group"):
        call.block("privilege", "sets file ownership, which needs administrator rights")
    operands = list(options.operands)
    targets = options.value("-t", "--target-directory")
    if not targets and call.name == "ln" and len(operands) == 1:
        targets, sources = [], operands
        call.ask("write", "`ln` creates a link in the current folder")
    elif not targets and operands:
        targets, sources = [operands[-1]], operands[:-1]
    else:
        sources = operands
    for source in sources:
        if call.name == "mv":
            takes_skill(call, source, "moves")
            call.write(source, "moves")
        else:
            call.read(source)
    for target in targets:
        replaces_skill_file(call, target, "writes over")
        folder = call.write(target, "moves to" if call.name == "mv" else "writes to")
        if folder is not None and call.name == "cp":
            copies_over_skill(call, sources, folder, options.has("-T", "--no-target-directory"))
        if folder is not None and folder.is_dir() and not options.has("-T", "--no-target-directory"):
            # Into a folder: each source lands under its own name there (`cp x/SKILL.md .`).
            for source in sources:
                if source.known and source.text.rstrip("/"):
                    name = os.path.basename(source.text.rstrip("/"))
                    call.over_skill_file(Arg(name, source.raw), folder / name, "writes over")
    if not operands:
        call.runs(f"`{call.name}` with nothing to copy")


def create(call: Call) -> None:
    """mkdir, touch, tee, mkfifo, mknod, rename, mktemp: every operand is written."""
    options = parse_options(
        call.args,
        {
            "-m",
            "--mode",
            "-r",
            "--reference",
            "-d",
            "--date",
            "-t",
            "-p",
            "--tmpdir",
            "--suffix",
            "-Z",
            "--context",
        },
    )
    _mode_check(call, options.value("-m", "--mode"))
    for reference in options.value("-r", "--reference"):
        call.read(reference)
    for folder in options.value("-p", "--tmpdir"):
        call.write(folder)
    appends = options.has("-a", "--append")
    for operand in options.operands:
        if call.name == "tee" and not appends:
            replaces_skill_file(call, operand, "empties and writes over")
        call.write(operand)
    if call.name == "mktemp" and not options.value("-p", "--tmpdir"):
        call.ask("outside", "`mktemp` creates a file in the system's temporary folder, outside the workspace")
    elif not options.operands:
        call.ask(
            "write",
            f"`{call.name}` writes its input to nowhere but the screen"
            if call.name == "tee"
            else f"`{call.name}` with nothing to create",
        )


_TAR_VALUES = words(
    "-f --file -C --directory -T --files-from -X --exclude-from --exclude -b --blocking-factor -I "
    "--use-compress-program --to-command --checkpoint-action -H --format -N --newer --owner --group "
    "--mode --transform"
)


def tar(call: Call) -> None:
    args = list(call.args)
    if args and args[0].known and re.fullmatch(r"[A-Za-z]+", args[0].text):
        args[0] = Arg("-" + args[0].text, args[0].raw)
    options = parse_options(args, _TAR_VALUES)
    if options.value("-I", "--use-compress-program", "--to-command", "--checkpoint-action") or any(
        "checkpoint-action" in flag for flag in options.flags
    ):
        call.ask(
            "indirection", "`tar` runs another program on the archive (--to-command, -I, --checkpoint-action)"
        )
    archives = options.value("-f", "--file")
    folders = options.value("-C", "--directory")
    for listing in options.value("-T", "--files-from", "-X", "--exclude-from"):
        call.read(listing)
    if options.has("-t", "--list"):
        for archive in archives:
            call.read(archive)
        return
    if options.has("-x", "--extract", "--get"):
        for archive in archives:
            call.read(archive)
        for folder in folders:
            call.write(folder, "unpacks into")
        if not folders:
            call.ask("write", "`tar -x` unpacks files into the current folder")
        for member in options.operands:
            call.write(member, "unpacks")
        return
    for archive in archives:
        call.write(archive)
    for folder in folders:
        call.read(folder)
    removes = options.has("--remove-files")
    for member in options.operands:
        if removes:
            takes_skill(call, member, "packs and deletes (`tar --remove-files`)")
        call.read(member)
    if not archives:
        call.runs("`tar` writes an archive")


def zip_(call: Call) -> None:
    options = parse_options(call.args, {"-x", "-i", "-b", "-n", "-t", "-tt", "-P", "--password"})
    operands = options.operands
    moves = options.has("-m", "--move")
    if operands:
        call.write(operands[0])
        for member in operands[1:]:
            if moves:
                takes_skill(call, member, "moves into the archive (`zip -m` deletes the original)")
            call.read(member)
    else:
        call.runs("`zip` with nothing to pack")


def unzip(call: Call) -> None:
    options = parse_options(call.args, {"-d", "-x", "-P"})
    operands = options.operands
    if operands:
        call.read(operands[0])
    if options.has("-l", "-v", "-t", "-Z", "-z"):
        return
    for folder in options.value("-d"):
        call.write(folder, "unpacks into")
    if not options.value("-d"):
        call.ask("write", "`unzip` unpacks files into the current folder")


_PACKED_SUFFIXES = frozenset({"gz", "z", "bz2", "xz", "zst", "lz4", "tgz", "lzma"})
_UNPACKERS = frozenset({"gunzip", "bunzip2", "unxz", "unzstd", "uncompress"})


def compress(call: Call) -> None:
    """gzip and friends replace each file; with -c/-l/-t they only read."""
    options = parse_options(call.args, {"-S", "--suffix", "-T", "--threads", "-b"})
    read_only = options.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test")
    keeps = options.has("-k", "--keep")
    unpacks = call.name in _UNPACKERS or options.has("-d", "--decompress", "--uncompress")
    for operand in options.operands:
        if read_only:
            call.read(operand)
            continue
        if not keeps:
            takes_skill(call, operand, f"replaces (with `{call.name}`, which removes the original)")
        # Its own file is read and (without -k) removed; what it writes is the name with the
        # suffix added or, unpacking, taken off (`gunzip -f SKILL.md.gz` writes SKILL.md).
        call.write(operand, "replaces", over_skill=False)
        if unpacks and operand.known:
            stem, dot, suffix = operand.text.rpartition(".")
            if dot and stem and suffix.lower() in _PACKED_SUFFIXES:
                call.write(Arg(stem, operand.raw), "unpacks into")
    if not options.operands and not read_only:
        call.runs(f"`{call.name}` compresses its input")


def patch(call: Call) -> None:
    options = parse_options(
        call.args,
        {
            "-p",
            "--strip",
            "-i",
            "--input",
            "-o",
            "--output",
            "-d",
            "--directory",
            "-r",
            "--reject-file",
            "-F",
            "--fuzz",
            "-B",
            "--prefix",
            "-z",
            "--suffix",
            "-D",
            "--ifdef",
        },
    )
    for patch_file in options.value("-i", "--input"):
        call.read(patch_file)
    for output in options.value("-o", "--output", "-r", "--reject-file"):
        call.write(output)
    for folder in options.value("-d", "--directory"):
        call.write(folder, "patches files in")
    operands = options.operands
    if operands:
        call.write(operands[0], "patches")
        for patch_file in operands[1:]:
            call.read(patch_file)
    else:
        call.ask("write", "`patch` changes the files the patch names")


def split(call: Call) -> None:
    """split and csplit write pieces named PREFIX + a suffix they make up (`-a`, `-b FORMAT`,
    `--additional-suffix`): a piece may be named SKILL.md (`split -n 4 -a 1 IN SKILL.m`
    writes `SKILL.md`), so a prefix that can grow into a skill file's name blocks."""
    options = parse_options(
        call.args,
        {
            "-a",
            "-b",
            "-C",
            "-l",
            "-n",
            "-t",
            "--additional-suffix",
            "--suffix-length",
            "--bytes",
            "--line-bytes",
            "--lines",
            "--number",
            "--separator",
            "-f",
            "--prefix",
            "--suffix-format",
            "--filter",
        },
    )
    if options.value("--filter"):
        call.ask("indirection", f"`{call.name} --filter` runs a shell command on each piece")
    operands = options.operands
    if operands:
        call.read(operands[0])
    call.ask("write", f"`{call.name}` writes the pieces into the current folder")
    if call.name == "csplit":
        prefixes = options.value("-f", "--prefix") or [Arg("xx", "xx")]
    else:
        prefixes = operands[1:2] or [Arg("x", "x")]
    for prefix in prefixes:
        _pieces_over_skill(call, prefix, options.value("--additional-suffix"))
        call.write(prefix, "writes pieces named after")


def _suffix_made(program: str, rest: str, end: str) -> bool:
    """Whether `program` can name a piece `rest` after its prefix: split's suffixes are lower-case
    letters or digits (then `end`); csplit's `-b FORMAT` can be anything."""
    if not rest.endswith(end) or len(rest) <= len(end):
        return False
    made = rest[: len(rest) - len(end)]
    return program == "csplit" or re.fullmatch(r"[a-z0-9]+", made) is not None


def _pieces_over_skill(call: Call, prefix: Arg, suffixes: list[Arg]) -> None:
    if not prefix.known or call.cwd is None:
        return
    folder = (call.cwd / prefix.text).parent if prefix.text else call.cwd
    start = os.path.basename(prefix.text)
    ends = [s.text for s in suffixes if s.known] or [""]
    for name in SKILL_FILES:
        if not (folder / name).is_file():
            continue
        if name.startswith(start) and any(_suffix_made(call.name, name[len(start) :], end) for end in ends):
            call.block(
                "destructive",
                f"writes pieces named `{prefix.raw}` plus a suffix, which can be the skill file "
                f"{folder / name}; {LEFT_TO_USER}",
            )
            return


# Options of vi-like editors that take a value (a command, a script, a terminal name; not `-s`,
# a flag in Ex mode and a script elsewhere: its value is checked as a file written); ed's
# only one is its prompt.
_EDITOR_VALUES = words("-c --cmd -S -u -U -i -T -w -W -t -q")
_ED_VALUES = words("-p --prompt")


def editor(call: Call) -> None:
    """ed, ex, vi, vim, nvim and sponge write the files they are given (`ed -s SKILL.md <<<
    $'1d\nw'`, `sort x | sponge SKILL.md`); vi-like ones also run commands (`-c ':!sh'`)."""
    options = parse_options(call.args, _ED_VALUES if call.name in ("ed", "red") else _EDITOR_VALUES)
    if call.name != "sponge":
        call.runs(f"`{call.name}` edits files with commands of its own, which can run programs")
    for operand in options.operands:
        if operand.known and operand.text.startswith("+"):
            continue
        call.write(operand, "edits")
    if not options.operands:
        call.ask("write", f"`{call.name}` writes what it is told to")


HANDLERS: dict[str, Handler] = {name: copy_like for name in ("cp", "mv", "ln", "install")}
HANDLERS.update({name: editor for name in ("ed", "red", "ex", "vi", "vim", "nvim", "sponge")})
def rename(call: Call) -> None:
    """`rename` (perl's or util-linux's): every file it is given may move."""
    for arg in call.args:
        if not (arg.known and arg.text.startswith("-")):
            takes_skill(call, arg, "renames")
    create(call)


HANDLERS.update({name: create for name in ("mkdir", "touch", "tee", "mkfifo", "mknod", "mktemp")})
HANDLERS["rename"] = rename
HANDLERS.update(
    {
        name: compress
        for name in (
            "gzip",
            "gunzip",
            "bzip2",
            "bunzip2",
            "xz",
            "unxz",
            "zstd",
            "unzstd",
            "lz4",
            "compress",
            "uncompress",
        )
    }
)
HANDLERS.update({"tar": tar, "zip": zip_, "unzip": unzip, "patch": patch, "split": split, "csplit": split})
