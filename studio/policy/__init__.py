"""The tool-run policy: every command is judged allow, ask or block before it runs.

`judge(command, context, grants)` is the entry point; `Grants` keeps what the user chose to
"always allow"; `AuditLog` records every decision and run.
"""

from studio.policy.audit import AuditEntry, AuditLog
from studio.policy.decision import Decision, PolicyContext, PolicyWarning, Verdict
from studio.policy.grants import Grant, GrantProposal, Grants, GrantsError
from studio.policy.judge import judge, propose_grant
from studio.policy.shell.cmdline import split_commands

__all__ = [
    "AuditEntry",
    "AuditLog",
    "Decision",
    "Grant",
    "GrantProposal",
    "Grants",
    "GrantsError",
    "PolicyContext",
    "PolicyWarning",
    "Verdict",
    "judge",
    "propose_grant",
    "split_commands",
]
