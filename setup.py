"""The manual ships in the wheel as `studio/manual` (read by Help ▸ Manual) without a second copy
in the repository: docs/ is mapped onto that package at build time. pyproject.toml declares
everything else; only the package list is here, because its `packages.find` cannot add a package
that lives outside studio/."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["studio*"]), "studio.manual"])
