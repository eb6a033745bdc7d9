"""Vendors' own hosts: where a token of theirs, or their installer, is expected to come from.

A skill that sends `$GITHUB_TOKEN` to `api.github.com`, or runs rustup's installer from
`sh.rustup.rs`, does what its vendor's documentation says; SK505, SK506 and SK503 report these
at `info` (the lowest severity a finding has) instead of `warning`, so they stay visible without
drowning the rest. Both tables are allowlists of exact names, hosts and URLs: a lookalike host,
a subdomain, another path or a host behind `user@` is not in them.
"""

from __future__ import annotations

import re

# An environment variable's name -> the API hosts its vendor documents for it.
TOKEN_HOSTS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("GITHUB_TOKEN", "GH_TOKEN"),
                    frozenset({"api.github.com", "uploads.github.com"})),
    **dict.fromkeys(("GITLAB_TOKEN",), frozenset({"gitlab.com"})),
    **dict.fromkeys(("OPENAI_API_KEY",), frozenset({"api.openai.com"})),
    **dict.fromkeys(("ANTHROPIC_API_KEY",), frozenset({"api.anthropic.com"})),
    **dict.fromkeys(("SLACK_TOKEN", "SLACK_BOT_TOKEN"), frozenset({"slack.com"})),
    **dict.fromkeys(("HF_TOKEN",), frozenset({"huggingface.co"})),
}

# Installers a vendor tells its users to pipe into a shell, from its own domain, as its install
# page gives them.
INSTALLERS = frozenset({
    "https://sh.rustup.rs",  # https://rustup.rs
    "https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh",  # https://brew.sh
    "https://astral.sh/uv/install.sh",  # https://docs.astral.sh/uv/getting-started/installation/
    "https://bun.sh/install",  # https://bun.sh
    "https://deno.land/install.sh",  # https://docs.deno.com/runtime/getting_started/installation/
    "https://ollama.com/install.sh",  # https://ollama.com/download/linux
})

# Only a plain host name (no user, no escape, no variable) can be a vendor's.
_HOST = re.compile(r"https://([a-z0-9.-]+)(?::443)?(?:[/?#]|\Z)")
_VARIABLE = re.compile(r"\$\{?(\w+)")
# What a download piped into a shell may hold beside the URL for it to be a vendor's command.
_INSTALL_WORD = re.compile(
    r"curl|wget|(?:/usr)?(?:/bin/)?(?:ba|z)?sh|-c|\$|-[fsSLq]*O?-?|--proto|=https|--tlsv1\.[23]"
    r"|--(?:silent|show-error|fail|location)")
_WORD = re.compile(r"""[^\s|()"']+""")


def host(url: str) -> str | None:
    """The host of an https URL, when it is a plain host name."""
    match = _HOST.match(url)
    return match.group(1) if match is not None else None


def token_to_own_host(name: str, hosts: list[str | None]) -> bool:
    """Whether a token read from the environment as `name` goes only to its vendor: every URL in
    the file (`hosts`, None for one that is no plain https host) is one of its vendor's hosts."""
    own = TOKEN_HOSTS.get(name)
    return own is not None and bool(hosts) and all(h in own for h in hosts)


def url_to_own_host(url: str, secret: re.Pattern[str]) -> bool:
    """Whether a URL built from variables sends only its own vendor's tokens to that vendor: no
    command's output, and every variable named like a secret (`secret`) one of the host's."""
    name = host(url)
    if name is None or "$(" in url:
        return False
    secrets = [v for v in _VARIABLE.findall(url) if secret.search(v) is not None]
    return bool(secrets) and all(name in TOKEN_HOSTS.get(v, ()) for v in secrets)


def vendor_installer(command: str) -> bool:
    """Whether a download piped into a shell (`command`, from the download to the shell) is a
    vendor's own installer: one URL, in `INSTALLERS`, and only ordinary download options."""
    words = _WORD.findall(command)
    urls = [word for word in words if "://" in word]
    return (len(urls) == 1 and urls[0] in INSTALLERS
            and all(w in urls or _INSTALL_WORD.fullmatch(w) is not None for w in words))
