"""Guided replies: a small model carried through a skill one constrained step at a time.

A model of a few hundred million parameters does not use skills on its own: shown the catalog
and the tools, it answers from its own head, or names a skill as a tool, or invents a script.
Guided, each round's reply is held by a JSON schema to the one step that makes sense next, and
the model chooses only what is its to choose:

1. no skill is loaded yet: `activate_skill` of one of the offered skills or of "none" (an
   enum: given the choice between a call and an answer, a tiny model answers from its head even
   when told which skill to use); when the user's message clearly points at a few skills (the
   catalog's term score), only those, with a note of them after the message; "none" makes the
   next round an answer;
2. a skill with scripts is loaded and none ran: `run_skill_script` of that skill, one of its
   own scripts started as its SKILL.md starts it, the placeholders of its usage line
   (`VALUE FROM TO`) filled with distinct words of the user's message, each with the words that
   fit it (`guided_args`; a tiny model otherwise copies the SKILL.md's example values, repeats
   itself, or swaps two files);
3. a script ran: an answer quoting its output, or (when it failed) another run of the skill's
   scripts.

The request is made short for a small context: a compact system prompt (the steps, one line per
skill), a worked example as earlier turns, the skill's usage lines in place of its whole body
when it has scripts, and a script's output without the run's timing.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from studio.agent.constrained import ANSWER_KEY, reply_schema
from studio.agent.guided.answer import answer_line, denial_prompt, denial_reason, sentence_schema
from studio.agent.guided.arguments import (
    PLACEHOLDER,
    Usage,
    bare,
    fill,
    json_values,
    parse_usage,
    script_usage,
    split,
)
from studio.agent.guided.columns import column_values
from studio.agent.guided.dates import iso_dates
from studio.agent.guided.durations import compact_durations, compact_style
from studio.agent.guided.fill import EXAMPLE as FILLED_EXAMPLE
from studio.agent.guided.fill import (
    SCRIPT_KEY,
    allowed_commands,
    compose,
    fill_hint,
    filled_spec,
    is_filled,
    named_values,
    unfillable,
    values_of,
)
from studio.agent.guided.freerun import free_pattern, replaced
from studio.agent.guided.refill import other_commands
from studio.agent.guided.repair import (
    MAX_RUNS,
    asked_options,
    error_values,
    failure_sentence,
    read_spec,
    rejected,
    repair_hint,
    run_results,
    says_call_was_wrong,
    trimmed,
    usage_commands,
)
from studio.agent.guided.scriptvalues import after_option, script_values
from studio.agent.guided.values import Described, describe, listed_notes, referenced_files
from studio.agent.guided.write import (
    asks_help,
    documentation,
    moved,
    placed,
    problems,
    refused_turns,
    repair_turns,
    substitutions,
    usage_words,
    without_extra,
    write_request,
    write_spec,
)
from studio.agent.toolbook import ACTIVATE, READ, RUN
from studio.agent.tools import SkillToolbox, ToolError
from studio.llm import Message, ToolCall, ToolSpec
from studio.skills.search import catalog

NO_SKILL = "none"
"""The name that picks no skill in step 1."""
CALL_MAX_TOKENS = 160
"""The most tokens a guided call may take: the longest command a skill shows is far shorter."""
ANSWER_MAX_TOKENS = 256
"""The most tokens a guided answer may take: a small model that copies a script's output goes
on copying past its end; what it wrote up to the cap is its answer."""
_DESCRIPTION_CHARS = 160
_QUOTE_CHARS = 1500
"""The most of a script's output a guided answer quotes: a report's first screen."""
_QUOTED_LINES = 3
_QUOTE_SLACK = 16
_LOOP_UNIT = 64
_LOOP_COPIES = 4
_LOOP_WORD = 4
_LOOP_CHARS = 24
"""An answer ending in 4 copies of a piece of up to 64 characters, 24 or more in all, loops."""
_SHORTLIST = 3
_CLEAR_TERMS = 2
"""A skill is clearly pointed at by a word of its name or two of its description."""
_CLEAR_SHARE = 0.5
"""A skill is among the few step 1 offers when it scores at least this share of the best."""
_MAX_COMMANDS = 2000
_PROTOCOL_WORDS = frozenset({"skill", "skill's", "skills", "script", "scripts", "run"})
_WORD_EDGES = "\"'`.,;:!?()[]{}<>"
_INTERPRETERS = {".py": "python3", ".sh": "bash", ".bash": "bash", ".js": "node", ".mjs": "node",
                 ".rb": "ruby", ".pl": "perl", ".php": "php"}
_PROMPT = re.compile(r"^(?:[$%>]\s+|usage:\s*)", re.IGNORECASE)
_PIPED = re.compile(r"^cat\s+(?P<file>[^\s|<>;&-][^\s|<>;&]*)\s*\|\s*(?P<rest>[^|<>;&]+?)\s*$")
_RUN_LINE = re.compile(r"^exit code (\d+) after [\d.]+ s\n")
_FIGURE = re.compile(r"-?\d+(?:\.\d+)?")
_NUMBER_WORD = "N"
"""The placeholder an example's figure stands for."""

INSTRUCTIONS = """\
You are an assistant that uses skills. Reply with one JSON object only.
Step 1: pick the skill for the task: {"tool": "activate_skill", "arguments": {"name": SKILL}}
Step 2: run its script, each word of its usage line in capitals replaced by a value from the \
user's message: {"tool": "run_skill_script", "arguments": {"skill": SKILL, "command": COMMAND}}
Step 3: answer with the script's output: {"answer": TEXT}
If no skill fits the task, pick "none" in step 1, then answer: {"answer": TEXT}

Skills:
"""

EXAMPLE: tuple[Message, ...] = (
    Message("user", "How many words are in the file notes.txt?"),
    Message("assistant", '{"tool": "activate_skill", "arguments": {"name": "word-count"}}'),
    Message("user", "Skill word-count is loaded. Its script runs like this:\n"
                    "python3 scripts/count.py FILE\npython3 scripts/count.py report.txt"),
    Message("assistant", '{"tool": "run_skill_script", "arguments": {"skill": "word-count", '
                         '"command": "python3 scripts/count.py notes.txt"}}'),
    Message("user", "Output of the command:\nnotes.txt: 120 words"),
    Message("assistant", '{"answer": "notes.txt: 120 words"}'),
)
"""A worked example, given as earlier turns: small models copy a shape far better than they
follow a description of it."""


@dataclass(frozen=True, slots=True)
class Checked:
    """A written run as the rules checked it: the call to run (perhaps with words left out, as
    `note` says), or `problem`, why it is not run."""

    call: ToolCall
    problem: str = ""
    note: str = ""
    again: bool = False
    """With a `problem`: whether the model writes the run again, shown what was wrong (the
    first refusal of a run), rather than the fill writing it."""


@dataclass(frozen=True, slots=True)
class Step:
    """One guided round: the reply's schema and its token cap."""

    schema: dict[str, Any]
    max_tokens: int
    require_call: bool


