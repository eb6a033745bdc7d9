"""Time scanning a .zip archive of many skills, as `studio validate pack.zip` does (no cache).

    python benchmarks/zip_scan.py [--count 8000] [--runs 3]

Writes an archive of `--count` skills (each a SKILL.md and, for one in four, a references/ file
and a script) to a temp folder, then times `scan_root` on it `--runs` times and prints the median
and minimum. The scan reads each member of the archive once, so the time per skill should stay
flat as `--count` grows; compare `--count 2000` with `--count 8000`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from studio.skills.scan.roots import SkillRoot, scan_root  # noqa: E402


def write_archive(path: Path, count: int) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for number in range(count):
            name = f"skill-{number:05d}"
            folder = f"pack/group-{number % 40:02d}/{name}"
            archive.writestr(
                f"{folder}/SKILL.md",
                f"---\nname: {name}\ndescription: Use when testing zip scans, skill {number}.\n"
                f"---\n# {name}\n\nRead references/guide.md first.\n",
            )
            if number % 4 == 0:
                archive.writestr(f"{folder}/references/guide.md", "# Guide\n")
                archive.writestr(f"{folder}/scripts/run.sh", "#!/bin/sh\necho ok\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=8000, help="skills in the archive")
    parser.add_argument("--runs", type=int, default=3, help="timed scans")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="studio-zip-bench-") as folder:
        archive = Path(folder) / "pack.zip"
        write_archive(archive, args.count)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            scan = scan_root(SkillRoot(archive))
            times.append(time.perf_counter() - start)
            if scan.error is not None or len(scan.skills) != args.count:
                print(f"the scan went wrong: {scan.error or len(scan.skills)} skills", file=sys.stderr)
                return 1
    median = statistics.median(times)
    print(f"scan of a zip of {args.count} skills: median {median:.2f} s, min {min(times):.2f} s "
          f"({median / args.count * 1e6:.0f} µs per skill, {args.runs} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
