"""`caveat report --engine spark` gives what the default engine gives: the same summary and
per-key counts (the same report) on the example corpus and on a generated corpus, over the
corpus's ledger and over Parquet exports of several shards; and the job runs as
`spark-submit` runs it (``validator/report_spark.py``'s ``main``).

One Spark session for the module (starting one takes seconds). Needs PySpark and a Java 17+
runtime: skipped without them on a developer's machine, a failure where the run says Spark
must be tested (``CAVEAT_REQUIRE_SPARK=1``: .ci/run installs both and sets it for its main
run; its extra interpreters install only ``[test]``), so the Spark engine is always tested
where it matters."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from engines import EXAMPLE, counts, export, generated, report

_missing = None
try:
    import pyspark  # noqa: F401
    import pyarrow  # noqa: F401
except ImportError as exc:
    _missing = f"PySpark not installed ({exc.name}): pip install '.[spark]'"
if _missing is None and shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    _missing = "no Java runtime (apt-get install default-jre-headless)"
if _missing is not None:
    if os.environ.get("CAVEAT_REQUIRE_SPARK") == "1":
        pytest.fail(f"the Spark engine must be tested in this run: {_missing}", pytrace=False)
    pytest.skip(_missing, allow_module_level=True)


@pytest.fixture(scope="module")
def spark():
    from validator.report_spark import session
    s, _ = session("local[2]")
    yield s
    s.stop()


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    root = tmp_path_factory.mktemp("spark")
    got = generated(root)
    got["example"] = EXAMPLE
    return got


@pytest.mark.parametrize("name", ["example", "skewed"])
def test_spark_reports_what_the_default_engine_reports(spark, corpora, name, tmp_path):
    corpus = corpora[name]
    ref = report([corpus, "--no-ledger"], tmp_path / "python")
    got = report([corpus, "--no-ledger", "--engine", "spark"], tmp_path / "spark")
    assert ref["groups"]
    assert counts(got) == counts(ref)
    assert got == ref


def test_spark_groups_shards_exported_apart(spark, corpora, tmp_path):
    a, b = corpora["skewed"], corpora["project"]
    together = report([a, b, "--no-ledger"], tmp_path / "together")
    shards = [export(a, tmp_path / "a.parquet", shard="a"), export(b, tmp_path / "b.parquet", shard="b")]
    got = report([*shards, "--engine", "spark"], tmp_path / "spark")
    assert counts(got) == counts(together)
    # the job as spark-submit runs it writes the same report
    from validator.spark_submit import main
    assert main([str(p) for p in shards] + ["--out", str(tmp_path / "submitted"), "--format", "json"]) == 0
    submitted = json.loads((tmp_path / "submitted" / "report.json").read_text(encoding="utf-8"))
    assert submitted == got