class Guide:
    """Works out the next step of a turn from the conversation, and the short request for it.

    Attributes:
        toolbox: the skills and their files.
    """

    def __init__(self, toolbox: SkillToolbox) -> None:
        self.toolbox = toolbox
        # Whether the model fills a run's arguments under a schema (`guided.fill`) rather than
        # picks among the commands word affinity puts together: set from the model's size.
        self.fills = False
        # Whether a model that fills writes a turn's first run whole instead (`guided.write`),
        # the fill taking its place when the rules find a problem in what it wrote.
        self.writes = False
        self._declined: object = None
        # The runs (the turn, and how many ran before) whose command the rules rejected.
        self._unwritten: set[tuple[object, int]] = set()
        # The run (as above) the rules refused once: the command and what was wrong with it,
        # shown to the model when it writes that run again.
        self._refused: dict[tuple[object, int], tuple[str, str]] = {}
        # Per skill, the commands the last failed run's usage message showed (see `step`), which
        # `resolve` reads a filled run of them by.
        self._shown: dict[str, list[str]] = {}

    def declined(self, messages: Sequence[Message]) -> None:
        """The model picked no skill for the current turn of `messages`: it is to answer."""
        self._declined = _turn_key(messages)

    def step(self, messages: Sequence[Message], offered: Collection[str] | None,
             answer_tokens: int) -> Step:
        """The step after `messages` (the conversation, the current turn last)."""
        turn = _current_turn(messages)
        loaded, ran, failed = _progress(turn)
        if loaded is None:
            names = self.choices(messages, offered)
            # Small talk, or a question no skill's words share a term with: an answer, with no
            # skill to pick first (SmolLM2-135M loaded a skill for "Hello! What can you do?").
            if not names or self._declined == _turn_key(messages) or \
                    not self._points_at_any(messages, offered):
                return Step(reply_schema([], require_call=False), answer_tokens, False)
            return Step(reply_schema([_activate_spec([*names, NO_SKILL])], require_call=True),
                        CALL_MAX_TOKENS, True)
        results = run_results(turn, loaded)
        if results and denial_reason(results[-1][1]) is not None:
            # Denied: the model answers within the user's reason; asked again, it asks again.
            return Step(reply_schema([], require_call=False), answer_tokens, False)
        invocations = self.invocations(loaded)
        quotes = _quotes(turn, _turn_key(messages)[1]) if ran else []
        if ran and not failed and len(results) < MAX_RUNS and \
                (asked := self._asked(loaded, results[-1], invocations, {c for c, _ in results})):
            # The run went through but its output says another value was wanted (a default of
            # the wrong mode: "to decode it use --mode decode"): the run it asks for follows.
            return Step(reply_schema([_enum_spec(loaded, asked)], require_call=True), CALL_MAX_TOKENS, True)
        if self._write_turn(messages) is not None:
            fixes = _substitutions(results, invocations) if failed else []
            # The error named the wrong word and the values it takes: one of those runs.
            written = _enum_spec(loaded, fixes) if fixes else write_spec(loaded, invocations)
            return Step(reply_schema([written], require_call=True), CALL_MAX_TOKENS, True)
        # A run that printed the script's help answered nothing: the run itself follows.
        helped = ran and not failed and bool(results) and asks_help(results[-1][0])
        if not invocations or (ran and not failed and not helped):
            sentence = (sentence_schema(answer_line(quotes), results[-1][0])
                        if self.fills and quotes and results else None)
            if sentence is not None:
                return Step(sentence, answer_tokens, False)
            return _answer_step(quotes, answer_tokens)
        request = next((m.content for m in reversed(messages[:len(messages) - len(turn)])
                        if m.role == "user"), "")
        commands = self._commands(loaded)
        words = self._words(loaded, request)
        # A command that ran already gives the same output again (a checker's exit code 1 says
        # the document is invalid: that is its answer): a run after a failed one is another one.
        tried = {str(call.arguments.get("command")) for message in turn for call in message.tool_calls
                 if call.name == RUN and call.arguments.get("skill") == loaded}
        # Durations in words ("1 hour 20 minutes") as the skill writes them (`1h20m`).
        durations = compact_durations(request) if compact_style(self._body(loaded)) else []
        candidates = [*json_values(request), *_phrases(request), *iso_dates(request), *durations,
                      *(word for word in words if not word.startswith("-"))]
        error = None if not ran else results[-1] if results else None
        shown: list[str] = []
        if error is not None:
            # The script's own usage message is how it runs, before what the SKILL.md shows.
            shown = [line for start in invocations for line in usage_commands(error[1], start)]
            commands = [*dict.fromkeys([*shown, *commands])]
        self._shown[loaded] = shown
        runs = [spec for start in invocations
                if (spec := self._run(loaded, start, commands, words, candidates, tried, request, error))]
        if not ran:
            return Step(reply_schema(runs, require_call=True), CALL_MAX_TOKENS, True)
        command, output = results[-1] if results else ("", "")
        wrong = says_call_was_wrong(_output_of(output), split(command)[1:])
        if not runs or len(results) >= MAX_RUNS:
            if wrong:
                # Quoting the error is no answer; silence is none either: say what failed.
                return _said_step(failure_sentence(command, output, len(results)), answer_tokens)
            return _answer_step(quotes, answer_tokens)
        if self.fills and not (shown and runs) and not any(_listed_run(spec) for spec in runs):
            # The usage line may be wrong (an example read as one): the repair may also run
            # the script with the message's words and the options the SKILL.md shows. Not when
            # the script's own usage message gave the run: a free pattern lets a small model
            # send the failed call again. Nor when the repair offers the calls to run in its
            # place (operands swapped, a listed value for the rejected one): a free pattern
            # beside them drew the model to the failed call with a word added.
            runs += [spec for start in invocations if _usage(commands, start) is not None
                     and (spec := _run_spec(loaded, start, None, [*words, *error_values(output)], tried))]
        if wrong:
            # The script said the call was wrong: the repair is a run with the values it listed
            # (a read then a run would leave the turn no round for its answer).
            reads = [] if self.fills else self._reads(turn, loaded, output)
            return Step(reply_schema([*runs, *reads], require_call=True), CALL_MAX_TOKENS, True)
        # A checker's verdict (a report, exit code 1): run again, read a file the SKILL.md names
        # for its values, or answer quoting what the output says.
        reads = self._reads(turn, loaded, output)
        answer = _answer_step(quotes, answer_tokens)
        schema = reply_schema([*runs, *reads], require_call=True)
        return Step({"oneOf": [*schema.get("oneOf", [schema]), *answer.schema.get("oneOf", [answer.schema])]},
                    answer.max_tokens, False)

    def _write_turn(self, messages: Sequence[Message]) -> str | None:
        """The skill whose next run the model is to write whole in the current turn of
        `messages` (it fills, writing is on): the turn's first run, or the repair of a run whose
        output says the call was wrong; None when the next step is another, or the rules
        rejected the command it wrote for this run."""
        if not (self.fills and self.writes):
            return None
        turn = _current_turn(messages)
        loaded, ran, failed = _progress(turn)
        if loaded is None or not self.invocations(loaded):
            return None
        results = run_results(turn, loaded)
        if (_turn_key(messages), len(results)) in self._unwritten:
            return None
        if not ran:
            return loaded
        if not results or len(results) >= MAX_RUNS:
            return None
        command, output = results[-1]
        if not failed:
            # A run that asked for the script's help read how it runs: the run itself follows.
            return loaded if asks_help(command) else None
        if denial_reason(output) is not None or not _RUN_LINE.match(output) or \
                not says_call_was_wrong(_output_of(output), split(command)[1:]):
            return None
        return loaded

    def documentation(self, skill: str) -> str:
        """What the model writing a run is shown of `skill` (`write.documentation`)."""
        scripts = self.toolbox.scripts(skill)[0]

        def read(path: str) -> str | None:
            try:
                return self.toolbox.read_file(skill, path)
            except (ToolError, OSError):
                return self._read_any_case(skill, path)
        return documentation(self._body(skill), scripts, read)

    def abandon(self, messages: Sequence[Message]) -> bool:
        """Whether the current turn's next run was the model's to write (its command was cut at
        the token cap): if so, the fill writes it instead."""
        skill = self._write_turn(messages)
        if skill is None:
            return False
        self._unwritten.add((_turn_key(messages), len(run_results(_current_turn(messages), skill))))
        return True

    def check(self, messages: Sequence[Message], call: ToolCall) -> Checked:
        """What the rules find wrong with a run the model wrote whole in the current turn of
        `messages` (`write.problems`, or that it ran already): nothing, or when the model did not
        write it, the call as it is. Words the usage line has no place for are left out when
        nothing else is wrong; a command with another problem is not run: the fill writes that
        run."""
        skill = self._write_turn(messages)
        if skill is None or call.name != RUN or call.arguments.get("skill") != skill:
            return Checked(call)
        turn = _current_turn(messages)
        results = run_results(turn, skill)
        command = str(call.arguments.get("command", ""))
        start = _start_in(command, self.invocations(skill))
        found: list[str] = []
        if results and command in _substitutions(results, self.invocations(skill)):
            return Checked(call)
        if command in {ran for ran, _ in results}:
            found.append("it is the command that failed")
        elif start is None:
            found.append("it runs none of the skill's scripts")
        else:
            commands = self._commands(skill)
            usage = _usage(commands, start)
            request = _turn_key(messages)[1]
            described = self._described(skill, usage, commands, start, request) if usage is not None else []
            doc = "\n".join([self.documentation(skill), *commands])
            printed = [word for _, output in results for word in usage_words(_output_of(output))]
            found = problems(command, start, usage, described, doc, printed)
            if found and usage is not None and placed(split(command)[len(split(start)):], usage)[1]:
                fitted = self._moved(skill, command, start, request, doc, {ran for ran, _ in results})
                if fitted is not None:
                    note = f"`{command}` has words its script has no place for; `{fitted}` takes them"
                    arguments = {**call.arguments, "command": fitted}
                    return Checked(ToolCall(call.id, call.name, arguments), "", note)
            shorter = without_extra(command, start, usage) if found and usage is not None else None
            if shorter is not None and shorter not in {ran for ran, _ in results} and \
                    not problems(shorter, start, usage, described, doc):
                note = f"`{command}` has words its usage line has no place for; `{shorter}` runs"
                return Checked(ToolCall(call.id, call.name, {**call.arguments, "command": shorter}), "", note)
        if not found:
            return Checked(call)
        key = (_turn_key(messages), len(results))
        problem = "; ".join(found)
        if key not in self._refused:
            self._refused[key] = (command, problem)
            return Checked(call, problem, again=True)
        self._unwritten.add(key)
        return Checked(call, problem)

    def _moved(self, skill: str, command: str, start: str, request: str, doc: str,
               tried: Collection[str]) -> str | None:
        """`command` moved to the other script of `skill` whose usage has a place for each of its
        operands (`write.moved`) and finds nothing else wrong with it; None when none does."""
        commands = self._commands(skill)
        others = [(other, usage) for other in self.invocations(skill)
                  if other != start and (usage := _usage(commands, other)) is not None]
        usages = dict(others)
        for other, fitted in moved(command, start, others):
            described = self._described(skill, usages[other], commands, other, request)
            if fitted not in tried and not problems(fitted, other, usages[other], described, doc):
                return fitted
        return None

    def _asked(self, skill: str, result: tuple[str, str], invocations: Sequence[str],
               tried: Collection[str]) -> list[str]:
        """The runs a successful run's output asks for in its place: the run's command with an
        option of its usage line set to the value the output names ("use --mode decode"), when
        that is one the skill lists for it (or any, when it lists none); none it ran already."""
        command, output = result
        commands = self._commands(skill)
        found: list[str] = []
        for start in invocations:
            usage = _usage(commands, start)
            if usage is None or not command.startswith(start + " "):
                continue
            after = after_option(usage)
            described = {d.name: d for d in self._described(skill, usage, commands, start)}
            given = values_of(command, start, usage)
            for option, value in asked_options(_output_of(output)):
                name = after.get(option)
                listed = described[name].values if name in described else ()
                if name is None or not value or given.get(name) == value or (listed and value not in listed):
                    continue
                arguments = {"skill": skill, SCRIPT_KEY: start, **given, name: value}
                asked = str(compose(ToolCall("", RUN, arguments), usage).arguments["command"])
                if asked not in tried and asked not in found:
                    found.append(asked)
        return found

    def _reads(self, turn: Sequence[Message], skill: str, output: str) -> list[ToolSpec]:
        """`read_skill_file` of the files the skill or the failed run's output names, not yet read."""
        read = [m.tool_calls[0].arguments.get("path") for m in turn
                if m.tool_calls and m.tool_calls[0].name == READ]
        unread = [path for path in self._referenced(skill, output) if path not in read]
        return [read_spec(skill, unread)] if unread else []

    def _run(self, skill: str, start: str, commands: list[str], words: list[str],
             candidates: list[str], tried: Collection[str], request: str,
             error: tuple[str, str] | None = None) -> ToolSpec | None:
        """The run of `start` offered: filled under a schema, or picked among commands. After a
        failed run (`error`: its command and output), the values the output lists are the enum of
        the placeholder it rejected, or are among the words a command is made of."""
        usage = _usage(commands, start)
        listed = error_values(error[1]) if error else []
        if self.fills and usage is not None:
            described = self._described(skill, usage, commands, start, request)
            described = _fillable_subcommands(described, usage, commands, start, candidates, request)
            if listed and error is not None:
                described = _with_listed(described, usage, values_of(error[0], start, usage),
                                         error[1], listed)
            elif error is not None:
                # The value the error names ("could not convert 'up'") is no open placeholder's.
                given = values_of(error[0], start, usage)
                wrong = {given[name] for name in rejected(error[1], given)}
                # An error naming every value ("SHARE (30) is larger than TOTAL (12)") faults
                # their order, not the values.
                values = {value for value in given.values() if value}
                if len(values) < 2 or wrong != values:
                    candidates = [c for c in candidates if c not in wrong]
            spec = filled_spec(skill, start, usage, described, candidates, request,
                               _example_numbers(commands, start, usage))
            _within_subcommand(spec, usage, _subcommands(commands, start))
            allowed = allowed_commands(spec, usage, described) if tried else None
            if allowed is None or not set(allowed) <= set(tried) or error is None:
                return spec
            # The fill allows only the failed call again, which gives the same output: the
            # repair offers other calls (the skill's values, operands swapped), else the
            # commands the message's words make.
            others = other_commands(spec, usage, described, values_of(error[0], start, usage), tried,
                                    request)
            if others:
                return _enum_spec(skill, others)
        if usage is None and error is not None:
            # No usage line to fill: the failed command with each value the error lists in
            # place of the one it rejected is the repair the output asks for.
            # Those the message names ("French press" names `french-press`), as a fill keeps.
            named = named_values(listed, request)
            fixed = [c for c in replaced(error[0], _output_of(error[1]), named or listed)
                     if c not in tried and c.startswith(start + " ")]
            if fixed:
                return _enum_spec(skill, fixed)
        words = [*words, *(v for v in listed if v not in words)]
        offered = _run_spec(skill, start, usage, words, tried)
        if offered is None and error is not None and \
                says_call_was_wrong(_output_of(error[1]), split(error[0])[1:]):
            # The script said the call was wrong and every command the usage line makes ran:
            # the repair is the script with the message's words, never the failed call again.
            return _run_spec(skill, start, None, words, tried)
        return offered

    def _described(self, skill: str, usage: Usage, commands: Sequence[str],
                   start: str = "", request: str = "") -> list[Described]:
        """What the skill says of each placeholder of `usage`; where its words list no values,
        the header names of a table file the user's `request` names for a placeholder of a
        column, else those the Python script `start` runs accepts (`choices=`, a dict of known
        keys)."""
        def read(path: str) -> str | None:
            try:
                return self.toolbox.read_file(skill, path)
            except (ToolError, OSError):
                return self._read_any_case(skill, path)
        described = describe(usage.placeholders, self.toolbox.load(skill).body, read, commands)
        # UNIT_B (a second UNIT of the usage line) is what the skill says of UNIT.
        by_name = {d.name: d for d in described}
        described = [Described(d.name, base.said, base.values, base.notes)
                     if not d.values and (base := by_name.get(re.sub(r"_[B-Z]$", "", d.name), d)) is not d
                     else d for d in described]
        listed = dict(usage.choices)
        described = [Described(d.name, d.said, listed[d.name]) if d.name in listed else d
                     for d in described]
        # A JSON key's meaning is what the skill's table or list of the keys says of it.
        keys = [key for _, found in usage.objects for key in found]
        notes = listed_notes([key.key for key in keys], self.toolbox.load(skill).body)
        meanings = {key.placeholder: f"the {key.key} key: {note}"
                    for key, note in zip(keys, notes, strict=False) if note}
        described = [Described(d.name, meanings[d.name], d.values, d.notes)
                     if not d.said and d.name in meanings else d for d in described]
        described = [Described(d.name, d.said, columns) if not d.values and
                     (columns := column_values(d.name, d.said, request, read)) else d for d in described]
        script = split(start)[-1] if start else ""
        if not script.endswith(".py") or all(d.values for d in described):
            return described
        try:
            accepted = script_values(self.toolbox.read_file(skill, script), usage)
        except (ToolError, OSError):
            return described
        # A dict of the script the SKILL.md lists for one placeholder (SHAPE: circle, square) is
        # that one's, not also the next's (SIZE).
        listed_values = {d.values for d in described if d.values}
        body = self.toolbox.load(skill).body
        return [d if d.values or d.name not in accepted or accepted[d.name] in listed_values
                or d.name in usage.numbers else
                Described(d.name, d.said, accepted[d.name], listed_notes(accepted[d.name], body))
                for d in described]

    def _read_any_case(self, skill: str, path: str) -> str | None:
        """The file `path` names in another case (`references/palette.md` for PALETTE.md), or a
        bare name in the one folder that holds it ("the Ingredients.md file under references")."""
        try:
            wanted = path.lower()
            files = [f.relative for f in self.toolbox.load(skill).files]
            match = next((f for f in files if f.lower() == wanted and f != path), None)
            if match is None and "/" not in path:
                named = [f for f in files if f.rsplit("/", 1)[-1].lower() == wanted]
                match = named[0] if len(named) == 1 else None
            return self.toolbox.read_file(skill, match) if match else None
        except (ToolError, OSError):
            return None

    def _referenced(self, skill: str, output: str = "") -> list[str]:
        """The files the skill's SKILL.md, or a run's `output` (an error pointing at the list of
        the values it accepts), names that are there to read (not its scripts)."""
        found = []
        for path in referenced_files(f"{self._body(skill)}\n{output}"):
            try:
                self.toolbox.read_file(skill, path)
            except (ToolError, OSError):
                continue
            found.append(path)
        return found

    def _points_at_any(self, messages: Sequence[Message], offered: Collection[str] | None) -> bool:
        """Whether a term of the current turn's message is one of an offered skill's name,
        description or instructions: a greeting or a question of general knowledge shares none."""
        wanted = set(catalog.terms(_query(messages)))
        if not wanted:
            return False
        for name in self.toolbox.names:
            if offered is not None and name not in offered:
                continue
            entry = self.toolbox.entry(name)
            said = f"{name.replace('-', ' ')} {entry.description} {self._body(name)}"
            if wanted & set(catalog.terms(said)):
                return True
        return False

    def resolve(self, call: ToolCall) -> ToolCall:
        """A call as it is run: a filled run (`{"script": START, "VALUE": ...}`) as its command."""
        if not is_filled(call):
            return call
        skill, start = str(call.arguments.get("skill")), str(call.arguments.get("script"))
        commands = [*dict.fromkeys([*self._shown.get(skill, []), *self._commands(skill)])]
        usage = _usage(commands, start)
        if usage is None:
            return call
        return compose(call, usage, self._described(skill, usage, commands, start))

    def repeated(self, messages: Sequence[Message], call: ToolCall) -> str | None:
        """When `call` (as `resolve` gave it) runs a command that ran already in the current turn
        of `messages`, after a failed run: the sentence saying what failed, the answer in its
        place (the same command gives the same output); else None."""
        turn = _current_turn(messages)
        loaded, ran, failed = _progress(turn)
        if call.name != RUN or loaded is None or not (ran and failed):
            return None
        results = run_results(turn, loaded)
        if call.arguments.get("skill") != loaded or not results or \
                str(call.arguments.get("command")) not in {command for command, _ in results}:
            return None
        command, output = results[-1]
        return failure_sentence(command, output, len(results))

    def denial(self, messages: Sequence[Message]) -> str | None:
        """The reason the user gave for denying the current turn's last run ("" for none), or
        None when it was not denied."""
        turn = _current_turn(messages)
        loaded = _progress(turn)[0]
        results = run_results(turn, loaded) if loaded else []
        return denial_reason(results[-1][1]) if results else None

    def unverified(self, messages: Sequence[Message]) -> str:
        """Why an answer to the current turn of `messages` is not backed by a script's output:
        it follows a denied run, or no run gave any output; "" when one did."""
        turn = _current_turn(messages)
        loaded = _progress(turn)[0]
        results = run_results(turn, loaded) if loaded else []
        if results and denial_reason(results[-1][1]) is not None:
            return "given after the run was denied, so no script's output backs it"
        if not any(_RUN_LINE.match(result) and _output_of(result).strip() for _, result in results):
            return "no script ran for it, so it comes from the model alone"
        return ""

    def ranked(self, messages: Sequence[Message], offered: Collection[str] | None) -> list[str]:
        """The offered skills, those most relevant to the current turn's message first (the
        catalog's term score)."""
        entries = [self.toolbox.entry(name) for name in self.toolbox.names
                   if offered is None or name in offered]
        scores = catalog.relevance(entries, _query(messages))
        order = sorted(range(len(entries)), key=lambda index: (-scores[index], index))
        return [entries[index].name for index in order]

    def choices(self, messages: Sequence[Message], offered: Collection[str] | None) -> list[str]:
        """The skills step 1 offers: when the current turn's message clearly points at a few
        (each scores at least half the best score), only those; else every offered skill. A tiny
        model picks "none" out of seven names for a task one of them plainly fits (a CSV file,
        a commit message), and an enum's order does not sway it: the grammar only allows words,
        the model's own odds choose among them. "none" stays a choice in any case."""
        return self._fitting(messages, offered) or self.ranked(messages, offered)

    def _fitting(self, messages: Sequence[Message], offered: Collection[str] | None) -> list[str]:
        """The few skills the current turn's message clearly points at, best first; none when it
        points at none clearly (the best shares no word with the message but one of its
        description's: "write" fits many skills)."""
        query = _query(messages)
        entries = [self.toolbox.entry(name) for name in self.ranked(messages, offered)]
        if not entries:
            return []
        in_name, in_description = catalog.shared_terms(entries[0], query)
        if not in_name and in_description < _CLEAR_TERMS:
            return []
        scores = catalog.relevance(entries, query)
        return [entry.name for entry, score in zip(entries, scores, strict=True)
                if score >= scores[0] * _CLEAR_SHARE][:_SHORTLIST]

    def invocations(self, name: str) -> list[str]:
        """How the skill's scripts are started (`python3 scripts/convert.py`), as its SKILL.md
        starts them, else with the usual interpreter for the script's suffix."""
        try:
            scripts, usage = self.toolbox.scripts(name)
        except (ToolError, OSError):
            return []
        commands = _commands(usage, scripts)
        return list(dict.fromkeys(_start(commands, script) for script in scripts))

    def _commands(self, name: str) -> list[str]:
        """The commands the skill's SKILL.md shows for its scripts, and for a script it shows no
        usage line of, the one the script's own leading docstring or comment gives (read from
        the file: a script is never run to find out how it runs)."""
        scripts, usage = self.toolbox.scripts(name)
        commands = _commands(usage, scripts)
        for script in scripts:
            start = _start(commands, script)
            if any(parse_usage(command, start) for command in commands):
                continue
            try:
                text = self.toolbox.read_file(name, script)
            except (ToolError, OSError):
                continue
            line = script_usage(text, script, start)
            if line is None or parse_usage(line, start) is None:
                line = _subcommand_usage(commands, start) or _object_usage(commands, start)
            if line is not None:
                commands.append(line)
        return commands

    def _words(self, skill: str, request: str) -> list[str]:
        """The arguments a guided run may use: the words of the user's `request` (without the
        punctuation around them) and the options the skill's usage lines show."""
        options = [word for command in self._commands(skill) for word in split(command)
                   if word.startswith("-")]
        words = [bare(word.strip(_WORD_EDGES)) for word in request.split()]
        # The skill's name and the word "skill" say which skill, not what to run it on; so do
        # the words of its name ("Convert 5 kilograms to pounds" ran `convert.py 5 kilograms
        # Convert` with unit-convert).
        skip = {*catalog.STOP_WORDS, *_PROTOCOL_WORDS, *(name.lower() for name in self.toolbox.names),
                *(part for part in re.split(r"[-_.]", skill.lower()) if len(part) > 2)}
        words = [word for word in words if word.lower() not in skip]
        found: list[str] = []
        for word in [*words, *options]:
            if word and not any(c in word for c in "\"\\") and word not in found:
                found.append(word)
        return found

    def request(self, messages: Sequence[Message], offered: Collection[str] | None) -> list[Message]:
        """What the model is sent for a guided round: the compact system prompt, the worked
        example, then the conversation with calls and results written as plain turns."""
        written = self._write_turn(messages)
        if written is not None:
            asked = write_request(written, self.documentation(written), _turn_key(messages)[1])
            results = run_results(_current_turn(messages), written)
            refused = self._refused.get((_turn_key(messages), len(results)))
            if results:
                command, output = results[-1]
                failed = _progress(_current_turn(messages))[2]
                asked += repair_turns(written, command, trimmed(_output_of(output)), failed)
            return [*asked, *refused_turns(written, *refused)] if refused else asked
        names = self.ranked(messages, offered)
        lines = []
        for name in names:
            description = " ".join(self.toolbox.entry(name).description.split())
            if len(description) > _DESCRIPTION_CHARS:
                description = description[:_DESCRIPTION_CHARS].rsplit(" ", 1)[0] + " ..."
            lines.append(f"- {name}: {description}")
        system = Message("system", INSTRUCTIONS + ("\n".join(lines) or "(none)"))
        start = 1 if messages and messages[0].role == "system" else 0
        plain = [system, *(FILLED_EXAMPLE if self.fills else EXAMPLE), *self._plain(messages[start:])]
        fitting = self._fitting(messages, offered)
        if plain[-1].role == "user" and _progress(_current_turn(messages))[0] is None and fitting:
            # Offered only the skill a CSV task plainly needs, or none, SmolLM2-135M still picks
            # none; told after the message which skills fit, it picks the skill (and a task no
            # skill clearly fits gets no such note).
            plain[-1] = Message("user", f"{plain[-1].content}\n(Skills that fit: {', '.join(fitting)})")
        return plain

    def _plain(self, messages: Sequence[Message]) -> list[Message]:
        plain: list[Message] = []
        calls: dict[str, tuple[str, dict[str, Any]]] = {}
        request = ""
        for message in messages:
            if message.role == "user":
                request = message.content
            if message.role == "assistant" and message.tool_calls:
                written = []
                for call in message.tool_calls:
                    calls[call.id] = (call.name, call.arguments)
                    written.append(json.dumps({"tool": call.name, "arguments": call.arguments}))
                plain.append(Message("assistant", "\n".join(written)))
            elif message.role == "assistant":
                plain.append(Message("assistant", json.dumps({ANSWER_KEY: message.content})))
            elif message.role == "tool":
                name, arguments = calls.get(message.tool_call_id or "", (message.tool_name or "", {}))
                plain.append(Message("user", self._result(name, arguments, message.content, request)))
            else:
                plain.append(message)
        return plain

    def _result(self, tool: str, arguments: dict[str, Any], content: str, request: str = "") -> str:
        """A tool's result as the small model is shown it."""
        skill = arguments.get("name" if tool == ACTIVATE else "skill")
        reason = denial_reason(content) if tool == RUN else None
        if reason is not None and isinstance(skill, str):
            return denial_prompt(str(arguments.get("command", "")), reason, self._body(skill))
        if content.startswith(("error:", "blocked", "denied")):
            return f"The {tool} call failed: {content}"
        if tool == ACTIVATE:
            invocations = self.invocations(skill) if isinstance(skill, str) else []
            if invocations:
                commands = self._commands(str(skill))
                shown = commands or invocations
                usages = [c for c in commands if any(parse_usage(c, start) for start in invocations)]
                if self.fills and usages:
                    # Shown the SKILL.md's examples, a model copies their values ("5 km mi").
                    shown = usages
                return f"Skill {skill} is loaded. Its script runs like this:\n" + "\n".join(shown) + \
                    self._fill_hint(str(skill), commands, invocations, request)
        if tool == RUN:
            match = _RUN_LINE.match(content)
            # A checker's exit code 1 comes with its verdict: shown as output, it is answered
            # from; shown as a failure, a tiny model writes anything.
            if match and match.group(1) == "0":
                return "Output of the command:\n" + content[match.end():]
            if match and content[match.end():].strip() and isinstance(skill, str):
                return (f"Output of the command (exit code {match.group(1)}):\n"
                        + trimmed(content[match.end():])
                        + repair_hint(self._commands(skill), self._referenced(skill, content)))
        if tool == READ:
            return f"Result of {tool}:\n{trimmed(content, head=True)}"
        return f"Result of {tool}:\n{content}"

    def _body(self, skill: str) -> str:
        try:
            return self.toolbox.load(skill).body
        except (ToolError, OSError):
            return ""

    def _fill_hint(self, skill: str, commands: list[str], invocations: list[str], request: str) -> str:
        """What a model that fills the arguments is told of the first script's placeholders."""
        if not self.fills:
            return ""
        usage = _usage(commands, invocations[0])
        if usage is None:
            return ""
        described = self._described(skill, usage, commands, invocations[0], request)
        return "\n" + fill_hint(described, usage, request)


