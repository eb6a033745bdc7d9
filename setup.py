"""Two folders beside studio/ ship in the wheel inside it, without a second copy in the
repository: docs/ as `studio/manual` (read by Help ▸ Manual) and resources/ as
`studio/resources` (icons, style sheets, skill templates), each mapped onto its package at build
time (pyproject.toml's package-dir). pyproject.toml declares everything else; only the package
list is here, because its `packages.find` cannot add a package that lives outside studio/."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["studio*"]), "studio.manual", "studio.resources"])
