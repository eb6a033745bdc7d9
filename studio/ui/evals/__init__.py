"""The Evals tab of a skill: its eval files in tables, runs with and without the skill, results
with their transcripts, the pass rate per version, and description variants."""
