"""What a value must look like before it goes on a git command line.

A source's `#ref`, its URL, a lock file's fields and a skill index's answer are data, written by
whoever made the link, the project or the site. Git reads an operand that starts with `-` as an
option (`--upload-pack=CMD` runs CMD), a URL of the form `ext::CMD` as a command to run, and an ssh
host of the form `-oProxyCommand=CMD` as an option to ssh. So each value is checked against what is
known to be safe, and anything else is refused with the reason:

- a ref follows git's own rules for ref names (`git check-ref-format`), made stricter: ASCII
  letters, digits and `- . _ / + = , @ ! # % &` only, beginning with a letter, a digit, `_` or `@`;
- a commit is 7 to 64 hexadecimal digits; one a lock file records is a whole object id (40
  digits, or 64 in a SHA-256 repository), since an abbreviation may name another commit later;
- a remote is an `https://`, `http://`, `ssh://`, `git://` or `file://` URL, an scp-like
  `user@host:path`, or an absolute path on this machine; hosts and users begin with a letter or a
  digit, and every character is one a URL may hold (a path on this machine: any printable one).

Every command we build also puts `--` before its operands; these checks are what make the values
themselves safe, and what give the user a message naming the value and why it was refused.
"""

from __future__ import annotations

import ipaddress
import re
import string
from urllib.parse import urlsplit

from studio.errors import StudioError

MAX_REF = 255
MAX_URL = 4096
_REF_CHARS = frozenset(string.ascii_letters + string.digits + "-._/+=,@!#%&")
_REF_FIRST = frozenset(string.ascii_letters + string.digits + "_@")
_REF_ALLOWED = "letters, digits and - . _ / + = , @ ! # % &"
_COMMIT = re.compile(r"[0-9a-f]{7,64}")
_FULL_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
# RFC 3986's unreserved and reserved characters and `%`: a URL holds nothing else.
_URL_CHARS = frozenset(string.ascii_letters + string.digits + "-._~:/?#[]@!$&'()*+,;=%")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
_USER = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}")
_SCP = re.compile(r"(?:(?P<user>[^@/:]*)@)?(?P<host>[^@/:]+|\[[^\]/]*\]):(?P<path>.*)")
# Each scheme we fetch from, and the name git's GIT_ALLOW_PROTOCOL gives it.
PROTOCOLS = {"https": "https", "http": "http", "ssh": "ssh", "git": "git", "file": "file"}
SCHEMES_TEXT = "https://, http://, ssh://, git:// or file:// URLs, user@host:path, or a folder"


class UnsafeValue(ValueError, StudioError):
    """A value is not one a git command line may take; the message says why."""


def ref_problem(ref: str) -> str | None:
    """Why `ref` is not a ref studio hands to git (None: it is one)."""
    if not ref:
        return "is empty"
    if len(ref) > MAX_REF:
        return f"is longer than {MAX_REF} characters"
    if ref.startswith("-"):
        return "starts with '-', so git would read it as an option"
    strange = next((char for char in ref if char not in _REF_CHARS), None)
    if strange is not None:
        return f"holds {strange!r}; a ref may hold only {_REF_ALLOWED}"
    if ref[0] not in _REF_FIRST:
        return f"starts with {ref[0]!r}; a ref starts with a letter, a digit, '_' or '@'"
    if ref == "@":
        return "is '@', which git reads as HEAD"
    if ".." in ref:
        return "holds '..'"
    if "//" in ref or ref.endswith(("/", ".")):
        return "has an empty part or ends with '/' or '.'"
    for part in ref.split("/"):
        if part.startswith(".") or part.endswith(".lock"):
            return f"has the part {part!r}; no part of a ref starts with '.' or ends with '.lock'"
    return None


def check_ref(ref: str) -> str:
    """`ref`, when it is a ref studio hands to git; raises UnsafeValue otherwise."""
    problem = ref_problem(ref)
    if problem is not None:
        raise UnsafeValue(f"the ref {ref!r} {problem}")
    return ref


def is_commit(text: str) -> bool:
    """Whether `text` is a commit id, whole or abbreviated (7 to 64 lowercase hex digits)."""
    return _COMMIT.fullmatch(text) is not None


