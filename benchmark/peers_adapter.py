"""Run caveat's figure recognizer over peer extraction suites and write predictions.

    python benchmark/peers_adapter.py SUITE_OR_DIR [...] --out preds.jsonl
    python /work/shared/corpus/peers/score_extraction.py SUITE_OR_DIR preds.jsonl

The adapter only translates: it calls claims.figures.find_figures on each case's
text and maps caveat's claim fields onto the scorer's (kind, value, low, high, unit).
Mapping (documented in benchmark/PEERS.md):
  * percent / percentage_point -> 'percent', value in percent points as written;
  * a range, or a figure with a bound (>, up to, 超过, 以上) -> 'range' with low/high
    (an open side is null) when the case targets ranges, else its own kind;
  * currency -> 'currency'; count / bare number -> 'number';
  * every other unit (memory, time, length, mass...) -> 'dimension'.
Nothing here looks at the expected answers.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from claims.figures import find_figures  # noqa: E402


def _kind(c, targets):
    if c.kind in ("percent", "percentage_point"):
        k = "percent"
    elif c.kind == "currency":
        k = "currency"
    elif c.kind == "ratio":
        k = "ratio"        # '2.8×', 'doubled': no peer suite has ratios
    elif c.kind in ("latency", "duration"):
        k = "duration"     # time is its own kind in the peers' taxonomies, not a dimension
    elif c.kind in ("count", "number") and c.unit in ("dimensionless",) or c.kind == "count":
        k = "number"
    else:
        k = "dimension"
    ranged = c.value is None or c.bound is not None
    if ranged and (not targets or "range" in targets or k not in targets):
        return "range"
    return k


def predict(case):
    targets = case.get("target_kinds") or []
    out = []
    for c in find_figures(case["text"]):
        k = _kind(c, targets)
        d = {"start": c.start, "end": c.end, "kind": k, "unit": c.unit,
             "value": c.value, "low": c.low, "high": c.high}
        if k == "range" and c.value is not None:
            if c.bound in ("gt", "ge"):
                d.update(value=None, low=c.value, high=None)
            elif c.bound in ("lt", "le"):
                d.update(value=None, low=None, high=c.value)
        out.append(d)
    return out


def suite_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for f in sorted(os.listdir(p)):
                if f.endswith(".jsonl"):
                    yield os.path.join(p, f)
        else:
            yield p


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    n = 0
    with open(a.out, "w", encoding="utf-8") as f:
        for sf in suite_files(a.paths):
            with open(sf, encoding="utf-8") as fh:
                for line in fh:
                    if not line.strip():
                        continue
                    case = json.loads(line)
                    f.write(json.dumps({"id": case["id"], "claims": predict(case)},
                                       ensure_ascii=False) + "\n")
                    n += 1
    print("wrote %d predictions to %s" % (n, a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
