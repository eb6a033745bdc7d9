"""The clients a skill can be written for, by the key `--target` takes, the bare spec first.

Declared here, apart from the rules: `studio.skills.checks.clients` judges a skill as each of
these clients does (and refuses to load without a judgement for each), while a command that
needs only the keys (`studio validate`, which may print a kept report without loading the
rules) reads them from here.
"""

from __future__ import annotations

SPEC = "spec"
TARGETS = (SPEC, "claude-code", "eino", "ollama", "codex", "claude-api")
