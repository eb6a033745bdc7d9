"""Routing conflicts: overlapping descriptions found through rare shared terms (and meaning, with
the local embedding model), and trigger queries of one skill that load another."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx

from studio.evals.conflicts import cross_triggers, description_overlaps
from studio.skills.checks.evalfiles import TriggerQuery
from studio.skills.scan.targets import scan
from tests.evals.test_eval_runner import make_runner, report_for
from tests.fakes.fixtures import TOOL_MODEL
from tests.fakes.ollama import FakeOllama
from tests.fakes.script import Call, calls, reply
from tests.skills.helpers import frontmatter, write_skill

SOURCE_ROOT = Path(__file__).resolve().parents[2]
FILLER = ("tide-tables", "Reads tide tables for a harbour. Use when asked about high water."), (
    "recipe-scaler", "Scales a recipe to a number of servings. Use when cooking for more people."), (
    "commit-lint", "Checks commit messages against Conventional Commits. Use before a push."), (
    "font-pairs", "Suggests pairs of typefaces for a design. Use when choosing fonts."), (
    "dns-check", "Looks up the DNS records of a domain and explains them. Use for domain setup.")


def library(tmp_path: Path) -> Path:
    root = tmp_path / "library"
    write_skill(root, "invoice-pdf", frontmatter(
        "invoice-pdf", "Extracts line items and totals from invoice PDF files. Use when the user "
        "has an invoice PDF to read."))
    write_skill(root, "pdf-invoices", frontmatter(
        "pdf-invoices", "Reads invoice PDF files and extracts their line items and totals. Use for "
        "invoice PDFs."))
    for name, description in FILLER:
        write_skill(root, name, frontmatter(name, description))
    return root


def test_two_skills_saying_the_same_are_one_overlap(tmp_path: Path) -> None:
    skills = scan([library(tmp_path)]).skills
    [overlap] = description_overlaps(skills)
    assert {overlap.first.name, overlap.second.name} == {"invoice-pdf", "pdf-invoices"}
    assert {"invoic", "pdf"} <= set(overlap.shared)


async def test_a_query_of_one_skill_that_loads_another_is_reported(
    fake_ollama: FakeOllama, http_client: httpx.AsyncClient, tmp_path: Path
) -> None:
    skills = [s for s in scan([library(tmp_path)]).skills if s.name in ("invoice-pdf", "tide-tables")]
    fake_ollama.script(calls(Call("activate_skill", {"name": "pdf-invoices"})), reply("Low tide at 3."))
    queries = {"invoice-pdf": [TriggerQuery("total of this invoice.pdf?", True),
                               TriggerQuery("what is 2+2", False)],
               "tide-tables": [TriggerQuery("high water at Brest?", True)]}
    crossed = await cross_triggers(make_runner(fake_ollama, http_client, tmp_path), skills, queries,
                                   report_for(skills[0]))
    assert [(c.owner.name, c.loaded, c.query) for c in crossed] == [
        ("invoice-pdf", "pdf-invoices", "total of this invoice.pdf?")]
    assert len(fake_ollama.chats) == 2   # should-not queries are not asked


def test_studio_eval_conflicts_names_both_skills(tmp_path: Path) -> None:
    root = library(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "studio", "eval", "--conflicts", "--descriptions-only", "--no-embed",
         "--json", "--model", TOOL_MODEL, str(root)],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(SOURCE_ROOT)})
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["skills"] == 7
    [overlap] = report["overlaps"]
    assert {overlap["first"]["name"], overlap["second"]["name"]} == {"invoice-pdf", "pdf-invoices"}
    assert overlap["first"]["path"].startswith(str(root))
