""""Save chat as skill": the model turns a conversation into a skill draft.

The model is asked once for `{"name", "description", "body"}`, its reply held to that JSON schema
(llama.cpp's `json_schema`, Ollama's `format`). The answer is read leniently (a small model's
slips in the JSON are mended), its name repaired to the spec's rules, and the SKILL.md it makes is
validated; only a draft without errors comes back. Nothing is written here: the draft opens in
the editor, unsaved, and the user picks where it goes.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from studio.agent.drafts import DraftRefused, skill_text, validate_texts
from studio.errors import StudioError
from studio.llm import ChatClient, Message, StreamEvent, TextChunk, repair_json
from studio.skills import SKILL_FILE
from studio.skills.checks import MAX_DESCRIPTION, names

# The conversation's text the model is shown, from its end: what was done last matters most,
# and the request must fit a small model's context.
MAX_TRANSCRIPT_CHARS = 16_000
MAX_TOOL_RESULT_CHARS = 1_500
MAX_REPLY_TOKENS = 2048

DRAFT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": names.MAX_NAME_LENGTH},
        "description": {"type": "string", "maxLength": MAX_DESCRIPTION},
        "body": {"type": "string"},
    },
    "required": ["name", "description", "body"],
    "additionalProperties": False,
}

INSTRUCTIONS = (
    "You turn a conversation into an Agent Skill: a reusable set of instructions another AI "
    "agent follows to do the same kind of task again. Reply with one JSON object only: "
    '{"name": ..., "description": ..., "body": ...}. `name`: 1-64 lowercase letters, digits and '
    "single hyphens, e.g. `csv-profiler`. `description`: one or two sentences saying what the "
    "skill does and when to use it (\"Use when ...\"), under 1024 characters. `body`: Markdown "
    "instructions, a title then numbered steps, with the commands or checks that worked in the "
    "conversation; general, not tied to this one chat's files or names."
)


class DraftUnusable(StudioError):
    """The model's answer cannot be made into a valid skill; the message says why, for the user."""


@dataclass(frozen=True, slots=True)
class ChatSkillDraft:
    """A skill drafted from a chat, not written anywhere.

    Attributes:
        name: its name, valid by the spec's rules (repaired when the model's was not).
        text: the whole SKILL.md, provenance in `metadata:` included.
        renamed_from: the model's own name when it had to be repaired, else None.
    """

    name: str
    text: str
    renamed_from: str | None = None


def transcript(conversation: Sequence[Message]) -> str:
    """The conversation as plain text for the model: prompts, answers, the tools called and what
    they gave (shortened), cut from the start to fit."""
    parts: list[str] = []
    for message in conversation:
        if message.role == "system":
            continue
        if message.role == "tool":
            result = message.content
            if len(result) > MAX_TOOL_RESULT_CHARS:
                result = result[:MAX_TOOL_RESULT_CHARS] + " [...]"
            parts.append(f"[{message.tool_name or 'tool'} result]\n{result}")
            continue
        text = message.content.strip()
        calls = "".join(f"\n[calls {c.name} {json.dumps(c.arguments, ensure_ascii=False)}]"
                        for c in message.tool_calls)
        if text or calls:
            parts.append(f"[{message.role}]\n{text}{calls}")
    text = "\n\n".join(parts)
    return text if len(text) <= MAX_TRANSCRIPT_CHARS else "[...]\n" + text[-MAX_TRANSCRIPT_CHARS:]


async def draft_from_chat(client: ChatClient, model: str, conversation: Sequence[Message], *,
                          clock: datetime | None = None) -> ChatSkillDraft:
    """Ask `model` for a skill capturing `conversation`. Raises DraftUnusable when the answer
    cannot be made a valid skill, and the client's `LLMError`s when the server fails."""
    shown = transcript(conversation)
    if not shown.strip():
        raise DraftUnusable("This chat has nothing in it to make a skill from yet; "
                            "chat first, then save it as a skill.")
    messages = [Message("system", INSTRUCTIONS),
                Message("user", f"The conversation:\n\n{shown}\n\nWrite the skill as JSON.")]
    stream = cast(AsyncGenerator[StreamEvent, None], client.chat(
        model, messages, options={"max_tokens": MAX_REPLY_TOKENS}, schema=DRAFT_SCHEMA))
    pieces: list[str] = []
    async with contextlib.aclosing(stream):
        async for event in stream:
            if isinstance(event, TextChunk):
                pieces.append(event.text)
    fields = read_answer("".join(pieces))
    when = (clock or datetime.now(UTC)).isoformat(timespec="seconds")
    return make_draft(fields, author=model or "model", when=when)


def read_answer(text: str) -> dict[str, str]:
    """The name, description and body a reply holds. Raises DraftUnusable, saying what was wrong."""
    start = text.find("{")
    mended = repair_json(text, start) if start >= 0 else None
    if mended is None:
        said = " ".join(text.split())[:120]
        raise DraftUnusable("The model did not answer with a skill"
                            + (f" (it said: “{said}”)." if said else " (its answer was empty).")
                            + " Try again, or pick a larger model.")
    try:
        value = json.loads(mended[0])
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict):
        raise DraftUnusable("The model's answer is not a JSON object with a name, a description "
                            "and a body. Try again, or pick a larger model.")
    fields: dict[str, str] = {}
    missing = []
    for key in ("name", "description", "body"):
        item = value.get(key)
        if isinstance(item, str) and item.strip():
            fields[key] = item.strip()
        else:
            missing.append(key)
    # A missing name can be made from the description; the rest cannot be guessed.
    if missing and missing != ["name"]:
        raise DraftUnusable(f"The model's answer has no {' and no '.join(missing)}. "
                            "Try again, or pick a larger model.")
    return fields


def make_draft(fields: dict[str, str], *, author: str, when: str) -> ChatSkillDraft:
    """The SKILL.md for `fields`, its name repaired to the spec's rules, validated."""
    given = fields.get("name", "")
    # A missing name is made from the first words of the description's first sentence.
    name = names.suggest_name(given or " ".join(fields["description"].split(".")[0].split()[:4]))
    description = " ".join(fields["description"].split())
    if len(description) > MAX_DESCRIPTION:
        description = description[:MAX_DESCRIPTION - 1].rstrip() + "…"
    text = skill_text({"name": name, "description": description,
                       "metadata": {"created-by": author, "created-at": when}}, fields["body"])
    try:
        # Checked as if in a folder of its name; the user picks the real folder on saving.
        validate_texts({SKILL_FILE: text}, Path(name), on_disk=False)
    except DraftRefused as exc:
        problems = str(exc).split("\n", 1)[-1]
        raise DraftUnusable(f"The model's draft is not a valid skill:\n{problems}\n"
                            "Try again, or pick a larger model.") from None
    return ChatSkillDraft(name, text, given if given and given != name else None)
