"""Findings per family (and per file) over a folder of real briefings.

    python benchmark/real_corpus.py ../shared/corpus/real [--corpus]

Runs `caveat check --format json` once over the folder (with the folder as its own
corpus when --corpus is given) and prints a Markdown table: the figure the README
reports for "no flood of false alarms" on real input.
"""
import collections
import json
import subprocess
import sys

from validator.kinds import families

FAMILIES = tuple(families())


def main(argv):
    folder = argv[0]
    cmd = [sys.executable, "-m", "validator.cli", "check", "--format", "json", "--fail-on", "never", folder]
    if "--corpus" in argv:
        cmd += ["--corpus", folder]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"caveat check failed ({out.returncode}): {out.stderr.strip()}")
    data = json.loads(out.stdout)
    per_file = collections.defaultdict(collections.Counter)
    for f in data["findings"]:
        per_file[f["path"].rsplit("/", 1)[-1]][f["family"]] += 1
    total = collections.Counter()
    for c in per_file.values():
        total.update(c)
    print("| file | " + " | ".join(FAMILIES) + " |")
    print("|---|" + "---:|" * len(FAMILIES))
    for name in sorted(per_file):
        print(f"| {name} | " + " | ".join(str(per_file[name][k]) for k in FAMILIES) + " |")
    print("| **all** | " + " | ".join(f"**{total[k]}**" for k in FAMILIES) + " |")
    print(f"\nerrors: {len(data.get('errors', []))}, findings: {sum(total.values())}")


if __name__ == "__main__":
    main(sys.argv[1:])
