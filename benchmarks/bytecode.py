"""Compile a checkout's modules before timing commands run from it, as installing it does.

`pip install` writes the compiled form of every module it installs, and Python writes it on a
module's first import anywhere it may: a user's `studio` starts from compiled modules. A
checkout run with `PYTHONDONTWRITEBYTECODE` set (some machines set it for everything) compiles
every module again on every run instead, about 0.1 s before `studio validate` reads its first
skill, which is neither what a user waits for nor the same for two checkouts compiled
differently. So each benchmark that times a command compiles the code it runs first; the flag
only stops Python writing them, not reading them.
"""

from __future__ import annotations

import compileall
import sys
from pathlib import Path


def compile_checkout(code: Path) -> None:
    """Write the compiled form of every module of `code`'s `studio` package beside it (in
    `__pycache__`, which git ignores), as `pip install` does; a module already compiled from
    its current text is left as it is. Exits with a message if one does not compile."""
    package = code / "studio"
    if not package.is_dir():
        sys.exit(f"{code} has no studio package to run")
    if not compileall.compile_dir(package, quiet=1):
        sys.exit(f"some modules of {package} do not compile; fix them before timing")
