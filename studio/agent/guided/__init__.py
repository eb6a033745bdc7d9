"""Guided runs: a small model carried through a skill one constrained step at a time, the
arguments of the script it runs, and when to guide at all."""
