"""Benchmark of `caveat check` (issue 3) and the measuring helpers the corpus benchmark shares.

Two figures, each against a baseline measured in the same run:

1. one briefing checked as a whole process vs the dependency-import floor
   `python -c "import regex, yaml, click, durable.lang, pint"` (target: <= 2x);
2. a synthetic corpus of 10,000 claims over 200 files checked with the
   cross-document search on (`--corpus`), as time, claims/s and peak memory
   of the whole process tree (target: < 2 s and < 300 MB).

    python benchmark/bench_check.py [--repeat 7] [--markdown]
"""
from __future__ import annotations

import argparse
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FLOOR = [sys.executable, "-c", "import regex, yaml, click, durable.lang, pint"]
BRIEFING = REPO / "tests" / "data" / "briefing-corpus" / "briefings" / "2026-11-02-inference.md"
EXAMPLE = REPO / "tests" / "data" / "briefing-corpus"


def caveat(*args) -> list:
    """`caveat` as the module of this checkout (run with cwd=REPO, so a frozen copy of the
    repository benchmarks its own code, whatever is installed)."""
    return [sys.executable, "-m", "validator.cli", *map(str, args)]


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and all its descendants, from /proc."""
    children: dict = {}
    rss: dict = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as fh:
                parts = fh.read().rsplit(")", 1)[1].split()
            ppid = int(parts[1])
            with open(f"/proc/{d}/statm") as fh:
                pages = int(fh.read().split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(d))
        rss[int(d)] = pages * os.sysconf("SC_PAGE_SIZE") // 1024
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += children.get(p, [])
    return total


def bench_env() -> dict:
    """The environment timed commands run in: bytecode may be written (an installed package
    has its .pyc files; PYTHONDONTWRITEBYTECODE would make every run compile the sources)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compile_sources() -> None:
    """Write the .pyc files of this checkout once, before anything is timed."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "claims", "validator", "rules"],
                   cwd=REPO, env=bench_env(), stdout=subprocess.DEVNULL, check=False)


def measure(cmd, cwd=None, env=None, sample=0.02, timeout=600) -> dict:
    """Run ``cmd``; wall time and the peak summed RSS of its process tree (sampled).
    A run past ``timeout`` seconds is killed (its own process group) and reported with rc None."""
    env = bench_env() if env is None else env
    peak = [0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    done = threading.Event()

    def poll():
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss_kb(p.pid))
            done.wait(sample)
    th = threading.Thread(target=poll, daemon=True)
    th.start()
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        rc = None
        err += f"\n(killed after {timeout} s)".encode()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    done.set()
    th.join()
    return {"wall": wall, "cpu": cpu, "peak_mb": peak[0] / 1024, "rc": rc,
            "stdout": out.decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace")}


def median_time(cmd, repeat: int, **kw) -> tuple:
    runs = [measure(cmd, **kw) for _ in range(repeat)]
    return statistics.median(r["wall"] for r in runs), runs[-1]


def bench_one_briefing(repeat: int) -> dict:
    """Interleave floor and check runs so both see the same machine state."""
    floor, check, fcpu, ccpu = [], [], [], []
    cmd = caveat("check", BRIEFING)
    for _ in range(repeat):
        r = measure(FLOOR)
        floor.append(r["wall"])
        fcpu.append(r["cpu"])
        r = measure(cmd, cwd=REPO)
        check.append(r["wall"])
        ccpu.append(r["cpu"])
    f, c = statistics.median(floor), statistics.median(check)
    return {"floor_s": f, "check_s": c, "ratio": c / f, "rc": r["rc"], "stderr": r["stderr"][-500:],
            "floor_cpu": statistics.median(fcpu), "check_cpu": statistics.median(ccpu),
            "command": "caveat check " + str(BRIEFING.relative_to(REPO))}


def bench_200_files(work: Path, repeat: int, timeout: float = 120) -> dict:
    """The 200-file corpus checked with ``--corpus`` on, cold (no claim ledger: every run
    starts by deleting it) and warm (the ledger of the previous run present), interleaved."""
    sys.path.insert(0, str(Path(__file__).parent))
    import shutil
    import gen_corpus
    corpus = work / "check200"
    m = gen_corpus.generate(corpus, files=200, claims_per_file=50, seed=11)
    cmd = caveat("check", "--format", "json", "--fail-on", "never", "--corpus", corpus, corpus)
    cold, warm = [], []
    for _ in range(repeat):
        shutil.rmtree(corpus / ".caveat", ignore_errors=True)
        cold.append(measure(cmd, cwd=REPO, timeout=timeout))
        if cold[-1]["rc"] is None:          # a run that timed out is not repeated
            break
        warm.append(measure(cmd, cwd=REPO, timeout=timeout))
    out = {"files": 200, "claims": m["claims"], "rc": cold[-1]["rc"], "stderr": cold[-1]["stderr"][-500:],
           "command": "caveat check --format json --fail-on never --corpus CHECK200 CHECK200"}
    for name, runs in (("cold", cold), ("warm", warm or cold)):
        wall = statistics.median(r["wall"] for r in runs)
        out[name] = {"wall_s": wall, "claims_per_s": m["claims"] / wall,
                     "cpu_s": statistics.median(r["cpu"] for r in runs),
                     "peak_mb": max(r["peak_mb"] for r in runs), "runs": len(runs)}
    return out


def markdown(one: dict, many: dict) -> str:
    rows = []
    for name, what in (("cold", "no claim ledger yet"), ("warm", "claim ledger of the previous run present")):
        r = many[name]
        rows += [
            f"| 200 files, {many['claims']:,} claims, `--corpus` on, {name} ({what}; median of {r['runs']}, exit {many['rc']}) | "
            f"{'> ' if many['rc'] is None else ''}{r['wall_s']:.2f} s | < 2 s |",
            f"| CPU seconds of that run (all processes) | {r['cpu_s']:.2f} | |",
            f"| throughput | {r['claims_per_s']:,.0f} claims/s | |",
            f"| peak memory (process tree) | {r['peak_mb']:.0f} MB | < 300 MB |"]
    return "\n".join([
        "### `caveat check` (issue 3)", "",
        "| measurement | value | target |", "|---|---:|---|",
        f"| import floor `python -c \"import regex, yaml, click, durable.lang, pint\"` | {one['floor_s']:.3f} s | baseline |",
        f"| `{one['command']}` (whole process, exit {one['rc']}) | {one['check_s']:.3f} s | |",
        f"| CPU seconds, floor vs check (median) | {one['floor_cpu']:.3f} vs {one['check_cpu']:.3f} | |",
        f"| ratio check / floor | **{one['ratio']:.2f}×** | ≤ 2× |",
        *rows, ""])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--work", type=Path, default=None, help="scratch folder (default: a temp dir)")
    a = ap.parse_args(argv)
    compile_sources()
    with tempfile.TemporaryDirectory(prefix="caveat-bench-") as tmp:
        work = a.work or Path(tmp)
        one = bench_one_briefing(a.repeat)
        many = bench_200_files(work, max(3, a.repeat // 2))
    print(markdown(one, many))
    for r in (one, many):
        if r["rc"] not in (0, 1):
            print(f"warning: caveat exited {r['rc']}: {r['stderr']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
