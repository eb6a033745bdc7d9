"""The skill scanner: every file of a skill read, code understood (Python with `ast`, shell with
the policy's parser, JavaScript with a light tokenizer), manifests checked, text that hides or
lies found, and each finding ranked (`critical` to `info`) with a confidence and its evidence.

`studio scan`, `studio validate --threats`, the install preview and the approval of a script's
first run read skills through this door; its rules are a registry (`registry.RULES`). A model
judge's request (`judge_request`) and the reading of its answer (`read_verdict`) are here too;
talking to the model is the command's. No Qt here."""

from studio.threatscan.cache import CACHE_FILE, ThreatCache
from studio.threatscan.findings import LEVELS, Finding, rank
from studio.threatscan.judge import judge_request
from studio.threatscan.report import preview_lines, render
from studio.threatscan.scanner import (
    ScannedSkill,
    SkillScan,
    scan_file,
    scan_skill,
    scan_skills,
    scan_text,
    skill_folders,
)
from studio.threatscan.verdict import JudgeRun, read_verdict

__all__ = [
    "CACHE_FILE",
    "LEVELS",
    "Finding",
    "JudgeRun",
    "ScannedSkill",
    "SkillScan",
    "ThreatCache",
    "judge_request",
    "preview_lines",
    "rank",
    "read_verdict",
    "render",
    "scan_file",
    "scan_skill",
    "scan_skills",
    "scan_text",
    "skill_folders",
]
