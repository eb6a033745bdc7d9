"""docs/shots/take.py retakes every screenshot the README and the manual embed: its shot list
names each docs/screenshot-*.png they reference, and has a scene for each (nothing rendered
here). A shot added to the docs without a scene, or a scene whose picture nobody embeds, fails."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "docs" / "shots"
EMBEDDED = re.compile(r"!\[[^\]]*\]\((?:docs/)?screenshot-([a-z0-9-]+)\.png\)")


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, SHOTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _embedded() -> set[str]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return {name for page in pages for name in EMBEDDED.findall(page.read_text(encoding="utf-8"))}


def test_every_embedded_screenshot_is_in_the_shot_list() -> None:
    shots = _module("shotlist").SHOTS
    embedded = _embedded()
    assert embedded, "no screenshot found in the docs: the pattern no longer matches them"
    assert embedded - set(shots) == set(), "embedded in the docs but not taken by take.py"
    assert set(shots) - embedded == set(), "taken by take.py but embedded nowhere"
    for name in shots:
        assert (ROOT / "docs" / f"screenshot-{name}.png").is_file(), name


def test_every_shot_has_a_scene_and_the_window_size() -> None:
    saved = list(sys.path)
    sys.path.insert(0, str(SHOTS))
    try:
        shots, scenes = _module("shotlist").SHOTS, _module("scenes").SCENES
    finally:
        # The scenes put docs/shots and the checkout first on the path, as a script needs.
        sys.path[:] = saved
    assert list(scenes) == list(shots)
    sizes = {shot.size for shot in shots.values()}
    assert sizes <= {(1280, 720), (1600, 1000)}, sizes

