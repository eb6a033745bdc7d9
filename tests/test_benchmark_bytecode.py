"""The benchmarks run the code they time compiled, as an installed package is (benchmarks/ is not
a package: its module is loaded from its file)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parent.parent


def _bytecode() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bytecode", REPO / "benchmarks" / "bytecode.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_checkout_is_compiled_even_where_python_may_not_write_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    package = tmp_path / "studio" / "skills"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("VALUE = 1\n")
    (tmp_path / "studio" / "__init__.py").write_text("")
    _bytecode().compile_checkout(tmp_path)
    compiled = sorted(path.name.split(".")[0] for path in tmp_path.rglob("*.pyc"))
    assert compiled == ["__init__", "__init__"]


def test_a_module_that_does_not_compile_stops_the_benchmark(tmp_path: Path) -> None:
    (tmp_path / "studio").mkdir()
    (tmp_path / "studio" / "broken.py").write_text("def (:\n")
    with pytest.raises(SystemExit, match="do not compile"):
        _bytecode().compile_checkout(tmp_path)


def test_a_folder_without_the_package_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no studio package"):
        _bytecode().compile_checkout(tmp_path)