def commit_problem(text: object) -> str | None:
    """Why `text` is not a whole commit id as a lock file records it (None: it is one)."""
    if not isinstance(text, str):
        return "is not a string"
    if _FULL_COMMIT.fullmatch(text) is None:
        return "is not a whole commit id (40 or 64 lowercase hexadecimal digits)"
    return None


def check_remote(remote: str) -> str:
    """The protocol (its name in GIT_ALLOW_PROTOCOL) of `remote`, a URL or path to fetch with
    git; raises UnsafeValue, naming it and saying why, for anything but the forms above."""
    if not remote:
        raise _refused(remote, "is empty")
    if len(remote) > MAX_URL:
        raise _refused(remote, f"is longer than {MAX_URL} characters")
    if remote.startswith("-"):
        raise _refused(remote, "starts with '-', so git would read it as an option")
    if remote.startswith("/"):
        _check_local_path(remote)
        return "file"
    transport = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)::", remote)
    if transport:
        name = transport.group(1)
        raise _refused(remote, f"names git's {name!r} transport ({name}::), which can run "
                       f"commands; give {SCHEMES_TEXT}")
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", remote)
    if scheme is None:
        return _check_scp(remote)
    name = scheme.group(1).lower()
    if name not in PROTOCOLS:
        raise _refused(remote, f"uses {name}://; give {SCHEMES_TEXT}")
    if name == "file":
        return _check_file_url(remote)
    try:
        parts = urlsplit(remote)
        parts.port  # noqa: B018 - reading it checks that it is a number
    except ValueError as exc:
        raise _refused(remote, f"is not a URL: {exc}") from None
    _check_host(remote, parts.hostname or "")
    if name == "ssh" and parts.username is not None:
        _check_user(remote, parts.username)
    _check_url_chars(remote, remote)
    return PROTOCOLS[name]


def _refused(remote: str, why: str) -> UnsafeValue:
    return UnsafeValue(f"the git source {remote!r} {why}")


def _check_scp(remote: str) -> str:
    scp = _SCP.fullmatch(remote)
    if scp is None:
        raise _refused(remote, f"is not a git URL; give {SCHEMES_TEXT}")
    user, host, path = scp.group("user"), scp.group("host"), scp.group("path")
    if user is not None:
        _check_user(remote, user)
    _check_host(remote, host[1:-1] if host.startswith("[") else host)
    if not path or path.startswith("-"):
        raise _refused(remote, "has an empty path or one that starts with '-'")
    _check_url_chars(remote, path)
    return "ssh"


def _check_file_url(remote: str) -> str:
    host, slash, _path = remote.split("://", 1)[1].partition("/")
    if host not in ("", "localhost") or not slash:
        raise _refused(remote, "is a file:// URL naming another machine; give file:///path")
    _check_local_path(remote)
    return "file"


def _check_local_path(remote: str) -> None:
    problem = _local_path_problem(remote)
    if problem is not None:
        raise _refused(remote, problem)


def _check_url_chars(remote: str, text: str) -> None:
    strange = next((char for char in text if char not in _URL_CHARS), None)
    if strange is not None:
        raise _refused(remote, f"holds {strange!r}, which a URL may not hold (write it as %XX)")


def _check_host(remote: str, host: str) -> None:
    if not _is_host(host):
        raise _refused(remote, f"has the host {host!r}; a host starts with a letter or a digit")


def _check_user(remote: str, user: str) -> None:
    if not _USER.fullmatch(user):
        raise _refused(remote, f"has the user {user!r}; a user name starts with a letter, a "
                       "digit or '_'")


def _local_path_problem(path: str) -> str | None:
    strange = next((char for char in path if not char.isprintable()), None)
    if strange is not None:
        return f"holds the control or invisible character {strange!r}"
    return None


def path_problem(path: str) -> str | None:
    """Why the path of a folder on this machine cannot be a source (None: it can)."""
    if not path.startswith("/"):
        return "is not an absolute path"
    return _local_path_problem(path)


def _is_host(host: str) -> bool:
    if _HOST.fullmatch(host):
        return True
    try:
        ipaddress.IPv6Address(host)
    except ValueError:
        return False
    return True
