"""The corpus report as a Spark job for ``spark-submit``: shards exported on several machines
(``caveat ledger export --format parquet --shard NAME``), grouped on one cluster::

    spark-submit --master spark://head:7077 "$(python -c 'import validator.spark_submit as m; print(m.__file__)')" \\
        --out reports/ claims-teamA.parquet claims-teamB.parquet

The driver needs caveat and PySpark; the executors run Spark SQL only (validator/report_spark.py).
The same as ``caveat report --engine spark --spark-master URL SHARDS...`` run on the driver.
"""
from __future__ import annotations

import sys

from validator.errors import UsageError


def main(argv=None) -> int:
    """The job as ``spark-submit`` runs it: the report of Parquet exports."""
    import argparse

    from validator.render.report_files import write_report
    from validator.report import report_exports
    ap = argparse.ArgumentParser(prog="report_spark.py", description="caveat report over ledger exports, on Spark")
    ap.add_argument("exports", nargs="+", help="Parquet files written by `caveat ledger export --format parquet`")
    ap.add_argument("--out", default="reports")
    ap.add_argument("--format", dest="formats", action="append", choices=("md", "html", "json"))
    ap.add_argument("--top", type=int, default=None)
    a = ap.parse_args(argv)
    try:
        model, written = report_exports(
            a.exports, lambda r: write_report(r, a.out, tuple(a.formats or ("md", "html", "json")), a.top),
            engine="spark")
    except (UsageError, OSError) as exc:
        print(f"caveat: {exc}", file=sys.stderr)
        return 2
    s = model.summary
    print(f"{s['files']} files, {s['claims']} claims: {s['groups']} groups, "
          f"{s['contradictions']} contradicting pairs -> " + ", ".join(str(p) for p in written))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
