"""`caveat report --engine duckdb` gives what the default engine gives: the same summary and
per-key counts (in fact the same report) on the example corpus and on generated corpora,
over the corpus's ledger and over Parquet exports of it; and the exports of several shards,
grouped together, count what one report over all their folders counts.

Skips when DuckDB is not installed (pip install '.[duckdb]'); .ci/run installs it."""
from __future__ import annotations

import pytest

from engines import EXAMPLE, counts, export, generated, report

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("engines")
    got = generated(root)
    got["example"] = EXAMPLE
    return got


@pytest.mark.parametrize("name", ["example", "skewed", "project"])
def test_duckdb_reports_what_the_default_engine_reports(corpora, name, tmp_path):
    corpus = corpora[name]
    ref = report([corpus, "--no-ledger"], tmp_path / "python")
    got = report([corpus, "--no-ledger", "--engine", "duckdb"], tmp_path / "duckdb")
    assert ref["groups"], "every corpus here has disagreeing statements"
    assert counts(got) == counts(ref)
    assert got == ref
    for name_ in ("report.md", "report.html"):
        assert (tmp_path / "duckdb" / name_).read_bytes() == (tmp_path / "python" / name_).read_bytes()


@pytest.mark.parametrize("name", ["example", "skewed"])
def test_duckdb_over_a_parquet_export_needs_no_ledger(corpora, name, tmp_path):
    corpus = corpora[name]
    ref = report([corpus, "--no-ledger"], tmp_path / "python")
    shard = export(corpus, tmp_path / "claims.parquet")
    got = report([shard, "--engine", "duckdb"], tmp_path / "duckdb")
    assert counts(got) == counts(ref)
    assert got["files"] == ref["files"] and got["unverified"] == ref["unverified"]


def test_shards_exported_apart_are_grouped_as_one_corpus(corpora, tmp_path):
    a, b = corpora["skewed"], corpora["project"]
    together = report([a, b, "--no-ledger"], tmp_path / "together")
    shards = [export(a, tmp_path / "a.parquet", shard="a"), export(b, tmp_path / "b.parquet", shard="b")]
    got = report([*shards, "--engine", "duckdb"], tmp_path / "shards")
    assert counts(got) == counts(together)
    assert got["corpus"] == ["a", "b"]
    assert {f["path"].split("/")[0] for f in got["files"]} == {"a", "b"}


def test_parquet_exports_need_a_grouping_engine(corpora, tmp_path):
    from click.testing import CliRunner

    from validator.report_cmd import report_command
    shard = export(corpora["example"], tmp_path / "claims.parquet")
    res = CliRunner().invoke(report_command, [str(shard), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "--engine duckdb" in res.output and "Traceback" not in res.output
