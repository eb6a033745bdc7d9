"""The Library panel: a filter box above the tree of roots, skills and their files.

The tree shows each skill by its name, under its repository folder or, in the flat view (the
Flat button, View > Flat Library List), in one list of the root's skills sorted by name; it shows
the library model itself, and a filter proxy over it only while a filter is typed:
a proxy multiplies the calls into the model when a view lays out thousands of rows. In search
mode (the Search button), the box searches names, descriptions and instructions instead, and a
ranked list of results with their matching words replaces the tree.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from PySide6.QtCore import QModelIndex, QPoint, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QStackedWidget,
    QToolBar,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from studio.skills import SPEC, SkillSummary
from studio.skills.search import SearchHit, SearchOutcome
from studio.ui.library.filter_judge import ALL, DRAFTED, ERRORS, WARNINGS
from studio.ui.library.filter_keys import FilterKeys
from studio.ui.library.folder_tip import FolderTip
from studio.ui.library.library_delegate import LibraryDelegate
from studio.ui.library.library_filter import LibraryFilter
from studio.ui.library.library_model import LibraryModel
from studio.ui.library.library_rows import KIND_ROLE, PATH_ROLE, SUMMARY_ROLE
from studio.ui.library.match_opener import MatchOpener
from studio.ui.library.more_rows import MoreRows
from studio.ui.library.search_results import HIT_ROLE, SearchResultsModel
from studio.ui.library.target_picker import TargetPicker
from studio.ui.library.tree_menus import context_menu
from studio.ui.numbers import count_text
from studio.ui.selector import Selector

FILTER_DELAY_MS = 120


class LibraryPanel(QWidget):
    """Browse the library.

    Signals:
        skill_activated: (SkillSummary) a skill was double-clicked or Enter was pressed on it.
        file_activated: (SkillSummary, Path) a file of a skill was activated.
        search_requested: (str) the search box's text settled in search mode.
        target_requested: (Path, str) the user picked the validation target of a root.
        update_requested, remove_requested: (Path) Update or Remove… for an installed skill.
        sync_requested, check_requested: (Path) Sync or Check for a root with a lock file.
    """

    skill_activated = Signal(object)
    file_activated = Signal(object, Path)
    search_requested = Signal(str)
    target_requested = Signal(Path, str)
    update_requested = Signal(Path)
    remove_requested = Signal(Path)
    sync_requested = Signal(Path)
    check_requested = Signal(Path)

    def __init__(self, model: LibraryModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.proxy = LibraryFilter(self)
        self.proxy.setSourceModel(model)

        self.toolbar = QToolBar()
        self.toolbar.setIconSize(QSize(16, 16))
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter by name or description (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.status_filter = Selector()
        for label, status in (("All", ALL), ("Errors only", ERRORS), ("Warnings only", WARNINGS),
                              ("Drafted by a model", DRAFTED)):
            self.status_filter.addItem(label, status)
        self.status_filter.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.status_filter.setMinimumContentsLength(8)
        self.status_filter.setToolTip("Show every skill, only skills with errors, only valid "
                                      "skills with warnings, or only skills a model drafted or "
                                      "changed (type a model's name to filter by it)")
        self.search_button = QToolButton()
        self.search_button.setText("Search")
        self.search_button.setCheckable(True)
        self.search_button.setToolTip("Search names, descriptions and instructions, ranked by "
                                      "relevance, instead of filtering by name")
        self.results = SearchResultsModel(self)
        self.results_view = QListView()
        self.results_view.setModel(self.results)
        self.results_view.setWordWrap(True)
        self.results_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.results_view.setAlternatingRowColors(True)
        self.target_picker = TargetPicker()
        self.count_label = QLabel()
        self.count_label.setObjectName("libraryCount")
        # A long count (the ranking, and the embedding's progress) wraps rather than widening
        # the panel.
        self.count_label.setWordWrap(True)
        self.tree = QTreeView()
        self.tree.setModel(model)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        # Names and folders of a collection share their beginnings (`owner--repo/skills/...`,
        # `pdf-...`): the middle goes, so the ends that tell them apart stay.
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setAnimated(False)
        self.tree.setExpandsOnDoubleClick(False)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.setItemDelegate(LibraryDelegate(self.tree))
        # Hovering a row puts its folder in the window's status bar (its status tip).
        self.tree.setMouseTracking(True)
        self._folder_tip = FolderTip(self.tree, self)
        self.flat_action = QAction("&Flat Library List", self)
        self.flat_action.setIconText("Flat")
        self.flat_action.setCheckable(True)
        self.flat_action.setToolTip("List each root's skills in one list sorted by name, with "
                                    "their repository beside the name, instead of under their "
                                    "repository folders")
        self.flat_action.setStatusTip(self.flat_action.toolTip())
        self.flat_button = QToolButton()
        self.flat_button.setDefaultAction(self.flat_action)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        # The status choice sits by the toolbar: beside the box it left the box 60 px at the
        # dock's usual width, too little to read a query.
        top_row = QHBoxLayout()
        top_row.addWidget(self.toolbar, 1)
        top_row.addWidget(self.status_filter)
        layout.addLayout(top_row)
        box_row = QHBoxLayout()
        box_row.setSpacing(4)
        box_row.addWidget(self.filter_edit, 1)
        box_row.addWidget(self.search_button)
        box_row.addWidget(self.flat_button)
        layout.addLayout(box_row)
        layout.addWidget(self.target_picker)
        self.views = QStackedWidget()
        self.views.addWidget(self.tree)
        self.views.addWidget(self.results_view)
        layout.addWidget(self.views, 1)
        layout.addWidget(self.count_label)

        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self._on_filter_timer_timeout)
        self._filter_before_search = ""
        self._search_summary = ""
        self.opener = MatchOpener(self.tree, self.proxy, model)
        self.more_rows = MoreRows(self.tree, self.proxy, model)
        self.proxy.filter_settling.connect(self._on_proxy_filter_settling)
        self.proxy.filter_settled.connect(self._on_proxy_filter_settled)
        self.filter_edit.textChanged.connect(self._on_filter_edit_text_changed)
        self.status_filter.currentIndexChanged.connect(self.apply_filter)
        self.search_button.toggled.connect(self._on_search_button_toggled)
        self.flat_action.toggled.connect(self._on_flat_action_toggled)
        self.results_view.activated.connect(self._on_results_view_activated)
        self.tree.activated.connect(self._on_tree_activated)
        self.model.rowsInserted.connect(self._on_model_rows_inserted_or_removed)
        self.model.rowsRemoved.connect(self._on_model_rows_inserted_or_removed)
        self.model.dataChanged.connect(self._on_model_rows_changed)
        self.model.dataChanged.connect(self._on_model_data_changed)
        self.last_menu: QMenu | None = None  # the context menu shown last (tests read it)
        self.tree.customContextMenuRequested.connect(self._on_tree_custom_context_menu_requested)
        self.target_picker.target_picked.connect(self.target_requested)
        self._filter_keys = FilterKeys(self.filter_edit, self.views, self._settle_filter,
                                       self._open_index)
        # Tab follows the eye down from the box to the list, then the buttons and choices.
        chain = (self.filter_edit, self.tree, self.results_view, self.search_button,
                 self.flat_button, self.status_filter, self.target_picker.combo)
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)
        self._watch_current()
        self._update_count()

    def apply_filter(self) -> None:
        self._filter_timer.stop()
        self.proxy.set_filter(self.filter_edit.text(),
                              str(self.status_filter.currentData() or ALL))

    def _on_proxy_filter_settling(self) -> None:
        # The proxy then changes with no view over it: a view would hear of each row it hides
        # or shows, one parent at a time (seconds on thousands of skills).
        self._show_in_tree(self.model)

    def _on_proxy_filter_settled(self) -> None:
        if self.proxy.active:
            self._show_in_tree(self.proxy)
            self._open_matches()
        self._update_count()

    def _show_in_tree(self, shown: LibraryModel | LibraryFilter) -> None:
        if self.tree.model() is shown:
            return
        current = self.selected_summary()
        self.tree.setModel(shown)
        self._watch_current()
        if shown is self.model:
            for node in self.model.roots():
                self.tree.expand(self.model.index_of(node))
        if current is not None:
            self.select_skill(current.directory)

    def _open_matches(self) -> None:
        """Under a filter, the roots and repository folders open (not the skills, whose files
        would be listed): the matches show."""
        self.opener.open_all()

    def _on_flat_action_toggled(self, flat: bool) -> None:
        current = self.selected_summary()
        # The roots open before stay open (those the user opened, however many rows they hold).
        opened = [node.path for node in self.model.roots()
                  if self.tree.isExpanded(self._to_view(self.model.index_of(node)))]
        self.model.set_flat(flat)
        for path in opened:
            self.expand_root(path)
        if self.proxy.active:
            self._open_matches()
        if current is not None:
            self.select_skill(current.directory)

    @property
    def searching(self) -> bool:
        return self.search_button.isChecked()

    def _on_filter_timer_timeout(self) -> None:
        if self.searching:
            self.search_requested.emit(self.filter_edit.text())
        else:
            self.apply_filter()

    def _on_search_button_toggled(self, on: bool) -> None:
        self._filter_timer.stop()
        if on:
            # The box searches with what it holds; the filter comes back as it was.
            self._filter_before_search = self.filter_edit.text()
            self.filter_edit.setPlaceholderText("Search names, descriptions and instructions")
            # The status choice does not apply to a search.
            self.status_filter.hide()
            self._show_in_tree(self.model)
            self.proxy.set_text("")
            self.views.setCurrentWidget(self.results_view)
            self.filter_edit.setFocus()
            self.search_requested.emit(self.filter_edit.text())
        else:
            self.filter_edit.setPlaceholderText("Filter by name or description (Ctrl+F)")
            self.status_filter.show()
            self.results.set_hits([])
            self.views.setCurrentWidget(self.tree)
            self.filter_edit.blockSignals(True)
            self.filter_edit.setText(self._filter_before_search)
            self.filter_edit.blockSignals(False)
            self.apply_filter()

    def show_search_results(self, outcome: SearchOutcome | None, progress: str = "") -> None:
        """Show a search's hits (None: the box is empty), unless search mode was left meanwhile;
        the count says which ranking was used, and `progress` what is still being prepared."""
        if not self.searching:
            return
        self.results.set_hits(outcome.hits if outcome is not None else [])
        if outcome is None:
            self._search_summary = "Type what the skill should do"
            self.count_label.setToolTip("")
        else:
            found = len(outcome.hits)
            how = "words + meaning" if outcome.mode != "lexical" else "words only"
            self._search_summary = (f"{found} skill{'s' * (found != 1)} found, ranked by {how}"
                                    if found else "No skill matches")
            self.count_label.setToolTip(outcome.note or "")
        self.show_search_progress(progress)

    def show_search_progress(self, progress: str) -> None:
        """What the search is still preparing (embedding the library for meaning), after the
        results' count; empty when nothing is."""
        if self.searching:
            tail = f"({progress})" if progress else ""
            self.count_label.setText(f"{self._search_summary} {tail}".strip())

    def show_search_status(self, text: str) -> None:
        if self.searching:
            self.count_label.setText(text)

    def _on_results_view_activated(self, index: QModelIndex) -> None:
        hit = index.data(HIT_ROLE)
        if not isinstance(hit, SearchHit):
            return
        summary = self.model.library.summary_for(hit.path)
        if summary is not None:
            self.skill_activated.emit(summary)

    def focus_filter(self) -> None:
        self.filter_edit.setFocus()
        self.filter_edit.selectAll()

    def _to_view(self, index: QModelIndex) -> QModelIndex:
        return self.proxy.mapFromSource(index) if self.tree.model() is self.proxy else index

    def selected_summary(self) -> SkillSummary | None:
        index = self.tree.currentIndex()
        summary = index.data(SUMMARY_ROLE) if index.isValid() else None
        return summary if isinstance(summary, SkillSummary) else None

    def selected_root(self) -> Path | None:
        index = self.tree.currentIndex()
        while index.isValid() and index.data(KIND_ROLE) != "root":
            index = index.parent()
        return Path(index.data(PATH_ROLE)) if index.isValid() else None

    def expand_root(self, path: Path) -> None:
        node = self.model.root_node(path)
        if node is not None:
            self.tree.expand(self._to_view(self.model.index_of(node)))

    def select_skill(self, directory: Path) -> None:
        index = self._to_view(self.model.skill_index(directory))
        if not index.isValid():
            return
        parent = index.parent()
        while parent.isValid():
            self.tree.expand(parent)
            parent = parent.parent()
        self.tree.setCurrentIndex(index)
        self.tree.scrollTo(index)

    def _update_count(self) -> None:
        if self.searching:
            return
        total = self.model.skill_count
        roots = len(self.model.roots())
        if self.proxy.active:
            shown = self.proxy.match_count
            self.count_label.setText(f"{count_text(shown)} of {count_text(total)} skills match")
        else:
            self.count_label.setText(f"{count_text(total)} skill{'s' * (total != 1)} in "
                                     f"{roots} root{'s' * (roots != 1)}")

    def _on_model_rows_inserted_or_removed(self) -> None:
        self._update_count()
        self._show_target()

    def _on_model_rows_changed(self) -> None:
        self._update_count()

    # -- the validation target of the selected root ----------------------------------------------------

    def _watch_current(self) -> None:
        """Follow the tree's current row (its selection model is new with each model shown)."""
        self.tree.selectionModel().currentChanged.connect(self._on_tree_current_changed)
        self._show_target()

    def _target_root(self) -> Path | None:
        """The root the picker is for: the selected one, else the only one."""
        selected = self.selected_root()
        if selected is not None:
            return selected
        roots = self.model.library.roots()
        return roots[0].path if len(roots) == 1 else None

    def _show_target(self) -> None:
        path = self._target_root()
        state = self.model.library.root(path) if path is not None else None
        self.target_picker.show_root(path if state is not None else None,
                                     state.target if state is not None else SPEC)

    def _on_tree_current_changed(self, _current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_target()
        self._folder_tip.show_current()

    def _on_model_data_changed(self, top_left: QModelIndex, _bottom_right: QModelIndex) -> None:
        if top_left.data(KIND_ROLE) == "root":
            self._show_target()

    def _on_tree_custom_context_menu_requested(self, point: QPoint) -> None:
        menu = context_menu(self, self.tree.indexAt(point), self.model.library, self)
        if menu is not None:
            self.last_menu = menu
            menu.popup(self.tree.viewport().mapToGlobal(point))

    def _settle_filter(self) -> None:
        if self._filter_timer.isActive() and not self.searching:
            self.apply_filter()

    def _open_index(self, index: QModelIndex) -> None:
        if self.searching:
            self._on_results_view_activated(index)
        else:
            self._on_tree_activated(index)

    def _on_filter_edit_text_changed(self, _text: str) -> None:
        self._filter_timer.start()

    def _on_tree_activated(self, index: QModelIndex) -> None:
        kind = index.data(KIND_ROLE)
        summary = index.data(SUMMARY_ROLE)
        if kind == "skill":
            self.skill_activated.emit(summary)
        elif kind == "file":
            self.file_activated.emit(summary, Path(index.data(PATH_ROLE)))
        elif kind in ("root", "folder", "dir"):
            self.tree.setExpanded(index, not self.tree.isExpanded(index))
