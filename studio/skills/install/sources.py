"""Where `studio install` takes skills from, written as the skills CLI reads them:

    owner/repo                      a GitHub repository (shorthand)
    owner/repo/path/to/skill        one folder of it
    https://github.com/o/r/tree/REF/path
    https://host/any.git, git@host:o/r.git, ssh://..., file:///path/repo
    ./folder, /abs/folder, ~/folder  a folder on this machine (a git repository or not)
    https://host/pack.zip|.tar.gz   an archive (any other http(s) URL not ending in .git too)
    https://host/.well-known/agent-skills/index.json   a site's published skills (also
                                    `.well-known/skills/index.json`, the skills CLI's older path)
    ...#REF                         a branch, tag or commit of a git source (not `@REF`, as
                                    `gh skill` writes it: the skills CLI reads owner/repo@NAME as
                                    one skill of the repository, so `@` would mean two things)

A git source is cloned shallowly with the `git` binary (no credentials asked: a private
repository needs git's own set-up), within a time limit.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from studio.errors import StudioError
from studio.skills.files import load_skill, skill_file_in
from studio.skills.install.download import (
    MAX_DOWNLOAD,
    SCRATCH_PREFIX,
    InstallError,
    InstallPlan,
    Progress,
    download,
    found_skills,
    open_lock,
    prepare_install,
)
from studio.skills.install.fromserver import Consent, prepare_served
from studio.skills.install.gitfetch import GIT_TIMEOUT, GitError, clone
from studio.skills.install.gitvalues import UnsafeValue, check_ref, check_remote, path_problem
from studio.skills.served import is_served

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")
# GitHub's owners and repositories: letters, digits, '-' (and '_', '.' in a repository).
_SHORTHAND = re.compile(r"([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9_.-]+)((?:/[^/#]+)*)/?")
_GITHUB = re.compile(r"https?://github\.com/([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9_.-]+?)"
                     r"(?:\.git)?(?:/tree/([^/]+)(/.*)?)?/?")
_AT_REF = re.compile(r"([A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9_.-]+)@([^@/#:]+)")
_WELL_KNOWN = ("/.well-known/agent-skills/index.json", "/.well-known/skills/index.json")
_INDEX_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")
MAX_INDEX_FILES = 2000


class SourceError(StudioError):
    """The source cannot be read; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Source:
    """A parsed source.

    Attributes:
        kind: github, git, local or archive (see `lockfile.InstallRecord.source_type`).
        location: what to clone, copy or download (a URL or an absolute path).
        label: what the lock file records as its `source` (`owner/repo` for GitHub, as the
            skills CLI writes it).
        subpath: the folder inside it to install from, if one was named.
        ref: the branch, tag or commit asked for.
    """

    kind: str
    location: str
    label: str
    subpath: str | None = None
    ref: str | None = None

    @property
    def is_git(self) -> bool:
        return self.kind in ("github", "git") or (
            self.kind == "local" and (Path(self.location) / ".git").exists())


def parse_source(text: str) -> Source:
    """What `text` names; raises SourceError for what is none of the forms above, or holds a
    value `gitvalues` refuses (a ref, a URL or a path git would read as something else)."""
    text = text.strip()
    if not text:
        raise SourceError("no source given")
    lowered = text.lower().split("?", 1)[0]
    if lowered.startswith(("http://", "https://")) and lowered.endswith(ARCHIVE_SUFFIXES):
        return Source("archive", text, text)
    body, _, ref = text.partition("#")
    is_web = lowered.startswith(("http://", "https://"))
    if is_web and lowered.endswith(_WELL_KNOWN):
        return Source("well-known", text, text)
    if is_web and not _GITHUB.fullmatch(body) and not body.endswith(".git"):
        return Source("archive", text, text)  # a download link without a telling suffix
    try:
        source = _git_source(text, body, ref or None)
        if source.ref is not None:
            check_ref(source.ref)
        if source.subpath is not None:
            _check_subpath(source.subpath)
        if source.kind != "local":
            check_remote(source.location)
    except UnsafeValue as exc:
        raise SourceError(str(exc)) from None
    return source


