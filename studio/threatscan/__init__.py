"""The skill scanner: every file of a skill read, code understood (Python with `ast`, shell with
the policy's parser, JavaScript with a light tokenizer), manifests checked, text that hides or
lies found, and each finding ranked (`critical` to `info`) with a confidence and its evidence.

`studio scan`, `studio validate --threats` and the install preview read skills through this
door. No Qt here."""

from studio.threatscan.files import MAX_FILE_BYTES, MAX_FILES, MAX_TOTAL_BYTES
from studio.threatscan.findings import LEVELS, Finding, rank
from studio.threatscan.registry import RULES, Rule
from studio.threatscan.report import TITLES, preview_lines, render, report_json, report_sarif
from studio.threatscan.scanner import SkillScan, scan_file, scan_skill, scan_text, skill_folders

__all__ = [
    "LEVELS",
    "MAX_FILES",
    "MAX_FILE_BYTES",
    "MAX_TOTAL_BYTES",
    "RULES",
    "TITLES",
    "Finding",
    "Rule",
    "SkillScan",
    "preview_lines",
    "rank",
    "render",
    "report_json",
    "report_sarif",
    "scan_file",
    "scan_skill",
    "scan_text",
    "skill_folders",
]
