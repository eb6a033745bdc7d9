"""The commands besides `rm` that can take a skill away, each blocked when it would: moving a skill
folder or its SKILL.md (`mv`, `rename`), writing over a SKILL.md (`mv`, `ln`, `cp`, `install`,
`>`), emptying one (`truncate`), and the sweeping deleters (`find -delete`, `git clean`,
`rsync --delete`, `git rm`), and inline code that deletes, moves or empties something that is a skill.

A skill is a SKILL.md or a folder holding one a few levels down (`skillfolders`). What cannot be
told from the command line (a path only known when it runs) is left to the checks that ask.
"""

from __future__ import annotations

import fnmatch
import glob
import itertools
import os
import re
from collections.abc import Sequence
from pathlib import Path

from studio.policy.programs.call import LEFT_TO_USER, Call
from studio.policy.programs.paths import display, unfollowed
from studio.policy.programs.skillfolders import SKILL_FILES, skill_deleted
from studio.policy.shell.expand import Arg

MAX_MATCHES = 200

# What inline code calls to delete, move or empty files, in the usual interpreters' words.
_DELETING_CODE = re.compile(
    r"rmtree|rmSync|rmdirSync|unlinkSync|renameSync|truncateSync|rm_rf|rm_r\b|FileUtils"
    r"|\bunlink\b|\bremove\b|\brmdir\b|\bremovedirs\b|\brename\b|os\.replace|\bmove\b"
    r"|\btruncate\b|\bdelete\b|open\s*\([^)]*['\"](?:w|a|x|r\+)"
    r"|write_text|write_bytes|writeFile|appendFile|createWriteStream|File\.write|IO\.write"
    r"|\bcopy(?:file|2|tree)?\b|os\.open"
)
_STRING = re.compile(r"'([^'\\]*(?:\\.[^'\\]*)*)'|\"([^\"\\]*(?:\\.[^\"\\]*)*)\"")


def _places(call: Call, arg: Arg) -> list[Path]:
    """Where `arg` points, the last component not followed (a link is moved or deleted itself);
    for a glob, what it matches now (more than `MAX_MATCHES`: the folder it lists, so that a
    skill among them is not missed). Empty when the command line does not tell."""
    if not arg.known or not arg.text or arg.text == "-":
        return []
    cwd = call.cwd
    if cwd is None and not os.path.isabs(arg.glob or arg.text):
        return []
    if arg.glob is None:
        return [unfollowed(arg.text, cwd or Path("/"))]
    found = list(itertools.islice(glob.iglob(arg.glob, root_dir=cwd), MAX_MATCHES + 1))
    if len(found) > MAX_MATCHES:
        return [unfollowed(os.path.dirname(arg.glob) or ".", cwd or Path("/"))]
    return [unfollowed(match, cwd or Path("/")) for match in found]


def takes_skill(call: Call, arg: Arg, verb: str) -> bool:
    """Block when `arg` is a skill that `verb` (deletes, moves...) would take from its place."""
    for path in _places(call, arg):
        doomed = skill_deleted(path, True)
        if doomed is not None:
            call.block("destructive", f"{verb} `{arg.raw}`, taking the skill file {doomed} with "
                       f"it; {LEFT_TO_USER}")
            return True
    return False


def replaces_skill_file(call: Call, arg: Arg, verb: str) -> bool:
    """Block when `arg` is an existing SKILL.md that `verb` would write over or empty."""
    for path in _places(call, arg):
        if path.name in SKILL_FILES and path.is_file():
            call.block("destructive", f"{verb} the skill file {path}; change a skill with "
                       f"update_skill or in the editor ({LEFT_TO_USER})")
            return True
    return False


