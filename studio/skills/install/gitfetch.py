"""Fetching a git source with the `git` binary, so that nothing the source names runs here.

Every git we start:
- gets its values checked first (`gitvalues`: the URL, the ref, the commit) and its operands
  after `--`;
- may use only the protocol of the source it fetches (`GIT_ALLOW_PROTOCOL`: no `ext::`, no `fd::`,
  no other transport a redirect or a config could pick);
- runs no hook, no fsmonitor, no submodule and no LFS download (`-c core.hooksPath=/dev/null` and
  the others below), in a repository made without templates;
- asks for no password (`GIT_TERMINAL_PROMPT=0`, ssh in batch mode, stdin closed), within a time
  limit, and sees of the caller's GIT_* variables only those that say how to reach a server (a
  GIT_DIR or GIT_CONFIG_PARAMETERS left by a hook that started us would point it elsewhere).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from studio.errors import StudioError
from studio.skills.install.gitvalues import UnsafeValue, check_ref, check_remote, is_commit

GIT_TIMEOUT = 120.0
HARDENING = (
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "init.templateDir=",
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
    "advice.detachedHead=false",
)
# The caller's GIT_* variables git may see: how to reach a server and whose config to read.
_KEPT_GIT_VARIABLES = frozenset({
    "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_EXEC_PATH", "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_SSL_CAINFO", "GIT_SSL_CAPATH",
})


class GitError(StudioError):
    """Git failed or the values given to it were refused; the message says which and why."""


def git_environment(protocol: str) -> dict[str, str]:
    """The environment of a git that may speak only `protocol` (see the module docstring); an
    http source may be redirected to https, never the other way."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("GIT_") or name in _KEPT_GIT_VARIABLES}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_ASKPASS="", SSH_ASKPASS="", GIT_LFS_SKIP_SMUDGE="1",
               GIT_ALLOW_PROTOCOL="http:https" if protocol == "http" else protocol,
               GIT_SSH_COMMAND=os.environ.get("GIT_SSH_COMMAND", "ssh -o BatchMode=yes"))
    return env


def git_command(subcommand: str, options: list[str], operands: list[str],
                end: str | None = "--") -> list[str]:
    """`git -c ... SUBCOMMAND OPTIONS -- OPERANDS`: whatever the operands hold, git reads none of
    them as an option. `end` is what ends the options: `--`, or `--end-of-options` where `--`
    would start paths (rev-parse); None only for operands checked not to start with '-'."""
    config = [part for setting in HARDENING for part in ("-c", setting)]
    return ["git", *config, subcommand, *options, *([end] if end else []), *operands]


def run_git(subcommand: str, options: list[str], operands: list[str], cwd: Path, protocol: str,
            timeout: float = GIT_TIMEOUT, end: str | None = "--") -> str:
    """Run one git command (built by `git_command`) in `cwd`; its output. Raises GitError."""
    try:
        done = subprocess.run(git_command(subcommand, options, operands, end), cwd=cwd,
                              env=git_environment(protocol), capture_output=True, text=True,
                              timeout=timeout, check=False, stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise GitError("git is not installed; install it (it fetches the repository)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {subcommand} took longer than {timeout:.0f} s; check the network "
                       "or the URL") from None
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["no message"]
        # git's reason is its first `fatal:` or `error:` line; lines after it only advise.
        said = next((line for line in lines if line.startswith(("fatal:", "error:"))), lines[-1])
        # The server writes part of this line: its escapes are shown, not obeyed.
        shown = "".join(char if char.isprintable() else repr(char)[1:-1] for char in said)
        raise GitError(f"git {subcommand} failed: {shown}")
    return done.stdout.strip()


def clone(remote: str, ref: str | None, into: Path, timeout: float = GIT_TIMEOUT) -> str:
    """Fetch `remote` (a URL or an absolute path) shallowly at `ref` (default: its HEAD) into
    the new folder `into` and check it out; return the commit. Raises GitError, before git runs,
    for a remote or ref that `gitvalues` refuses."""
    try:
        protocol = check_remote(remote)
        ref = check_ref(ref) if ref is not None else "HEAD"
    except UnsafeValue as exc:
        raise GitError(str(exc)) from None
    into.mkdir(parents=True)

    def git(subcommand: str, options: list[str], operands: list[str], end: str = "--") -> str:
        return run_git(subcommand, options, operands, into, protocol, timeout, end)

    git("init", ["-q"], [])
    try:
        git("fetch", ["-q", "--depth", "1"], [remote, ref])
    except GitError:
        if not is_commit(ref):
            raise
        # A server may refuse a commit by its id in a shallow fetch: fetch everything.
        git("fetch", ["-q"], [remote, "+refs/heads/*:refs/remotes/origin/*",
                              "+refs/tags/*:refs/tags/*"])
        try:
            commit = git("rev-parse", ["--verify", "--quiet"], [f"{ref}^{{commit}}"],
                         "--end-of-options")
        except GitError:
            raise GitError(f"{remote} has no commit {ref}") from None
    else:
        commit = git("rev-parse", ["--verify"], ["FETCH_HEAD^{commit}"], "--end-of-options")
    if not is_commit(commit):
        raise GitError(f"git named {commit!r} as the commit of {ref}, which is not a commit id")
    # checkout reads what follows `--` as paths and takes no --end-of-options: its one operand
    # is the commit id just checked, which cannot start with '-'.
    run_git("checkout", ["-q", "--detach"], [commit], into, protocol, timeout, end=None)
    return commit
