"""Adding the skills an MCP server serves to the library (Add MCP Server of Skills…): the user
gives a `mcp+http://...` or `mcp+stdio:...` address, is asked about the skills the server lists
(those not agreed to before, or whose manifest changed), and the verified skills join the library
as a read-only root, the archive the commands read too (`studio.skills.served`).

The server is read in a worker thread with its own event loop (the MCP SDK's transports run
there, not in the window's loop); the question is asked on the window's loop, and the worker waits
for the answer."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QInputDialog, QMessageBox, QWidget

from studio.skills.served import Roots, ServedSkill, resolve_roots
from studio.ui import asyncqt
from studio.ui.library.roots import LibraryRoots
from studio.ui.status_messages import Feedback

# Skills named one a line in the question; past these, counted.
MAX_LISTED = 15


async def add_served_root(roots: LibraryRoots, feedback: Feedback, parent: QWidget) -> None:
    dialog = QInputDialog(parent)
    dialog.setWindowTitle("Add an MCP server of skills")
    dialog.setLabelText("The server's address: mcp+http://HOST:PORT/PATH, or "
                        "mcp+stdio:COMMAND ARGS for one the studio starts:")
    dialog.setTextValue("mcp+http://127.0.0.1:8000/mcp")
    if await asyncqt.ask(dialog) != QDialog.DialogCode.Accepted:
        return
    spec = dialog.textValue().strip()
    loop = asyncio.get_running_loop()

    def ask(server: str, skills: list[ServedSkill]) -> bool:
        return asyncio.run_coroutine_threadsafe(_confirm(parent, server, skills), loop).result()

    feedback.status(f"Reading the skills {spec} serves…")
    # A thread of its own: the window's loop (qasync) would lend one of Qt's threads.
    worker = ThreadPoolExecutor(1, thread_name_prefix="served-skills")
    try:
        served = await loop.run_in_executor(worker, _read_served, spec, ask)
    finally:
        worker.shutdown(wait=False, cancel_futures=True)
    if served.problems:
        feedback.tell("Some skills were left out" if served.paths else "No skills added",
                      "\n".join(served.problems[:20]))
    if not served.paths:
        feedback.status(f"{spec}: no skill was added.")
        return
    roots.add_root(served.paths[0])
    count = sum(len(opened.skills) for opened in served.served)
    feedback.status(f"Added {count} verified skill(s) from {spec} (read-only).")


def _read_served(spec: str, ask: Callable[[str, list[ServedSkill]], bool]) -> Roots:
    return asyncio.run(resolve_roots([spec], ask))


async def _confirm(parent: QWidget, server: str, skills: list[ServedSkill]) -> bool:
    lines = [f"{skill.name}: {skill.description[:120]} ({len(skill.files)} files, "
             f"{skill.size:,} bytes)" for skill in skills[:MAX_LISTED]]
    if len(skills) > MAX_LISTED:
        lines.append(f"and {len(skills) - MAX_LISTED:,} more")
    box = QMessageBox(QMessageBox.Icon.Question, "Use skills from an MCP server?",
                      f"{server} serves {len(skills)} skill(s) you have not agreed to use "
                      "(or whose files changed since). Their text comes from the server: a model "
                      "reads it as instructions, and their scripts still go through the tool "
                      "policy.", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                      parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setDetailedText("\n".join(lines))
    box.setDefaultButton(QMessageBox.StandardButton.No)
    return await asyncqt.confirmed(box)