def cut_answer(text: str) -> str | None:
    """The answer a reply cut at the token cap had written so far (`{"answer": "26.2 mi = 4`),
    or None when it is not an answer."""
    start = re.match(r'\s*\{\s*"answer"\s*:\s*"', text)
    if start is None:
        return None
    body = text[start.end():]
    # The cut may fall inside an escape (`\`, `\u00`): drop what cannot be read.
    for end in range(len(body), max(len(body) - 6, -1), -1):
        try:
            value = json.loads('"' + body[:end] + '"')
        except ValueError:
            continue
        return value if isinstance(value, str) else None
    return None


def looped_answer(text: str) -> str | None:
    """When the answer a guided reply is writing (`{"answer": "46.5 1. 1. 1. 1. 1. ...`) has
    started to repeat itself, the answer up to the end of the loop's first round ("46.5 1."),
    else None. A tiny model that copies a script's output goes on repeating a line or a list
    number to the token cap; the server's repeat penalty is no help (an OpenAI-compatible
    server may refuse the option, and it also keeps the model from copying the output's own
    figures), so the loop is cut where it is seen, on any backend."""
    answer = cut_answer(text)
    if answer is None:
        return None
    for size in range(2, _LOOP_UNIT + 1):
        # Where the answer's tail of period `size` begins: the loop's first round starts there.
        start = len(answer) - size
        while start > 0 and answer[start - 1] == answer[start - 1 + size]:
            start -= 1
        unit = answer[start:start + size]
        looping = len(answer) - start >= max(_LOOP_COPIES * size, _LOOP_CHARS)
        # A word repeated is a loop; a long number ("1000000") or a table's rule ("|---|") is not.
        if looping and any(c.isalnum() for c in unit) and len(set(unit)) > 1 and (
                size >= _LOOP_WORD or not all(c.isalnum() for c in unit)):
            return answer[:start + size].rstrip()
    return None


