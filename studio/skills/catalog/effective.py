"""The effective catalog: what one client really loads for a project and a user, and why not the
rest. It applies the client's record (studio.skills.catalog.rules) to every skill found in any
known skills folder (studio.skills.catalog.found), in this order: is the folder read, is the
skill within reach (hidden, depth, count, gitignored), does the client read the file (BOM, its
own validity rules), which of two skills with one name wins, is it turned off, what of its
description is shown, and what fits the listing's budget (studio.skills.catalog.listing).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.errors import StudioError
from studio.skills.catalog.entry import STATES, Entry, State
from studio.skills.catalog.found import Found, find_all
from studio.skills.catalog.gitignore import ignored
from studio.skills.catalog.listing import ListingBudget, apply_budget
from studio.skills.catalog.rules import RULES, ClientRules, rules_for
from studio.skills.catalog.switches import READERS


class CatalogError(StudioError):
    """A catalog that cannot be made: an unknown client."""


@dataclass(slots=True)
class Catalog:
    """What `client` loads for `project` (None: the user's skills only) and the user."""

    client: str
    title: str
    project: Path | None
    entries: list[Entry]
    budget: ListingBudget
    notices: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"client": self.client, "project": str(self.project) if self.project else None,
                "skills": [entry.to_json() for entry in self.entries],
                "budget": self.budget.to_json(), "notices": self.notices}

    def count(self, state: State) -> int:
        return sum(1 for entry in self.entries if entry.state == state)


# The clients with loading rules, by key, with their titles, in the rules' order.
CLIENTS: dict[str, str] = {rules.key: rules.title for rules in RULES}


def _client(client: str) -> ClientRules:
    rules = rules_for(client)
    if rules is None:
        raise CatalogError(f"no loading rules for the client `{client}`; choose one of "
                           f"{', '.join(CLIENTS)}")
    return rules


def _invalid(rules: ClientRules, found: Found) -> str:
    """Why the client refuses the skill ("" when it does not)."""
    skill = found.skill
    fields = skill.fields
    if not skill.has_frontmatter and rules.key != "claude-code":
        return "no YAML frontmatter between --- lines at the top of SKILL.md"
    name, description = fields.get("name"), fields.get("description")
    if rules.key == "gemini-cli" and not (isinstance(name, str) and isinstance(description, str)):
        return "Gemini CLI needs both `name` and `description` as text"
    shown_name = found.name
    if rules.name_pattern and not re.fullmatch(rules.name_pattern, str(name or "")):
        return f"the name must match {rules.name_pattern}"
    if rules.name_must_match_folder and name != skill.dir_name:
        return f"the name `{name}` differs from its folder `{skill.dir_name}`"
    if rules.name_max is not None and len(shown_name) > rules.name_max:
        return f"the name is longer than {rules.name_max} characters"
    text = " ".join(description.split()) if isinstance(description, str) else ""
    if rules.description_required and not text:
        return "it has no description"
    if rules.description_max is not None and len(text) > rules.description_max:
        return (f"the description is {len(text):,} characters; {rules.title} refuses more "
                f"than {rules.description_max:,}")
    if rules.body_required and not skill.has_body:
        return "its instructions (the body after the frontmatter) are empty"
    return ""


def _reach(rules: ClientRules, found: Found, project: Path | None) -> tuple[State | None, str]:
    """Whether the client gets to the file: (None, "") when it does."""
    title = rules.title
    if found.hidden and rules.skips_hidden:
        return "not-loaded", f"it is inside a hidden folder, which {title} skips"
    if found.depth == 0 and not rules.reads_root:
        return "not-loaded", (f"SKILL.md sits right in {found.folder}; {title} reads "
                              "FOLDER/NAME/SKILL.md")
    if rules.max_depth is not None and found.depth > rules.max_depth:
        reach = "FOLDER/NAME/SKILL.md" if rules.max_depth == 1 \
            else f"{rules.max_depth} folders deep"
        if not rules.depth_known:
            return "unknown", (f"it is {found.depth} folders deep; whether {title} reads past "
                               f"{reach} is unknown")
        return "not-loaded", f"beyond its scan depth: {title} reads {reach}"
    if rules.max_folders is not None and found.order >= rules.max_folders:
        return "not-loaded", (f"beyond its count: {title} walks {rules.max_folders:,} folders "
                              "per skills folder")
    if found.nested_in and project is not None and ignored(project, found.path):
        return "not-loaded", "gitignored: Claude Code skips nested skills in ignored folders"
    if found.bom and rules.reads_bom is None:
        return "unknown", f"SKILL.md starts with a BOM; whether {title} reads it is unknown"
    if found.bom and not rules.reads_bom:
        return "not-loaded", (f"SKILL.md starts with a byte-order mark (BOM), so {title} "
                              "finds no frontmatter: save it as UTF-8 without a BOM")
    invalid = _invalid(rules, found)
    if invalid:
        return "not-loaded", f"invalid for {title}: {invalid}"
    return None, ""


