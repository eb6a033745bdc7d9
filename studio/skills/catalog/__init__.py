"""The effective catalog: what each client really loads for a project and a user, and why not the
rest (`studio catalog`, the window's Clients view). Each client's rules, with their sources, are
one record in `rules`; nothing here imports Qt.

Other packages import from this front door only (see `studio.skills`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.skills.catalog.effective import Catalog, CatalogError, client_keys, effective_catalog
    from studio.skills.catalog.entry import STATES, Entry, State
    from studio.skills.catalog.found import Found, find_all
    from studio.skills.catalog.listing import ListingBudget
    from studio.skills.catalog.rules import RULES, UNKNOWN, ClientRules, rules_for

__all__ = [
    "RULES",
    "STATES",
    "UNKNOWN",
    "Catalog",
    "CatalogError",
    "ClientRules",
    "Entry",
    "Found",
    "ListingBudget",
    "State",
    "client_keys",
    "effective_catalog",
    "find_all",
    "rules_for",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)
