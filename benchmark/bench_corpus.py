"""Corpus-scale benchmark (issue 5): `caveat report` and a one-file `caveat check --corpus`
over synthetic corpora of 1,000 and 10,000 files (~10 claims each), cold and warm (ledger).

Reports wall time, peak memory of the whole process tree (extraction workers included),
recall of the planted contradictions (must be 100%), contradictions reported between
honest figures (false alarms), and the 10k/1k cost ratio (linear growth means ~10x).

    python benchmark/bench_corpus.py [--sizes 1000 10000] [--work DIR] [--out benchmark/RESULTS.md]

It writes benchmark/RESULTS.md together with the `caveat check` figures of bench_check.py.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_check  # noqa: E402
import gen_corpus   # noqa: E402
from bench_check import REPO, caveat, measure  # noqa: E402


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


def bench_size(work: Path, files: int, seed: int) -> dict:
    corpus = work / f"corpus{files}"
    t0 = time.perf_counter()
    manifest = gen_corpus.generate(corpus, files=files, claims_per_file=10, seed=seed)
    gen_s = time.perf_counter() - t0
    ledger = corpus / ".caveat" / "ledger.sqlite"
    out = work / f"report{files}"
    rep = caveat("report", corpus, "--out", out)
    cold = measure(rep, cwd=REPO)
    if cold["rc"] != 0:
        raise SystemExit(f"caveat report failed ({cold['rc']}): {cold['stderr'][-2000:]}")
    quality = recall(out / "report.json", manifest)
    warm = measure(rep, cwd=REPO)
    # one file edited, then the report again: re-extracts one file
    target = sorted(corpus.rglob("*.md"))[len(manifest["planted"]) % files]
    with open(target, "a", encoding="utf-8") as fh:
        fh.write("\nEdited after the ledger was built.\n")
    edited = measure(rep, cwd=REPO)
    # one-file check with the corpus: cold (no ledger) and warm (ledger built by the report)
    chk = caveat("check", "--format", "json", "--fail-on", "never", "--corpus", corpus, target)
    check_warm = measure(chk, cwd=REPO)
    shutil.rmtree(ledger.parent, ignore_errors=True)
    check_cold = measure(chk, cwd=REPO)
    check_warm2 = measure(chk, cwd=REPO)
    return {"files": files, "claims": manifest["claims"], "keys": manifest["keys"],
            "facts": manifest["facts"], "gen_s": gen_s,
            "report_cold": cold, "report_warm": warm, "report_one_edit": edited,
            "check_cold": check_cold, "check_warm": min((check_warm, check_warm2), key=lambda r: r["wall"]),
            "quality": quality, "ledger_mb": _size_mb(ledger)}


def _size_mb(p: Path) -> float:
    try:
        return sum(f.stat().st_size for f in p.parent.glob(p.name + "*")) / 2**20
    except OSError:
        return 0.0


def _pct(x: float) -> str:
    """100% only when it is exactly 100%: 499/500 must not round up."""
    return "100%" if x == 1 else f"{min(x * 100, 99.9):.1f}%"


def _t(r: dict, digits: int = 1) -> str:
    return f"{r['wall']:.{digits}f} s ({r['cpu']:.{digits}f})"


def markdown(results: list, check: str, command: str, load_before: float = 0.0) -> str:
    cpu = os.cpu_count()
    lines = ["# Benchmark results", "",
             f"Machine: {cpu} cores, Python {platform.python_version()}, {platform.system()}. "
             f"Produced by `{command}` (numbers from one run; see the scripts for how each is measured).", "",
             "## Corpus scale (issue 5)", "",
             "Wall time (CPU seconds of the whole process tree in brackets; the machine was shared "
             f"with other jobs: load average {load_before:.1f} at start, {os.getloadavg()[0]:.1f} at the end).", "",
             "| files | claims | keys | report cold | report warm | report, 1 file edited | "
             "check 1 file cold | check 1 file warm | peak memory | recall | false alarms |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        q = r["quality"]
        peak = max(r[k]["peak_mb"] for k in ("report_cold", "report_warm", "report_one_edit",
                                             "check_cold", "check_warm"))
        lines.append(
            f"| {r['files']:,} | {r['claims']:,} | {r['keys']:,} | {_t(r['report_cold'])} | "
            f"{_t(r['report_warm'])} | {_t(r['report_one_edit'])} | "
            f"{_t(r['check_cold'])} | {_t(r['check_warm'], 2)} | {peak:.0f} MB | "
            f"{q['found']}/{q['planted']} = {_pct(q['recall'])} | {q['false_pairs']} |")
    lines.append("")
    if len(results) >= 2:
        a, b = results[0], results[-1]
        k = b["files"] / a["files"]
        lines += [f"Growth from {a['files']:,} to {b['files']:,} files (×{k:g}); linear means ×{k:g}:", "",
                  "| measurement | wall ratio | CPU ratio |", "|---|---:|---:|"]
        for key, label in (("report_cold", "report cold"), ("report_warm", "report warm"),
                           ("check_cold", "check 1 file cold"), ("check_warm", "check 1 file warm")):
            lines.append(f"| {label} | ×{b[key]['wall'] / a[key]['wall']:.1f} | "
                         f"×{b[key]['cpu'] / max(a[key]['cpu'], 1e-9):.1f} |")
        lines.append("")
    big = results[-1]
    lines += ["Targets (largest corpus): cold report ≤ 120 s — "
              f"{big['report_cold']['wall']:.1f} s; warm one-file check ≤ 1 s — {big['check_warm']['wall']:.2f} s; "
              f"peak memory < 1 GB — {max(r['report_cold']['peak_mb'] for r in results):.0f} MB; "
              f"recall 100% — {_pct(big['quality']['recall'])}.", "",
              f"Ledger size at {big['files']:,} files: {big['ledger_mb']:.0f} MB. "
              "Report summary of the largest corpus: `" + json.dumps(big["quality"]["summary"]) + "`.", "",
              "Commands timed: `caveat report CORPUS --out DIR` (cold: no ledger; warm: ledger present; "
              "1 file edited: one file appended to, then the report again) and "
              "`caveat check --format json --fail-on never --corpus CORPUS FILE` "
              "(cold: ledger deleted first; warm: ledger present).", ""]
    for r in results:
        for key in ("report_cold", "check_cold", "check_warm"):
            if r[key]["rc"] not in (0, 1):
                lines.append(f"- {r['files']} files, {key}: exit {r[key]['rc']}: `{r[key]['stderr'][-300:].strip()}`")
        if r["quality"]["missed"]:
            lines.append(f"- {r['files']} files, missed planted figures (first 10): {r['quality']['missed']}")
    lines += ["", check]
    return "\n".join(lines).rstrip() + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=REPO / "benchmark" / "RESULTS.md")
    ap.add_argument("--no-check", action="store_true", help="skip the issue-3 `caveat check` figures")
    ap.add_argument("--repeat", type=int, default=7, help="repetitions of the issue-3 timings")
    a = ap.parse_args(argv)
    command = "python benchmark/bench_corpus.py " + " ".join(argv if argv is not None else sys.argv[1:])
    load_before = os.getloadavg()[0]
    bench_check.compile_sources()
    with tempfile.TemporaryDirectory(prefix="caveat-bench-") as tmp:
        work = a.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        results = []
        for n in a.sizes:
            r = bench_size(work, n, a.seed)
            results.append(r)
            print(f"{n} files: report cold {r['report_cold']['wall']:.1f}s warm {r['report_warm']['wall']:.2f}s, "
                  f"check warm {r['check_warm']['wall']:.2f}s, recall {_pct(r['quality']['recall'])}",
                  file=sys.stderr)
        check = ""
        if not a.no_check:
            one = bench_check.bench_one_briefing(a.repeat)
            many = bench_check.bench_200_files(work, max(3, a.repeat // 2))
            check = bench_check.markdown(one, many)
        raw = {"sizes": [{k: ({kk: vv for kk, vv in v.items() if kk not in ("stdout",)} if isinstance(v, dict) else v)
                          for k, v in r.items()} for r in results]}
        (work / "bench_raw.json").write_text(json.dumps(raw, indent=1, default=str), encoding="utf-8")
    text = markdown(results, check, command.strip(), load_before)
    a.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
