"""The agent: a loop that streams a model's answer, offers it the skill tools, judges every tool
run through the policy and asks an `Approver` when the policy says so. No Qt, no HTTP here.

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.agent.agentfile import (
        Agentfile,
        AgentfileError,
        parse_agentfile,
        read_agentfile,
        to_agentfile,
    )
    from studio.agent.agents import AgentError, AgentSpec, AgentStore, valid_name
    from studio.agent.approval import (
        Approval,
        ApprovalRequest,
        Approver,
        AutoApprover,
        Choice,
        DenyAllApprover,
        NobodyApprover,
    )
    from studio.agent.chat_skill import ChatSkillDraft, DraftUnusable
    from studio.agent.drafts import FolderChooser, first_writable_folder, write_new_skill
    from studio.agent.embedders import SearchEmbedder, default_search_embedder, search_embedder_for
    from studio.agent.events import (
        ApprovalGiven,
        ApprovalNeeded,
        ChatNotice,
        Done,
        Error,
        Event,
        ForkStarted,
        HeldWrite,
        Nested,
        TextDelta,
        ThinkingDelta,
        ToolCallRequested,
        ToolFinished,
        ToolOutput,
        ToolStarted,
        ToolWrites,
        event_to_json,
    )
    from studio.agent.guided.mode import WINDOW_HINT
    from studio.agent.holding import HoldError, Landing
    from studio.agent.invoke import PREFIXES
    from studio.agent.loop import DEFAULT_MAX_ROUNDS
    from studio.agent.prompt import INSTRUCTIONS
    from studio.agent.records import record_for, stop_record, update_record
    from studio.agent.run import DEFAULT_TIMEOUT
    from studio.agent.sandbox import Support
    from studio.agent.sandbox import detect as detect_sandbox
    from studio.agent.server import ModelServer, engine_problem
    from studio.agent.session import (
        WORKSPACE_MODES,
        ChatSession,
        SessionFactory,
        SessionSettings,
        make_toolbox,
        session_prompt,
    )
    from studio.agent.toolbook import ACTIVATE, TOOL_BOOK
    from studio.agent.tools import SkillToolbox, ToolError, default_tool_descriptions

__all__ = [
    "ACTIVATE",
    "DEFAULT_MAX_ROUNDS",
    "DEFAULT_TIMEOUT",
    "INSTRUCTIONS",
    "PREFIXES",
    "TOOL_BOOK",
    "WINDOW_HINT",
    "WORKSPACE_MODES",
    "AgentError",
    "AgentSpec",
    "AgentStore",
    "Agentfile",
    "AgentfileError",
    "Approval",
    "ApprovalGiven",
    "ApprovalNeeded",
    "ApprovalRequest",
    "Approver",
    "AutoApprover",
    "ChatNotice",
    "ChatSession",
    "ChatSkillDraft",
    "Choice",
    "DenyAllApprover",
    "Done",
    "DraftUnusable",
    "Error",
    "Event",
    "FolderChooser",
    "ForkStarted",
    "HeldWrite",
    "HoldError",
    "Landing",
    "ModelServer",
    "Nested",
    "NobodyApprover",
    "SearchEmbedder",
    "SessionFactory",
    "SessionSettings",
    "SkillToolbox",
    "Support",
    "TextDelta",
    "ThinkingDelta",
    "ToolCallRequested",
    "ToolError",
    "ToolFinished",
    "ToolOutput",
    "ToolStarted",
    "ToolWrites",
    "default_search_embedder",
    "default_tool_descriptions",
    "detect_sandbox",
    "engine_problem",
    "event_to_json",
    "first_writable_folder",
    "make_toolbox",
    "parse_agentfile",
    "read_agentfile",
    "record_for",
    "search_embedder_for",
    "session_prompt",
    "stop_record",
    "to_agentfile",
    "update_record",
    "valid_name",
    "write_new_skill",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)
