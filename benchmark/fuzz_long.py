"""Minutes-long fuzz run of the whole `check` pipeline (outside the default test suite).

Same generator (tests/hostile/hostile_gen.py) and same properties
(tests/hostile/fuzz_props.py) as the hypothesis test, but driven by a seeded
``random.Random`` so it runs unattended for as long as asked and every failure is
reproducible from its seed:

    python benchmark/fuzz_long.py --minutes 5            # prints the number of inputs tried
    python benchmark/fuzz_long.py --seed 1234 --count 1  # replay one input

Each input is a corpus of one to three briefing-like documents, checked in one of
the four output formats.  Failures are grouped by exception and place; the first
document of each group is saved under --out for a regression test.  Exit 1 when
anything failed.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from hostile.fuzz_props import FORMATS, check_corpus, rules_loaded_once  # noqa: E402
from hostile.hostile_gen import RandomChooser, briefing  # noqa: E402


def one_input(seed: int):
    c = RandomChooser(seed)
    texts = [briefing(c) for _ in range(c.integer(1, 3))]
    return texts, c.choice(FORMATS)


def locate(texts):
    """An 'internal error' line hides its traceback (run.py reports it as one line):
    re-run the documents alone to find the exception and where it was raised."""
    from claims.api import analyze
    from validator import packs
    from validator.options import Options
    from validator.run import check_analysis
    rules = packs.load_rules(Options())
    for i, text in enumerate(texts):
        body = text[1:] if text.startswith("\ufeff") else text
        try:
            check_analysis(analyze(body, path=f"doc{i}.md"), rules)
        except Exception as exc:  # noqa: BLE001
            return exc
    return None


def signature(exc: BaseException, texts) -> str:
    """Exception type and the innermost frame inside the project: one bug, one group."""
    if "internal error" in str(exc):
        exc = locate(texts) or exc
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if "/claims/" in f.filename or "/validator/" in f.filename] or \
        traceback.extract_tb(exc.__traceback__)
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    first = re.sub(r"/\S*?/briefings/[^:'\s]*", "<file>", (str(exc).splitlines() or [""])[0])[:160]
    return f"{type(exc).__name__} at {where}: {first}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="wall-clock budget (default 5)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (inputs use seed, seed+1, ...)")
    ap.add_argument("--count", type=int, default=None, help="stop after this many inputs")
    ap.add_argument("--out", default=str(REPO / "reports" / "fuzz-failures"),
                    help="folder for the first failing document of each group")
    args = ap.parse_args(argv)

    deadline = time.monotonic() + args.minutes * 60
    tried, chars, groups = 0, 0, {}
    t0 = time.monotonic()
    with rules_loaded_once():
        seed = args.seed
        while time.monotonic() < deadline and (args.count is None or tried < args.count):
            texts, fmt = one_input(seed)
            try:
                check_corpus(texts, fmt)
            except Exception as exc:  # noqa: BLE001 - every failure is a finding of the run
                sig = signature(exc, texts)
                if sig not in groups:
                    groups[sig] = []
                    out = Path(args.out)
                    out.mkdir(parents=True, exist_ok=True)
                    for i, t in enumerate(texts):
                        (out / f"seed{seed}-{i}.md").write_bytes(t.encode("utf-8"))
                    print(f"FAIL seed {seed} ({fmt}): {sig}", flush=True)
                groups[sig].append(seed)
            tried += 1
            chars += sum(len(t) for t in texts)
            seed += 1
            if tried % 100 == 0:
                print(f"... {tried} inputs, {len(groups)} failure groups, "
                      f"{time.monotonic() - t0:.0f}s", flush=True)
    took = time.monotonic() - t0
    print(f"inputs tried: {tried} corpora ({chars / 1e6:.1f} M characters) in {took:.0f}s, "
          f"seeds {args.seed}..{seed - 1}")
    for sig, seeds in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(seeds):5d} x {sig}  (first seed {seeds[0]})")
    print("no failures" if not groups else f"{len(groups)} failure groups")
    return 1 if groups else 0


if __name__ == "__main__":
    sys.exit(main())
