"""A saved chat as a Markdown document: prompts, answers, and each tool call with its outcome."""

from __future__ import annotations

import time
from collections.abc import Sequence

from studio.chats.records import ForkRecord, ToolRecord
from studio.chats.store import ChatInfo, StoredMessage


def export_markdown(chat: ChatInfo, messages: Sequence[StoredMessage]) -> str:
    """The chat as a Markdown document: prompts, answers, and each tool call with its outcome."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(chat.created))
    lines = [f"# {chat.title}", ""]
    about = [f"Started {when}"]
    if chat.model:
        about.append(f"model `{chat.model}` ({chat.backend})" if chat.backend else f"model `{chat.model}`")
    if chat.skills is not None:
        about.append("skills: " + (", ".join(f"`{s}`" for s in chat.skills) or "none"))
    lines += ["_" + "; ".join(about) + "_", ""]
    for message in messages:
        if message.role == "user":
            lines += ["## You", "", message.content.rstrip(), ""]
        elif message.role == "assistant":
            if not message.content.strip() and not message.thinking:
                continue
            lines += ["## Assistant", ""]
            if message.thinking:
                lines += ["<details><summary>Thinking</summary>", "", message.thinking.strip(), "",
                          "</details>", ""]
            lines += [message.content.rstrip(), ""]
        elif message.role == "tool" and message.record is not None:
            lines += _export_record(message.record)
        elif message.role in ("notice", "error"):
            lines += [f"> **{message.role.capitalize()}:** {message.content}", ""]
    return "\n".join(lines).rstrip() + "\n"


def _fence(text: str) -> str:
    longest = max((len(run) for run in text.split("\n") if set(run) == {"`"}), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}\n{text.rstrip()}\n{ticks}"


def _export_record(record: ToolRecord) -> list[str]:
    head = f"**Tool `{record.tool}`**" + (f" (skill `{record.skill}`)" if record.skill else "")
    lines = [head + f": {record.summary}" if record.summary else head, ""]
    if record.command:
        lines += [_fence(record.command), ""]
    if record.approval:
        approval = record.approval
        line = f"- approval: {approval.get('choice')} by {approval.get('by')}"
        if approval.get("scope"):
            line += f" ({approval['scope']})"
        if approval.get("reason"):
            line += f": {approval['reason']}"
        lines.append(line)
    outcome = f"- {record.status}"
    if record.exit_code is not None:
        outcome += f", exit code {record.exit_code}"
    if record.duration is not None:
        outcome += f", {record.duration:.2f} s"
    lines += [outcome, ""]
    if record.fork is not None:
        lines += [f"> {line}".rstrip() for line in _export_fork(record.fork)] + [""]
    shown = record.output if record.output else record.result
    if shown.strip():
        lines += [_fence(shown), ""]
    return lines


def _export_fork(fork: ForkRecord) -> list[str]:
    """A fork's sub-conversation, to be quoted under the card of the call that started it."""
    agent = f" as the agent `{fork.agent}`" if fork.agent else ""
    lines = [f"**Fork** of skill `{fork.skill}` ({fork.context}) on `{fork.model}`{agent}: "
             f"{fork.status}, {fork.tool_runs} tool run{'' if fork.tool_runs == 1 else 's'}", ""]
    for item in fork.items:
        if isinstance(item, ToolRecord):
            lines += _export_record(item)
        elif item.kind == "text":
            lines += [item.text.strip(), ""]
        else:
            lines += [f"**{item.kind.capitalize()}:** {item.text}", ""]
    return lines[:-1]
