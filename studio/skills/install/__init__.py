"""Skills coming in and going out: installing from a URL, git or a folder (with the skills CLI's
lock file and placement, and restoring and checking what it records), new skills from the
template, and packing skills for where they go.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.install import installed, lockfile, locksync, pack, placement, scaffold
    from studio.skills.install.clientpacks import pack_package
    from studio.skills.install.download import MAX_DOWNLOAD, InstallError, InstallPlan, commit_install
    from studio.skills.install.provenance import Provenance
    from studio.skills.install.sources import prepare_source

__all__ = [
    "MAX_DOWNLOAD",
    "InstallError",
    "InstallPlan",
    "Provenance",
    "commit_install",
    "installed",
    "lockfile",
    "locksync",
    "pack",
    "pack_package",
    "placement",
    "prepare_source",
    "scaffold",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)
