"""`studio eval` over the example skills on one scripted server against the same run spread over
two, in turns, with the reports compared.

    python benchmarks/eval_servers.py [--latency 1.0] [--runs 2] [--turns 3]

Two stand-in Ollama servers (tests/fakes) answer every request after `--latency` seconds, the
way a model server spends its time generating: a trigger query with a call of the skill whose name
the query shares most words with, anything else with a short answer. The work is the studio's
(sessions, policy, sandboxed runs, grading), the model's time is the latency. Each turn runs
`studio eval skills/* --json --no-cache --runs N` once with `--url A` and once with
`--url A --server B`; it prints the seconds of each, their ratio, and whether the two reports
agree (every figure but timings and the model's address).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.fakes.fixtures import OLLAMA_MODELS, TOOL_MODEL  # noqa: E402
from tests.fakes.ollama import FakeOllama  # noqa: E402
from tests.fakes.script import Call, Pause, Text, Turn  # noqa: E402

SKILLS = sorted(p for p in (ROOT / "skills").iterdir() if (p / "SKILL.md").is_file())
_WORD = re.compile(r"[a-z]+")


def responder(latency: float) -> Any:
    names = [skill.name for skill in SKILLS]

    def answer(body: dict[str, Any]) -> Turn:
        last = body["messages"][-1]
        if last["role"] == "user" and body.get("tools"):
            words = set(_WORD.findall(last["content"].lower()))
            best = max(names, key=lambda name: len(words & set(name.split("-"))))
            if words & set(best.split("-")):
                return Turn([Pause(latency), Call("activate_skill", {"name": best})])
        return Turn([Pause(latency), Text("Here is the answer: done.")])

    return answer


def studio_eval(urls: list[str], runs: int, home: Path) -> tuple[float, list[dict[str, Any]]]:
    command = [sys.executable, "-m", "studio", "eval", *map(str, SKILLS), "--json", "--no-cache",
               "--model", TOOL_MODEL, "--runs", str(runs), "--approve", "deny", "--url", urls[0]]
    for url in urls[1:]:
        command += ["--server", url]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(home),
           "STUDIO_DATA_DIR": str(home / "data"), "STUDIO_CACHE_DIR": str(home / "cache"),
           "STUDIO_CONFIG_DIR": str(home / "config")}
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL,
                          check=False, cwd=home)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"studio eval failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return seconds, [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def comparable(reports: list[dict[str, Any]]) -> str:
    def scrub(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: scrub(v) for k, v in value.items()
                    if k not in ("seconds", "model", "transcript", "trace")}
        if isinstance(value, list):
            return [scrub(v) for v in value]
        return value

    return json.dumps(scrub(reports), sort_keys=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--turns", type=int, default=3)
    args = parser.parse_args()
    servers = [FakeOllama(OLLAMA_MODELS) for _ in range(2)]
    for server in servers:
        server.responder = responder(args.latency)
        server.start()
    home = Path(os.environ.get("TMPDIR", "/tmp")) / f"eval-servers-{os.getpid()}"
    home.mkdir(parents=True, exist_ok=True)
    one: list[float] = []
    two: list[float] = []
    agree = True
    try:
        for turn in range(1, args.turns + 1):
            seconds_one, reports_one = studio_eval([servers[0].url], args.runs, home)
            seconds_two, reports_two = studio_eval([s.url for s in servers], args.runs, home)
            one.append(seconds_one)
            two.append(seconds_two)
            same = comparable(reports_one) == comparable(reports_two)
            agree = agree and same
            print(f"turn {turn}: one server {seconds_one:.1f} s, two servers {seconds_two:.1f} s, "
                  f"reports {'agree' if same else 'DIFFER'}", flush=True)
    finally:
        for server in servers:
            server.stop()
    requests = sum(len(server.chats) for server in servers)
    print(f"{len(SKILLS)} skills, --runs {args.runs}, latency {args.latency} s per request, "
          f"{requests} requests in all; load average {os.getloadavg()[0]:.1f}")
    print(f"median: one server {statistics.median(one):.1f} s, two servers "
          f"{statistics.median(two):.1f} s, ratio {statistics.median(two) / statistics.median(one):.2f}; "
          f"reports {'identical' if agree else 'DIFFERENT'}")
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
