"""What an Evals view asks of the window, handed in so the view builds no model client, grants or
history of its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from studio.agent import SessionFactory, SessionSettings
from studio.evals import EvalHistory, EvalRunner, ResultCache, Runner, ServerPool
from studio.skills import SkillSummary
from studio.ui.editor.editor_tab import SkillEditorTab
from studio.ui.tasks import TaskSet


def no_servers(_auto_approve: bool) -> tuple[list[tuple[SessionFactory, str]], int]:
    return [], 1



@dataclass
class EvalServices:
    """What an Evals tab asks the window.

    Attributes:
        sessions: the session factory (auto-approving when True, denying when False) and the
            settings of the model picked in the chat; or what the user must do first.
        catalog: the skill of an editor tab as saved, and the skills it is tried among.
        last_prompt: the chat's last prompt, if any.
        history: where each run's figures are kept.
        tasks: the window's background tasks, which runs join (closing the window cancels them).
        cache: where results are kept (None: never reused).
        servers: the servers to spread runs over, each with a session factory of its own
            (auto-approving or not), and the runs one server is given at a time; none (the
            chat's server alone) by default.
    """

    sessions: Callable[[bool], tuple[SessionFactory, SessionSettings] | str]
    catalog: Callable[[SkillEditorTab], tuple[SkillSummary, list[SkillSummary]]]
    last_prompt: Callable[[], str | None]
    history: EvalHistory
    tasks: TaskSet
    cache: ResultCache | None = None
    servers: Callable[[bool], tuple[list[tuple[SessionFactory, str]], int]] = no_servers

    def runner(self, auto_approve: bool, progress: Callable[[str], None]) -> Runner | str:
        """What runs a skill's evals: a runner on each server to spread over, as `studio eval
        --server URL --per-server N` makes them (the same report, sooner), else one on the chat's
        model; or what the user must do first."""
        found = self.sessions(auto_approve)
        if isinstance(found, str):
            return found
        factory, settings = found
        servers, per_server = self.servers(auto_approve)
        runners = [EvalRunner(other, replace(settings, url=url), cache=self.cache, progress=progress)
                   for other, url in servers] or [
            EvalRunner(factory, settings, cache=self.cache, progress=progress)]
        return ServerPool(runners, per_server) if len(runners) > 1 or per_server > 1 else runners[0]