def _git_source(text: str, body: str, ref: str | None) -> Source:
    if body.startswith(("/", "./", "../", "~")) or body in (".", ".."):
        path = Path(body).expanduser().resolve()
        problem = path_problem(str(path))
        if problem is not None:
            raise UnsafeValue(f"the folder {str(path)!r} {problem}")
        return Source("local", str(path), str(path), None, ref)
    github = _GITHUB.fullmatch(body)
    if github:
        owner, repo, tree_ref, subpath = github.groups()
        return Source("github", f"https://github.com/{owner}/{repo}.git", f"{owner}/{repo}",
                      subpath.strip("/") if subpath else None, ref or tree_ref)
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*::", body) or body.startswith("-") or body.startswith(
            ("http://", "https://", "ssh://", "git://", "file://")) or (
            "@" in body and ":" in body):
        return Source("git", body, body, None, ref)
    shorthand = _SHORTHAND.fullmatch(body)
    if shorthand and ":" not in body:
        owner, repo, rest = shorthand.groups()
        return Source("github", f"https://github.com/{owner}/{repo}.git", f"{owner}/{repo}",
                      rest.strip("/") or None, ref)
    at = _AT_REF.fullmatch(body)
    if at:
        # `gh skill` reads owner/repo@v1 as a tag, the skills CLI as a skill named v1: '#' is
        # what both this studio and the skills CLI read as a ref, so '@' stays unread.
        raise SourceError(
            f"{text!r}: write a branch, tag or commit after '#' ({at.group(1)}#{at.group(2)}); "
            "'@' is not read as one, since the skills CLI reads owner/repo@NAME as the skill NAME")
    raise SourceError(
        f"{text!r} is not a source studio install knows: give owner/repo, a git URL, a folder "
        "(./path), or the URL of a .zip or .tar.gz")


def _check_subpath(subpath: str) -> None:
    """A folder inside the source: relative, each part a printable name (no `..`)."""
    parts = subpath.split("/")
    if any(part in ("", ".", "..") or not part.isprintable() or "\\" in part for part in parts):
        raise UnsafeValue(f"the folder {subpath!r} is not a plain path inside the source")


def prepare_source(text: str, into: Path, *, max_bytes: int = MAX_DOWNLOAD,
                   progress: Progress | None = None, timeout: float = GIT_TIMEOUT,
                   consent: Consent | None = None) -> InstallPlan:
    """Fetch `text` (any form above) into a scratch folder inside `into`, and find and validate
    its skills, as `prepare_install` does for an archive. Raises InstallError (having removed
    the scratch folder) when any step fails; nothing is written outside the scratch folder.
    An MCP server (`mcp+...`) has its skills consented to with `consent` (None: no one to ask,
    so only skills agreed to before are installed) and verified (`prepare_served`)."""
    if is_served(text):
        return prepare_served(text, into, consent)
    try:
        source = parse_source(text)
    except SourceError as exc:
        raise InstallError(str(exc)) from None
    if source.kind == "archive":
        plan = prepare_install(source.location, into, max_bytes=max_bytes, progress=progress)
        plan.source = source.label
        return plan
    open_lock(into)
    try:
        into.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=into))
    except OSError as exc:
        raise InstallError(f"cannot write to {into}: {exc.strerror or exc}") from None
    plan = InstallPlan(text, into, "", scratch, source_type=source.kind, source=source.label,
                       ref=source.ref)
    try:
        fetched = scratch / "source" / _folder_name(source)
        fetched.parent.mkdir()
        if source.kind == "well-known":
            fetch_well_known(source.location, fetched, max_bytes, progress)
        elif source.is_git and (source.kind != "local" or source.ref):
            plan.commit = clone(source.location, source.ref, fetched, timeout)
            shutil.rmtree(fetched / ".git")
        elif Path(source.location).is_dir():
            shutil.copytree(source.location, fetched, symlinks=True,
                            ignore=shutil.ignore_patterns(".git", "node_modules"))
        else:
            raise SourceError(f"{source.location} is not a folder")
        _refuse_links_out(fetched)
        base = fetched
        if source.subpath:
            base = fetched / source.subpath
            if ".." in Path(source.subpath).parts or not base.is_dir():
                raise SourceError(f"{source.label} has no folder {source.subpath!r}")
        base = _named_after_its_skill(base, scratch)
        plan.skills = found_skills(base, into)
    except (SourceError, GitError) as exc:
        plan.discard()
        raise InstallError(f"{text}: {exc}") from None
    except OSError as exc:
        plan.discard()
        raise InstallError(f"{text}: cannot copy it: {exc.strerror or exc}") from None
    except BaseException:
        plan.discard()
        raise
    if not plan.skills:
        plan.discard()
        raise InstallError(f"{text} holds no skill (no folder with a SKILL.md)")
    return plan


