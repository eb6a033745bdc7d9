"""A lock file entry, checked before anything is done with it.

`skills-lock.json` comes with a project, so it is written by whoever wrote the project: it is
untrusted input, like a downloaded archive. Opening a hostile project and running `studio update`
must fetch only what a user could have typed, and write and remove only inside the skill folder.
So every field an update, a listing or a removal uses is checked first, and an entry with a field
that fails is refused whole, with a message naming the entry and the field:

- the entry's name is one folder name (printable, no `/` or `\\`, not starting with `.` or `-`);
- `source`, and our `studio.url`, read as a source `studio install` accepts (`sources.parse_source`:
  the URL, the path and the `#ref` each checked by `gitvalues`);
- `ref` is a ref by `gitvalues.ref_problem`, and our `studio.commit` a whole commit id
  (`gitvalues.commit_problem`): `studio sync` hands it to git;
- our `studio.files` maps relative paths to sha256 digests, and `studio.pinned` is true or false;
- `studio.clients` names clients studio knows, and `studio.mode` is `link` or `copy`.
"""

from __future__ import annotations

import re

from studio.skills.install.gitvalues import commit_problem, ref_problem
from studio.skills.install.lockfile import LOCK_FILE, InstallRecord
from studio.skills.install.placement import CLIENTS
from studio.skills.install.sources import SourceError, parse_source

MAX_NAME = 255
_SHA256 = re.compile(r"[0-9a-f]{64}")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be an installed skill's folder name (None: it can be)."""
    if not name or len(name) > MAX_NAME:
        return f"is empty or longer than {MAX_NAME} characters"
    if not name.isprintable():
        return "holds a control or invisible character"
    if "/" in name or "\\" in name or name in (".", ".."):
        return "is not one folder name"
    if name.startswith((".", "-")):
        return "starts with '.' or '-'"
    return None


def entry_problem(record: InstallRecord) -> str | None:
    """Why `record` must not be used, naming its field and value (None: it may be)."""
    problem = name_problem(record.name)
    if problem is not None:
        return f"its name {problem}"
    if record.ref is not None:
        problem = ref_problem(record.ref)
        if problem is not None:
            return f"\"ref\" {record.ref!r} {problem}"
    commit = record.studio.get("commit")
    if commit is not None and commit != "":
        problem = commit_problem(commit)
        if problem is not None:
            return f"\"studio.commit\" {commit!r} {problem}"
    problem = _files_problem(record.studio.get("files"))
    if problem is not None:
        return f"\"studio.files\" {problem}"
    if record.studio.get("pinned") not in (None, True, False):
        return "\"studio.pinned\" is neither true nor false"
    for field, value in (("source", record.source), ("studio.url", record.studio.get("url"))):
        if value is None or (field == "studio.url" and value == ""):
            continue
        if not isinstance(value, str):
            return f"\"{field}\" is not a string"
        try:
            parse_source(value)
        except SourceError as exc:
            return f"\"{field}\": {exc}"
    clients = record.studio.get("clients")
    if clients is not None and (not isinstance(clients, list)
                                or any(not isinstance(client, str) or client not in CLIENTS
                                       for client in clients)):
        return f"\"studio.clients\" {clients!r} is not a list of clients studio knows"
    mode = record.studio.get("mode")
    if mode is not None and mode not in ("link", "copy"):
        return f"\"studio.mode\" {mode!r} is neither \"link\" nor \"copy\""
    return None


def _files_problem(files: object) -> str | None:
    if files is None:
        return None
    if not isinstance(files, dict):
        return "is not an object"
    for path, digest in files.items():
        parts = path.split("/")
        if (not path or path.startswith("/") or "\\" in path or not path.isprintable()
                or any(part in ("", ".", "..") for part in parts)):
            return f"lists {path!r}, which is not a plain relative path"
        if not isinstance(digest, str) or _SHA256.fullmatch(digest) is None:
            return f"gives {path!r} the digest {digest!r}, which is not a sha256"
    return None


def entry_refusal(record: InstallRecord) -> str | None:
    """The message that refuses `record` (None: it may be used)."""
    problem = entry_problem(record)
    if problem is None:
        return None
    return (f"{LOCK_FILE}: the entry {record.name!r} was refused: {problem}. It was not used; "
            "fix or remove the entry if you trust this project")
