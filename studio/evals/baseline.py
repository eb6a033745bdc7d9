"""The previous version of a skill to measure against: its folder as a git ref has it, unpacked
into a temp folder (`git archive`, read as a stream, members checked), so an author can ask
"is this edit better than what I committed?" with the same evals on both."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

from studio.errors import StudioError

GIT_TIMEOUT = 60


class BaselineError(StudioError):
    """The baseline cannot be had; the message says why and what to do."""


def snapshot_at(skill_dir: Path, ref: str, into: Path) -> Path:
    """The skill folder as `ref` has it, unpacked under `into`; returns the snapshot's folder
    (named like the skill's, so its name still matches)."""
    if ref.startswith("-"):
        raise BaselineError(f"{ref!r} is not a git ref")
    top = _git(skill_dir, "rev-parse", "--show-toplevel").strip()
    if not top:
        raise BaselineError(f"{skill_dir} is not in a git repository; commit the skill first, "
                            "or compare against the evals' history in the window")
    relative = skill_dir.resolve().relative_to(Path(top).resolve()).as_posix() or "."
    commit = _git(skill_dir, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip()
    if not commit:
        raise BaselineError(f"there is no commit {ref!r} in {top}")
    try:
        process = subprocess.Popen(
            ["git", "-C", top, "-c", "core.fsmonitor=false", "archive", "--format=tar", commit,
             "--", relative],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    except OSError as exc:
        raise BaselineError(f"git could not be run: {exc.strerror or exc}") from None
    assert process.stdout is not None
    target = into / "baseline"
    try:
        with tarfile.open(fileobj=process.stdout, mode="r|") as archive:
            archive.extractall(target, filter="data")
    except (tarfile.TarError, OSError) as exc:
        process.kill()
        raise BaselineError(f"the skill at {ref} could not be unpacked: {exc}") from None
    finally:
        stderr = process.communicate(timeout=GIT_TIMEOUT)[1]
    if process.returncode != 0:
        message = stderr.decode(errors="replace").strip().splitlines()
        raise BaselineError(f"git archive {ref} failed: {message[-1] if message else process.returncode}")
    folder = target / relative
    if not (folder / "SKILL.md").is_file():
        raise BaselineError(f"{relative} has no SKILL.md at {ref}: the skill did not exist then")
    return folder


def _git(folder: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(folder), "-c", "core.fsmonitor=false", *args],
                              capture_output=True, text=True, timeout=GIT_TIMEOUT,
                              stdin=subprocess.DEVNULL, check=False)
    except FileNotFoundError:
        raise BaselineError("git is not installed, so no earlier version can be read") from None
    except subprocess.TimeoutExpired:
        raise BaselineError(f"git did not answer within {GIT_TIMEOUT} s") from None
    return done.stdout if done.returncode == 0 else ""
