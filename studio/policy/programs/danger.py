"""Destructive commands and privilege escalation: what the policy blocks outright, and the
deletions inside the workspace that only ask."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from studio.policy.programs.call import Call, Handler, parse_options, shown
from studio.policy.programs.paths import is_inside, lexical, resolve, words
from studio.policy.programs.skillfolders import skill_deleted
from studio.policy.programs.skillguard import replaces_skill_file
from studio.policy.shell.expand import Arg

FORMATTERS = words(
    "mkfs mke2fs mkswap mkntfs mkdosfs newfs wipefs fdisk sfdisk cfdisk gdisk sgdisk parted blkdiscard"
)
SHREDDERS = frozenset(["shred", "srm", "wipe"])
ADMIN = words(
    "chown chgrp setcap chattr passwd chpasswd useradd usermod userdel adduser deluser groupadd "
    "groupdel groupmod gpasswd visudo mount umount insmod rmmod modprobe chroot setfacl"
)
POWER = frozenset(["reboot", "shutdown", "halt", "poweroff"])


# How a command line names the previous folder, which the policy cannot know: `rm -rf ~-` there
# may be `rm -rf ~`.
_UNKNOWABLE_FOLDERS = frozenset({"~-", "~-/", "~+", "$OLDPWD", "${OLDPWD}", '"$OLDPWD"', "~-/*", "$OLDPWD/*"})


def unknowable(arg: Arg) -> bool:
    """Whether `arg` names the previous folder, which may be any folder, the home one included."""
    return arg.raw in _UNKNOWABLE_FOLDERS


def sweeping(call: Call, arg: Arg) -> bool:
    """Whether `arg` names `/`, the home folder, a folder above them, or a folder the policy
    cannot know (`~-`): a recursive change there wrecks far more than a project."""
    if unknowable(arg):
        return True
    if not arg.known or (call.cwd is None and not os.path.isabs(arg.text)):
        return False
    path = resolve(arg.text, call.cwd or Path("/"))
    return any(is_inside(place, path) for place in (call.context.home, call.context.workspace, Path("/")))


def _sweeps_home(call: Call, arg: Arg) -> bool:
    """Like `sweeping`, for a change that is harmless in one project (`chmod -R 755 .`) but not
    over the home folder or the whole system."""
    if unknowable(arg):
        return True
    if not arg.known or (call.cwd is None and not os.path.isabs(arg.text)):
        return False
    path = resolve(arg.text, call.cwd or Path("/"))
    return path == Path("/") or is_inside(call.context.home, path)


def rm(call: Call) -> None:
    options = parse_options(call.args, {"--interactive"})
    recursive = options.has("-r", "-R", "--recursive") or (call.name == "rmdir" and options.has("-p"))
    if options.has("--no-preserve-root"):
        call.block("destructive", "turns off rm's protection of `/`")
    if call.inv.args_from_stdin:
        call.ask(
            "indirection",
            f"`{call.name}` deletes the files named in its input (through xargs), which the policy "
            "cannot see",
        )
    elif not options.operands:
        call.ask("write", f"`{call.name}` deletes files")
    workspace = call.context.workspace
    for operand in options.operands:
        cwd = call.cwd
        if recursive and operand.glob is not None and cwd is not None and _matches_all(operand.glob):
            folder = os.path.dirname(operand.glob) or "."
            if is_inside(workspace, resolve(folder, cwd)):
                call.block("destructive", f"deletes everything in `{folder}`, the whole workspace or more")
        if recursive and sweeping(call, operand):
            call.block("destructive", f"deletes everything under `{shown(operand)}`")
            continue
        if not operand.known:
            call.dynamic(operand, f"`{call.name}` deletes")
            call.credential_text(operand.raw, "deletes")
            continue
        if cwd is not None or os.path.isabs(operand.text):
            located = call.locate(operand, "deletes", follow=False)
            path = located[0] if located is not None else resolve(operand.text, cwd or workspace)
            doomed = skill_deleted(path, recursive)
            if doomed is not None:
                call.block("destructive", f"deletes the skill file {doomed}; deleting a skill is "
                           "left to the user, in the window")
                continue
            if recursive and not is_inside(path, workspace) and call.name != "rmdir":
                why = _precious(call, operand, path)
                if why is not None:
                    call.block("destructive", f"deletes `{shown(operand)}` and all in it, {why}")
            elif recursive and is_inside(workspace, path):
                call.block("destructive", "deletes the whole workspace")
        call.write(operand, "deletes", follow=False)


def _matches_all(pattern: str) -> bool:
    """Whether a glob's last part matches any name (`*`, `.*`, `*.*`), not some (`*.egg-info`)."""
    return re.fullmatch(r"[*?.\[\]!^-]*", os.path.basename(pattern.rstrip("/"))) is not None


