"""Running a corpus report: the ledger synced, an engine chosen, the model built and written.

``caveat report`` (validator/report_cmd.py) and ``spark-submit`` (validator/spark_submit.py)
call ``report_corpus`` (a corpus: its claim ledger is brought up to date first) or
``report_exports`` (Parquet exports of one or more shards, no ledger). The engines group
and compare (``report_python``, ``report_duckdb``, ``report_spark``); the model of the
report is ``report_model``; the caller's ``write`` (validator/render/report_files.py)
streams it to files while the engine is still open.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from validator.report_model import build

ENGINES = ("python", "duckdb", "spark")


def engine_for(name: str, ledger, roots, n_files: int, spark_master: Optional[str] = None):
    """The engine ``name`` over a synced ledger of ``roots``."""
    if name == "python":
        from validator.report_python import PythonEngine
        return PythonEngine(ledger, roots, n_files)
    if name == "duckdb":
        from validator.report_duckdb import DuckDBEngine
        return DuckDBEngine.over_ledger(ledger, roots, n_files)
    if name == "spark":
        from validator.report_spark import SparkEngine
        return SparkEngine.over_ledger(ledger, roots, n_files, master=spark_master)
    raise ValueError(f"unknown engine {name!r} (one of {', '.join(ENGINES)})")


def corpus_names(roots) -> list:
    return [Path(r).name or str(r) for r in roots]


def report_corpus(roots, write, ledger=None, engine: str = "python", spark_master: Optional[str] = None) -> tuple:
    """Sync the ledger for every Markdown file under ``roots``, build the report with
    ``engine`` and hand it to ``write(report)`` (which reads the figures from the engine as
    it writes): (Report, what ``write`` returned). A ledger found corrupt while reading is
    rebuilt (with a notice) and the report redone."""
    from validator import parallel
    with parallel.collector_tuned():        # the collector's pace of a run, as for check
        return _report_corpus(roots, write, ledger, engine, spark_master)


def _report_corpus(roots, write, ledger, engine, spark_master) -> tuple:
    import sqlite3

    from validator.ledger import Ledger, corpus_files
    roots = [str(r) for r in roots]
    own = ledger is None
    if own:
        ledger = Ledger.for_roots(roots)
    try:
        for attempt in (1, 2):
            try:
                files = corpus_files(roots)
                ledger.sync(files)
                ledger.prune(files)
                source = engine_for(engine, ledger, roots, len(files), spark_master)
                try:
                    with source.snapshot():
                        report = build(source, corpus_names(roots), roots)
                        return report, write(report)
                finally:
                    source.close()
            except sqlite3.DatabaseError as exc:
                if attempt == 2 or isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                    raise
                ledger._rebuild(exc)
    finally:
        if own:
            ledger.close()


def report_exports(exports, write, engine: str = "duckdb", spark_master: Optional[str] = None) -> tuple:
    """The report of ledger exports (``caveat ledger export --format parquet``, one or several
    shards), grouped by DuckDB or Spark without any ledger, handed to ``write(report)``:
    (Report, what ``write`` returned)."""
    exports = [str(p) for p in exports]
    if engine == "duckdb":
        from validator.report_duckdb import DuckDBEngine
        source = DuckDBEngine.over_parquet(exports)
    elif engine == "spark":
        from validator.report_spark import SparkEngine
        source = SparkEngine.over_parquet(exports, master=spark_master)
    else:
        raise ValueError("Parquet exports are grouped by --engine duckdb or spark")
    try:
        with source.snapshot():
            report = build(source, source.corpus_names())
            return report, write(report)
    finally:
        source.close()
