"""The system prompt: how to use skills, and the catalog of them (never their bodies)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from studio.skills import SkillSummary
from studio.skills.search import build_catalog

CATALOG_SHARE = 0.25
"""The part of the model's context the catalog may take by default; the rest is for the
instructions, the tools, the conversation, the skill the model loads and its answer."""
_NAMES_SHOWN = 8

INSTRUCTIONS = """\
You are a helpful assistant working in the user's project. You can use Agent Skills: folders of
instructions, scripts and reference files. The catalog below lists each skill's name, what it does
and when to use it.

How to use skills:
- When the user's task matches a skill's description, first call `activate_skill` with its name to
  load its full instructions, then follow them.
- Use `read_skill_file` to read a file the instructions point to (paths are relative to the skill's
  folder), and `run_skill_script` to run a command in the skill's folder.
- Do not guess what a skill says before loading it. If no skill fits, answer directly.
- A command may be denied or blocked; then say so and do not try to get around it.
"""


def system_prompt(skills: Sequence[SkillSummary], extra: str | None = None, *,
                  instructions: str = "") -> tuple[str, list[str]]:
    """The system prompt, and the names of the skills left out of it (they would not load)."""
    fitted = fit_system_prompt(skills, None, extra=extra, instructions=instructions)
    return fitted.text, list(fitted.skipped)


@dataclass(frozen=True, slots=True)
class SystemPrompt:
    """A system prompt fitted to a model's context.

    Attributes:
        text: the prompt.
        skipped: names of skills left out because a client would not load them.
        left_out: names of loadable skills left out to fit the context, most relevant first.
    """

    text: str
    skipped: tuple[str, ...]
    left_out: tuple[str, ...]

    def notice(self) -> str | None:
        """What to tell the user when skills were left out to fit, or None."""
        if not self.left_out:
            return None
        count = len(self.left_out)
        shown = ", ".join(self.left_out[:_NAMES_SHOWN]) + (", ..." if count > _NAMES_SHOWN else "")
        return (
            f"{count} skill{'s' if count != 1 else ''} did not fit this model's context and "
            f"{'were' if count != 1 else 'was'} left out of the catalog ({shown}); the ones most "
            "relevant to the conversation were kept. To use one of them, pin it or try it from "
            "the library, name it in your message, or pick a model with a longer context."
        )


def fit_system_prompt(
    skills: Sequence[SkillSummary],
    context_length: int | None,
    *,
    query: str = "",
    keep: Collection[str] = (),
    extra: str | None = None,
    share: float = CATALOG_SHARE,
    instructions: str = "",
) -> SystemPrompt:
    """The system prompt for a model with `context_length` tokens (None: unknown, nothing is left
    out): its catalog takes at most `share` of them, keeping the skills named in `keep` (pinned,
    being tried) and then those most relevant to `query` (the user's message, or the recent
    conversation). `instructions` replace the default ones (INSTRUCTIONS) when not blank."""
    budget = int(context_length * share) if context_length else None
    # A skill with `disable-model-invocation: true` is the user's to load (`/NAME`): Claude Code
    # keeps even its description out of the model's context.
    catalog = build_catalog([s for s in skills if s.model_invocable], budget=budget, query=query,
                            keep=keep)
    parts = [instructions.strip() + "\n" if instructions.strip() else INSTRUCTIONS, catalog.xml]
    if extra:
        parts.append(extra)
    return SystemPrompt(
        "\n".join(parts),
        tuple(s.display_name for s in catalog.skipped),
        tuple(s.display_name for s in catalog.left_out),
    )
