"""The packages' front doors: each exports what its `__all__` says, loads it only when asked, and
names nothing that a module inside would shadow."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

from studio.frontdoor import _exports

FRONT_DOORS = [
    "studio.agent", "studio.chats", "studio.policy", "studio.skills", "studio.skills.checks",
    "studio.skills.install", "studio.skills.library", "studio.skills.search", "studio.skills.yaml",
]


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
    assert not inside & set(package.__all__), "an export named like a module inside is shadowed"


def test_lazy_front_door_loads_nothing_until_asked() -> None:
    code = ("import sys, studio.agent as a; before = 'studio.agent.session' in sys.modules; "
            "a.ChatSession; print(before, 'studio.agent.session' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_a_module_behind_a_lazy_door_imports_not_even_the_loader() -> None:
    # The scan process imports the library's modules, so each door on the way runs its `__init__`.
    code = ("import sys, studio.skills.library.scan_process; "
            "print('studio.frontdoor' in sys.modules, 'studio.skills.library.collection' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
