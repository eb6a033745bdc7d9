"""A scan's report as text, JSON or SARIF 2.1.0 (what code-scanning services read)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from studio import __version__
from studio.textshow import shown, shown_json, shown_line
from studio.threatscan.findings import LEVELS, rank
from studio.threatscan.scanner import SkillScan, scan_skill
from studio.threatscan.verdict import JudgeRun

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# What each code means, for SARIF's rule list and a reader of the text report (docs/codes.md
# says more).
TITLES = {
    "SK501": "invisible character", "SK502": "hidden HTML comment", "SK503": "download run in a shell",
    "SK504": "encoded code run", "SK505": "data sent out", "SK506": "credentials read",
    "SK507": "file not read", "SK508": "code that cannot be read", "SK510": "code built at run time run",
    "SK512": "downloaded code run", "SK513": "secrets sent over the network",
    "SK514": "persistence write", "SK515": "destructive delete", "SK516": "reverse shell",
    "SK517": "resource exhaustion", "SK518": "install hook", "SK519": "other package source",
    "SK520": "unpinned requirement", "SK521": "lookalike package name",
    "SK522": "text hidden from a reader", "SK523": "base64 in prose",
    "SK524": "instructions to conceal, claim authority or act unseen",
    "SK525": "a model judge calls the skill malicious or suspicious",
    "SK526": "the model judge gave no usable verdict",
}
_SARIF_LEVEL = {"critical": "error", "high": "error", "medium": "warning", "low": "note",
                "info": "note"}


def _relative(scan: SkillScan, file: str) -> str:
    base = str(scan.path)
    return file if base == "." else f"{base}/{file}" if file != "." else base


def render_text(scans: Sequence[SkillScan], minimum: str = "info", judge: JudgeRun | None = None) -> str:
    """One line per finding and its evidence under it. Every value a skill's files gave (a
    path, a message quoting them, the evidence) is shown, never obeyed: an escape sequence, a
    carriage return or a bidi control in it could rewrite the lines a terminal shows."""
    lines: list[str] = []
    for scan in scans:
        for f in scan.findings:
            if rank(f.severity) < rank(minimum):
                continue
            lines.append(f"{shown_line(_relative(scan, f.file))}:{f.line}:{f.column}: "
                         f"{f.severity} {f.code} {shown_line(f.message)} "
                         f"(confidence {f.confidence:.1f})")
            if f.evidence:
                lines.append(f"    {shown_line(f.evidence)}")
    counts = {level: sum(1 for s in scans for f in s.findings if f.severity == level) for level in LEVELS}
    flagged = sum(1 for s in scans if s.at_least("high"))
    tally = ", ".join(f"{counts[level]} {level}" for level in reversed(LEVELS) if counts[level])
    lines.append(f"{len(scans)} skill{'s' if len(scans) != 1 else ''} scanned, {flagged} with a "
                 f"finding at high or above; findings: {tally or 'none'}")
    if judge is not None:
        lines.append(judge_line(scans, judge))
    return "\n".join(lines) + "\n"


def judge_line(scans: Sequence[SkillScan], judge: JudgeRun) -> str:
    """What the judge said, counted by verdict, and what it did not get to."""
    said = [scan.judge.verdict for scan in scans if scan.judge is not None]
    counts = [f"{said.count(verdict)} {verdict}" for verdict in ("malicious", "suspicious", "benign")]
    counts.append(f"{said.count(None)} no usable verdict")
    line = f"judge {shown(judge.model) or '(none)'} ({judge.backend}): {', '.join(counts)}"
    missing = len(scans) - len(said)
    if missing:
        why = "stopped by the user" if judge.interrupted else (judge.stopped or "not run")
        line += f"; {missing} not judged ({shown(' '.join(why.split()))})"
    return line


def report_json(scans: Sequence[SkillScan], judge: JudgeRun | None = None) -> dict[str, Any]:
    report: dict[str, Any] = {"skills": [scan.to_json() for scan in scans]}
    if judge is not None:
        report["judge"] = judge.to_json()
    return report


def report_sarif(scans: Sequence[SkillScan], judge: JudgeRun | None = None) -> dict[str, Any]:
    codes = sorted({f.code for s in scans for f in s.findings} | set(TITLES))
    rules = [{"id": code, "name": TITLES.get(code, code).replace(" ", "-"),
              "shortDescription": {"text": TITLES.get(code, code)},
              "helpUri": "https://github.com/skill-studio/skill-studio/blob/main/docs/codes.md"}
             for code in codes]
    index = {code: position for position, code in enumerate(codes)}
    results = []
    for scan in scans:
        for f in scan.findings:
            results.append({
                "ruleId": f.code,
                "ruleIndex": index[f.code],
                "level": _SARIF_LEVEL[f.severity],
                "message": {"text": f.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": _relative(scan, f.file).replace(os.sep, "/")},
                    "region": {"startLine": max(1, f.line), "startColumn": max(1, f.column)},
                }}],
                "properties": {"severity": f.severity, "confidence": round(f.confidence, 2),
                               "evidence": f.evidence},
            })
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "studio scan", "version": __version__,
                            "informationUri": "https://github.com/skill-studio/skill-studio",
                            "rules": rules}},
        "results": results,
    }
    if judge is not None:
        run["properties"] = {"judge": judge.to_json()}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render(scans: Sequence[SkillScan], output: str, judge: JudgeRun | None = None) -> str:
    """The report in `output`'s format; with the run's `judge`, its model in the metadata.
    JSON and SARIF keep every value exact, a character a terminal would obey as its `\\u`
    escape (`json.dumps` leaves C1 controls and bidi controls as they are)."""
    if output == "json":
        return shown_json(json.dumps(report_json(scans, judge), ensure_ascii=False, indent=2)) + "\n"
    if output == "sarif":
        return shown_json(json.dumps(report_sarif(scans, judge), ensure_ascii=False, indent=2)) + "\n"
    return render_text(scans, judge=judge)


def preview_lines(skills: Iterable[tuple[str, Path]], minimum: str = "low") -> list[str]:
    """The findings of the skills an install would add (folder name, where it is staged), worst
    first, as the lines that head its preview: empty when there are none at `minimum` or above.
    What the skill's files gave is shown, never obeyed (see `render_text`)."""
    lines: list[str] = []
    for folder, staged in skills:
        scan = scan_skill(staged)
        lines.extend(f"  {shown_line(folder)}/{shown_line(f.file)}:{f.line}:{f.column}: "
                     f"{f.severity} {f.code} {shown_line(f.message)}"
                     for f in scan.findings if rank(f.severity) >= rank(minimum))
    if not lines:
        return []
    count = f"{len(lines)} threat finding{'s' if len(lines) != 1 else ''}"
    return [f"Read before installing: {count} (see docs/security-content.md):", *lines]