def _quotes(turn: Sequence[Message], request: str) -> list[str]:
    """What a guided answer after a script's output may say: the lines of the output that share
    the most words with the user's `request` (up to three), and the output itself (its head, cut
    at a line, when long). Free, SmolLM2-135M copies an output badly: it repeats a list number to
    the cap, or writes the worked example's answer; held to quoting, it answers with the script's
    own figures, as an agent's tool that returns its result directly does. Empty without output."""
    commands = {call.id: str(call.arguments.get("command", "")) for message in turn
                for call in message.tool_calls if call.name == RUN}
    result = next((m for m in reversed(turn) if m.role == "tool" and m.tool_call_id in commands), None)
    if result is None:
        return []
    output, command = result.content, commands[result.tool_call_id or ""]
    match = _RUN_LINE.match(output)
    if match is None or not output[match.end():].strip():
        return []
    text = output[match.end():].strip()
    if len(text) > _QUOTE_CHARS:
        head = text[:_QUOTE_CHARS]
        text = head.rsplit("\n", 1)[0] if "\n" in head else head
    # The command's own words come back in its output ("File: orders.csv"): they say what was
    # asked, not which line answers it.
    arguments = split(command)[2:]
    lines = [line for line in dict.fromkeys(line.strip() for line in text.splitlines())
             if line and not any(argument in line for argument in arguments)]
    wanted = set(catalog.terms(request)) - set(catalog.terms(command))
    shared = [len(wanted & set(catalog.terms(line))) for line in lines]
    best = max(shared, default=0)
    pointed = [line for line, count in zip(lines, shared, strict=True) if best and count == best]
    return list(dict.fromkeys([*pointed[:_QUOTED_LINES], text]))


