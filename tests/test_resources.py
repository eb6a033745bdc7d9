"""The shipped files (icons, style sheets, skill templates) live in resources/ beside studio/, as
the design card lays the top level out, and the app finds them there when run from a checkout
(tests/test_wheel.py proves the wheel and an editable install)."""

from __future__ import annotations

from pathlib import Path

from studio.paths import APP_ICON_SIZES, RESOURCES_DIR, app_icon

CHECKOUT = Path(__file__).resolve().parent.parent


def test_a_checkout_reads_the_resources_beside_the_package() -> None:
    assert RESOURCES_DIR == CHECKOUT / "resources"
    assert not (CHECKOUT / "studio" / "resources").exists()


def test_every_app_icon_is_there() -> None:
    for size in (None, *APP_ICON_SIZES):
        assert app_icon(size).is_file(), size
    assert (RESOURCES_DIR / "templates" / "SKILL.md.tmpl").is_file()
    assert (RESOURCES_DIR / "style" / "studio.qss").is_file()
