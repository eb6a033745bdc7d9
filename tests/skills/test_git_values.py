"""The allowlists a value passes before it goes on a git command line (`gitvalues`), and the
command lines themselves (`gitfetch`): one line per case."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.skills.install.gitfetch import GitError, git_command, git_environment, run_git
from studio.skills.install.gitvalues import UnsafeValue, check_ref, check_remote, is_commit, ref_problem

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize("ref", [
    "v1.2.3", "main", "feature/x", "refs/tags/v1", "HEAD", COMMIT, "ab" * 32, "abc1234",
    "release-2024.01", "@scope/pkg@1.0.0", "v1.0+build.5", "_private", "fix#12", "a,b=c!d%e&f",
])
def test_good_refs_pass(ref: str) -> None:
    assert check_ref(ref) == ref


@pytest.mark.parametrize(("ref", "why"), [
    ("-x", "starts with '-'"),
    ("--upload-pack=touch MARKER", "starts with '-'"),
    ("-oProxyCommand=touch MARKER", "starts with '-'"),
    ("ext::sh -c id", "holds ':'"),
    ("a..b", "holds '..'"),
    ("v1\x00", "holds '\\x00'"),
    ("v1\nrefs/heads/x", "holds '\\n'"),
    ("v1\r", "holds '\\r'"),
    ("a\x7fb", "holds '\\x7f'"),
    ("a b", "holds ' '"),
    ("a\tb", "holds '\\t'"),
    ("a~1", "holds '~'"),
    ("a^{commit}", "holds '^'"),
    ("a:b", "holds ':'"),
    ("a?", "holds '?'"),
    ("a*", "holds '*'"),
    ("a[0]", "holds '['"),
    ("a\\b", "holds '\\\\'"),
    ("a@{1}", "holds '{'"),
    ("\u202eab", "holds '\\u202e'"),
    ("caf\u00e9", "holds 'é'"),
    ("x.lock", "ends with '.lock'"),
    ("refs/heads/x.lock/y", "ends with '.lock'"),
    (".hidden", "starts with '.'"),
    ("a/.b", "'.b'"),
    ("x/", "ends with '/'"),
    ("x.", "ends with '/' or '.'"),
    ("a//b", "an empty part"),
    ("/x", "starts with '/'"),
    ("+main", "starts with '+'"),
    ("@", "'@'"),
    ("", "is empty"),
    ("v" * 300, "longer than"),
])
def test_bad_refs_are_refused_saying_why(ref: str, why: str) -> None:
    problem = ref_problem(ref)
    assert problem is not None and why in problem
    with pytest.raises(UnsafeValue, match="the ref"):
        check_ref(ref)


@pytest.mark.parametrize(("text", "commit"), [
    (COMMIT, True), ("ab" * 32, True), ("abc1234", True), ("abc123", False),
    (COMMIT.upper(), False), (COMMIT + "\n", False), ("-" + COMMIT[1:], False), ("ab" * 33, False),
])
def test_commits_are_hex(text: str, commit: bool) -> None:
    assert is_commit(text) is commit


@pytest.mark.parametrize(("remote", "protocol"), [
    ("https://github.com/o/r.git", "https"),
    ("https://user:token@example.org:8443/o/r.git", "https"),
    ("https://[::1]:8443/o/r.git", "https"),
    ("http://example.org/r.git", "http"),
    ("git@github.com:o/r.git", "ssh"),
    ("example.org:o/r.git", "ssh"),
    ("ssh://git@example.org:2222/o/r.git", "ssh"),
    ("ssh://192.168.0.1/~/r.git", "ssh"),
    ("git://example.org/r.git", "git"),
    ("file:///tmp/x.git", "file"),
    ("file://localhost/tmp/x.git", "file"),
    ("file:///tmp/my skills/x.git", "file"),
    ("/tmp/x", "file"),
    ("/home/someone/Skills (old)/r", "file"),
])
def test_good_remotes_pass_with_their_protocol(remote: str, protocol: str) -> None:
    assert check_remote(remote) == protocol


@pytest.mark.parametrize(("remote", "why"), [
    ("ext::sh -c id", "'ext' transport"),
    ("ext::sh -c touch% MARKER", "'ext' transport"),
    ("fd::3", "'fd' transport"),
    ("fd::0,1/x", "'fd' transport"),
    ("foo::bar", "'foo' transport"),
    ("--upload-pack=touch MARKER", "starts with '-'"),
    ("-oProxyCommand=touch MARKER", "starts with '-'"),
    ("ssh://-oProxyCommand=touch%20MARKER/x", "the host"),
    ("ssh://-oProxyCommand=touch MARKER/x", "the host"),
    ("ssh://-u@example.org/x", "the user '-u'"),
    ("git@-oProxyCommand=touch MARKER:o/r", "the host"),
    ("-oProxyCommand=x@example.org:o/r", "starts with '-'"),
    ("x-@-oProxyCommand=x:o/r", "the host"),
    ("example.org:-oProxyCommand=x", "starts with '-'"),
    ("https://-x.example.org/r.git", "the host"),
    ("https://exa mple.org/r.git", "the host"),
    ("https://example.org/r .git", "holds ' '"),
    ("https://example.org/r\n.git", "holds '\\n'"),
    ("https://example.org/r\x00.git", "holds '\\x00'"),
    ("https://example.org:port/r.git", "is not a URL"),
    ("ftp://example.org/r.git", "uses ftp://"),
    ("file://example.org/tmp/x.git", "another machine"),
    ("file:///tmp/a\nb", "control or invisible character"),
    ("/tmp/a\x00b", "control or invisible character"),
    ("/tmp/\u202eb", "control or invisible character"),
    ("x.git", "is not a git URL"),
    ("", "is empty"),
])
def test_bad_remotes_are_refused_naming_them(remote: str, why: str) -> None:
    with pytest.raises(UnsafeValue) as refused:
        check_remote(remote)
    assert why in str(refused.value) and repr(remote) in str(refused.value)


def test_every_git_command_ends_its_options_before_its_operands() -> None:
    command = git_command("fetch", ["-q", "--depth", "1"], ["--upload-pack=x", "-oProxy"])
    assert command[-3:] == ["--", "--upload-pack=x", "-oProxy"]
    settings = [command[at + 1] for at, part in enumerate(command) if part == "-c"]
    assert {"core.hooksPath=/dev/null", "core.fsmonitor=false", "init.templateDir=",
            "submodule.recurse=false"} <= set(settings)


def test_git_speaks_only_the_sources_protocol_and_sees_no_caller_git_dir(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_DIR", "/elsewhere/.git")
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='touch MARKER'")
    monkeypatch.setenv("GIT_SSH_COMMAND", "ssh -i key")
    env = git_environment("https")
    assert env["GIT_ALLOW_PROTOCOL"] == "https" and env["GIT_TERMINAL_PROMPT"] == "0"
    assert "GIT_DIR" not in env and "GIT_CONFIG_PARAMETERS" not in env
    assert env["GIT_SSH_COMMAND"] == "ssh -i key"
    assert git_environment("http")["GIT_ALLOW_PROTOCOL"] == "http:https"


def test_what_git_or_its_server_writes_in_an_error_is_shown_escaped(tmp_path: Path) -> None:
    run_git("init", ["-q"], [], tmp_path, "file")
    with pytest.raises(GitError) as failed:
        run_git("fetch", ["-q"], ["/no/such\x1b]52;c;aGk=\x07repo", "main"], tmp_path, "file")
    said = str(failed.value)
    assert "\x1b" not in said and "\x07" not in said
    assert "git fetch failed: fatal: '/no/such" in said  # git's reason, not its advice after it
