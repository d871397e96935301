"""`caveat report` and `caveat ledger export` as a user runs them: files written, deterministic
output with relative paths, one-line errors with exit 2.

The extractor is the stand-in of test_report_ledger (the report's logic is under test here)."""
from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

import validator.ledger as L
from validator.report_cmd import ledger_command, report_command
from test_report_ledger import fake_analyze


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.setattr(L, "_analyze", fake_analyze)
    root = tmp_path / "corpus"
    (root / "inbox").mkdir(parents=True)
    (root / "inbox" / "2026-11-01-a.md").write_text("eagle speedup 2.4x on H100\nmedusa speedup 1.5x\n", encoding="utf-8")
    (root / "2026-11-03-b.md").write_text("eagle speedup 3.1x on H100\neagle speedup 3.1x on H200\n", encoding="utf-8")
    (root / "k.md").write_text("eagle speedup 2.4x\nmedusa speedup 1.5x TBD\n", encoding="utf-8")
    return root


def test_report_writes_three_deterministic_files(corpus, tmp_path):
    r = CliRunner()
    one, two = tmp_path / "one", tmp_path / "two"
    res = r.invoke(report_command, [str(corpus), "--out", str(one)])
    assert res.exit_code == 0, res.output
    assert "1 groups" in res.output and "contradicting pairs" in res.output
    res = r.invoke(report_command, [str(corpus), "--out", str(two), "--no-ledger"])
    assert res.exit_code == 0, res.output
    for name in ("report.md", "report.html", "report.json"):
        a, b = (one / name).read_bytes(), (two / name).read_bytes()
        assert a == b, name
        assert str(tmp_path).encode() not in a
    model = json.loads((one / "report.json").read_text(encoding="utf-8"))
    (g,) = model["groups"]
    by_surface = {s["surface"]: s for s in g["statements"]}
    old, new = by_surface["eagle speedup 2.4x on H100"], by_surface["eagle speedup 3.1x on H100"]
    assert (old["path"], old["line"], old["first_date"]) == ("inbox/2026-11-01-a.md", 1, "2026-11-01")
    assert new["id"] in old["contradicts"] and old["superseded_by"] == new["id"]
    assert [(f["path"], f["line"]) for f in old["figures"]] == [("inbox/2026-11-01-a.md", 1)]
    statuses = {(p["a"], p["b"]): p["status"] for p in g["pairs"]}
    h200 = by_surface["eagle speedup 3.1x on H200"]["id"]
    assert statuses[tuple(sorted((old["id"], h200), key=lambda x: int(x[1:])))] == "not_comparable"
    assert model["summary"]["unverified"] == 2      # the stand-in marks every figure of a 'TBD' file
    assert model["summary"]["contradictions"] == 1 and model["summary"]["superseded"] == 1
    md = (one / "report.md").read_text(encoding="utf-8")
    assert "superseded by" in md and "hardware differs (H100 vs H200)" in md
    assert '<svg class="chart"' in (one / "report.html").read_text(encoding="utf-8")


def test_report_on_a_missing_corpus_is_one_line_exit_2(tmp_path):
    res = CliRunner().invoke(report_command, [str(tmp_path / "nope"), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2
    assert "nope: no such file or directory" in res.output and "Traceback" not in res.output


def test_ledger_export_jsonl_and_csv(corpus, tmp_path):
    r = CliRunner()
    res = r.invoke(ledger_command, ["export", str(corpus), "--format", "jsonl", "--out", str(tmp_path / "c.jsonl")])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in (tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 6
    first = rows[0]
    assert first["path"] == "2026-11-03-b.md" and first["key"] == "speedup|eagle|"
    assert first["conditions"]["hardware"]["value"] == "H100" and len(first["file_hash"]) == 64
    res = r.invoke(ledger_command, ["export", str(corpus), "--format", "csv", "--out", str(tmp_path / "c.csv")])
    assert res.exit_code == 0, res.output
    with open(tmp_path / "c.csv", encoding="utf-8", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert len(table) == 6 and table[0]["surface"] == "eagle speedup 3.1x on H100"


def test_ledger_export_parquet_needs_an_optional_library(corpus, tmp_path):
    out = tmp_path / "c.parquet"
    res = CliRunner().invoke(ledger_command, ["export", str(corpus), "--format", "parquet", "--out", str(out)])
    try:
        import pyarrow.parquet as pq
    except ImportError:
        pq = None
    if pq is None:
        try:
            import duckdb  # noqa: F401
        except ImportError:
            assert res.exit_code == 2 and "pyarrow" in res.output and "Traceback" not in res.output
            return
    assert res.exit_code == 0, res.output
    if pq is not None:
        assert pq.read_table(str(out)).num_rows == 6


def test_report_honours_caveat_jobs(tmp_path, monkeypatch):
    """CAVEAT_JOBS sets the report's extraction processes as it sets check's; --jobs wins."""
    import validator.parallel as P
    for i in range(24):
        (tmp_path / "c" / f"n{i}.md").parent.mkdir(exist_ok=True)
        (tmp_path / "c" / f"n{i}.md").write_text(f"eagle speedup {i}.1x on H100\n", encoding="utf-8")
    monkeypatch.setattr(L, "_analyze", fake_analyze)
    seen, real = [], P.shared

    def spy(items, work, jobs, *a, **k):
        seen.append(jobs)
        return real(items, work, jobs, *a, **k)
    monkeypatch.setattr(P, "shared", spy)
    for env, args, want in (("1", [], 1), ("2", [], 2), ("2", ["--jobs", "1"], 1)):
        monkeypatch.setenv("CAVEAT_JOBS", env)
        seen.clear()
        res = CliRunner().invoke(report_command, [str(tmp_path / "c"), "--out", str(tmp_path / "o"),
                                                  "--no-ledger", *args])
        assert res.exit_code == 0, res.output
        assert seen == [want], (env, args, seen)
