"""Why there is no sandbox, told by its real cause and with what to do: bubblewrap missing, user
namespaces off, the launcher's Python out of view, the system-call filter refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.agent.sandbox import ALLOW_NAMESPACES, INSTALL_BWRAP, classify, detect


@pytest.fixture
def linux_x86(monkeypatch: pytest.MonkeyPatch) -> None:
    import platform
    import sys

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")


def fake_bwrap(folder: Path, said: str, code: int = 1) -> None:
    folder.mkdir(exist_ok=True)
    program = folder / "bwrap"
    program.write_text(f"#!/bin/sh\necho '{said}' >&2\nexit {code}\n")
    program.chmod(0o755)


def test_without_bwrap_on_path_the_reason_says_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, linux_x86: None
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    support = detect.__wrapped__()
    assert support.kind is None
    assert support.problem == "bubblewrap (bwrap) is not installed"
    assert support.remedy == INSTALL_BWRAP and "sudo apt install bubblewrap" in support.remedy


@pytest.mark.parametrize("said", [
    "bwrap: setting up uid map: Permission denied",
    "bwrap: No permissions to creating new namespace, likely because the kernel does not allow "
    "non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl "
    "kernel.unprivileged_userns_clone=1'.",
    "bwrap: Creating new namespace failed: Operation not permitted",
])
def test_user_namespaces_turned_off_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, linux_x86: None, said: str
) -> None:
    fake_bwrap(tmp_path / "bin", said)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    support = detect.__wrapped__()
    assert support.kind is None and support.program == ""
    assert support.problem.startswith("bubblewrap cannot create a user namespace here (bwrap: ")
    assert support.problem.endswith("unprivileged user namespaces are disabled")
    assert support.remedy == ALLOW_NAMESPACES
    assert support.notice().startswith(f"no sandbox: {support.problem}.")


def test_a_launcher_out_of_view_is_named_and_not_blamed_on_namespaces() -> None:
    problem, remedy = classify("bwrap: execvp /tmp/venv/bin/python: No such file or directory\n",
                               1, "/tmp/venv/bin/python")
    assert problem == ("the studio's Python (/tmp/venv/bin/python) cannot be found inside the "
                       "sandbox (bwrap: execvp /tmp/venv/bin/python: No such file or directory)")
    assert "namespace" not in problem and "bug" in remedy


@pytest.mark.parametrize(("said", "start"), [
    ("bwrap: prctl(PR_SET_SECCOMP): Invalid argument",
     "the kernel refused the sandbox's system-call filter"),
    ("bwrap: Can't mount proc on /newroot/proc: Operation not permitted",
     "bubblewrap cannot set up its mounts here"),
    ("bwrap: Can't find source path /opt/x: No such file or directory",
     "bubblewrap cannot show a folder"),
    ("", "bubblewrap cannot create a sandbox here (exit code 1)"),
])
def test_other_failures_are_told_apart(said: str, start: str) -> None:
    problem, _remedy = classify(said, 1, "/usr/bin/python3.11")
    assert problem.startswith(start), problem
