"""Building zip and tar.gz skill packs in memory for the install tests, bad ones included."""

from __future__ import annotations

import io
import stat
import tarfile
import zipfile


def skill_md(name: str, description: str = "Does a thing. Use when testing installs.") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nSteps.\n"


def zip_pack(entries: dict[str, str | bytes], links: dict[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return buffer.getvalue()


def tar_pack(entries: dict[str, str | bytes], special: dict[str, bytes] | None = None) -> bytes:
    """`special` maps a name to a tarfile type (tarfile.SYMTYPE, FIFOTYPE, CHRTYPE, LNKTYPE)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, content in entries.items():
            data = content.encode() if isinstance(content, str) else content
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o755 if name.endswith(".sh") else 0o644
            archive.addfile(info, io.BytesIO(data))
        for name, kind in (special or {}).items():
            info = tarfile.TarInfo(name)
            info.type = kind
            info.linkname = "/etc/passwd"
            archive.addfile(info)
    return buffer.getvalue()


def good_pack() -> dict[str, str | bytes]:
    return {
        "pack-main/alpha/SKILL.md": skill_md("alpha"),
        "pack-main/alpha/scripts/run.sh": "#!/bin/sh\necho hi\n",
        "pack-main/group/beta/SKILL.md": skill_md("beta"),
        "pack-main/README.md": "a pack\n",
    }
