"""Skill evals, Qt-free: does the model pick the skill when it should, and does the job get done.

The eval files' format is the skill core's (`studio.skills.checks`); `editing` edits them for the
window's tables. `checks` grades the structured expectations from a run's trace and `grader` the
plain sentences with a model; `runner` runs trigger queries and outcome evals through the core
chat session, `spread` over several model servers; `plan` makes one skill's whole run and its
figures (`report`); `cache` keeps results by the skill's content hash, the model and the eval, and
`history` the figures of each version; `improve` proposes description variants from trigger
failures and holds out a share of the queries to judge them; `generate` writes trigger queries;
`conflicts` finds skills a model will confuse.

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`).
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.evals.cache import ResultCache, skill_hash
    from studio.evals.checks import Verdict
    from studio.evals.conflicts import (
        CrossTrigger,
        Overlap,
        cross_triggers,
        description_overlaps,
        local_embedder,
        trigger_sets,
    )
    from studio.evals.editing import EVAL_COLUMNS, EditableFile, EvalsFile, TriggersFile
    from studio.evals.feedback import read_feedback, write_feedback
    from studio.evals.generate import add_queries, generate_triggers
    from studio.evals.history import EvalHistory, HistoryEntry
    from studio.evals.improve import Improvement, Variant, improve_description
    from studio.evals.iteration import IterationError, read_iteration, workspace_for
    from studio.evals.plan import (
        Figures,
        Runner,
        RunPlan,
        analysis_notes,
        benchmark,
        comparison_summary,
        deltas,
        percent,
        report_of,
        run_skill,
        save_iteration,
    )
    from studio.evals.report import (
        EvalResult,
        QueryRate,
        QueryResult,
        SkillReport,
        TriggerReport,
        pass_counts,
        pass_rate,
    )
    from studio.evals.runner import EvalError, EvalRunner
    from studio.evals.spread import ServerPool
    from studio.evals.trace import transcript_messages

__all__ = [
    "EVAL_COLUMNS",
    "CrossTrigger",
    "EditableFile",
    "EvalError",
    "EvalHistory",
    "EvalResult",
    "EvalRunner",
    "EvalsFile",
    "Figures",
    "HistoryEntry",
    "Improvement",
    "IterationError",
    "Overlap",
    "QueryRate",
    "QueryResult",
    "ResultCache",
    "RunPlan",
    "Runner",
    "ServerPool",
    "SkillReport",
    "TriggerReport",
    "TriggersFile",
    "Variant",
    "Verdict",
    "add_queries",
    "analysis_notes",
    "benchmark",
    "comparison_summary",
    "cross_triggers",
    "deltas",
    "description_overlaps",
    "generate_triggers",
    "improve_description",
    "local_embedder",
    "pass_counts",
    "pass_rate",
    "percent",
    "read_feedback",
    "read_iteration",
    "report_of",
    "run_skill",
    "save_iteration",
    "skill_hash",
    "transcript_messages",
    "trigger_sets",
    "workspace_for",
    "write_feedback",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)