def _phrases(request: str) -> list[str]:
    """The quoted phrases of the user's message ("reverse \"the quick brown fox\""): each is one
    value."""
    return [next(filter(None, groups)) for groups in
            re.findall(r'"([^"\n]+)"|\u201c([^\u201d\n]+)\u201d', request)]


def _with_listed(described: Sequence[Described], usage: Usage, values: dict[str, str], output: str,
                 listed: list[str]) -> list[Described]:
    """`described` with the values an error `output` listed as the values of the placeholder it
    rejected (the one whose value it names; else the only one without listed values)."""
    by_name = {d.name: d for d in described}
    names = rejected(output, values)
    if not names:
        open_names = [n for n in usage.placeholders if not by_name.get(n, Described(n, "", ())).values]
        names = open_names[:1] if len(open_names) == 1 else []
    if not names:
        return list(described)
    target = names[0]
    item = by_name.get(target, Described(target, "", ()))
    notes = dict(zip(item.values, item.notes, strict=False))
    replaced = Described(target, item.said, tuple(listed), tuple(notes.get(v, "") for v in listed))
    return [replaced if d.name == target else d for d in described] + (
        [] if target in by_name else [replaced])


def _substitutions(results: Sequence[tuple[str, str]], invocations: Sequence[str]) -> list[str]:
    """The runs that put right the last of `results` by a value its error listed in place of
    the word it rejected (`write.substitutions`)."""
    command, output = results[-1]
    start = _start_in(command, invocations)
    if start is None:
        return []
    return substitutions(command, start, _output_of(output), {ran for ran, _ in results})


