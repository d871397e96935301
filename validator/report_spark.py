"""``caveat report --engine spark``: the statements grouped and compared as a PySpark job.

The job reads claim-ledger exports (``caveat ledger export --format parquet``): over a
corpus folder the ledger is synced and exported to a temporary Parquet file first; given
Parquet files (one per shard, exported on as many machines), it reads them directly. The
grouping is Spark SQL — validator/report_sql.py, the text the DuckDB engine runs — so the
executors need neither caveat nor Python: the one step in Python, whether two setups can be
compared, runs on the driver for each distinct pair of setups and is joined back as a small
table. The driver then writes the report as the other engines do, reading the figures back
in order (``toLocalIterator``), one partition at a time.

Runs on ``local[*]`` by default, on ``--spark-master URL``, or under ``spark-submit``
(validator/spark_submit.py).

Optional: ``pip install 'caveat[spark]'`` (pyspark and pyarrow) and a Java 17+ runtime.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile

from validator import report_sql as sql
from validator.errors import UsageError
from validator.report_python import LedgerSource, reportable


def session(master=None):
    """The active Spark session, else a new one on ``master`` (``local[*]`` when none is
    given and spark-submit set none): (session, whether it was made here)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise UsageError("--engine spark needs PySpark: pip install 'caveat[spark]'") from None
    active = SparkSession.getActiveSession()
    if active is not None and master is None:
        return active, False
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise UsageError("--engine spark needs a Java 17+ runtime (java not found; "
                         "Debian: apt-get install default-jre-headless)")
    b = SparkSession.builder.appName("caveat-report")
    # under spark-submit (it starts this driver with a gateway of its own) the master is
    # the one spark-submit was given
    if master is not None or not os.environ.get("PYSPARK_GATEWAY_PORT"):
        b = b.master(master or "local[*]")
    # local mode runs the job in the driver's JVM, whose heap Spark sets to 1g unless told:
    # a corpus of a million figures needs more (CAVEAT_SPARK_DRIVER_MEMORY, e.g. '4g')
    if os.environ.get("CAVEAT_SPARK_DRIVER_MEMORY"):
        b = b.config("spark.driver.memory", os.environ["CAVEAT_SPARK_DRIVER_MEMORY"])
    b = (b.config("spark.ui.enabled", "false")
          .config("spark.ui.showConsoleProgress", "false")
          .config("spark.sql.shuffle.partitions", os.environ.get("CAVEAT_SPARK_PARTITIONS", "4"))
          .config("spark.sql.session.timeZone", "UTC"))
    spark = b.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark, True


class _SparkGrouping:
    """The grouping half, over a Spark session with the view ``claims``."""

    def _prepare(self, spark, multi_shard: bool) -> None:
        self.spark = spark
        self._views = []
        for name, q in (("figs", sql.figs(multi_shard)), ("statements", sql.STATEMENTS),
                        ("candidates", sql.CANDIDATES)):
            self._view(name, spark.sql(q).cache())
        setups = [(r["ca"], r["cb"]) for r in spark.sql(sql.SETUP_PAIRS).toLocalIterator()]
        self._view("verdicts", spark.createDataFrame(
            sql.verdict_rows(setups), "ca string, cb string, status string, differ string"))
        self._view("near", spark.sql(sql.NEAR))
        self._view("pairs", spark.sql(sql.PAIRS).cache())

    def _view(self, name, df) -> None:
        df.createOrReplaceTempView(name)
        self._views.append(name)

    def _dicts(self, q: str):
        for r in self.spark.sql(q).toLocalIterator(prefetchPartitions=True):
            yield r.asDict()

    def groups(self):
        statements = self._dicts(sql.GROUPED_STATEMENTS)
        pairs = self._dicts(sql.PAIRS)
        for key, sts, prs in sql.grouped(statements, pairs):
            for s in sts:
                s.first["path"] = self.show(s.first["path"])
            yield key, sts, prs

    def figures(self, order):
        order = [(k, s, i) for i, (k, s) in enumerate(order)]
        self._view("report_order", self.spark.createDataFrame(order or [("", "", 0)], "key string, sig string, g long"))
        for r in self.spark.sql(sql.FIGURES).toLocalIterator(prefetchPartitions=True):
            yield r["key"], r["sig"], {
                "path": self.show(r["path"]), "line": r["line"], "col": r["col"], "surface": r["surface"],
                "date": r["date"], "role": r["role"], "markers": sorted(json.loads(r["markers"] or "[]"))}

    def _release(self) -> None:
        for name in self._views:
            self.spark.catalog.dropTempView(name)
        self.spark.catalog.clearCache()
        if self._own:
            self.spark.stop()


class SparkEngine(_SparkGrouping, LedgerSource):
    """Over a synced ledger (exported to a temporary Parquet file): grouping in Spark;
    counts, unverified figures, files and errors read from the ledger as the default
    engine reads them."""

    @classmethod
    def over_ledger(cls, ledger, roots, n_files: int, master=None) -> "SparkEngine":
        from validator.ledger_export import arrow_batches
        spark, own = session(master)
        self = cls(ledger, roots, n_files)
        self._own = own
        self._tmp = tempfile.mkdtemp(prefix="caveat-spark-")
        path = os.path.join(self._tmp, "claims.parquet")
        import pyarrow.parquet as pq
        reader = arrow_batches(ledger, columns=sql.COLUMNS, where=reportable("c"))
        with pq.ParquetWriter(path, reader.schema) as w:
            for batch in reader:
                w.write_batch(batch)
        spark.read.parquet(path).createOrReplaceTempView("claims")
        self._prepare(spark, multi_shard=False)
        self._views.append("claims")
        return self

    @classmethod
    def over_parquet(cls, paths, master=None) -> "ParquetSpark":
        return ParquetSpark(paths, master)

    def close(self) -> None:
        try:
            self._release()
        finally:
            shutil.rmtree(self._tmp, ignore_errors=True)


class ParquetSpark(_SparkGrouping, sql.ExportRows):
    """Over Parquet exports of one or more shards: everything from Spark."""

    def __init__(self, paths, master=None):
        spark, self._own = session(master)
        spark.read.option("mergeSchema", "true").parquet(*[str(p) for p in paths]).createOrReplaceTempView("claims")
        self.shards = [r["shard"] for r in spark.sql(sql.SHARDS).collect()]
        self.multi = len(self.shards) > 1
        self.dpath = sql.display_path(self.multi)
        self._prepare(spark, self.multi)
        self._views.append("claims")

    def show(self, path):
        return path

    def corpus_names(self) -> list:
        return [s or "corpus" for s in self.shards]

    def snapshot(self):
        from contextlib import nullcontext
        return nullcontext(self)

    def counts(self) -> dict:
        r = self.spark.sql(sql.COUNTS).collect()[0]
        n_unverified = self.spark.sql(sql.UNVERIFIED.format(dpath=self.dpath)).count()
        return {"files": r["files"], "claims": r["claims"], "unverified": n_unverified}

    def errors(self) -> list:
        return sorted(r[0] for r in self.spark.sql(sql.ERRORS).collect())

    def close(self) -> None:
        self._release()
