"""The effective catalog: what each client really loads for a project and a user, and why not the
rest (`studio catalog`, the window's Clients view). Each client's rules, with their sources, are
one record in `rules`; nothing here imports Qt.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.catalog.effective import CLIENTS, Catalog, CatalogError, effective_catalog
    from studio.skills.catalog.entry import Entry

__all__ = ["CLIENTS", "Catalog", "CatalogError", "Entry", "effective_catalog"]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)
