"""Every error the studio raises on purpose derives from `StudioError`, whose message is written
for a person; the command line prints one no command caught as `studio COMMAND: message` and
exits 2, without a traceback. Errors that callers catch as a standard error stay that error too."""

from __future__ import annotations

import builtins
import re
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main
from studio.errors import StudioError
from studio.fsutil import RefusedWrite
from studio.llm import GGUFError, LLMError, ServerNotRunning
from studio.skills import NotRegularFile
from studio.skills.install.lockfile import LockError

ROOT = Path(__file__).resolve().parents[1]
# Signals a module raises and catches itself; they never reach a person as errors.
SIGNALS = {
    "studio.skills.yaml.yamlload._Shared", "studio.skills.yaml.plainyaml._Unsupported",
    "studio.editing.fix_batch._Changed", "studio.policy.programs.sedscript._Unreadable",
    # The checker's budget ran out: judging turns it into a "block" with its reason.
    "studio.policy.shell.budget.CheckAborted",
    # SIGTERM or SIGHUP ended `studio chat`, which exits with the signal's code.
    "studio.commands.chat.Stopped",
    # libyaml's own error type, which the parser turns into a finding.
    "studio.skills.yaml.yamlload.TooDeep",
}


_CLASS = re.compile(r"^[ \t]*class (\w+)\(([^)]*)\)", re.MULTILINE)


def _bases() -> dict[str, list[str]]:
    """Every class in studio/ that names a base, as `module.Class`, with its bases' last names
    (read from the source, so that no module is imported)."""
    found = {}
    for source in sorted((ROOT / "studio").rglob("*.py")):
        module = ".".join(source.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for match in _CLASS.finditer(source.read_text(encoding="utf-8")):
            bases = [base.strip().rpartition(".")[2] for base in match[2].split(",")]
            found[f"{module}.{match[1]}"] = [base for base in bases if base and "=" not in base]
    return found


def _outside(bases: dict[str, list[str]]) -> set[str]:
    """The exception classes that do not derive from StudioError, however indirectly (a base
    named like a class of the studio counts as each class of that name)."""
    by_name: dict[str, list[str]] = {}
    for name in bases:
        by_name.setdefault(name.rpartition(".")[2], []).append(name)
    builtin = {name for name, value in vars(builtins).items()
               if isinstance(value, type) and issubclass(value, BaseException)}

    def ancestors(name: str) -> set[str]:
        """The last names of every class above `name`."""
        found: set[str] = set()
        todo = [name]
        while todo:
            for base in bases[todo.pop()]:
                if base not in found:
                    found.add(base)
                    todo.extend(by_name.get(base, []))
        return found

    outside = set()
    for name in bases:
        above = ancestors(name)
        exception = any(base in builtin or base.endswith(("Error", "Exception")) for base in above)
        if exception and "StudioError" not in above:
            outside.add(name)
    return outside


def test_the_reader_finds_a_class_outside() -> None:
    bases = {"m.StudioError": ["Exception"], "m.A": ["StudioError"], "m.B": ["A"],
             "m.C": ["OSError", "B"], "m.D": ["ValueError"], "m.E": ["D"], "m.F": ["object"]}
    assert _outside(bases) == {"m.StudioError", "m.D", "m.E"}


def test_every_error_raised_on_purpose_is_a_studio_error() -> None:
    bases = _bases()
    assert len(bases) > 200, "too few classes found: the reader is stale"
    assert _outside(bases) - {"studio.errors.StudioError"} == SIGNALS


def test_standard_errors_keep_their_kind() -> None:
    assert issubclass(RefusedWrite, OSError) and issubclass(NotRegularFile, OSError)
    assert issubclass(GGUFError, ValueError)
    error = ServerNotRunning("http://127.0.0.1:11434", "Start it with `ollama serve`.")
    assert isinstance(error, LLMError | StudioError)
    assert error.user_message == str(error) and "ollama serve" in error.user_message


def test_the_cli_prints_an_uncaught_studio_error_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def refuse(parent: Path, name: str) -> Path:
        raise LockError("skills.lock is not valid TOML; fix it or remove it")

    monkeypatch.setattr("studio.skills.install.scaffold.create_skill", refuse)
    assert main(["new", "demo", "--in", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == "studio new: skills.lock is not valid TOML; fix it or remove it\n"
    assert captured.out == ""


def test_a_studio_error_leaves_no_traceback(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    result = subprocess.run([sys.executable, "-m", "studio", "new", "taken", "--in", str(tmp_path)],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert result.stderr.startswith("studio new: ") and "already exists" in result.stderr
    assert "Traceback" not in result.stderr
