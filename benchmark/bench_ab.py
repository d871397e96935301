"""This checkout's `caveat check` against another install of caveat, measured in one run.

    python benchmark/bench_ab.py --baseline /path/to/other/venv/bin/caveat [--repeat 11]

Two measurements, each interleaved (floor, this, baseline, floor, this, …) so that a machine
whose speed drifts affects both sides alike:

- one briefing (tests/data/briefing-corpus/briefings/2026-11-02-inference.md), whole process,
  against the import floor ``python -c "import regex, yaml, click, durable.lang, pint"``;
- the 200-file `check --corpus` of bench_check.py (bench_corpus.check_ab), cold and warm.

Prints medians of wall and CPU seconds and the ratios; nothing is written.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import bench_check  # noqa: E402
import bench_corpus  # noqa: E402

BRIEFING = REPO / "tests" / "data" / "briefing-corpus" / "briefings" / "2026-11-02-inference.md"


def _timed(cmd) -> tuple:
    """(wall s, CPU s of the child) of one run."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def one_briefing(cmds: dict, repeat: int) -> str:
    runs = {name: [] for name in cmds}
    for _ in range(repeat):
        for name, cmd in cmds.items():
            runs[name].append(_timed(cmd))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in runs.items()}
    floor = med["floor"][0]
    lines = ["### One briefing, whole process (median of %d interleaved runs)" % repeat, "",
             "| command | wall | CPU | / floor |", "|---|---:|---:|---:|"]
    for name, (w, c) in med.items():
        lines.append(f"| {name} | {w:.3f} s | {c:.3f} s | {w / floor:.2f}× |")
    if "base" in med:
        lines += ["", f"Ratio new / base: ×{med['new'][0] / med['base'][0]:.2f}."]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, help="another caveat's command (e.g. /work/venv-base/bin/caveat)")
    ap.add_argument("--repeat", type=int, default=11, help="runs of the one-briefing check")
    ap.add_argument("--repeat200", type=int, default=5, help="runs of the 200-file check")
    a = ap.parse_args(argv)
    bench_check.compile_sources()
    new = bench_check.caveat()
    cmds = {"floor": bench_check.FLOOR, "new": [*new, "check", str(BRIEFING)],
            "base": [a.baseline, "check", str(BRIEFING)]}
    print(one_briefing(cmds, a.repeat))
    print()
    with tempfile.TemporaryDirectory(prefix="caveat-ab-") as tmp:
        print(bench_corpus.check_ab(Path(tmp), {"new": new, "base": [a.baseline]}, a.repeat200))
    return 0


if __name__ == "__main__":
    sys.exit(main())
