"""The packages' front doors: each exports what its `__all__` says, loads it only when asked, and
names nothing that a module inside would shadow."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from studio.frontdoor import _exports

FRONT_DOORS = [
    "studio.agent", "studio.chats", "studio.editing", "studio.evals", "studio.llm", "studio.mcp",
    "studio.policy", "studio.settings", "studio.skills", "studio.skills.checks",
    "studio.skills.catalog", "studio.skills.install", "studio.skills.library", "studio.skills.scan",
    "studio.skills.search", "studio.skills.served", "studio.skills.yaml",
]
# What the window may take from the model clients' door: the model's types and errors, and the model
# files on disk (finding and downloading them); never a client, so it chats only through the core
# session (the import-linter contract on studio.ui names the modules that take them).
WINDOW_MODEL_MODULES = {"studio.llm.types", "studio.llm.errors", "studio.llm.discovery", "studio.llm.hub",
                        "studio.llm.modelfile"}


@pytest.mark.parametrize("name", FRONT_DOORS)
def test_front_door_exports_what_it_lists(name: str) -> None:
    package = importlib.import_module(name)
    table = _exports(str(package.__file__)) if hasattr(package, "__getattr__") else {}
    if table:
        assert sorted(package.__all__) == sorted(table)
    for export in package.__all__:
        assert getattr(package, export) is not None, export
    with pytest.raises(AttributeError, match="no attribute 'not_exported'"):
        _ = package.not_exported
    inside = {module.name for module in pkgutil.iter_modules(package.__path__)}
    for export in inside & set(package.__all__):
        # A namespace the door exports is that very module, never a name that hides it.
        assert getattr(package, export) is importlib.import_module(f"{name}.{export}"), export


def test_lazy_front_door_loads_nothing_until_asked() -> None:
    code = ("import sys, studio.agent as a; before = 'studio.agent.session' in sys.modules; "
            "a.ChatSession; print(before, 'studio.agent.session' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_a_module_behind_a_lazy_door_imports_not_even_the_loader() -> None:
    # The scan process imports the library's modules, so each door on the way runs its `__init__`.
    code = ("import sys, studio.skills.scan.process; "
            "print('studio.frontdoor' in sys.modules, 'studio.skills.library.collection' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_asking_the_model_door_for_an_error_loads_no_client() -> None:
    code = ("import sys, studio.llm as llm; llm.LLMError; "
            "print('studio.llm.errors' in sys.modules, 'studio.llm.ollama' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]


def test_the_window_takes_only_the_models_vocabulary_from_the_model_door() -> None:
    door = _exports(str(importlib.import_module("studio.llm").__file__))
    ui = Path(importlib.import_module("studio.ui").__file__ or "").parent
    taken: dict[str, str] = {}
    for path in sorted(ui.rglob("*.py")):
        where = path.relative_to(ui)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "studio.llm":
                taken |= {f"{where}: {alias.name}": door[alias.name][0] for alias in node.names}
            elif isinstance(node, ast.Import):
                taken |= {f"{where}: import {alias.name}": alias.name
                          for alias in node.names if alias.name.startswith("studio.llm")}
    assert "chat/model_bar.py: LLMError" in taken, "the scan found none of the window's imports"
    assert sorted(where for where, module in taken.items() if module not in WINDOW_MODEL_MODULES) == []


# The names the skill core's doors export in all. Issue 42 found 158 (a door listing whatever its
# callers happened to use: `studio.skills.library` alone 55) and asks for at most 90; this
# ceiling only ever comes down, so a name added to a door takes one away elsewhere, or joins a
# namespace the door already exports.
SKILL_CORE_NAMES = 90
# "About eight" names for the scan (issue 42): its call, its cache, its client and events, and the
# path facts a library needs.
SCAN_NAMES = 19


def test_every_package_of_the_skill_core_has_a_door_here() -> None:
    skills = Path(importlib.import_module("studio.skills").__file__ or "").parent
    packages = {f"studio.skills.{path.parent.name}" for path in skills.glob("*/__init__.py")}
    assert packages <= set(FRONT_DOORS)


def test_the_skill_cores_doors_stay_narrow() -> None:
    counts = {door: len(importlib.import_module(door).__all__)
              for door in FRONT_DOORS if door == "studio.skills" or door.startswith("studio.skills.")}
    assert sum(counts.values()) <= SKILL_CORE_NAMES, counts
    assert counts["studio.skills.scan"] <= SCAN_NAMES


def _namespaces() -> dict[str, str]:
    """Each module a skill-core door exports as a namespace, by its full name: its door."""
    found: dict[str, str] = {}
    for door in FRONT_DOORS:
        if door == "studio.skills" or door.startswith("studio.skills."):
            package = importlib.import_module(door)
            inside = {module.name for module in pkgutil.iter_modules(package.__path__)}
            found |= {f"{door}.{export}": door for export in inside & set(package.__all__)}
    return found


def test_namespaces_are_taken_through_their_door_outside_the_skill_core() -> None:
    # import-linter cannot tell `from studio.skills.checks import fixes` from `from
    # studio.skills.checks.fixes import plan_fixes`, so it ignores these modules (pyproject.toml)
    # and this test keeps callers to the door's form.
    namespaces = _namespaces()
    assert "studio.skills.checks.fixes" in namespaces
    studio = Path(importlib.import_module("studio").__file__ or "").parent
    reaching = []
    for path in sorted(studio.rglob("*.py")):
        if path.is_relative_to(studio / "skills"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                       else [alias.name for alias in node.names] if isinstance(node, ast.Import)
                       else [])
            reaching += [f"{path.relative_to(studio)}: {module}" for module in modules
                         if any(module == inner or module.startswith(f"{inner}.")
                                for inner in namespaces)]
    assert reaching == []
