"""Where a path argument really points, and what kind of place that is: inside the workspace or
outside, a device, a credential file, a dotfile, a URL or a remote host."""

from __future__ import annotations

import itertools
import os
import re
import stat
from pathlib import Path, PurePosixPath

from studio.policy.shell.budget import FILE_READ, tick


def words(text: str) -> frozenset[str]:
    """A table of names written as one space-separated string."""
    return frozenset(text.split())


HARMLESS_DEVICES = words(
    "/dev/null /dev/zero /dev/random /dev/urandom /dev/full /dev/tty /dev/stdin /dev/stdout /dev/stderr"
)
_FD_DEVICE = re.compile(r"^/(dev|proc/self)/fd/\d+$")
_NETWORK_DEVICE = re.compile(r"^/dev/(tcp|udp)/")
_DISK_DEVICE = re.compile(
    r"^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|loop\d|md\d|dm-\d|mapper/"
    r"|mem$|kmem$|port$)"
)
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_REMOTE = re.compile(r"^(?:[A-Za-z0-9._%+-]+@)?[A-Za-z0-9][A-Za-z0-9.-]*:(?!//)")

_SECRET_FILES = {
    ".netrc": "login passwords (.netrc)",
    "_netrc": "login passwords (_netrc)",
    ".pgpass": "database passwords (.pgpass)",
    ".git-credentials": "git passwords (.git-credentials)",
    ".npmrc": "an npm token file (.npmrc)",
    ".pypirc": "a PyPI token file (.pypirc)",
    ".vault-token": "a Vault token",
    ".envrc": "an environment file that usually holds secrets (.envrc)",
    "credentials": "a credentials file",
    "credentials.json": "a credentials file",
    "client_secret.json": "an OAuth client secret",
    "secrets.json": "a secrets file",
    "secrets.yaml": "a secrets file",
    "secrets.yml": "a secrets file",
}
_SECRET_SUFFIXES = (".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".kdbx")
_SSH_KEYS = re.compile(r"^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$")
_SECRET_DIRS = {
    ".ssh": "SSH keys",
    ".gnupg": "GnuPG keys",
    ".aws": "AWS credentials",
    ".azure": "Azure credentials",
    ".password-store": "the password store",
    ".docker": "Docker registry credentials",
    ".kube": "Kubernetes credentials",
}
# Folders that hold nothing but secrets: reading one whole (cp -r, tar, ls) counts as reading them.
_SECRET_FOLDERS = frozenset({".ssh", ".gnupg", ".aws", ".password-store", ".azure"})
_SECRET_CONFIG = {
    ("gcloud",): "Google Cloud credentials",
    ("gh", "hosts.yml"): "the GitHub CLI token",
}
_SYSTEM_SECRETS = {
    "/etc/shadow": "the system password hashes (/etc/shadow)",
    "/etc/gshadow": "the system group password hashes (/etc/gshadow)",
    "/etc/master.passwd": "the system password hashes (/etc/master.passwd)",
    "/etc/sudoers": "the sudo rules (/etc/sudoers)",
    "/etc/security/opasswd": "old system passwords",
}
_ENV_TEMPLATES = (".example", ".sample", ".template", ".dist", ".defaults")


def lexical(text: str, cwd: Path) -> str:
    """The absolute path `text` names, `..` removed without following links."""
    return os.path.normpath(text if os.path.isabs(text) else os.path.join(cwd, text))


def resolve(text: str, cwd: Path) -> Path:
    """The absolute path `text` reaches from `cwd`, following the links that exist.

    As the kernel does: each component's link is followed before a `..` after it is applied, so
    `x/link-to-etc/../shadow` is `/shadow`'s sibling of `/etc`, not `x/shadow`. (`lexical` first
    and `realpath` after would read `link-to-etc/..` as `x`, a different file.)"""
    return Path(os.path.realpath(text if os.path.isabs(text) else os.path.join(cwd, text)))


def unfollowed(text: str, cwd: Path) -> Path:
    """Where `text` points with its last component not followed (what `rm` or `mv` act on): the
    folder it is in resolved as the kernel resolves it, then the name itself."""
    joined = text if os.path.isabs(text) else os.path.join(cwd, text)
    parent, name = os.path.split(joined.rstrip("/") or "/")
    if name in ("", ".", ".."):
        return Path(os.path.realpath(joined))
    return Path(os.path.realpath(parent or "/")) / name


def is_inside(path: Path, folder: Path) -> bool:
    return path == folder or path.is_relative_to(folder)


def hard_links(path: Path) -> int:
    """How many names a regular file has (1 for most); 0 for anything else or what cannot be
    looked at. A file with more than one may have the others outside the workspace: writing it
    writes there, and reading it reads what lies there (`ln ~/.ssh/id_rsa notes.txt`)."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return 0
    return status.st_nlink if stat.S_ISREG(status.st_mode) else 0


# Secret files a hard link inside the workspace may share its content with, besides those in
# the secret folders (`~/.ssh`, `~/.aws`...), which are listed one level down.
_LINKED_SECRETS = (
    ".netrc", ".pgpass", ".git-credentials", ".npmrc", ".pypirc", ".vault-token",
    ".config/gh/hosts.yml",
)
_MAX_SECRET_ENTRIES = 64


def linked_credential(path: Path, home: Path) -> str | None:
    """What secret `path` is another name of, when it is a hard link to a credential file the
    policy knows (`ln ~/.ssh/id_rsa notes.txt`); None when it is not one of them."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    identity = (status.st_dev, status.st_ino)
    candidates = [Path(p) for p in _SYSTEM_SECRETS] + [home / name for name in _LINKED_SECRETS]
    for folder in _SECRET_DIRS:
        try:
            with os.scandir(home / folder) as entries:
                listed = itertools.islice(entries, _MAX_SECRET_ENTRIES)
                candidates.extend(Path(entry.path) for entry in listed)
        except OSError:
            continue
    for candidate in candidates:
        try:
            other = os.stat(candidate)
        except (OSError, ValueError):
            continue
        if (other.st_dev, other.st_ino) == identity:
            return credential(candidate) or f"the secret file {candidate}"
    return None


def harmless_device(path: str) -> bool:
    return path in HARMLESS_DEVICES or _FD_DEVICE.match(path) is not None


def network_device(path: str) -> bool:
    return _NETWORK_DEVICE.match(path) is not None


def disk_device(path: str) -> bool:
    return _DISK_DEVICE.match(path) is not None


def is_url(text: str) -> bool:
    return _URL.match(text) is not None


def is_remote(text: str) -> bool:
    """`host:path` or `user@host:path` as scp and rsync take them (a URL counts too)."""
    if is_url(text) or "::" in text:
        return True
    return _REMOTE.match(text) is not None and not text.startswith(("/", ".", "~"))


def credential(path: PurePosixPath | Path) -> str | None:
    """What secret `path` holds, or None when it does not look like one."""
    text = str(path)
    if text in _SYSTEM_SECRETS:
        return _SYSTEM_SECRETS[text]
    if text.startswith("/etc/sudoers.d/"):
        return "the sudo rules (/etc/sudoers.d)"
    if re.fullmatch(r"/proc/[^/]+/environ", text):
        return "a process's environment, which may hold secrets"
    parts = path.parts
    name = path.name
    lowered = name.lower()
    if name in _SECRET_FOLDERS:
        return _SECRET_DIRS[name]
    for index, part in enumerate(parts[:-1]):
        if part in _SECRET_DIRS and not _harmless_in_secret_dir(part, parts[index + 1 :]):
            return _SECRET_DIRS[part]
        if part == ".config":
            rest = tuple(parts[index + 1 :])
            for prefix, what in _SECRET_CONFIG.items():
                if rest[: len(prefix)] == prefix:
                    return what
    if name.startswith("ssh_host_") and name.endswith("_key"):
        return f"an SSH host key ({name})"
    if _SSH_KEYS.match(name):
        return f"an SSH private key ({name})"
    if lowered == ".env" or (lowered.startswith(".env.") and not lowered.endswith(_ENV_TEMPLATES)):
        return f"an environment file that usually holds secrets ({name})"
    if lowered.endswith(".env") and lowered != ".env" and "." not in lowered[:-4]:
        return f"an environment file that usually holds secrets ({name})"
    if lowered in _SECRET_FILES:
        return _SECRET_FILES[lowered]
    if lowered.endswith(_SECRET_SUFFIXES):
        return f"a private key or certificate file ({name})"
    return None


def secret_folder(path: PurePosixPath | Path) -> bool:
    """Whether `path` is itself a folder that holds nothing but secrets (`~/.ssh`)."""
    return path.name in _SECRET_FOLDERS


_CERTIFICATE_SUFFIXES = (".pem", ".crt", ".cer")
_MAX_CERTIFICATE = 1024 * 1024


def public_certificate(path: Path, workspace: Path) -> bool:
    """Whether `path` is a certificate file of the workspace that holds no private key (a CA
    bundle shipped with a skill): certificates are public, keys are not. Only a file that is
    there can tell; one that is not, or is too big to look through, counts as a key."""
    if not path.name.lower().endswith(_CERTIFICATE_SUFFIXES) or not is_inside(path, workspace):
        return False
    tick(FILE_READ)
    try:
        if not path.is_file() or path.stat().st_size > _MAX_CERTIFICATE:
            return False
        data = path.read_bytes()
    except OSError:
        return False
    return b"-----BEGIN CERTIFICATE-----" in data and b"PRIVATE KEY" not in data


def _harmless_in_secret_dir(directory: str, rest: tuple[str, ...]) -> bool:
    if directory == ".ssh":
        return len(rest) == 1 and rest[0].startswith("known_hosts")
    if directory == ".aws":
        return rest == ("config",)
    if directory == ".docker":
        return rest != ("config.json",)
    if directory == ".kube":
        return rest[:1] == ("cache",)
    return False


def dot_component(path: Path, workspace: Path, home: Path) -> str | None:
    """The first hidden file or folder on `path`, counted from the workspace (or home, or /)."""
    for base in (workspace, home):
        if is_inside(path, base):
            relative = path.relative_to(base).parts
            break
    else:
        relative = path.parts[1:]
    for part in relative:
        if part.startswith(".") and part not in (".", ".."):
            return part
    return None


def display(path: Path, workspace: Path, home: Path) -> str:
    """`path` as the user would write it: relative to the workspace, or with `~`, or absolute."""
    if is_inside(path, workspace):
        relative = path.relative_to(workspace).as_posix()
        return relative if relative != "." else "the workspace folder"
    if is_inside(path, home):
        relative = path.relative_to(home).as_posix()
        return "~" if relative == "." else f"~/{relative}"
    return str(path)
