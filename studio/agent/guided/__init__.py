"""Guided runs: a small model carried through a skill one constrained step at a time (`replies`),
the arguments of the script it runs (`arguments`: word affinity for a tiny model; `values` and
`fill`: a schema from the skill's own words for one that fills it, with the message's dates and
durations as the skill writes them (`dates`, `durations`) and the columns of a table file it
names (`columns`)), the repair step after a failed run (`repair`), the answer (`answer`), and
when to guide at all (`mode`)."""
