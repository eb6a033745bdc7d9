"""The app's icons, style sheets and skill templates: files, no code. This folder ships as the
package `studio.resources` (pyproject.toml maps it at build time); this file makes it a regular
package, so that an editable install finds it too (its import finder maps a package onto a
folder only when the folder has an `__init__.py`). The app finds the files through
`studio.paths.RESOURCES_DIR`."""
