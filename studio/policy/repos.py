"""git and package managers: read-only subcommands are allowed, history rewrites warn, network
subcommands say so, and the subcommand is part of what a grant names (`git commit`)."""

from __future__ import annotations

from pathlib import PurePosixPath

from studio.policy.call import Call, Handler
from studio.policy.expand import Arg
from studio.policy.paths import credential, is_url, words
from studio.policy.skillguard import git_clean, takes_skill

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
    "remote": frozenset({"-v", "--verbose", "get-url"}),
    "stash": frozenset({"list", "show"}),
    "reflog": frozenset({"show"}),
    "worktree": frozenset({"list"}),
    "submodule": frozenset({"status", "summary"}),
    "config": words(
        "--get --get-all --get-regexp --list -l --show-origin --show-scope --name-only --get-urlmatch "
        "--global --local --system --file -f --type --default --null -z"
    ),
    "notes": frozenset({"list", "show"}),
}
_GIT_DELETE_FLAGS = words("-d -D --delete -f --force -M -m -C --move")


def git(call: Call) -> None:
    args = list(call.args)
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
                call.read(target)
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
    _git_subcommand(call, sub, rest, texts)


def _git_subcommand(call: Call, sub: str, rest: list[Arg], texts: list[str]) -> None:
    if sub in ("--version", "version", "help") or sub in _GIT_READ:
        _git_read(call, sub, rest, texts)
        return
    listing = _GIT_LISTING.get(sub)
    if listing is not None and _git_listing_only(sub, texts, listing):
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


def _git_listing_only(sub: str, texts: list[str], listing: frozenset[str]) -> bool:
    if sub == "stash":
        return bool(texts) and texts[0] in listing
    if sub in ("reflog", "worktree", "submodule", "notes", "remote"):
        return not texts or texts[0] in listing
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
