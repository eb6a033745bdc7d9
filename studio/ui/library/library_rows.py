"""What the library tree's rows show: the item roles the views and the filter read, and each
kind of row's text, icon and tooltip, with how roots are named and what the filter searches."""

from __future__ import annotations

from functools import cache
from html import escape
from pathlib import Path, PurePosixPath
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle

from studio.skills import SPEC, SkillSummary
from studio.skills.checks import clients
from studio.skills.install import Provenance
from studio.skills.library import RootState
from studio.ui.icons import STATUS_TOOLTIPS, status_icon
from studio.ui.library.library_nodes import FileNode, FolderNode
from studio.ui.library.library_places import group_label
from studio.ui.library.target_labels import target_label

KIND_ROLE = Qt.ItemDataRole.UserRole + 1
SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 2
PATH_ROLE = Qt.ItemDataRole.UserRole + 3
FILTER_ROLE = Qt.ItemDataRole.UserRole + 4
# What a skill's row says, dimmed, after its name (`library_places.detail`), or None.
DETAIL_ROLE = Qt.ItemDataRole.UserRole + 5
# Whether a skill's row shares its name with a row beside it: then what its row says after the
# name is what tells them apart, and keeps the room (`library_delegate`).
SHARED_ROLE = Qt.ItemDataRole.UserRole + 7
# A root's or folder's text split around its count of skills, (before, count, after): under a
# filter the count of matches goes in front ("pdf (3 of 12)").
COUNTED_ROLE = Qt.ItemDataRole.UserRole + 6

# Computed once: combining Qt's enum flags in Python is slow, and views ask for every row.
DISPLAY = Qt.ItemDataRole.DisplayRole
DECORATION = Qt.ItemDataRole.DecorationRole
TOOLTIP = Qt.ItemDataRole.ToolTipRole
STATUS_TIP = Qt.ItemDataRole.StatusTipRole


def skill_data(summary: SkillSummary, role: int, provenance: Provenance) -> Any:
    """What a skill's row shows for `role`."""
    if role == DISPLAY:
        return summary.display_name
    if role == DECORATION:
        return status_icon(summary.status)
    if role == TOOLTIP:
        problem = summary.first_problem
        lines = [f"<b>{escape(summary.display_name)}</b> — {STATUS_TOOLTIPS[summary.status]}"]
        if problem is not None:
            lines.append(f"{problem.code} (line {problem.line}): {escape(problem.message)}")
        lines.extend(escape(line) for line in provenance.describe(summary))
        lines.append(f"<span style='color:gray'>{escape(str(summary.directory))}</span>")
        return "<br>".join(lines)
    if role == STATUS_TIP:
        return str(summary.directory)
    if role == KIND_ROLE:
        return "skill"
    if role == SUMMARY_ROLE:
        return summary
    if role == PATH_ROLE:
        return str(summary.skill_file)
    if role == FILTER_ROLE:
        return filter_text(summary, provenance.origin(summary))
    return None


@cache
def standard_icon(pixmap: QStyle.StandardPixmap) -> QIcon:
    """The style's icon, made once: making it took 0.3 to 0.8 ms, and the tree asks for it each
    time it paints a root's or folder's row (each batch of a scan repaints them)."""
    return QApplication.style().standardIcon(pixmap)


def root_data(scan: RootState, role: int, label: str) -> Any:
    """What a root's row shows for `role`; `label` is its name in the window (`root_labels`)."""
    if role in (DISPLAY, COUNTED_ROLE):
        suffix = ("…" if scan.scanning else "") + (", read-only" if scan.root.read_only else "")
        client = "" if scan.target == SPEC else f" · {target_label(scan.target)}"
        parts = (f"{label} (", f"{len(scan.skills):,}", f"{suffix}){client}")
        return "".join(parts) if role == DISPLAY else parts
    if role == DECORATION:
        if scan.error is not None:
            return standard_icon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        return standard_icon(QStyle.StandardPixmap.SP_DriveHDIcon if scan.root.is_zip
                             else QStyle.StandardPixmap.SP_DirIcon)
    if role == TOOLTIP:
        text = str(scan.root.path)
        if scan.root.read_only:
            text += "\nA zip archive: its skills open read-only."
        text += f"\nValidated for {clients.CLIENTS[scan.target].title} (right-click to change)."
        if scan.error is not None:
            text += f"\n{scan.error}"
        return text
    if role == KIND_ROLE:
        return "root"
    if role == PATH_ROLE:
        return str(scan.root.path)
    return None


def folder_data(node: FolderNode, role: int) -> Any:
    """What a repository folder's row shows: its name and how many skills it holds."""
    if role == DISPLAY:
        return f"{group_label(node.relative)} ({len(node.children):,})"
    if role == DECORATION:
        return standard_icon(QStyle.StandardPixmap.SP_DirIcon)
    if role in (TOOLTIP, PATH_ROLE, STATUS_TIP):
        assert node.root is not None
        return str(node.root.path / node.relative)
    if role == KIND_ROLE:
        return "folder"
    if role == COUNTED_ROLE:
        return (f"{group_label(node.relative)} (", f"{len(node.children):,}", ")")
    return None


def file_data(node: FileNode, role: int) -> Any:
    skill = node.skill
    assert skill is not None and skill.summary is not None
    if role == DISPLAY:
        return node.relative.name + ("/" if node.is_dir else "")
    if role == DECORATION:
        return standard_icon(QStyle.StandardPixmap.SP_DirIcon if node.is_dir
                             else QStyle.StandardPixmap.SP_FileIcon)
    if role in (TOOLTIP, PATH_ROLE):
        return str(skill.summary.directory / node.relative)
    if role == KIND_ROLE:
        return "dir" if node.is_dir else "file"
    if role == SUMMARY_ROLE:
        return skill.summary
    return None

# -- following the library ----------------------------------------------------------------------


def root_labels(paths: list[Path]) -> list[str]:
    """How each root is named in the window: its folder's name, or, where roots share it, the
    shortest end of its path that no other root's path ends with (`work/skills`, `home/skills`).
    """
    labels = []
    for path in paths:
        parts = path.parts
        others = [other.parts for other in paths if other != path]
        size = 1
        while size < len(parts) and any(other[-size:] == parts[-size:] for other in others):
            size += 1
        tail = parts[-size:]
        labels.append(str(PurePosixPath(*tail)) if tail and tail != parts else str(path))
    return labels


def filter_text(summary: SkillSummary, origin: str | None = None) -> str:
    """What the library filter searches: name, description, folder name, who drafted or changed
    it and the URL the skill was installed from, lowercased."""
    text = f"{summary.display_name}\n{summary.description or ''}\n{summary.directory.name}"
    authors = {who for who in (summary.created_by, summary.updated_by) if who}
    if authors:
        text += "\n" + "\n".join(sorted(authors))
    return (text + f"\n{origin}" if origin else text).lower()

