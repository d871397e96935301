"""Precision and line recall of caveat on a holdout folder (benchmark/holdouts/README.md).

    python benchmark/holdout_eval.py FOLDER [--caveat CMD]

Precision: ../shared/tools/quality.py over the folder's documents with its judgements.yaml.
Line recall: a gold ``must`` is found when a finding of its family is on its line (a
document-level finding elsewhere earns nothing).
"""
from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
QUALITY = REPO.parent / "shared" / "tools" / "quality.py"
FAMILY = {"0": "reference", "1": "precondition", "2": "unverified", "3": "contradiction",
          "4": "arithmetic", "5": "count", "6": "entity", "7": "reference"}


def recall(folder: Path, caveat: list) -> tuple:
    gold = yaml.safe_load((folder / "gold.yaml").read_text(encoding="utf-8")) or {}
    musts = gold.get("must", []) if isinstance(gold, dict) else gold
    found = set()
    for md in sorted(folder.glob("*.md")):
        out = subprocess.run(caveat + ["check", "--format", "json", "--fail-on", "never", md.name],
                             cwd=folder, capture_output=True, text=True).stdout
        data = json.loads(out or "[]")
        for f in data.get("findings", []) if isinstance(data, dict) else data:
            found.add((md.name, int(f["line"]), FAMILY.get(f["code"][2], "?")))
    hits = [m for m in musts if (m["file"], int(m["line"]), m["family"]) in found]
    return hits, musts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--caveat", default="caveat")
    a = ap.parse_args(argv)
    if QUALITY.exists():
        subprocess.run([sys.executable, str(QUALITY), "--real", str(a.folder), "--caveat", a.caveat,
                        "--gold", str(a.folder / "no-gold.yaml")], check=False)
    hits, musts = recall(a.folder, shlex.split(a.caveat))
    print(f"line recall {len(hits)}/{len(musts)}")
    for m in musts:
        print(f"  {'HIT ' if m in hits else 'MISS'} {m['file']}:{m['line']} {m['family']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
