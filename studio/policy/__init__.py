"""The tool-run policy: every command is judged allow, ask or block before it runs.

`judge(command, context, grants)` is the entry point; `Grants` keeps what the user chose to
"always allow"; `AuditLog` records every decision and run. `parse_shell` and the syntax types
give the same reading of a command line to the skill scanner (`studio.threatscan`).

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so).
"""

from studio.policy.audit import AuditEntry, AuditError, AuditLog
from studio.policy.decision import Decision, PolicyContext, PolicyWarning, Verdict
from studio.policy.grants import Grant, GrantProposal, Grants, GrantsError
from studio.policy.judging import judge, propose_grant
from studio.policy.shell.cmdline import parse as parse_shell
from studio.policy.shell.cmdline import split_commands
from studio.policy.shell.syntax import Lit, Param, Redirect, Script, SimpleCommand, Subst, Word

__all__ = [
    "AuditEntry",
    "AuditError",
    "AuditLog",
    "Decision",
    "Grant",
    "GrantProposal",
    "Grants",
    "GrantsError",
    "Lit",
    "Param",
    "PolicyContext",
    "PolicyWarning",
    "Redirect",
    "Script",
    "SimpleCommand",
    "Subst",
    "Verdict",
    "Word",
    "judge",
    "parse_shell",
    "propose_grant",
    "split_commands",
]
