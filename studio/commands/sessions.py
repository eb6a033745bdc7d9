"""The core chat sessions the commands run models through, built in one place: every command's
sessions share the user's "always allow" grants (the config folder's grants.yaml) and write the
one audit log (the data folder's audit.jsonl), as the window's chat and evals do."""

from __future__ import annotations

import httpx

from studio.agent import AgentStore, Approver, SessionFactory
from studio.policy import AuditLog, Grants


def session_factories(approver: Approver, http: httpx.AsyncClient,
                      count: int = 1) -> list[SessionFactory]:
    """`count` factories (one per model server, each with a model server of its own) that ask
    `approver` and share one `Grants` and one `AuditLog`."""
    grants, audit, agents = Grants(), AuditLog(), AgentStore()
    return [SessionFactory(approver, http, grants=grants, audit=audit, agents=agents)
            for _ in range(count)]


def session_factory(approver: Approver, http: httpx.AsyncClient) -> SessionFactory:
    """A command's one factory (see `session_factories`)."""
    return session_factories(approver, http)[0]