def _temporary_folders() -> tuple[Path, ...]:
    folders = {"/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", tempfile.gettempdir()}
    return tuple(Path(os.path.realpath(f)) for f in sorted(folders))


def _precious(call: Call, operand: Arg, path: Path) -> str | None:
    """Why deleting the tree `path` outside the workspace is blocked rather than asked about;
    None for a build or scratch folder somewhere (`/tmp/mybuild`, `../other/build`)."""
    context = call.context
    home = context.home
    plain = lexical(operand.text, call.cwd or context.cwd)
    if is_inside(Path(plain), context.workspace):
        return "which a link leads outside the workspace"
    if is_inside(path, home):
        relative = path.relative_to(home).parts
        if len(relative) <= 1:
            return "a folder of the home folder"
        if any(part.startswith(".") for part in relative):
            return "inside a hidden folder of the home folder (settings, keys, caches)"
        return None
    if any(is_inside(path, folder) and path != folder for folder in _temporary_folders()):
        return None
    return "a system folder outside the workspace and the home folder"


def shred(call: Call) -> None:
    call.block("destructive", "destroys file contents beyond recovery")


def formatter(call: Call) -> None:
    call.block("destructive", "formats or repartitions a disk")


def dd(call: Call) -> None:
    for arg in call.args:
        if not arg.known:
            call.dynamic(arg, "`dd` uses")
            continue
        key, equals, value = arg.text.partition("=")
        if not equals:
            continue
        # bash expands a `~` after the `=` of an assignment-like word: `dd if=~/x` reads the home.
        if value == "~" or value.startswith("~/"):
            value = str(call.context.home) + value[1:]
        target = Arg(value, arg.raw, arg.exact, arg.known, arg.expanded, arg.quoted)
        if key == "if":
            call.read(target)
        elif key == "of":
            plain = lexical(value, call.cwd or call.context.cwd)
            if plain.startswith("/dev/") and plain not in ("/dev/null", "/dev/stdout", "/dev/stderr"):
                call.block("destructive", f"writes straight to the device {plain}")
            else:
                replaces_skill_file(call, target, "writes over")
                call.write(target)


_NUMERIC_MODE = re.compile(r"[0-7]{1,4}")
_SYMBOLIC_CLAUSE = re.compile(r"([ugoa]*)([-+=])([rwxXstugo]*)")


def dangerous_mode(mode: str) -> str | None:
    """Why a chmod mode is dangerous: world-writable or setuid/setgid; None when it is not."""
    if _NUMERIC_MODE.fullmatch(mode):
        value = int(mode, 8)
        if value & 0o6000:
            return "sets the setuid or setgid bit"
        if value & 0o002:
            return "makes files writable by everyone"
        return None
    for clause in mode.split(","):
        for who, op, perms in _SYMBOLIC_CLAUSE.findall(clause):
            if op == "-":
                continue
            if "s" in perms:
                return "sets the setuid or setgid bit"
            if "w" in perms and ("o" in who or "a" in who):
                return "makes files writable by everyone"
    return None


def removes_access(mode: str) -> frozenset[str]:
    """What a chmod mode takes away from the file's owner, of read (`r`) and search or run
    (`x`): `000` both, `a-r` read, `u=rw` search. Others' permissions do not matter here."""
    if _NUMERIC_MODE.fullmatch(mode):
        value = int(mode, 8)
        return frozenset(
            letter for letter, bit in (("r", 0o400), ("x", 0o100)) if not value & bit
        )
    removed: set[str] = set()
    for clause in mode.split(","):
        for who, op, perms in _SYMBOLIC_CLAUSE.findall(clause):
            if who and "u" not in who and "a" not in who:
                continue
            if op == "-":
                removed.update(letter for letter in "rx" if letter in perms.replace("X", "x"))
            elif op == "=":
                removed.update(letter for letter in "rx" if letter not in perms.replace("X", "x"))
    return frozenset(removed)