def find_spares_skill_files(expression: Sequence[Arg]) -> bool:
    """Whether a `find` expression can only ever match files that are not SKILL.md: a plain
    conjunction of tests with at least one `-name`/`-iname` pattern that SKILL.md fails."""
    texts = [a.text if a.known else None for a in expression]
    if None in texts or any(t in ("-o", "-or", "!", "-not", ",", "(", ")") for t in texts):
        return False
    return any(_excludes_skill_files(test, pattern or "")
               for test, pattern in itertools.pairwise(texts))


def _excludes_skill_files(test: str | None, pattern: str) -> bool:
    if test == "-name":
        return not any(fnmatch.fnmatchcase(name, pattern) for name in SKILL_FILES)
    return test == "-iname" and not fnmatch.fnmatchcase("skill.md", pattern.lower())


def find_deletes(call: Call, roots: Sequence[Arg], expression: Sequence[Arg]) -> None:
    """`find -delete` and `find -exec rm`: blocked under a root holding a skill, unless the
    expression cannot match a SKILL.md (then the folders it removes are empty ones)."""
    if find_spares_skill_files(expression):
        return
    for root in roots or [Arg(".", ".")]:
        takes_skill(call, root, "deletes what it finds under")


def git_clean(call: Call, paths: Sequence[Arg]) -> None:
    """`git clean` deletes what git does not track, which a new skill is until committed."""
    for path in paths or [Arg(".", ".")]:
        takes_skill(call, path, "may delete (what git does not track) under")


def rsync_deletes(call: Call, sources: Sequence[Arg], destination: Arg) -> None:
    texts = [a.text for a in call.args if a.known]
    if any(t == "--del" or t.startswith("--delete") for t in texts):
        takes_skill(call, destination, "may delete (with --delete) what is in")
    if "--remove-source-files" in texts:
        for source in sources:
            takes_skill(call, source, "deletes (with --remove-source-files)")


def inline_deletes(call: Call, code: str) -> None:
    """Inline code that can delete, move or empty files and names a skill: SKILL.md itself, or a
    string that is the path of a skill (its folder, or one holding skills)."""
    if _DELETING_CODE.search(code) is None:
        return
    if "skill.md" in code.lower():
        call.block("destructive", "runs inline code that deletes, moves or writes files and names "
                   f"SKILL.md; {LEFT_TO_USER}")
        return
    for single, double in _STRING.findall(code):
        literal = single or double
        if _path_like(call, literal) and takes_skill(
                call, Arg(literal, literal), "runs inline code that can delete"):
            return


def _path_like(call: Call, literal: str) -> bool:
    """Whether a string in code reads as a path: with a slash, `.` or `..`, or the name of
    something in the current folder (not every word in a program is a file)."""
    if not literal or "\n" in literal or len(literal) > 4096:
        return False
    if "/" in literal or literal in (".", ".."):
        return True
    return call.cwd is not None and os.path.lexists(call.cwd / literal)


def copies_over_skill(call: Call, sources: Sequence[Arg], target: Path, contents: bool) -> None:
    """Block a recursive copy that lands a folder's SKILL.md on an existing one: `cp -r x/. .`,
    `cp -rT x skills/pdf`, `rsync -a x/ .`. A folder source lands in `target` itself when
    `contents` (or its name ends in `/.`), or when `target` does not exist yet; otherwise in
    `target/NAME`."""
    cwd = call.cwd
    if cwd is None:
        return
    for source in sources:
        if not source.known or not source.text:
            continue
        folder = Path(os.path.realpath(os.path.join(cwd, source.text)))
        if not folder.is_dir():
            continue
        inside = (
            contents
            or source.text.endswith("/.")
            or (call.name == "rsync" and source.text.endswith("/"))
        )
        landing = target if inside or not target.exists() else target / folder.name
        found = skill_deleted(folder, True)
        if found is None or not landing.is_dir():
            continue
        replaced = landing / found.relative_to(folder)
        if replaced.is_file():
            where = display(landing, call.context.workspace, call.context.home)
            call.block("destructive", f"copies `{source.raw}` into `{where}`, writing over the skill "
                       f"file {replaced}; {LEFT_TO_USER}")
            return