def _refuse_links_out(fetched: Path) -> None:
    """A repository or folder may hold links (git keeps them): one that leads out of what was
    fetched would put a path to the user's own files (`~/.ssh/id_rsa`) into the library. An
    archive with any link is refused; here links inside the source are kept and any other is
    refused, naming it."""
    top = fetched.resolve()
    for folder, names, files in os.walk(fetched):
        for name in (*names, *files):
            path = Path(folder) / name
            if path.is_symlink() and not path.resolve().is_relative_to(top):
                raise SourceError(f"{path.relative_to(fetched)} is a link to "
                                  f"{os.readlink(path)}, outside the source; nothing was installed")


def _folder_name(source: Source) -> str:
    """The folder a source is fetched into: its repository's or folder's name."""
    last = source.location.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    last = last.removesuffix(".git")
    return last if last and not last.startswith(".") else "source"


def _named_after_its_skill(base: Path, scratch: Path) -> Path:
    """A source that is itself one skill (SKILL.md at its top) is installed under its skill's
    name, as the skills CLI does, whatever its repository or folder is called."""
    if skill_file_in(os.listdir(base)) is None:
        return base
    name = load_skill(base).name
    if not name or "/" in name or "\\" in name or name.startswith(".") or name == base.name:
        return base
    named = scratch / "named"
    named.mkdir()
    return Path(shutil.move(base, named / name)).parent


def fetch_well_known(index_url: str, into: Path, max_bytes: int,
                     progress: Progress | None = None) -> None:
    """Download the skills a site's `index.json` lists (`{"skills": [{"name", "description",
    "files": [...]}]}`, each file a path or, in the discovery RFC 0.2.0, `{"path", "digest"}`
    checked against its sha256, at `<index folder>/<name>/<file>`) into `into/<name>/`,
    within `max_bytes` in all. Raises SourceError for an index it cannot use, naming the entry."""
    into.mkdir()
    index = into / ".index.json"
    download(index_url, index, max_bytes)
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceError(f"{index_url} is not a JSON skills index: {exc}") from None
    finally:
        index.unlink()
    entries = data.get("skills") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise SourceError(f"{index_url} has no \"skills\" list")
    base = index_url.rsplit("/", 1)[0]
    budget = max_bytes
    count = 0
    for position, entry in enumerate(entries):
        name = entry.get("name") if isinstance(entry, dict) else None
        files = entry.get("files") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not _INDEX_NAME.fullmatch(name) or not isinstance(files, list):
            raise SourceError(f"{index_url}: skill {position + 1} needs a lowercase \"name\" and a "
                              "\"files\" list")
        for listed in files:
            # The discovery RFC 0.2.0 lists {"path", "digest"}; 0.1.0 and the skills CLI, paths.
            file = listed.get("path") if isinstance(listed, dict) else listed
            digest = listed.get("digest") if isinstance(listed, dict) else None
            if not isinstance(file, str):
                file = ""
            why = _index_path_problem(file)
            if why is not None:
                raise SourceError(f"{index_url}: {name} lists the file {file!r}, which {why}; "
                                  "nothing was installed")
            parts = PurePosixPath(file).parts
            count += 1
            if count > MAX_INDEX_FILES:
                raise SourceError(f"{index_url} lists more than {MAX_INDEX_FILES} files")
            target = into / name / Path(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            got = download(f"{base}/{name}/{file}", target, budget, progress)
            if isinstance(digest, str) and digest.removeprefix("sha256:").lower() != got:
                raise SourceError(f"{index_url}: {name}/{file} does not match the digest the index "
                                  "gives for it (changed or damaged on the way); nothing was installed")
            budget -= target.stat().st_size


def _index_path_problem(file: str) -> str | None:
    """Why a file an index lists cannot be written into its skill (None: it can): only a
    relative path of printable names, none of them `..`, and no `.git` anywhere (a repository's
    config and hooks run commands when git is used in the skill's folder later)."""
    parts = file.split("/")
    if not file or file.startswith("/") or "\\" in file:
        return "is not a relative path inside the skill"
    if any(not part.isprintable() for part in parts):
        return "holds a control or invisible character"
    if ".." in parts or not PurePosixPath(file).parts:
        return "leads out of the skill (a '..' part) or names no file"
    if any(part.casefold() == ".git" for part in parts):
        return "is inside a .git folder, which is never installed"
    return None
