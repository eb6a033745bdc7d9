"""Count the instructions a validate worker spends on each phase of its work, under callgrind.

    python benchmarks/validate_instructions.py ROOT [--phase all|walk|read|parse|rules|threats|render]
                                               [--checkout DIR] [--keep DIR]

A worker of `studio validate --format json --no-cache` walks a root's folders, reads each skill
(lists its files, reads SKILL.md and parses it), runs the rules and renders its part of the
report. This runs one phase on every skill below ROOT (a fixed sample, copied once) in one
process under `valgrind --tool=callgrind`, collecting only inside a `functools.reduce` that
runs that phase (`--toggle-collect=functools_reduce`), so imports, start-up and the phases
before it are not counted; `parse` is the parse alone, on bytes read before; `threats` the
threat rule alone (SK5xx, part of `rules`). It prints the
instructions in all and a skill. `PYTHONHASHSEED=0`: runs of the same code agree within 0.1%
(the walk alone within 0.6%). `--checkout` counts another checkout of the code (the code
before a change) the same way (`python -P`: without it `-c` put the working folder first on
the path, and a run from a checkout counted that checkout whatever `--checkout` said); `--keep`
keeps callgrind's output there for `callgrind_annotate`.

Wall and CPU time move with the machine's load; instruction counts do not, so before/after
comparisons on a shared machine use this.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PHASES = ("all", "walk", "read", "parse", "rules", "threats", "render")

# Run inside the measured process: the phases before the one counted run outside the reduce.
_PROGRAM = r'''
import functools, sys
from pathlib import Path
from studio.commands.validate_report import render
from studio.skills import SPEC
from studio.skills.checks.validate import validate_skill
from studio.skills.files import load_skill_file
from studio.skills.parse import parse_skill
from studio.skills.scan.entries import checked
from studio.skills.scan.roots import SkillRoot
from studio.skills.scan.units import _walk, walk_units
from studio.skills.scan.walk import walk_skills

phase, root = sys.argv[1], SkillRoot(Path(sys.argv[2]))
units = []
list(walk_skills(root.path, False, [], [], "none", units=units))
count = len(_walk(units, root, ())[0])
def run(step):
    return functools.reduce(lambda _, each: each(), [step], None)
if phase == "all":
    piece = run(lambda: walk_units(units, root, SPEC, (), functools.partial(render, True)))
    assert piece.skills == count
    print("skills", count)
    sys.exit(0)
found = run(lambda: _walk(units, root, ())[0]) if phase == "walk" else _walk(units, root, ())[0]
print("skills", len(found))
if phase == "walk":
    sys.exit(0)
load = lambda: [load_skill_file(f.folder, f.skill_name, f.listing, sizes=False) for f in found]
if phase == "parse":
    data = [Path(f.folder, f.skill_name).read_bytes() for f in found]
    paths = [Path(f.folder, f.skill_name) for f in found]
    run(lambda: [parse_skill(d, p) for d, p in zip(data, paths)])
    sys.exit(0)
skills = run(load) if phase == "read" else load()
if phase == "read":
    sys.exit(0)
if phase == "threats":
    from studio.skills.checks.threats import threats_rule
    run(lambda: [threats_rule(skill) for skill in skills])
    sys.exit(0)
check = lambda: [checked(validate_skill(skill, SPEC, fixes=False)) for skill in skills]
results = run(check) if phase == "rules" else check()
if phase == "render":
    run(lambda: render(True, results))
'''


def count(root: Path, phase: str, checkout: Path, keep: Path | None) -> tuple[int, int]:
    """(instructions, skills) of one phase on the skills below `root`, with the code in
    `checkout`."""
    with tempfile.TemporaryDirectory(prefix="callgrind-") as scratch:
        out = (keep or Path(scratch)) / f"callgrind.{phase}.out"
        env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONHASHSEED="0")
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no",
             "--toggle-collect=functools_reduce", f"--callgrind-out-file={out}",
             sys.executable, "-P", "-c", _PROGRAM, phase, str(root)],
            env=env, capture_output=True, text=True,
        )
        if done.returncode:
            sys.exit(f"the {phase} phase failed:\n{done.stderr[-3000:]}")
        skills = int(re.search(r"^skills (\d+)$", done.stdout, re.M).group(1))  # type: ignore[union-attr]
        totals = re.search(r"^totals: (\d+)", out.read_text(), re.M)
        assert totals is not None, done.stderr
        return int(totals.group(1)), skills


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--phase", choices=PHASES, action="append")
    parser.add_argument("--checkout", type=Path, default=REPO)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    for phase in args.phase or PHASES:
        instructions, skills = count(args.root, phase, args.checkout.resolve(), args.keep)
        print(f"{phase:7} {instructions:>15,} instructions, {instructions // max(skills, 1):>11,} "
              f"a skill ({skills} skills)", flush=True)


if __name__ == "__main__":
    main()
