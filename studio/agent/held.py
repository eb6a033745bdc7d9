"""Which files a run may not land unseen: files that another tool runs later, outside the
sandbox (git, direnv, an editor, make, npm, CI, a shell, pytest, a build tool).

One table, read by the holding code and by docs/security-sandbox.md (a test checks the page names
every entry). A path is held when any of its parts matches: a `.git` folder anywhere holds all
inside it, a `Makefile` in a subfolder runs with `make -C`. Names are compared case-folded, as a
case-insensitive file system (macOS, Windows) would open `.GIT` as `.git`.
"""

from __future__ import annotations

from collections.abc import Sequence

# name -> what runs it. A folder's name holds the folder and everything in it.
HELD_NAMES: dict[str, str] = {
    ".git": "git runs its hooks and the programs its config names (core.fsmonitor, filters)",
    ".gitattributes": "git runs the filter and diff drivers it names",
    ".gitmodules": "git submodule fetches the URLs it names, with any transport",
    ".husky": "husky installs these as git hooks",
    ".pre-commit-config.yaml": "pre-commit runs its hooks on every git commit",
    ".envrc": "direnv runs it on entering the folder",
    ".env": "direnv, editors and dotenv loaders put it in the environment (LD_PRELOAD, ...)",
    ".vscode": "VS Code runs its tasks (on opening the folder) and the programs its settings name",
    ".idea": "JetBrains IDEs run its run configurations and startup tasks",
    ".devcontainer": "dev containers run its postCreateCommand and build its Dockerfile",
    "makefile": "make runs its recipes",
    "gnumakefile": "make runs its recipes",
    "justfile": "just runs its recipes",
    "rakefile": "rake runs it",
    "taskfile.yml": "task runs its commands",
    "package.json": "npm, yarn and pnpm run its scripts (install, test, ...)",
    ".npmrc": "npm reads script-shell and node-options from it",
    ".yarnrc": "yarn reads the programs to run from it",
    ".yarnrc.yml": "yarn reads the programs and plugins to run from it",
    ".github": "GitHub runs its workflows and actions",
    ".gitlab-ci.yml": "GitLab CI runs it",
    ".circleci": "CircleCI runs it",
    ".travis.yml": "Travis CI runs it",
    "jenkinsfile": "Jenkins runs it",
    "azure-pipelines.yml": "Azure Pipelines runs it",
    ".buildkite": "Buildkite runs it",
    "conftest.py": "pytest imports it on every run below it",
    "pytest.ini": "pytest loads the plugins its addopts name",
    "tox.ini": "tox runs its commands",
    "noxfile.py": "nox runs it",
    "setup.py": "pip and build tools run it on install",
    "setup.cfg": "pip and pytest read the commands and plugins it names",
    "pyproject.toml": "pip runs its build backend; tools run the hooks and scripts it names",
    "sitecustomize.py": "Python imports it at start-up",
    "usercustomize.py": "Python imports it at start-up",
    "build.rs": "cargo and rust-analyzer (on opening the folder) run it",
    ".cargo": "cargo runs the runners and aliases its config names",
    "build.gradle": "Gradle and IDEs importing the project run it",
    "build.gradle.kts": "Gradle and IDEs importing the project run it",
    "settings.gradle": "Gradle and IDEs importing the project run it",
    "settings.gradle.kts": "Gradle and IDEs importing the project run it",
    ".bashrc": "bash runs it when a shell starts (the workspace may be a home folder)",
    ".bash_profile": "bash runs it at login",
    ".bash_login": "bash runs it at login",
    ".bash_logout": "bash runs it at logout",
    ".profile": "sh and bash run it at login",
    ".zshrc": "zsh runs it when a shell starts",
    ".zshenv": "zsh runs it for every zsh",
    ".zprofile": "zsh runs it at login",
    ".zlogin": "zsh runs it at login",
    ".zlogout": "zsh runs it at logout",
    ".kshrc": "ksh runs it when a shell starts",
    ".cshrc": "csh runs it when a shell starts",
    ".tcshrc": "tcsh runs it when a shell starts",
    ".inputrc": "readline binds keys to commands from it",
    ".exrc": "vi runs the commands in it",
    ".vimrc": "vim runs it",
    ".gitconfig": "git runs the programs it names (in a home folder)",
    ".ssh": "ssh runs the ProxyCommand its config names and trusts its authorized_keys",
    ".config": "desktop sessions and tools start what it holds (autostart, systemd units, fish)",
    ".local": "a home folder's programs (bin) and services live in it",
}

# Endings that hold a file whatever its name.
HELD_SUFFIXES: dict[str, str] = {
    ".pth": "Python runs its import lines at start-up of an environment that holds it",
    ".code-workspace": "VS Code runs the tasks and programs a workspace file names",
    ".mk": "make runs the recipes of files it includes",
}
# `.env.local`, `.env.production`: dotenv files too.
_ENV_PREFIX = ".env."


def held_reason(parts: Sequence[str]) -> tuple[int, str] | None:
    """The index of the first part of a relative path that makes it held, and what runs it;
    None for a path that lands."""
    for index, part in enumerate(parts):
        name = part.casefold()
        reason = HELD_NAMES.get(name)
        if reason is None and name.startswith(_ENV_PREFIX):
            reason = HELD_NAMES[".env"]
        if reason is None:
            reason = next((why for suffix, why in HELD_SUFFIXES.items()
                           if name.endswith(suffix) and name != suffix), None)
        if reason is not None:
            return index, reason
    return None