def _start_in(command: str, invocations: Sequence[str]) -> str | None:
    """The start of the skill's script `command` runs (the longest of `invocations` it holds)."""
    return max((start for start in invocations if f" {start} " in f" {command} "), key=len, default=None)


def _output_of(result: str) -> str:
    """A run's result without its first line (`exit code 1 after 0.12 s`)."""
    match = _RUN_LINE.match(result)
    return result[match.end():] if match else result


def _said_step(sentence: str, answer_tokens: int) -> Step:
    """The answer: exactly `sentence`."""
    schema = {"type": "object", "properties": {ANSWER_KEY: {"type": "string", "enum": [sentence]}},
              "required": [ANSWER_KEY], "additionalProperties": False}
    return Step(schema, max(answer_tokens, catalog.estimate_tokens(sentence) + _QUOTE_SLACK), False)


def _answer_step(quotes: list[str], answer_tokens: int) -> Step:
    """The answer: one of `quotes`, with the tokens the longest needs, or free without them."""
    if not quotes:
        return Step(reply_schema([], require_call=False), answer_tokens, False)
    schema = {"type": "object", "properties": {ANSWER_KEY: {"type": "string", "enum": quotes}},
              "required": [ANSWER_KEY], "additionalProperties": False}
    return Step(schema, max(answer_tokens, max(map(catalog.estimate_tokens, quotes)) + _QUOTE_SLACK), False)


