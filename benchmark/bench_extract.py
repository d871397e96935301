"""Extraction benchmark: throughput of claims.figures.find_figures against a plain
`regex` pass over the same text in the same run, and the wall time of extracting one
briefing as a whole process against the bare import of the dependencies.

    python benchmark/bench_extract.py [--mb 5] [--briefing PATH] [--runs 5]

The corpus (>= 5 MB) is built in memory by repeating and varying the real briefings
in /work/shared/corpus/real (or --corpus DIR): every copy shifts its digits and
swaps some of its units, so no two copies are identical.  Nothing is written to disk.

The plain pass is one `regex` pattern -- a number with separators and decimals, an
optional scale word and an optional unit from the same vocabulary
(claims/data/figure_words.yaml) -- run with finditer and no Python work per match:
the practical ceiling of a regex-only extractor.  Targets: find_figures >= 20% of the
plain pass; one briefing as a process <= 1.5x the dependency-import floor.
"""
from __future__ import annotations

import argparse
import glob
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)

DEFAULT_CORPUS = "/work/shared/corpus/real"
FLOOR = "import regex, yaml, click, durable.lang, pint"


def build_corpus(folder, mb):
    import random
    docs = [open(p, encoding="utf-8").read() for p in sorted(glob.glob(os.path.join(folder, "*.md")))]
    if not docs:
        raise SystemExit("no *.md in %s" % folder)
    rnd = random.Random(7)
    swaps = [("ms", "s"), ("GB", "GiB"), ("tok/s", "req/s"), ("%", "×"), ("倍", "成")]
    out, size, i = [], 0, 0
    target = int(mb * 1024 * 1024)
    while size < target:
        d = docs[i % len(docs)]
        if i >= len(docs):
            shift = str.maketrans("0123456789", "".join(rnd.sample("0123456789", 10)))
            d = d.translate(shift)
            a, b = swaps[i % len(swaps)]
            d = d.replace(" " + a, " " + b)
        out.append(d)
        size += len(d.encode("utf-8"))
        i += 1
    return "\n".join(out)


def plain_pattern():
    import regex
    from claims import units
    sym, wrd, _ = units.alias_table()
    aliases = sorted({a for a in sym if not a.isascii() or not a.isalpha() or len(a) > 1} | set(wrd),
                     key=len, reverse=True)
    unit = "|".join(regex.escape(a) for a in aliases)
    scale = "|".join(regex.escape(s) for s in sorted(units.words()["scales"]["symbols"], key=len, reverse=True))
    return regex.compile(r"(?<![\w.])[-~≈]?[0-9][0-9,]*(?:\.[0-9]+)?(?:\s?(?:%s))?(?:\s?(?:%s))?" % (scale, unit))


def throughput(text, runs):
    from claims.figures import find_figures
    pat = plain_pattern()
    nbytes = len(text.encode("utf-8"))
    find_figures(text[:1000])
    plain, ours, n_plain, n_ours = [], [], 0, 0
    for _ in range(runs):
        t = time.perf_counter()
        n_plain = sum(1 for _ in pat.finditer(text))
        plain.append(time.perf_counter() - t)
        t = time.perf_counter()
        n_ours = len(find_figures(text))
        ours.append(time.perf_counter() - t)
    mbp = nbytes / min(plain) / 1e6
    mbo = nbytes / min(ours) / 1e6
    return nbytes, mbp, mbo, n_plain, n_ours


def wall(cmd, runs):
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=HERE)
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--mb", type=float, default=5.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--briefing", default=os.path.join(HERE, "tests/data/briefing-corpus/briefings/2026-11-02-inference.md"))
    ap.add_argument("--skip-throughput", action="store_true")
    a = ap.parse_args(argv)

    if not a.skip_throughput:
        text = build_corpus(a.corpus, a.mb)
        nbytes, mbp, mbo, n_plain, n_ours = throughput(text, a.runs)
        print("corpus: %.2f MB of mixed zh/en text (%s, repeated and varied)" % (nbytes / 1e6, a.corpus))
        print("plain regex pass : %7.2f MB/s  (%d matches)" % (mbp, n_plain))
        print("find_figures     : %7.2f MB/s  (%d claims)" % (mbo, n_ours))
        print("throughput ratio : %7.2f  (target >= 0.20)" % (mbo / mbp))

    py = sys.executable
    floor = wall([py, "-c", FLOOR], 7)
    one = wall([py, "-c", "import sys; from claims.figures import find_figures; "
                "find_figures(open(sys.argv[1], encoding='utf-8').read())", a.briefing], 7)
    print("import floor (%s): %.3f s" % (FLOOR, floor))
    print("find_figures on one briefing, whole process: %.3f s" % one)
    print("wall-time ratio  : %7.2f  (target <= 1.5)" % (one / floor))
    cli = [py, "-m", "validator.cli", "extract", a.briefing]
    try:
        t = wall(cli, 5)
        print("caveat extract on one briefing, whole process: %.3f s  ratio %.2f" % (t, t / floor))
    except (subprocess.CalledProcessError, OSError):
        print("caveat extract: not runnable here (validator.cli extract missing?)")


if __name__ == "__main__":
    main()