def _description(rules: ClientRules, found: Found, cut: int | None) -> str:
    fields = found.skill.fields
    parts = [fields.get("description")]
    if rules.key == "claude-code":
        parts.append(fields.get("when_to_use"))
    text = " ".join(p for p in parts if isinstance(p, str) and p.strip())
    if rules.key == "codex":
        text = " ".join(text.split())
    return text[:cut] if cut is not None else text


def _ranks(rules: ClientRules, project: Path | None, home: Path, env: Mapping[str, str],
           system: Path) -> dict[str, int]:
    """Each folder the client reads (resolved) and its place in the client's order."""
    ranks: dict[str, int] = {}
    for index, folder in enumerate(rules.folders):
        place = folder.resolve(project, home, env, system)
        if place is not None:
            ranks.setdefault(os.path.realpath(place), index)
    return ranks


def _shadow(rules: ClientRules, live: list[Entry]) -> None:
    """Settle names two live skills share, as the client's precedence says."""
    by_name: dict[str, list[Entry]] = {}
    for entry in live:
        by_name.setdefault(entry.name, []).append(entry)
    for name, group in by_name.items():
        if len(group) < 2:
            continue
        nested = [e for e in group if e.found.nested_in]
        for entry in nested if len(nested) < len(group) else nested[1:]:
            entry.name = f"{Path(entry.found.nested_in).name}:{name}"
            entry.why = f"loaded when Claude Code works on files under {entry.found.nested_in}/"
        group = [e for e in group if e.name == name]
        if len(group) < 2 or rules.precedence == "all":
            continue
        group.sort(key=lambda e: (e.rank, str(e.path)))
        for entry in group[1:]:
            if rules.precedence == "first":
                entry.state, entry.why = "shadowed", f"shadowed by {group[0].path}"
            else:
                entry.state = "unknown"
                entry.why = (f"{group[0].path} has the same name; which one {rules.title} "
                             "keeps is unknown")
        if rules.precedence == "unknown":
            group[0].state = "unknown"
            group[0].why = (f"{group[1].path} has the same name; which one {rules.title} keeps "
                            "is unknown")


def effective_catalog(client: str, project: Path | None, home: Path,
                      env: Mapping[str, str] | None = None, context_window: int | None = None,
                      found: Sequence[Found] | None = None,
                      system: Path = Path("/")) -> Catalog:
    """What `client` loads for `project` and the user whose home is `home`; `env` gives the
    variables the client reads (`CODEX_HOME`, `OLLAMA_SKILLS`, ...); `found` what
    `find_all` found, when the caller already has it; `system` stands for `/` (where the
    system's folders, as Codex's `/etc/codex/skills`, are)."""
    rules = _client(client)
    env = dict(env or {})
    if found is None:
        found = find_all(project, home, env, nested=rules.nested, system=system)
    ranks = _ranks(rules, project, home, env, system)
    switches = READERS[rules.disable](project, home, env)
    notices = list(switches.notices)
    if rules.key == "gemini-cli" and project is not None:
        notices.append("Gemini CLI reads a project's skills only in a folder you trusted")
    entries: list[Entry] = []
    for item in found:
        if item.nested_in:
            if not rules.nested:
                continue
            rank = len(rules.folders)
        else:
            rank = ranks.get(os.path.realpath(item.folder), -1)
        if rank < 0:
            entries.append(Entry(item.name, item.path, "not-loaded",
                                 f"folder not read by {rules.title}: {item.folder}", "",
                                 item.scope, len(rules.folders) + 1, item))
            continue
        state, why = _reach(rules, item, project)
        entries.append(Entry(item.name, item.path, state or "loaded", why, "", item.scope, rank,
                             item))
    _shadow(rules, [e for e in entries if e.state == "loaded"])
    cut = switches.values.get("skillListingMaxDescChars", rules.description_cut)
    cut = cut if isinstance(cut, int) and not isinstance(cut, bool) and cut > 0 \
        else rules.description_cut
    for entry in entries:
        if entry.state != "loaded":
            continue
        verdict = switches.judge(entry.name, entry.path)
        if verdict.off is None:
            entry.state, entry.why = "unknown", verdict.why
            continue
        if verdict.off:
            entry.state, entry.why = "disabled", f"disabled by {verdict.why}"
            continue
        entry.description_shown = "" if "name-only" in verdict.why \
            else _description(rules, entry.found, cut)
        if verdict.why:
            entry.why = verdict.why
        elif cut is not None and len(_description(rules, entry.found, None)) > cut:
            entry.why = f"description cut at {cut:,} characters"
    entries.sort(key=lambda e: (e.rank, e.name, str(e.path)))
    budget = apply_budget(rules, [e for e in entries if e.state == "loaded"], env,
                          switches.values, context_window)
    return Catalog(rules.key, rules.title, project, entries, budget, notices)


__all__ = ["CLIENTS", "STATES", "Catalog", "CatalogError", "Entry", "State", "effective_catalog"]
