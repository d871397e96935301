"""Shared by the engine tests: the corpora every engine reports on, and what must be equal."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "tests" / "data" / "briefing-corpus"
sys.path.insert(0, str(REPO / "benchmark"))
import gen_corpus  # noqa: E402

from validator.report_cmd import ledger_command, report_command  # noqa: E402


def generated(root: Path) -> dict:
    """Two generated corpora: the benchmark's skewed shape (few keys, loads written three
    ways, planted contradictions) and its project shape."""
    out = {}
    out["skewed"] = root / "skewed"
    gen_corpus.generate(out["skewed"], files=60, claims_per_file=8, planted=4, seed=11, shape="skewed")
    out["project"] = root / "project"
    gen_corpus.generate(out["project"], files=40, claims_per_file=8, planted=5, seed=12)
    return out


def report(args, out: Path) -> dict:
    """`caveat report ARGS --out OUT` (must succeed); the report.json model."""
    res = CliRunner().invoke(report_command, [*map(str, args), "--out", str(out)])
    assert res.exit_code == 0, res.output
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


def export(corpus: Path, out: Path, shard=None) -> Path:
    args = ["export", str(corpus), "--format", "parquet", "--out", str(out), "--no-ledger"]
    if shard:
        args += ["--shard", shard]
    res = CliRunner().invoke(ledger_command, args)
    assert res.exit_code == 0, res.output
    return out


def counts(model: dict) -> dict:
    """The summary and, per claim key, what the report counts in it."""
    per_key = {}
    for g in model["groups"]:
        k = g["key"]
        per_key[(k["metric"], k["subject"], k["baseline"])] = (
            g["contradictions"], g["not_comparable"], g["n_figures"], g["n_statements"],
            sorted((s["n_figures"], s["n_files"], len(s["contradicts"]), len(s["not_comparable"]),
                    s["superseded_by"] is not None) for s in g["statements"]))
    return {"summary": model["summary"], "keys": per_key}
