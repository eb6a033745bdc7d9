"""git and package managers: read-only subcommands are allowed, history rewrites warn, network
subcommands say so, and the subcommand is part of what a grant names (`git commit`)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path, PurePosixPath

from studio.policy.programs.allowlist import GIT_VERBS, git_verb
from studio.policy.programs.call import Call, Handler, parse_options
from studio.policy.programs.paths import credential, is_inside, is_url, words
from studio.policy.programs.skillfolders import SKILL_FILES
from studio.policy.programs.skillguard import git_clean, replaces_skill_file, takes_skill
from studio.policy.shell.expand import Arg

_GIT_READ = words(
    "status log diff show blame annotate ls-files ls-tree cat-file rev-parse rev-list describe "
    "shortlog grep whatchanged name-rev merge-base count-objects check-ignore check-attr var version "
    "help diff-tree diff-files diff-index for-each-ref show-ref show-branch cherry range-diff fsck "
    "verify-commit verify-tag"
)
_GIT_NETWORK = words("clone fetch pull push ls-remote request-pull send-email svn p4 lfs")
_GIT_HISTORY = words("rebase reset filter-branch filter-repo update-ref replace prune")
_GIT_GLOBAL_VALUES = words(
    "-C -c --git-dir --work-tree --namespace --exec-path --config-env --super-prefix --list-cmds"
)
_GIT_LISTING = {
    "branch": words(
        "-a --all -r --remotes -v -vv --verbose -l --list --show-current --contains --no-contains "
        "--merged --no-merged --sort --format --color --no-color --column --points-at"
    ),
    "tag": words(
        "-l --list -n --contains --no-contains --merged --sort --format --points-at --column -v --verify"
    ),
    "remote": frozenset(),
    "stash": frozenset(),
    "reflog": frozenset(),
    "worktree": frozenset(),
    "submodule": frozenset(),
    "config": words(
        "--get --get-all --get-regexp --list -l --show-origin --show-scope --name-only --get-urlmatch "
        "--global --local --system --file -f --type --default --null -z"
    ),
    "notes": frozenset(),
}
_GIT_DELETE_FLAGS = words("-d -D --delete -f --force -M -m -C --move")


def git(call: Call) -> None:
    args = list(call.args)
    folder = call.cwd
    index = 0
    while index < len(args) and args[index].known and args[index].text.startswith("-"):
        text = args[index].text
        name, equals, value = text.partition("=")
        if name in ("-c", "--config-env", "--exec-path"):
            call.ask(
                "indirection",
                f"`git {name}` changes git's configuration, which can make it run other programs",
            )
        if name in ("-C", "--git-dir", "--work-tree"):
            target = (
                Arg(value, args[index].raw)
                if equals
                else (args[index + 1] if index + 1 < len(args) else None)
            )
            if target is not None:
                moved = call.read(target)
                folder = moved if name == "-C" and folder is not None else None
        index += 1 if equals or name not in _GIT_GLOBAL_VALUES else 2
    if index >= len(args):
        return
    sub_arg = args[index]
    if not sub_arg.known:
        call.dynamic(sub_arg, "`git` runs the subcommand")
        return
    sub = sub_arg.text
    rest = args[index + 1 :]
    call.part.program = f"git {sub}"
    texts = [a.text for a in rest if a.known]
    if folder is not None and sub not in ("--version", "version", "help", "clone", "init"):
        _shipped_repository(call, folder)
        _submodules(call, folder, sub, texts)
    _git_files(call, sub, rest)
    _git_outputs(call, sub, rest)
    _git_subcommand(call, sub, rest, texts)


# Subcommands whose `-o` names a file or folder they write (elsewhere `-o` means other things).
_GIT_SHORT_OUTPUT = frozenset({"archive", "format-patch"})


def _git_outputs(call: Call, sub: str, rest: list[Arg]) -> None:
    """`--output=FILE` (any unique abbreviation git accepts, `--outp=`), `--output-directory`
    and `archive -o`/`format-patch -o`: files git writes, judged as writes (over a SKILL.md they
    block)."""
    index = 0
    while index < len(rest):
        arg = rest[index]
        index += 1
        if not arg.known or not arg.text.startswith("-"):
            continue
        if arg.text == "--":
            break
        name, equals, value = arg.text.partition("=")
        long_output = len(name) >= 4 and (
            "--output".startswith(name) or "--output-directory".startswith(name)
        )
        short_output = sub in _GIT_SHORT_OUTPUT and name.startswith("-o") and not name.startswith("--")
        if not (long_output or short_output):
            continue
        if short_output and len(name) > 2:
            target: Arg | None = replace(arg, text=name[2:])
        elif equals:
            target = replace(arg, text=value)
        else:
            target = rest[index] if index < len(rest) else None
            index += 1
        if target is not None:
            call.write(target, f"has `git {sub}` write to")


def repository_of(folder: Path) -> Path | None:
    """The folder of the repository git would use when run in `folder`, looking up the tree as
    git does: a folder with a `.git` (a folder, or a file pointing elsewhere), or one that is a
    repository itself (a bare one: `HEAD`, `objects`, `refs`), which git uses just the same."""
    for candidate in (folder, *folder.parents):
        if os.path.lexists(candidate / ".git"):
            return candidate
        if _git_directory(candidate):
            return candidate.parent if candidate.name == ".git" else candidate
    return None


def _git_directory(folder: Path) -> bool:
    return (folder / "HEAD").is_file() and (folder / "objects").is_dir() and (folder / "refs").is_dir()


def _shipped_repository(call: Call, folder: Path) -> None:
    """git run inside a repository that came with a skill (a `.git` below the workspace's own)
    reads that repository's configuration, which can make any git command run a program:
    `core.fsmonitor` on `git status`, hooks, `core.pager`, diff and filter drivers. Nothing the
    command line says can switch all of them off, so it asks."""
    context = call.context
    workspace = context.workspace
    repository = repository_of(folder)
    if repository is None or not is_inside(repository, workspace):
        return
    if repository == workspace:
        # The workspace's own repository is the user's, unless the workspace is the skill
        # itself (each skill its own workspace) and the repository came with it.
        if context.skill is None or not any((workspace / name).is_file() for name in SKILL_FILES):
            return
        call.runs(
            f"runs git in the repository of the skill `{context.skill}`, whose configuration can make "
            "git run programs (core.fsmonitor, hooks, core.pager, filters)"
        )
        return
    shown_folder = repository.relative_to(workspace).as_posix()
    call.runs(
        f"runs git in `{shown_folder}`, a repository that came with the skill: its own configuration "
        "can make git run programs (core.fsmonitor, hooks, core.pager, filters)"
    )
    call.part.grantable = False


# Subcommands that look at the work tree of each submodule, by running git inside it.
_ENTERS_SUBMODULES = words("status diff diff-files diff-index describe submodule")


def _submodules(call: Call, folder: Path, sub: str, texts: list[str]) -> None:
    """`git status` and `git diff` in a repository with submodules run git inside each one
    (to tell whether it changed), which reads that submodule's own configuration: a skill added
    as a submodule runs its `core.fsmonitor` on the user's `git status`."""
    repository = repository_of(folder)
    if repository is None or not (repository / ".gitmodules").is_file():
        return
    recursing = any(t.startswith(("--recurse-submodules", "--submodule")) for t in texts)
    if sub in _ENTERS_SUBMODULES and not recursing:
        recursing = not any(t in ("--ignore-submodules", "--ignore-submodules=all") for t in texts)
    if recursing:
        call.runs(
            f"`git {sub}` runs git inside the repository's submodules, whose own configuration can "
            "make it run programs (core.fsmonitor, hooks, filters); `--ignore-submodules` keeps out"
        )
        call.part.grantable = False


_GIT_FILE_VALUES = {
    "blame": ("-S", "--contents", "--ignore-revs-file"),
    "annotate": ("-S", "--contents", "--ignore-revs-file"),
    "config": ("-f", "--file", "--blob"),
    "grep": ("-f",),
    "diff": ("-O",),
    "log": ("-O",),
    "show": ("-O",),
    "ls-files": ("-X", "--exclude-from"),
}


def _git_files(call: Call, sub: str, rest: list[Arg]) -> None:
    """Options whose value is a file git reads (`blame -S FILE`, `config --file FILE`): the
    file is read like any other, and the option asks, since it can read any file."""
    names = _GIT_FILE_VALUES.get(sub, ())
    if not names:
        return
    for name, values in parse_options(rest, set(names)).values.items():
        if name not in names:
            continue
        for value in values:
            call.runs(f"`git {sub} {name}` reads the file `{value.raw}`")
            if name != "--blob":
                call.read(value)


def _git_subcommand(call: Call, sub: str, rest: list[Arg], texts: list[str]) -> None:
    if sub in ("--version", "version", "help") or sub in _GIT_READ:
        _git_read(call, sub, rest, texts)
        return
    listing = _GIT_LISTING.get(sub)
    if listing is not None and _git_listing_only(sub, rest, texts, listing):
        return
    if sub == "credential":
        call.block("credential", "asks git for stored passwords")
        return
    if sub in _GIT_NETWORK:
        call.network(f"`git {sub}`")
    if sub in _GIT_HISTORY or _history_flags(sub, texts):
        call.ask("history", f"`git {sub}` rewrites git history or discards commits")
    if sub == "config":
        call.ask("indirection", "`git config` changes settings that can make git run other programs")
    if sub == "clone":
        destination = [a for a in rest if a.known and not a.text.startswith("-") and not is_url(a.text)]
        for target in destination[-1:]:
            call.write(target)
    elif sub == "mv":
        operands = [a for a in rest if not (a.known and a.text.startswith("-"))]
        for source in operands[:-1]:
            takes_skill(call, source, "moves (git mv)")
        for target in operands[-1:]:
            replaces_skill_file(call, target, "writes over (git mv)")
    elif sub in ("checkout", "restore"):
        for arg in _git_paths(sub, rest):
            replaces_skill_file(call, arg, f"writes over (git {sub}) the changes in")
    elif sub == "rm" and not any(t in ("--cached", "-n", "--dry-run") for t in texts):
        for arg in rest:
            if not (arg.known and arg.text.startswith("-")):
                takes_skill(call, arg, "deletes")
    elif sub == "clean" and not any(t in ("-n", "--dry-run") for t in texts):
        call.ask("write", "`git clean` deletes files git does not track")
        git_clean(call, [a for a in rest if not (a.known and a.text.startswith("-"))])
    call.ask("write", f"`git {sub}` changes the repository or the working files")
    for arg in rest:
        if arg.known and not arg.text.startswith("-") and not is_url(arg.text) and ":" not in arg.text:
            call.touch(arg)


def _git_paths(sub: str, rest: list[Arg]) -> list[Arg]:
    """The files `git checkout` or `git restore` puts back: after `--`, or every operand of
    `restore`; a `checkout` operand that names an existing file is one too."""
    texts = [a.text if a.known else "" for a in rest]
    if "--" in texts:
        return rest[texts.index("--") + 1 :]
    operands = [a for a in rest if not (a.known and a.text.startswith("-"))]
    return operands if sub == "restore" else operands[1:] + operands[:1]


def _git_listing_only(sub: str, rest: list[Arg], texts: list[str], listing: frozenset[str]) -> bool:
    verbs = GIT_VERBS.get(sub)
    if verbs is not None:
        return git_verb(sub, rest) in verbs
    if sub == "config":
        return any(
            t in ("--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch") for t in texts
        )
    if sub in ("branch", "tag"):
        return all(t.partition("=")[0] in listing for t in texts if t.startswith("-")) and (
            not [t for t in texts if not t.startswith("-")]
            or "--list" in texts
            or "-l" in texts
            or "--contains" in texts
            or "--merged" in texts
            or "--points-at" in texts
        )
    return False


def _history_flags(sub: str, texts: list[str]) -> bool:
    if sub == "push":
        return any(
            t in ("-f", "--force", "--mirror", "--delete", "-d", "--prune")
            or t.startswith(("--force-with-lease", "--force-if-includes", "+", ":"))
            for t in texts
        )
    if sub == "commit":
        return "--amend" in texts
    if sub == "pull":
        return any(t.startswith("--rebase") or t == "-r" for t in texts)
    if sub in ("branch", "tag"):
        return any(t in _GIT_DELETE_FLAGS for t in texts)
    if sub == "stash":
        return bool(texts) and texts[0] in ("drop", "clear")
    if sub == "reflog":
        return bool(texts) and texts[0] in ("expire", "delete")
    if sub == "checkout":
        return "--orphan" in texts
    if sub == "gc":
        return any(t.startswith("--prune") for t in texts)
    return False


def _git_read(call: Call, sub: str, rest: list[Arg], texts: list[str]) -> None:
    if any(t.startswith(("--output", "--ext-diff", "--textconv")) for t in texts) or (
        sub == "grep" and any(t.startswith(("-O", "--open-files-in-pager")) for t in texts)
    ):
        call.runs(f"`git {sub}` with these options writes files or runs other programs")
    for arg in rest:
        if not arg.known or arg.text.startswith("-"):
            continue
        if ":" in arg.text:
            _stored_secret(call, arg.text.rsplit(":", 1)[1])
        else:
            call.read(arg)


def _stored_secret(call: Call, path: str) -> None:
    """`git show HEAD:.env` reads a file out of the repository: a secret all the same."""
    secret = credential(PurePosixPath(path or "."))
    if secret is not None:
        call.block("credential", f"reads {secret} from the repository")


# -- package managers -----------------------------------------------------------------------------

_PACKAGE_READ = {
    "pip": {"list", "show", "freeze", "check", "help", "--version", "-V", "debug", "inspect"},
    "npm": {"ls", "list", "ll", "la", "help", "--version", "-v", "root", "prefix", "explain", "why"},
    "yarn": {"--version", "-v", "list", "why", "info", "help"},
    "pnpm": {"--version", "-v", "list", "ls", "why", "help"},
    "gem": {"list", "--version", "-v", "env", "help", "contents", "which"},
    "cargo": {"--version", "-V", "version", "help", "metadata", "tree", "locate-project"},
    "go": {"version", "env", "help", "list", "doc"},
    "brew": {"list", "ls", "info", "--version", "-v", "config", "doctor", "leaves", "deps", "uses"},
    "conda": {"list", "info", "--version", "-V", "env", "search", "config"},
    "uv": {"--version", "-V", "version", "help", "tree"},
    "poetry": {"--version", "-V", "show", "check", "env", "about", "help"},
}
_PACKAGE_NETWORK = words(
    "install i ci add update up upgrade download fetch sync get dlx publish push pull search wheel "
    "index create init lock remove uninstall exec x tool outdated audit view info"
)
PACKAGE_MANAGERS = words(
    "pip pip3 npm yarn pnpm gem cargo go brew apt apt-get dnf yum pacman apk port snap flatpak zypper "
    "conda mamba micromamba uv poetry pipenv composer bundle dotnet mvn gradle"
)
_RUNNERS = words("npx pnpx bunx uvx pipx")


def package_manager(call: Call) -> None:
    family = "pip" if call.name in ("pip", "pip3") else call.name
    operands = [a for a in call.args if not (a.known and a.text.startswith("-") and len(call.args) > 1)]
    first = call.args[0] if call.args else None
    if first is None:
        call.runs(f"`{call.name}` installs or changes packages")
        return
    if not first.known:
        call.dynamic(first, f"`{call.name}` runs the subcommand")
        return
    sub = first.text
    if family == "uv" and sub == "pip" and len(call.args) > 1 and call.args[1].known:
        sub = "pip " + call.args[1].text
    call.part.program = f"{call.name} {sub}"
    if sub in _PACKAGE_READ.get(family, set()):
        for arg in operands[1:]:
            if arg.known and ("/" in arg.text or arg.text.startswith("~")):
                call.read(arg)
        return
    words = set(sub.split())
    if words & _PACKAGE_NETWORK:
        call.network(f"`{call.name} {sub}` downloads or publishes packages")
    call.runs(f"`{call.name} {sub}` installs, changes or runs packages")
    for arg in call.args[1:]:
        if arg.known and not arg.text.startswith("-") and ("/" in arg.text or arg.text.startswith("~")):
            if is_url(arg.text):
                call.url(arg)
            else:
                call.touch(arg)


def package_runner(call: Call) -> None:
    call.network(f"`{call.name}` downloads and runs a package")
    call.runs(f"`{call.name}` runs code from a package")


HANDLERS: dict[str, Handler] = {"git": git}
HANDLERS.update({name: package_manager for name in PACKAGE_MANAGERS})
HANDLERS.update({name: package_runner for name in _RUNNERS})
