"""No two modules of the tree import each other, however indirectly: the layers contracts
keep packages apart, this keeps modules inside a package apart too (imports inside functions and
under TYPE_CHECKING count, as they do for a reader). The studio and the tests are packages;
the benchmarks are scripts that import each other by bare name, read here from their source."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(imports):
        if start in index:
            continue
        work = [(start, iter(sorted(imports[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports[target]))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _script_imports(folder: Path) -> dict[str, set[str]]:
    """Which scripts of `folder` each of them imports (by bare name, as scripts run from their
    folder do), wherever in the file the import stands."""
    names = {path.stem for path in folder.glob("*.py")}
    imports: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
        imports[path.stem] = found & names
    return imports


def test_the_script_reader_finds_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "one.py").write_text("def f():\n    from two import g\n", encoding="utf-8")
    (tmp_path / "two.py").write_text("import one, os\n", encoding="utf-8")
    (tmp_path / "three.py").write_text("from one import f\n", encoding="utf-8")
    assert _cycles(_script_imports(tmp_path)) == [["one", "two"]]


@pytest.mark.parametrize("package", ["studio", "tests"])
def test_no_module_imports_itself_through_others(package: str) -> None:
    graph = grimp.build_graph(package, cache_dir=None)
    imports = {module: {target for target in graph.find_modules_directly_imported_by(module)
                        if target.startswith(package)}
               for module in graph.modules if module.startswith(package)}
    assert _cycles(imports) == []


def test_no_benchmark_imports_itself_through_others() -> None:
    imports = _script_imports(ROOT / "benchmarks")
    assert "corpus" in imports["validate_corpus"], "no imports found: the reader is stale"
    assert _cycles(imports) == []


def _folder(module: str, depth: int) -> str:
    return ".".join(module.split(".")[:depth])


def test_no_folder_imports_itself_through_others() -> None:
    """The same for packages (`studio.skills`, `studio.skills.checks`, ...): a package and what
    it holds count as one, a package may use its own sub-packages, and no two import each other
    (the skill core once reached the evals, which reach the agent, which reaches the skill core)."""
    graph = grimp.build_graph("studio", cache_dir=None)
    for depth in (2, 3):
        imports: dict[str, set[str]] = {}
        for module in graph.modules:
            source = _folder(module, depth)
            imports.setdefault(source, set())
            for target in graph.find_modules_directly_imported_by(module):
                folder = _folder(target, depth)
                nested = folder.startswith(source + ".") or source.startswith(folder + ".")
                if target.startswith("studio") and folder != source and not nested:
                    imports[source].add(folder)
                    imports.setdefault(folder, set())
        assert _cycles(imports) == [], f"folders {depth - 1} deep"
