"""Corpus-scale benchmark: `caveat report` and a one-file `caveat check --corpus` over synthetic
corpora of every shape (benchmark/gen_corpus.py: ``project`` — ~300 claim keys — and
``skewed`` — 6 keys, thousands of restatements, loads written three ways), at 1,000 and
10,000 files (and 100,000 on request), per report engine, side by side with a baseline
install of an earlier caveat measured in the same run.

For each shape and size it reports, per caveat (this checkout; ``--baseline CMD``):
- cold report (no ledger), warm report (ledger present): wall, CPU of the process tree,
  peak RSS of the largest process and of the whole tree;
- warm one-file check of a file without a planted contradiction: wall, and its CV301 count;
- recall of the planted contradictions and false alarms (this checkout's report only);
and per extra engine (``--engines duckdb spark``) the cold and warm report, whose summary
must equal the default engine's. Then the growth 1k -> 10k of wall and peak RSS.

    python benchmark/bench_corpus.py [--sizes 1000 10000] [--shapes project skewed]
        [--engines duckdb spark] [--baseline /work/venv-base/bin/caveat] [--big 100000]
        [--check200] [--out benchmark/RESULTS.md]

Each command runs with its own ledger file (CAVEAT_LEDGER), so a baseline with another
ledger schema never rebuilds this checkout's. It writes the corpus sections of
benchmark/RESULTS.md (the `caveat check` section is bench_check.py's, appended).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_check  # noqa: E402
import gen_corpus   # noqa: E402
from bench_check import REPO, bench_env, caveat, measure  # noqa: E402

# runs a command and prints the largest resident size of any process it started (KB)
# the measuring wrapper: it reports the largest process's peak RSS and the command's own wall
# time (the wrapper's interpreter start-up, ~0.05 s on this machine, is not caveat's)
_MAXRSS = ("import resource, subprocess, sys, time; t = time.perf_counter(); rc = subprocess.call(sys.argv[1:]); "
           "print('wall', time.perf_counter() - t, file=sys.stderr); "
           "print('maxrss', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
           "sys.exit(rc)")


def recall(report_json: Path, manifest: dict) -> dict:
    """Planted figures reported in a statement that contradicts another, and contradicting
    statement pairs in which neither statement holds a planted figure (false alarms: the
    report's ``contradicts`` lists are complete, so every pair is seen)."""
    model = json.loads(report_json.read_text(encoding="utf-8"))
    planted = {(p["path"], p["line"]) for p in manifest["planted"]}
    found, false_pairs = set(), set()
    for g in model["groups"]:
        has_planted = {}
        for s in g["statements"]:
            here = {(f["path"], f["line"]) for f in s["figures"]} & planted
            has_planted[s["id"]] = bool(here)
            if s["contradicts"]:
                found |= here
        for s in g["statements"]:
            for other in s["contradicts"]:
                if not has_planted[s["id"]] and not has_planted[other]:
                    false_pairs.add((g["id"],) + tuple(sorted((s["id"], other))))
    missed = sorted(planted - found)
    return {"planted": len(planted), "found": len(found),
            "recall": len(found) / len(planted) if planted else 1.0,
            "false_pairs": len(false_pairs), "missed": missed[:10],
            "summary": model["summary"]}


def run(cmd, ledger: Path, timeout: float = 3600) -> dict:
    """``measure`` with the command's own ledger, and the peak RSS of its largest process."""
    env = bench_env()
    env["CAVEAT_LEDGER"] = str(ledger)
    r = measure([sys.executable, "-c", _MAXRSS, *map(str, cmd)], cwd=REPO, env=env, timeout=timeout)
    r["max_mb"] = 0.0
    for line in r["stderr"].splitlines():
        if line.startswith("maxrss "):
            r["max_mb"] = int(line.split()[1]) / 1024
        elif line.startswith("wall "):
            r["wall"] = float(line.split()[1])
    r["tree_mb"] = r.pop("peak_mb")
    return r


def _drop(ledger: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(str(ledger) + suffix).unlink(missing_ok=True)


def _ok(r: dict, what: str) -> dict:
    if r["rc"] not in (0, 1):
        raise SystemExit(f"{what} failed ({r['rc']}): {r['stderr'][-2000:]}")
    return r


def quiet_file(corpus: Path, manifest: dict) -> Path:
    """A briefing of the corpus in which no contradiction was planted."""
    planted = {p["path"] for p in manifest["planted"]}
    for p in sorted(corpus.rglob("*.md")):
        rel = p.relative_to(corpus).as_posix()
        if rel not in planted and rel.startswith("briefings/"):
            return p
    raise SystemExit("no quiet file")


def bench_size(work: Path, shape: str, files: int, seed: int, cmds: dict, engines: list, repeat: int) -> dict:
    corpus = work / f"{shape}{files}"
    t0 = time.perf_counter()
    manifest = gen_corpus.generate(corpus, files=files, claims_per_file=10, seed=seed, shape=shape)
    out = {"shape": shape, "files": files, "claims": manifest["claims"], "keys": manifest["keys"],
           "gen_s": time.perf_counter() - t0, "by": {}}
    target = quiet_file(corpus, manifest)
    for name, exe in cmds.items():          # this checkout, then the baseline: one after the other
        ledger = work / f"ledger-{name}-{shape}{files}.sqlite"
        rep_dir = work / f"report-{name}-{shape}{files}"
        rep = [*exe, "report", corpus, "--out", rep_dir]
        _drop(ledger)
        cold = _ok(run(rep, ledger), f"{name} report")
        warm = _ok(run(rep, ledger), f"{name} report warm")
        chk = [*exe, "check", "--format", "json", "--fail-on", "never", "--corpus", corpus, target]
        checks = [_ok(run(chk, ledger), f"{name} check") for _ in range(repeat)]
        found = json.loads(checks[-1]["stdout"] or "{}")
        cv301 = sum(1 for f in (found.get("findings", []) if isinstance(found, dict) else found)
                    if f.get("code") == "CV301")
        summary = json.loads((rep_dir / "report.json").read_text(encoding="utf-8"))["summary"]
        entry = {"report_cold": cold, "report_warm": warm,
                 "check_warm": {"wall": statistics.median(c["wall"] for c in checks),
                                "cpu": statistics.median(c["cpu"] for c in checks),
                                "max_mb": max(c["max_mb"] for c in checks), "runs": len(checks)},
                 "check_cv301": cv301, "summary": summary}
        if name == "new":
            entry["quality"] = recall(rep_dir / "report.json", manifest)
        out["by"][name] = entry
    for engine in engines:
        ledger = work / f"ledger-new-{shape}{files}.sqlite"
        rep_dir = work / f"report-{engine}-{shape}{files}"
        rep = [*cmds["new"], "report", corpus, "--out", rep_dir, "--engine", engine]
        warm = _ok(run(rep, ledger), f"{engine} report warm")
        summary = json.loads((rep_dir / "report.json").read_text(encoding="utf-8"))["summary"]
        out["by"][engine] = {"report_warm": warm, "summary": summary,
                             "same": summary == out["by"]["new"]["summary"]}
    shutil.rmtree(corpus, ignore_errors=True)
    return out


def _t(r: dict, digits: int = 1) -> str:
    return f"{r['wall']:.{digits}f} s ({r['cpu']:.{digits}f})"


def _pct(x: float) -> str:
    return "100%" if x == 1 else f"{min(x * 100, 99.9):.1f}%"


def markdown(results: list, command: str, load: tuple, baseline: str | None, check200: str) -> str:
    lines = ["# Benchmark results", "",
             f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}. "
             f"Produced by `{command}` (one run; load average {load[0]:.1f} at start, {load[1]:.1f} at the end: "
             "the machine is shared, so compare figures within this run, not with other runs).", "",
             "## Corpus scale (issue 13)", "",
             "Per corpus shape and size: wall time (CPU seconds of the whole process tree), peak resident memory "
             "of the largest process (of the whole process tree, forked workers counted in full).",
             f"`new` is this checkout; `base` is {baseline or 'not measured'}, run one after the other on the same "
             "corpus, each with its own claim ledger.", "",
             "| shape | files | caveat | report cold | peak (tree) | report warm | check 1 file warm | CV301 in a clean file | contradicting pairs | recall | false alarms |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        for name, e in r["by"].items():
            if "report_cold" not in e:
                continue
            q = e.get("quality")
            c = e["report_cold"]
            lines.append(
                f"| {r['shape']} | {r['files']:,} | {name} | {_t(c)} | {c['max_mb']:.0f} MB ({c['tree_mb']:.0f}) | "
                f"{_t(e['report_warm'])} | {e['check_warm']['wall']:.2f} s | {e['check_cv301']} | "
                f"{e['summary']['contradictions']:,} | "
                + (f"{q['found']}/{q['planted']} = {_pct(q['recall'])} | {q['false_pairs']} |" if q else "— | — |"))
    lines.append("")
    extra = [(r, n, e) for r in results for n, e in r["by"].items() if "report_cold" not in e]
    if extra:
        lines += ["Other engines (`caveat report --engine E`, ledger present: the grouping and writing only; "
                  "the summary must equal the default engine's):", "",
                  "| shape | files | engine | report warm | peak (tree) | same summary |", "|---|---:|---|---:|---:|---|"]
        for r, n, e in extra:
            w = e["report_warm"]
            lines.append(f"| {r['shape']} | {r['files']:,} | {n} | {_t(w)} | {w['max_mb']:.0f} MB ({w['tree_mb']:.0f}) | "
                         f"{'yes' if e['same'] else 'NO'} |")
        lines.append("")
    shapes = sorted({r["shape"] for r in results})
    for shape in shapes:
        rs = sorted((r for r in results if r["shape"] == shape and r["files"] <= 10_000), key=lambda r: r["files"])
        if len(rs) < 2:
            continue
        a, b = rs[0], rs[-1]
        k = b["files"] / a["files"]
        lines += [f"Growth of the {shape} corpus from {a['files']:,} to {b['files']:,} files (×{k:g}; linear is ×{k:g}):", "",
                  "| caveat | report cold wall | CPU | peak RSS | check 1 file warm |", "|---|---:|---:|---:|---:|"]
        for name in b["by"]:
            if name not in a["by"] or "report_cold" not in b["by"][name]:
                continue
            x, y = a["by"][name], b["by"][name]
            lines.append(f"| {name} | ×{y['report_cold']['wall'] / x['report_cold']['wall']:.1f} | "
                         f"×{y['report_cold']['cpu'] / max(x['report_cold']['cpu'], 1e-9):.1f} | "
                         f"×{y['report_cold']['max_mb'] / max(x['report_cold']['max_mb'], 1e-9):.1f} | "
                         f"×{y['check_warm']['wall'] / x['check_warm']['wall']:.1f} |")
        lines.append("")
    lines += ["Commands timed: `caveat report CORPUS --out DIR` (cold: its ledger deleted first; warm: ledger present), "
              "`caveat report CORPUS --engine E` (warm), and `caveat check --format json --fail-on never --corpus CORPUS FILE` "
              "(warm; FILE holds no planted contradiction, so every CV301 in it is a false alarm). "
              "Wall time is the command's own, from just before it is started to its exit, measured by the "
              "wrapper that reads its peak RSS (the wrapper's own start-up is not counted).", ""]
    if check200:
        lines += [check200, ""]
    return "\n".join(lines).rstrip() + "\n"


def check_ab(work: Path, cmds: dict, repeat: int) -> str:
    """The 200-file check of bench_check.py, this checkout and the baseline interleaved."""
    corpus = work / "check200"
    gen_corpus.generate(corpus, files=200, claims_per_file=50, seed=11)
    rows = {name: {"cold": [], "warm": []} for name in cmds}
    for _ in range(repeat):
        for name, exe in cmds.items():
            ledger = work / f"ledger-{name}-check200.sqlite"
            cmd = [*exe, "check", "--format", "json", "--fail-on", "never", "--corpus", corpus, corpus]
            _drop(ledger)
            rows[name]["cold"].append(_ok(run(cmd, ledger), f"{name} check200"))
            rows[name]["warm"].append(_ok(run(cmd, ledger), f"{name} check200 warm"))
    out = ["### 200-file `caveat check --corpus` (bench_check.py's corpus), interleaved A/B", "",
           f"Median of {repeat} runs each; wall s (CPU s), peak RSS of the largest process.", "",
           "| caveat | cold | warm | peak |", "|---|---:|---:|---:|"]
    med = {}
    for name, r in rows.items():
        med[name] = {k: statistics.median(x["wall"] for x in v) for k, v in r.items()}
        cpu = {k: statistics.median(x["cpu"] for x in v) for k, v in r.items()}
        peak = max(x["max_mb"] for v in r.values() for x in v)
        out.append(f"| {name} | {med[name]['cold']:.2f} s ({cpu['cold']:.2f}) | {med[name]['warm']:.2f} s "
                   f"({cpu['warm']:.2f}) | {peak:.0f} MB |")
    if "base" in med:
        out += ["", f"Ratio new / base: cold ×{med['new']['cold'] / med['base']['cold']:.2f}, "
                    f"warm ×{med['new']['warm'] / med['base']['warm']:.2f}."]
    shutil.rmtree(corpus, ignore_errors=True)
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--shapes", nargs="+", choices=gen_corpus.SHAPES, default=list(gen_corpus.SHAPES))
    ap.add_argument("--engines", nargs="*", choices=("duckdb", "spark"), default=[])
    ap.add_argument("--baseline", default=None, help="another caveat's command (e.g. /work/venv-base/bin/caveat)")
    ap.add_argument("--big", type=int, default=None, help="also this many files (skewed shape; e.g. 100000)")
    ap.add_argument("--check200", action="store_true", help="also the 200-file check, interleaved A/B")
    ap.add_argument("--repeat", type=int, default=3, help="one-file checks per corpus (median)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=REPO / "benchmark" / "RESULTS.md")
    a = ap.parse_args(argv)
    command = "python benchmark/bench_corpus.py " + " ".join(argv if argv is not None else sys.argv[1:])
    load0 = os.getloadavg()[0]
    bench_check.compile_sources()
    cmds = {"new": caveat()}
    if a.baseline:
        cmds["base"] = [a.baseline]
    with tempfile.TemporaryDirectory(prefix="caveat-bench-") as tmp:
        work = a.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        results = []
        plan = [(s, n, a.engines) for n in a.sizes for s in a.shapes]
        if a.big:
            plan.append(("skewed", a.big, a.engines))
        for shape, n, engines in plan:
            r = bench_size(work, shape, n, a.seed, cmds if n <= 10_000 else {"new": cmds["new"]}, engines, a.repeat)
            results.append(r)
            (work / "bench_raw.json").write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
            by = r["by"]["new"]
            print(f"{shape} {n}: cold {by['report_cold']['wall']:.1f}s {by['report_cold']['max_mb']:.0f}MB, "
                  f"check {by['check_warm']['wall']:.2f}s", file=sys.stderr)
        check200 = check_ab(work, cmds, 5) if a.check200 else ""
    text = markdown(results, command.strip(), (load0, os.getloadavg()[0]), a.baseline, check200)
    a.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
