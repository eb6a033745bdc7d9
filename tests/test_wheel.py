"""The studio as a user installs it: `python -m build` gives an sdist and a wheel carrying what the
app reads (templates, icons, style); the wheel, installed in a fresh virtual environment outside
the checkout, runs `studio --version`, `studio new`, `studio validate` and opens the window
(offscreen) with its icon, from a folder outside the checkout. The manual (docs/) ships in the wheel
as studio/manual, and Help ▸ Manual finds it there; resources/ ships as studio/resources. An
editable install of a copy of the checkout finds `studio.resources` in that copy's resources/.

The environment sees the system's packages (PySide6, xllamacpp... are not downloaded again) but
not the checkout: the test checks that `studio` there is the wheel's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from studio import __version__

pytestmark = [pytest.mark.wheel, pytest.mark.timeout(180)]

CHECKOUT = Path(__file__).resolve().parent.parent
# resources/ in the checkout and the sdist, studio/resources/ in the wheel.
SHIPPED = ("templates/SKILL.md.tmpl", "style/studio.qss", "icons/close.svg", "app/skill-studio.svg",
           "app/skill-studio-256.png")
MANUAL = sorted(page.name for page in (CHECKOUT / "docs").iterdir() if page.suffix in (".md", ".png"))


def _run(command: list[str | Path], cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, f"{command} exited {result.returncode}:\n{result.stdout}{result.stderr}"
    return result.stdout


def _source_copy(target: Path) -> Path:
    """The checkout's files (tracked, and new ones not ignored) copied, so that building writes
    nothing into the checkout."""
    listed = _run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], CHECKOUT)
    for name in filter(None, listed.split("\0")):
        source = CHECKOUT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(source.read_bytes())
    return target


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(sdist, wheel), built from a copy of the checkout without build isolation."""
    root = tmp_path_factory.mktemp("wheel")
    source = _source_copy(root / "source")
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", root / "dist", source], root)
    (sdist,), (wheel,) = (root / "dist").glob("*.tar.gz"), (root / "dist").glob("*.whl")
    return sdist, wheel


def test_the_sdist_and_the_wheel_carry_the_resources(built: tuple[Path, Path]) -> None:
    sdist, wheel = built
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for name in SHIPPED:
        assert f"studio/resources/{name}" in in_wheel, f"{name} is not in the wheel"
        assert f"resources/{name}" in in_sdist, f"{name} is not in the sdist"
    assert not any(name.startswith(("resources/", "tests/", "docs/")) for name in in_wheel)
    assert "editor.md" in MANUAL and "screenshot-window.png" in MANUAL
    for name in MANUAL:
        assert f"studio/manual/{name}" in in_wheel, f"the manual's {name} is not in the wheel"
        assert f"docs/{name}" in in_sdist, f"the manual's {name} is not in the sdist"


def test_the_installed_wheel_works_outside_the_checkout(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, wheel = built
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv], tmp_path)
    python = venv / "bin" / "python"
    # The environment's own Python runs pip (the system's, seen through its site packages): it
    # installs into the environment, whatever the system has.
    _run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--ignore-installed",
          "--disable-pip-version-check", wheel], tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    studio = venv / "bin" / "studio"

    where = _run([python, "-c", "import studio.paths as p; print(p.RESOURCES_DIR)"], elsewhere, env)
    assert Path(where.strip()).is_relative_to(venv), f"not the wheel's studio: {where}"
    manual = Path(_run([python, "-c", "import studio.paths as p; print(p.manual_folder())"],
                       elsewhere, env).strip())
    assert manual.is_relative_to(venv), f"the manual is not the wheel's: {manual}"
    assert sorted(page.name for page in manual.iterdir()) == MANUAL
    assert _run([studio, "--version"], elsewhere, env).strip() == f"studio {__version__}"
    _run([studio, "new", "demo", "--in", elsewhere], elsewhere, env)
    assert (elsewhere / "demo" / "SKILL.md").is_file()
    _run([studio, "validate", elsewhere / "demo"], elsewhere, env)
    report = _run([studio, "gui", "--smoke-test", elsewhere], elsewhere, env)
    for check in ("window shown: ok", "window icon: ok", "style sheet: ok", "skill template: ok"):
        assert check in report, report


def test_an_editable_install_finds_the_resources(tmp_path: Path) -> None:
    source = _source_copy(tmp_path / "source")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv], tmp_path)
    python = venv / "bin" / "python"
    _run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--ignore-installed",
          "--no-build-isolation", "--disable-pip-version-check", "--editable", source], tmp_path)
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    code = ("import importlib.resources as r, studio.paths as p; "
            "print(r.files('studio.resources')); print(p.RESOURCES_DIR)")
    found, where = _run([python, "-c", code], tmp_path, env).split()
    assert Path(found) == Path(where) == source / "resources"
    for name in SHIPPED:
        assert (source / "resources" / name).is_file(), name
