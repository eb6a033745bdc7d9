"""Editing text in the studio, without Qt: frontmatter edits, offsets between Python and Qt,
copies of unsaved edits kept for recovery after a crash.

The front door: other packages import what they use from here, never from the modules inside
(an import-linter contract keeps it so). Names load on first use (`studio.frontdoor`)."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studio.editing.fix_batch import (
        BatchPlan,
        BatchResult,
        FileChange,
        LeftOut,
        Target,
        apply_one,
        plan_one,
        undo_one,
    )
    from studio.editing.frontmatter_edit import set_field, set_flag, set_metadata, set_metadata_entry
    from studio.editing.recovery import (
        DiskState,
        Kind,
        OpenTab,
        RecoveredEntry,
        RecoveryRecord,
        RecoveryStore,
        RecoveryWriter,
        Unreadable,
        record_key,
        text_digest,
    )
    from studio.editing.textsync import changed_range, qt_position, utf16_length

__all__ = [
    "BatchPlan",
    "BatchResult",
    "DiskState",
    "FileChange",
    "Kind",
    "LeftOut",
    "OpenTab",
    "RecoveredEntry",
    "RecoveryRecord",
    "RecoveryStore",
    "RecoveryWriter",
    "Target",
    "Unreadable",
    "apply_one",
    "changed_range",
    "plan_one",
    "qt_position",
    "record_key",
    "set_field",
    "set_flag",
    "set_metadata",
    "set_metadata_entry",
    "text_digest",
    "undo_one",
    "utf16_length",
]


def __getattr__(name: str) -> object:
    from studio.frontdoor import load  # here: importing the door loads nothing (see there)
    return load(__name__, name)
