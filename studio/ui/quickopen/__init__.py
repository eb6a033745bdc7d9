"""Quick Open (Ctrl+P, a skill by name across every root) and the command palette (Ctrl+Shift+P,
any action of the window by name), with the fuzzy matching they share."""

from studio.ui.quickopen.fuzzy import Matcher
from studio.ui.quickopen.quick_open import QuickOpen

__all__ = ["Matcher", "QuickOpen"]