def _turn_key(messages: Sequence[Message]) -> tuple[int, str]:
    """The current turn: where its user message is, and what it says."""
    index = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    return index, messages[index].content if index >= 0 else ""


def _query(messages: Sequence[Message]) -> str:
    """The current turn's message as the skills are matched to it: one that writes durations in
    words ("1 hour 20 minutes") speaks of durations, also as skills write them (`1h20m`)."""
    message = _turn_key(messages)[1]
    durations = compact_durations(message)
    return " ".join([message, *(["durations", *durations] if durations else [])])


def _current_turn(messages: Sequence[Message]) -> Sequence[Message]:
    last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    return messages[last_user + 1:]


def _progress(turn: Sequence[Message]) -> tuple[str | None, bool, bool]:
    """The skill this turn loaded (the last one), whether one of its scripts ran, and whether
    the last run failed."""
    pending: dict[str, tuple[str, dict[str, Any]]] = {}
    loaded: str | None = None
    ran = failed = False
    for message in turn:
        for call in message.tool_calls:
            pending[call.id] = (call.name, call.arguments)
        if message.role != "tool" or message.tool_call_id not in pending:
            continue
        name, arguments = pending[message.tool_call_id]
        ok = not message.content.startswith(("error:", "blocked", "denied"))
        if name == ACTIVATE and ok and isinstance(arguments.get("name"), str):
            loaded, ran, failed = arguments["name"], False, False
        elif name == RUN and arguments.get("skill") == loaded:
            match = _RUN_LINE.match(message.content)
            ran, failed = True, not (ok and match is not None and match.group(1) == "0")
    return loaded, ran, failed


def _activate_spec(names: list[str]) -> ToolSpec:
    return ToolSpec(ACTIVATE, "", {"type": "object", "properties": {
        "name": {"type": "string", "enum": names}}, "required": ["name"]})


def _run_spec(skill: str, start: str, usage: Usage | None, words: list[str],
              tried: Collection[str] = ()) -> ToolSpec | None:
    """`run_skill_script` of `skill` with the script `start` runs. With a usage line, the command
    is one of those that fill its placeholders (`VALUE FROM TO`) with distinct `words`, each with
    the words that fit it (`guided_args`): a tiny model given a free list of arguments repeats
    one, or swaps two; the commands in `tried` are left out (None when none is left). Otherwise
    (or when there would be too many of those) it is `start` and `words` as `free_pattern`
    allows them (no word holds a quote or a backslash, which would break the JSON string)."""
    command: dict[str, Any] = {"type": "string"}
    # A placeholder stands for a value: an option there (`md_toc.py --check`) leaves out the file.
    values = [word for word in words if not word.startswith("-")]
    filled = fill(usage, values, _MAX_COMMANDS) if usage is not None else None
    if filled:
        enum = [c for arguments in filled if (c := f"{start} {arguments}") not in tried]
        return _enum_spec(skill, enum) if enum else None
    pattern = free_pattern(start, words, tried)
    if pattern is None:
        return None
    command["pattern"] = pattern
    return ToolSpec(RUN, "", {"type": "object", "properties": {
        "skill": {"type": "string", "enum": [skill]}, "command": command,
    }, "required": ["skill", "command"]})


def _listed_run(spec: ToolSpec) -> bool:
    """Whether `spec` is a run of one of a list of commands (`_enum_spec`)."""
    return "enum" in spec.parameters["properties"].get("command", {})


def _enum_spec(skill: str, commands: Sequence[str]) -> ToolSpec:
    """`run_skill_script` of `skill` with one of `commands`."""
    return ToolSpec(RUN, "", {"type": "object", "properties": {
        "skill": {"type": "string", "enum": [skill]},
        "command": {"type": "string", "enum": list(commands)},
    }, "required": ["skill", "command"]})


def _commands(usage: Sequence[str], scripts: Sequence[str]) -> list[str]:
    """The commands in a SKILL.md's usage lines that start one of `scripts`: a line that is a
    command, or the `code` spans of a line of prose."""
    found: list[str] = []
    for line in usage:
        spans = re.findall(r"`([^`]+)`", line) or [line]
        if line.count("`") % 2:
            # The line's edges lost their backticks: it starts inside a code span ("python3
            # x.py A B` where A is ...") or ends inside one ("Usage: `python3 x.py A B").
            spans = [*re.findall(r"`([^`]+)`", "`" + line.lstrip()),
                     *re.findall(r"`([^`]+)`", line.rstrip() + "`")]
        for span in spans:
            # A terminal session's prompt (`$ python3 x.py 91`), or the label of a usage line in
            # prose (`Usage: python3 x.py TEXT`), is not part of the command.
            command = _PROMPT.sub("", span.strip())
            # A filter fed one file (`cat list.txt | x.py`) reads it from standard input: the
            # file is the value (`x.py < FILE`), whichever one the example pipes.
            piped = _PIPED.match(command)
            if piped and any(script in piped.group("rest") for script in scripts):
                named = piped.group("file")
                command = f"{piped.group('rest')} < {named if PLACEHOLDER.match(named) else 'FILE'}"
            if any(script in command for script in scripts) and command not in found:
                found.append(command)
    return found


def _subcommands(commands: Sequence[str], start: str) -> dict[str, list[str]]:
    """The subcommands of the lines that run `start` with one each (`morse.py encode TEXT`), and
    the usage after each (`["TEXT"]`); an example's figures stand for numbers (`gcd 24 36`:
    `["N", "N"]`), as an author who shows no usage line writes it."""
    found: dict[str, list[str]] = {}
    for command in commands:
        segment = command.rsplit("|", 1)[-1].strip()
        if not segment.startswith(start + " "):
            continue
        words = split(segment[len(start):])
        if len(words) < 2 or not re.fullmatch(r"[a-z][\w-]*", words[0]):
            continue
        if parse_usage(" ".join([start, *words[1:]]), start) is not None:
            found.setdefault(words[0], words[1:])
        elif all(_FIGURE.fullmatch(word) for word in words[1:]):
            found.setdefault(words[0], [_NUMBER_WORD] * (len(words) - 1))
        elif (rest := _figures_named(words[1:])) and parse_usage(" ".join([start, *rest]), start):
            found.setdefault(words[0], rest)
    return found


def _figures_named(words: Sequence[str]) -> list[str] | None:
    """An example's options with the figures after them as placeholders named for the options
    (`--salary 48000 [--hours 40]`: `--salary SALARY [--hours HOURS]`); None when a word is
    neither an option nor a figure after one."""
    found: list[str] = []
    for before, word in zip(["", *words], words, strict=False):
        bare_word, option = word.strip("[]"), before.strip("[]")
        if _FIGURE.fullmatch(bare_word) and option.startswith("--") and \
                PLACEHOLDER.match(name := re.sub(r"\W+", "_", option[2:].upper()).strip("_")):
            found.append(word.replace(bare_word, name))
        elif bare_word.startswith("--"):
            found.append(word)
        else:
            return None
    return found


