"""The synthetic corpus generator: reproducible, both languages, the requested sizes, and
planted contradictions that `caveat report` finds (all of them, with no false alarm)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmark"))
import gen_corpus  # noqa: E402
import bench_corpus  # noqa: E402
from validator.report_cmd import report_command  # noqa: E402


def _tree(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_seed_same_corpus_and_sizes_as_asked(tmp_path):
    m1 = gen_corpus.generate(tmp_path / "a", files=24, claims_per_file=6, planted=5, seed=3)
    gen_corpus.generate(tmp_path / "b", files=24, claims_per_file=6, planted=5, seed=3)
    gen_corpus.generate(tmp_path / "c", files=24, claims_per_file=6, planted=5, seed=4)
    a, b, c = _tree(tmp_path / "a"), _tree(tmp_path / "b"), _tree(tmp_path / "c")
    assert a == b and a != c
    md = {k: v.decode("utf-8") for k, v in a.items() if k.endswith(".md")}
    assert len(md) == 24 and m1["claims"] == 24 * 6
    assert any("吞吐" in t or "首 token" in t or "显存" in t or "加速" in t or "快" in t for t in md.values())
    assert any("throughput" in t or "faster" in t or "speedup" in t or "footprint" in t or "first token" in t
               for t in md.values())
    assert len(m1["planted"]) == 5
    for p in m1["planted"]:
        line = md[p["path"]].splitlines()[p["line"] - 1]
        assert gen_corpus._fmt(p["metric"], p["stated"]) in line
        assert gen_corpus._fmt(p["metric"], p["truth"]) not in line


def test_report_finds_every_planted_contradiction(tmp_path):
    corpus = tmp_path / "corpus"
    manifest = gen_corpus.generate(corpus, files=40, claims_per_file=8, planted=6, seed=5)
    res = CliRunner().invoke(report_command, [str(corpus), "--out", str(tmp_path / "out"), "--no-ledger"])
    assert res.exit_code == 0, res.output
    q = bench_corpus.recall(tmp_path / "out" / "report.json", manifest)
    assert q["recall"] == 1.0, q["missed"]
    assert q["false_pairs"] == 0
    assert json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))["summary"]["files"] == 40
