"""Skills coming in and going out: installing from a URL, git or a folder (with the skills CLI's
lock file and placement), new skills from the template, and packing skills for where they go.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.install.download import MAX_DOWNLOAD, InstallError, InstallPlan, commit_install
    from studio.skills.install.installed import (
        fetchable,
        list_installed,
        project_of,
        record_for,
        remove_installed,
        unchanged,
    )
    from studio.skills.install.lockcheck import check_lock
    from studio.skills.install.lockfile import LockError, lock_path
    from studio.skills.install.lockrestore import sync_lock
    from studio.skills.install.pack import PackError, pack_index, pack_marketplace, pack_plugin, pack_skill
    from studio.skills.install.placement import (
        CLIENTS,
        PlacementError,
        blocking,
        canonical_folder,
        client_folders,
        place,
    )
    from studio.skills.install.provenance import Provenance
    from studio.skills.install.scaffold import TEMPLATE, ScaffoldError, create_skill
    from studio.skills.install.sources import prepare_source

__all__ = [
    "CLIENTS",
    "MAX_DOWNLOAD",
    "TEMPLATE",
    "InstallError",
    "InstallPlan",
    "LockError",
    "PackError",
    "PlacementError",
    "Provenance",
    "ScaffoldError",
    "blocking",
    "canonical_folder",
    "check_lock",
    "client_folders",
    "commit_install",
    "create_skill",
    "fetchable",
    "list_installed",
    "lock_path",
    "pack_index",
    "pack_marketplace",
    "pack_plugin",
    "pack_skill",
    "place",
    "prepare_source",
    "project_of",
    "record_for",
    "remove_installed",
    "sync_lock",
    "unchanged",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)
