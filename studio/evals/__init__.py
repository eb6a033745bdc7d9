"""Skill evals, Qt-free: does the model pick the skill when it should, and does the job get done.

`files` reads skill-creator's `evals/evals.json` and `evals/triggers.json`; `checks` grades the
structured expectations from a run's trace and `grader` the plain sentences with a model;
`runner` runs trigger queries and outcome evals through the core chat session, `cache` keeps
their results by the skill's content hash, the model and the eval; `improve` proposes
description variants from trigger failures and holds out a share of the queries to judge them.
"""
