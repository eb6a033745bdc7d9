"""The Clients view: what each client really loads for a project, and why not the rest
(studio.skills.catalog), opened from Tools or from a skill's tab."""

from studio.ui.clients.clients_controller import ClientsViews
from studio.ui.clients.clients_view import ClientsView

__all__ = ["ClientsView", "ClientsViews"]