_CHMOD_FLAGS = re.compile(r"-[Rvfc]+|--(recursive|verbose|silent|quiet|changes|(no-)?preserve-root)")


def chmod(call: Call) -> None:
    mode: Arg | None = None
    files: list[Arg] = []
    for arg in call.args:
        if arg.known and arg.text.startswith("--reference"):
            mode = arg
            call.read(Arg(arg.text.partition("=")[2], arg.raw))
        elif arg.known and _CHMOD_FLAGS.fullmatch(arg.text):
            continue
        elif mode is None:
            mode = arg
        else:
            files.append(arg)
    if mode is not None and not mode.known:
        call.dynamic(mode, "`chmod` sets the mode")
    elif mode is not None:
        why = dangerous_mode(mode.text)
        if why is not None:
            call.block("privilege", why)
    recursive = any(a.known and re.fullmatch(r"-[vfc]*R[Rvfc]*|--recursive", a.text) for a in call.args)
    removed = (
        removes_access(mode.text)
        if mode is not None and mode.known and not mode.text.startswith("--")
        else frozenset()
    )
    for operand in files:
        if recursive and _sweeps_home(call, operand):
            call.block("destructive", f"changes the permissions of everything under `{shown(operand)}`")
        path = call.write(operand, "changes the permissions of", over_skill=False)
        if not removed or path is None:
            continue
        # A folder without read or search for its owner hides what is in it; so does `-R` on a
        # folder, which changes the files below too.
        hides = "r" in removed or (("x" in removed) and (path.is_dir() or recursive) and not path.is_file())
        if hides:
            skill = skill_deleted(path, True)
            if skill is not None:
                call.block(
                    "destructive",
                    f"takes away your access to `{shown(operand)}` and with it the skill file {skill}; "
                    "a skill that cannot be read is as good as deleted",
                )


def admin(call: Call) -> None:
    call.block(
        "privilege", f"changes system or ownership settings (`{call.name}`), which needs administrator rights"
    )


def power(call: Call) -> None:
    call.block("destructive", f"shuts down or restarts the computer (`{call.name}`)")


def sysctl(call: Call) -> None:
    if any(a.known and ("=" in a.text or a.text in ("-w", "--write", "-p", "--load")) for a in call.args):
        admin(call)


def kill(call: Call) -> None:
    args = list(call.args)
    # `kill -1 PID` sends SIGHUP to PID; only a `-1` where a process id goes means every process.
    if args and args[0].known and args[0].text.startswith("-") and args[0].text != "--":
        if args[0].text in ("-s", "-n"):
            args = args[2:]
        elif args[0].text != "-1" or len(args) > 1:
            args = args[1:]
    if args and args[0].known and args[0].text == "--":
        args = args[1:]
    if any(a.known and a.text == "-1" for a in args):
        call.block("destructive", "kills every process the user owns")
        return
    call.runs(f"`{call.name}` stops processes")


def truncate(call: Call) -> None:
    options = parse_options(call.args, {"-s", "--size", "-r", "--reference"})
    for reference in options.value("-r", "--reference"):
        call.read(reference)
    for operand in options.operands:
        replaces_skill_file(call, operand, "empties or resizes")
        call.write(operand, "empties or resizes")


HANDLERS: dict[str, Handler] = {
    "rm": rm,
    "unlink": rm,
    "rmdir": rm,
    "dd": dd,
    "chmod": chmod,
    "sysctl": sysctl,
    "kill": kill,
    "truncate": truncate,
}
HANDLERS.update({name: formatter for name in FORMATTERS})
HANDLERS.update({name: shred for name in SHREDDERS})
HANDLERS.update({name: admin for name in ADMIN})
HANDLERS.update({name: power for name in POWER})