def _fillable_subcommands(described: Sequence[Described], usage: Usage, commands: Sequence[str],
                          start: str, candidates: Sequence[str], request: str) -> list[Described]:
    """`described` with the subcommands a usage line was made of (`{to,from} ARGUMENT`) cut to
    those whose own placeholder the message has a value of the kind for: "to NUMBER" is not what
    "What number is MCMLXXXIV?" asks, as the message has no number."""
    found = _subcommands(commands, start)
    fillable = [sub for sub, rest in found.items()
                if not any(unfillable(word, candidates, request) for word in rest if PLACEHOLDER.match(word))]
    if not fillable or len(fillable) == len(found):
        return list(described)
    return [Described(d.name, d.said, tuple(v for v in d.values if v in fillable), d.notes)
            if d.name in dict(usage.choices) and set(d.values) == set(found) else d for d in described]


def _example_numbers(commands: Sequence[str], start: str, usage: Usage) -> set[str]:
    """The placeholders after an option that the skill's examples give a figure
    (`--salary 48000` for `--salary SALARY`): they take numbers."""
    after = after_option(usage)
    found: set[str] = set()
    for command in commands:
        segment = command.rsplit("|", 1)[-1].strip()
        if not segment.startswith(start + " ") or parse_usage(segment, start) is not None:
            continue
        words = [word.strip("[]") for word in split(segment[len(start):])]
        found |= {after[before] for before, word in itertools.pairwise(words)
                  if before in after and _FIGURE.fullmatch(word)}
    return found


def _within_subcommand(spec: ToolSpec, usage: Usage, found: dict[str, list[str]]) -> None:
    """When the fill holds the subcommand to one whose example shows its own options (`hourly
    --salary SALARY [--hours HOURS]`), the options of the others are left out and its own
    required ones given."""
    properties = spec.parameters["properties"]
    for name, values in usage.choices:
        enum = properties.get(name, {}).get("enum", [])
        if set(values) != set(found) or len(enum) != 1 or enum[0] not in found:
            continue
        own = found[enum[0]]
        required = {word for word in own if PLACEHOLDER.match(word)}
        mine = {word.strip("[]") for word in own}
        for other in usage.placeholders:
            held = properties.get(other, {}).get("enum")
            if other == name or held is None or "" not in held:
                continue
            if other not in mine:
                properties[other] = {"type": "string", "enum": [""]}
            elif other in required and len(held) > 1:
                properties[other] = {"type": "string", "enum": [v for v in held if v]}


def _option_groups(words: Sequence[str]) -> list[list[str]]:
    """The options of a usage's words, each with the placeholder after it, brackets dropped."""
    groups: list[list[str]] = []
    for word in (w.strip("[]") for w in words):
        if word.startswith("-") or not groups:
            groups.append([word])
        else:
            groups[-1].append(word)
    return groups


def _subcommand_usage(commands: Sequence[str], start: str) -> str | None:
    """One usage line for the lines that run `start` with a subcommand each
    (`morse.py encode TEXT`, `morse.py decode CODE`): `start {encode,decode} ARGUMENT`, the
    placeholder kept when they all name it alike; None without two such lines."""
    found = _subcommands(commands, start)
    if len(found) < 2:
        return None
    rests = list(found.values())
    rest = rests[0] if all(r == rests[0] for r in rests) else ["ARGUMENT"]
    if rest == ["ARGUMENT"] and all(set(r) == {_NUMBER_WORD} for r in rests):
        # `gcd 24 36`, `lcm 4 6 10`: one number or more.
        rest = [_NUMBER_WORD, f"[{_NUMBER_WORD}", "...]"]
    elif rest == ["ARGUMENT"] and all(r and r[0].startswith("--") for r in rests):
        # Each subcommand its own options (`hourly --salary N`, `annual --rate N`): each
        # option may be given.
        groups = [" ".join(group) for r in rests for group in _option_groups(r)]
        rest = [f"[{group}]" for group in dict.fromkeys(groups)]
    return " ".join([start, "{" + ",".join(found) + "}", *rest])


def _object_usage(commands: Sequence[str], start: str) -> str | None:
    """One usage line for the examples that run `start` with one JSON object each
    (`x.py '{"price": 2.5, "grams": 750}'`, `x.py '{"price": 1.2, "ml": 330}'`): each key's value
    a placeholder named for it, a number where the examples give figures (`"price": PRICE`), a
    string elsewhere (`"name": "NAME"`), in brackets when some example leaves the key out
    (`"grams": [GRAMS]`). None without such an example."""
    objects: list[dict[str, Any]] = []
    for command in commands:
        segment = command.rsplit("|", 1)[-1].strip()
        words = split(segment[len(start):]) if segment.startswith(start + " ") else []
        try:
            value = json.loads(words[0]) if len(words) == 1 else None
        except ValueError:
            continue
        if isinstance(value, dict) and value and all(
                isinstance(v, str | int | float) and not isinstance(v, bool) for v in value.values()):
            objects.append(value)
    keys = list(dict.fromkeys(key for found in objects for key in found))
    names = {key: _key_placeholder(key) for key in keys}
    if not objects or None in names.values() or len(set(names.values())) != len(keys):
        return None
    parts = []
    for key in keys:
        numbers = all(isinstance(found[key], int | float) for found in objects if key in found)
        name = str(names[key]) if numbers else f'"{names[key]}"'
        parts.append(f'"{key}": ' + (name if all(key in found for found in objects) else f"[{name}]"))
    return f"{start} {shlex.quote('{' + ', '.join(parts) + '}')}"


def _key_placeholder(key: str) -> str | None:
    """The placeholder for a JSON key's value: the key in capitals (`PRICE`, `NET_WEIGHT`)."""
    name = re.sub(r"[^A-Z0-9]+", "_", key.upper()).strip("_")
    if name and not PLACEHOLDER.match(name):
        name += "_VALUE"
    return name if PLACEHOLDER.match(name) else None


def _usage(commands: Sequence[str], start: str) -> Usage | None:
    """The first usage line of the script `start` runs among `commands`
    (`python3 scripts/convert.py VALUE FROM TO [TO ...]`); None without one."""
    return next((usage for command in commands if (usage := parse_usage(command, start))), None)


def _start(commands: Sequence[str], script: str) -> str:
    """How `script` is started: as one of `commands` starts it, else with the usual interpreter
    for its suffix."""
    # A heading's code span (`scripts/volume.py`) names the script; the command under it starts
    # it (`python3 scripts/volume.py`): the start with an interpreter wins.
    found = [prefix for command in commands if (prefix := _invocation(command, script)) is not None]
    start = max(found, key=lambda prefix: len(split(prefix)), default=None)
    if start is None:
        interpreter = _INTERPRETERS.get(PurePosixPath(script).suffix.lower())
        start = f"{interpreter} {script}" if interpreter else f"./{script}"
    return start


def _invocation(command: str, script: str) -> str | None:
    """The start of `command` up to `script` (its interpreter and path), from the last `|` on;
    None when the script is not in it or is preceded by more than an interpreter."""
    segment = command.rsplit("|", 1)[-1]
    try:
        words = shlex.split(segment)
    except ValueError:
        return None
    for index, word in enumerate(words):
        if word in (script, f"./{script}"):
            before = words[:index]
            if len(before) > 2 or any("/" in w or "=" in w or w.startswith("-") for w in before):
                return None
            return " ".join([*before, word])
    return None
