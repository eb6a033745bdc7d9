"""The places on a machine a skill has no business writing to or sending away: where a program
starts itself again (persistence), the agent's own configuration, and the files that hold a
person's secrets. Shared by the shell, Python and JavaScript rules, which decide whether a
path is written, read or sent."""

from __future__ import annotations

import re

# Writing here makes something run again later, outside the skill: at login, on a timer, when
# the agent starts, or with the user's own rights everywhere.
PERSIST_HIGH = re.compile(
    r"(?:\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|(?<![\w.])\.profile\b|\.zshrc|"
    r"\.zprofile|\.zshenv|\.zlogin|config/fish/config\.fish|Library/LaunchAgents|"
    r"Library/LaunchDaemons|\.config/systemd/user|/etc/systemd/|\.config/autostart|/etc/cron|"
    r"/var/spool/cron|(?:~|HOME\}?|/Users/[\w.-]+|/home/[\w.-]+|/root)/\.claude/(?:settings(?:\.local)?\.json|CLAUDE\.md)|"
    r"\.ssh/authorized_keys|/etc/rc\.local|/etc/profile|/etc/sudoers|\.codex/config\.toml|"
    r"\.cursor/mcp\.json|\.config/Code/User/settings\.json)"
)
# The agent's own configuration in the home folder: what it is told, and allowed, in every
# session. Shown as an example in Markdown, writing here is still the attack, since the reader
# of that Markdown is the agent, which runs it (shellrules ranks other places one level lower).
AGENT_HOME = re.compile(
    r"(?:~|HOME\}?|/Users/[\w.-]+|/home/[\w.-]+|/root)/\.(?:claude/(?:settings(?:\.local)?\.json|"
    r"CLAUDE\.md)|codex/config\.toml|cursor/mcp\.json)"
)
# Writing here changes what runs or what the agent is told in one project: worth a look.
PERSIST_MEDIUM = re.compile(
    r"(?:\.git/hooks/|\.envrc\b|\.vscode/tasks\.json|(?:^|[/\s'\"`])(?:CLAUDE|AGENTS|MEMORY)\.md\b|"
    r"\.claude/(?:memory|agents|commands|hooks|settings(?:\.local)?\.json)|\.cursorrules|\.cursor/rules)"
)
SENSITIVE = re.compile(
    r"(?:\.ssh(?:/|\b)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\.gnupg|\.netrc\b|"
    r"\.git-credentials|\.docker/config\.json|\.kube/config|\.pypirc|\.npmrc|wallet\.dat|"
    r"\.bitcoin\b|\.ethereum|keystore|[Ee]xodus|[Ee]lectrum|[Mm]eta[Mm]ask|"
    r"nkbihfbeogaeaoehlefnkodbefgpgknn|Login Data|\bCookies\b|key4\.db|logins\.json|"
    r"google-chrome|BraveSoftware|Google/Chrome|\.mozilla/firefox|Firefox/Profiles|"
    r"\.(?:bash|zsh|python|node_repl|psql|mysql)_history|/etc/shadow|Library/Keychains|"
    r"\.keychain|\.config/gh/hosts\.yml|(?:^|/)\.env\b)"
)
HOME_ONLY = re.compile(
    r"""^["']?(?:~|\$HOME|\$\{HOME\}|\$\{\w+:-(?:\$HOME|\$\{HOME\}|~)\}|/|/home/\w+|/Users/\w+)"""
    r"""["']?/?(?:\*|\.\*|\{[^}]*\})?["']?$"""
)


# Each place above holds one of these: `in` tests on them cost a fraction of the patterns' search
# on the long texts most skills are.
_HIGH_WORDS = (".bash", "profile", ".zsh", ".zlogin", "config.fish", "Launch", "systemd", "autostart",
               "/etc/", "cron", ".claude/", "authorized_keys", ".codex/", ".cursor/", "Code/User")
_MEDIUM_WORDS = (".git/hooks", ".envrc", ".vscode/", "CLAUDE.md", "AGENTS.md", "MEMORY.md",
                 ".claude/", ".cursor")
# A path `persistence` finds holds one of these.
PLACE_WORDS = _HIGH_WORDS + _MEDIUM_WORDS


def persistence(path: str) -> str | None:
    """The severity of writing to `path`, or None when it is no persistence place."""
    if any(word in path for word in _HIGH_WORDS) and PERSIST_HIGH.search(path):
        return "high"
    if any(word in path for word in _MEDIUM_WORDS) and PERSIST_MEDIUM.search(path):
        return "medium"
    return None
