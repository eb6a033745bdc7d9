"""How the studio names the validation targets (`studio.skills.checks.clients`) to the user."""

from __future__ import annotations

from studio.skills import SPEC
from studio.skills.checks import clients


def target_label(target: str) -> str:
    """The short name of a target, as the picker and the library show it."""
    return "Spec" if target == SPEC else clients.CLIENTS[target].title


def target_tooltip(target: str) -> str:
    client = clients.CLIENTS[target]
    if target == SPEC:
        return "Judged by the bare Agent Skills spec: a field outside it is an error (SK131)."
    if client.strict:
        return (f"Judged as {client.title} take an upload: the spec's six fields only; any other "
                "field is an error (SK134).")
    return (f"Judged as {client.title} reads skills: the fields it reads are checked for their "
            f"values (SK133); a field it does not read is a warning (SK132).")
