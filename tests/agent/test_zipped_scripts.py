"""The scripts of a skill inside a zip archive run from its read-only unpacked copy, judged by the
policy and sandboxed like any other run; a hostile archive is refused before anyone is asked."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from studio.agent.approval import Approval, ApprovalRequest
from studio.agent.events import Event, ToolFinished, ToolStarted
from studio.agent.execute import ToolExecutor
from studio.agent.sandbox import Support, detect
from studio.agent.tools import SkillToolbox
from studio.llm import ToolCall
from studio.policy import Grants
from studio.skills.library.unzipped import UnpackedSkills
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.skills.helpers import frontmatter

NONE_HERE = Support(None, problem="this test has none")
needs_sandbox = pytest.mark.skipif(
    not detect().available, reason=f"no sandbox on this machine: {detect().problem}"
)


class Recording:
    def __init__(self) -> None:
        self.requests: list[ApprovalRequest] = []

    async def approve(self, request: ApprovalRequest) -> Approval:
        self.requests.append(request)
        return Approval("once", by="user")


def make_zip(path: Path, entries: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    return path


def executor(tmp_path: Path, archive: Path, approver: Recording, *,
             support: Support | None = None, unpacked: bool = True) -> ToolExecutor:
    skills = scan_root(SkillRoot(archive)).skills
    toolbox = SkillToolbox(skills, tmp_path, unpacked=(
        UnpackedSkills(tmp_path / "cache") if unpacked else None))
    (tmp_path / "home").mkdir(exist_ok=True)
    return ToolExecutor(toolbox, approver, Grants(tmp_path / "grants.yaml"),
                        home=tmp_path / "home", support=support)


async def run(tool: ToolExecutor, command: str) -> list[Event]:
    call = ToolCall("c1", "run_skill_script", {"skill": "demo", "command": command})
    return [event async for event in tool.execute(call)]


def finished(events: list[Event]) -> ToolFinished:
    (event,) = [e for e in events if isinstance(e, ToolFinished)]
    return event


def pack(tmp_path: Path) -> Path:
    return make_zip(tmp_path / "pack.zip", {
        "demo/SKILL.md": frontmatter("demo") + "Run `python3 scripts/hello.py`.\n",
        "demo/scripts/hello.py": "import os\nprint('hello from the zip in', os.getcwd())\n",
        "demo/scripts/scribble.py": "open('scripts/new.txt', 'w').write('x')\n",
    })


async def test_a_zipped_skills_script_runs_from_its_unpacked_copy_after_approval(
        tmp_path: Path) -> None:
    archive = pack(tmp_path)
    before = hashlib.sha256(archive.read_bytes()).hexdigest()
    approver = Recording()
    events = await run(executor(tmp_path, archive, approver, support=NONE_HERE),
                       "python3 scripts/hello.py")
    copy = tmp_path / "cache" / before / "demo"
    [request] = approver.requests
    assert request.cwd == copy and request.command == "python3 scripts/hello.py"
    [started] = [e for e in events if isinstance(e, ToolStarted)]
    assert started.cwd == str(copy)
    done = finished(events)
    assert done.status == "ok" and f"hello from the zip in {copy}" in done.result
    assert hashlib.sha256(archive.read_bytes()).hexdigest() == before


async def test_a_script_the_zipped_skill_lacks_is_named_from_its_copy(tmp_path: Path) -> None:
    approver = Recording()
    events = await run(executor(tmp_path, pack(tmp_path), approver, support=NONE_HERE),
                       "python3 scripts/nope.py")
    result = finished(events).result
    assert "there is no script scripts/nope.py" in result and "scripts/hello.py" in result
    assert approver.requests == []


@needs_sandbox
async def test_the_sandbox_keeps_the_unpacked_copy_read_only(tmp_path: Path) -> None:
    # The workspace (tmp_path) holds the cache, so only the read-only bind protects the copy.
    approver = Recording()
    events = await run(executor(tmp_path, pack(tmp_path), approver), "python3 scripts/scribble.py")
    [started] = [e for e in events if isinstance(e, ToolStarted)]
    assert f"{(tmp_path / 'cache').resolve()} read-only" in (started.sandbox or "")
    assert finished(events).status == "failed"
    assert list(tmp_path.glob("cache/*/demo/scripts/new.txt")) == []


async def test_a_hostile_archive_is_refused_before_anyone_is_asked(tmp_path: Path) -> None:
    archive = make_zip(tmp_path / "pack.zip", {
        "demo/SKILL.md": frontmatter("demo"), "demo/scripts/hello.py": "print(1)\n",
        "demo/../../escaped.py": "print('out')\n",
    })
    approver = Recording()
    events = await run(executor(tmp_path, archive, approver, support=NONE_HERE),
                       "python3 scripts/hello.py")
    done = finished(events)
    assert done.status == "error" and "is refused" in done.result and "`..`" in done.result
    assert approver.requests == [] and not (tmp_path / "escaped.py").exists()
    assert list((tmp_path / "cache").iterdir()) == []


async def test_without_a_cache_a_zipped_skills_scripts_cannot_run(tmp_path: Path) -> None:
    events = await run(executor(tmp_path, pack(tmp_path), Recording(), support=NONE_HERE,
                                unpacked=False), "python3 scripts/hello.py")
    assert "until the user unpacks it" in finished(events).result
