"""Manifests that run code on install or choose where packages come from: `package.json`'s
lifecycle scripts, `requirements*.txt` (extra indexes, unpinned and lookalike names),
`setup.py` (an install command of its own) and `pyproject.toml` (a build backend)."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator

from studio.skills import codes
from studio.threatscan.findings import Finding, excerpt
from studio.threatscan.popular import NPM, PYPI, lookalike
from studio.threatscan.registry import rule
from studio.threatscan.shellrules import shell_findings
from studio.threatscan.source import Source

INSTALL_HOOK = codes.INSTALL_HOOK
PACKAGE_INDEX = codes.PACKAGE_SOURCE
UNPINNED = codes.UNPINNED
LOOKALIKE = codes.LOOKALIKE

_LIFECYCLE = ("preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare",
              "prepublish", "preuninstall", "uninstall", "postuninstall")
# Build backends as their projects name them: anything else is code of the skill's own that runs
# when the package is built or installed.
KNOWN_BACKENDS = frozenset({
    "setuptools.build_meta", "setuptools.build_meta:__legacy__", "hatchling.build",
    "flit_core.buildapi", "poetry.core.masonry.api", "poetry.masonry.api", "pdm.backend",
    "pdm.pep517.api", "maturin", "scikit_build_core.build", "mesonpy", "uv_build",
    "sipbuild.api", "enscons.api", "whey", "jupyter_packaging.build_api",
})
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(.*)$")


def _line_of(source: Source, needle: str) -> tuple[int, int]:
    at = source.text.find(needle)
    return source.position(max(at, 0))


@rule("package-json", ("package.json",), "npm lifecycle scripts (run on install) and lookalike "
      "dependency names")
def package_json(source: Source) -> Iterator[Finding]:
    try:
        data = json.loads(source.text)
    except (ValueError, RecursionError):
        return
    if not isinstance(data, dict):
        return
    scripts = data.get("scripts")
    if isinstance(scripts, dict):
        for name in _LIFECYCLE:
            command = scripts.get(name)
            if not isinstance(command, str):
                continue
            line, column = _line_of(source, f'"{name}"')
            inner = list(shell_findings(Source(source.file, command, "shell", line, True)))
            yield from inner
            if not any(f.at_least("high") for f in inner):
                yield Finding(INSTALL_HOOK, "medium", 0.6, source.file, line, column,
                              f"the `{name}` script runs `{excerpt(command, 50)}` by itself when "
                              "the package is installed", excerpt(command))
    for section in ("dependencies", "devDependencies", "optionalDependencies"):
        deps = data.get(section)
        if isinstance(deps, dict):
            for name, spec in deps.items():
                known = lookalike(name, NPM) if isinstance(name, str) else None
                if known is not None:
                    yield Finding(LOOKALIKE, "high", 0.7, source.file, *_line_of(source, f'"{name}"'),
                                  f"`{name}` is one letter away from the popular package `{known}`: "
                                  "a typosquat installs someone else's code", name)
                if isinstance(spec, str) and re.match(r"(?:https?:|git\+|github:|file:)", spec):
                    yield Finding(PACKAGE_INDEX, "medium", 0.5, source.file,
                                  *_line_of(source, f'"{name}"'),
                                  f"`{name}` comes from {excerpt(spec, 50)}, not the registry", spec)


@rule("requirements", ("requirements",), "pip requirements: extra indexes, unpinned and "
      "lookalike names, packages from URLs")
def requirements(source: Source) -> Iterator[Finding]:
    offset = 0
    for raw in source.text.split("\n"):
        line, column = source.position(offset)
        offset += len(raw) + 1
        text = raw.split(" #", 1)[0].strip()
        if not text or text.startswith("#"):
            continue
        if text.startswith(("--extra-index-url", "--index-url", "-i ", "--find-links", "-f ",
                            "--trusted-host")):
            extra = text.startswith(("--extra-index-url", "--find-links", "-f ", "--trusted-host"))
            yield Finding(PACKAGE_INDEX, "high" if extra else "medium", 0.7, source.file, line,
                          column, f"`{excerpt(text, 60)}`: packages may come from another index "
                          "than PyPI; with an extra index, a package of the same name there wins "
                          "(dependency confusion)", excerpt(text))
            continue
        if text.startswith("-") or "://" in text or text.startswith(("git+", "./", "/")):
            if "://" in text or text.startswith("git+"):
                yield Finding(PACKAGE_INDEX, "medium", 0.5, source.file, line, column,
                              f"`{excerpt(text, 60)}` installs from an address, not a "
                              "versioned release", excerpt(text))
            continue
        match = _REQUIREMENT.match(text)
        if match is None:
            continue
        name, spec = match.group(1), match.group(3)
        known = lookalike(name, PYPI)
        if known is not None:
            yield Finding(LOOKALIKE, "high", 0.7, source.file, line, column,
                          f"`{name}` is one letter away from the popular package `{known}`: a "
                          "typosquat installs someone else's code", name)
        elif "==" not in spec and "@" not in spec and "--hash" not in spec:
            yield Finding(UNPINNED, "info", 0.3, source.file, line, column,
                          f"`{name}` is not pinned to a version: what installs may change",
                          excerpt(text))


@rule("setup-py", ("setup.py",), "setup.py install commands of its own (cmdclass)")
def setup_py(source: Source) -> Iterator[Finding]:
    for match in re.finditer(r"\bcmdclass\s*=|class\s+\w+\s*\(\s*(?:install|develop|egg_info|"
                             r"build_py|_install)\s*\)", source.text):
        yield Finding(INSTALL_HOOK, "medium", 0.6, source.file, *source.position(match.start()),
                      "setup.py replaces an install command: its code runs when the package is "
                      "installed", excerpt(match.group()))
        return


@rule("pyproject", ("pyproject",), "pyproject build backends not known, and backends in the "
      "project itself")
def pyproject(source: Source) -> Iterator[Finding]:
    try:
        data = tomllib.loads(source.text)
    except (tomllib.TOMLDecodeError, ValueError):
        return
    system = data.get("build-system")
    if not isinstance(system, dict):
        return
    backend = system.get("build-backend")
    line, column = _line_of(source, "build-backend")
    if system.get("backend-path"):
        yield Finding(INSTALL_HOOK, "high", 0.7, source.file, line, column,
                      "the build backend is code inside the project (`backend-path`): it runs "
                      "when the package is built or installed", str(system.get("backend-path")))
    elif isinstance(backend, str) and backend not in KNOWN_BACKENDS:
        yield Finding(INSTALL_HOOK, "medium", 0.5, source.file, line, column,
                      f"the build backend `{excerpt(backend, 40)}` is not a known one: its code "
                      "runs when the package is built", backend)
