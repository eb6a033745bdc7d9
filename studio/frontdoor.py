"""Front doors that import nothing until asked: a package's `__init__` lists what other packages
may use under `if TYPE_CHECKING:` (what mypy and import-linter read) and gets its names from
there at run time, on first use (PEP 562), with a module `__getattr__` that calls `load`. So
`import studio.agent.events` does not load the whole agent, and `studio --help` and the scan
process stay as cheap as before. The door imports this module inside its `__getattr__`, so that
importing a module behind a door (as the scan process does) does not load even this one."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

# Each door's table of names, read from its `__init__` when the first name is asked for.
_TABLES: dict[str, dict[str, tuple[str, str]]] = {}


def _exports(file: str) -> dict[str, tuple[str, str]]:
    """Each name the `if TYPE_CHECKING:` block of `file` imports: (module, name in it)."""
    table: dict[str, tuple[str, str]] = {}
    for node in ast.parse(Path(file).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for item in node.body:
                if isinstance(item, ast.ImportFrom) and item.module:
                    for alias in item.names:
                        table[alias.asname or alias.name] = (item.module, alias.name)
    return table


def load(package: str, name: str) -> object:
    """What `package`'s front door gives for `name`: a listed name is imported from its module
    and kept on the package; any other name is an AttributeError, as for any module."""
    module = sys.modules[package]
    table = _TABLES.get(package)
    if table is None:
        table = _TABLES[package] = _exports(str(module.__file__))
    if name not in table:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    source, original = table[name]
    # `__import__`, not importlib.import_module: the import statement's path, so `python -X
    # importtime` lists what a door loads, as it lists every other import.
    if source == package:
        # A namespace the door exports (`from studio.skills.checks import fixes`): the module
        # itself. Asked for by `fromlist`, the import would ask this door again.
        __import__(f"{source}.{original}")
        value = sys.modules[f"{source}.{original}"]
    else:
        value = getattr(__import__(source, fromlist=[original]), original)
    setattr(module, name, value)
    return value
