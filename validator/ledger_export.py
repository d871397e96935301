"""The claim ledger as rows another engine reads: `caveat ledger export` (JSON lines, CSV,
Parquet) and the tables the DuckDB and Spark report engines group.

One row per claim (the ledger's claim columns, each claim's statement included), with its
file's content hash and the columns of its file (``file_lang``, ``file_date``,
``file_claims``, ``file_error``), and one row per file that has no claim (claim columns
empty, ``idx`` null), so an engine that sees only the export still counts every file and
every unreadable one. ``shard`` names the corpus the rows come from: exports made on several
machines are grouped together on one (benchmark/BEYOND.md), paths being relative to each
shard's root.

Parquet is written in batches through pyarrow (``pip install 'caveat[duckdb]'`` or
``'caveat[spark]'``), or through DuckDB when only DuckDB is installed; memory stays flat
whatever the ledger's size.
"""
from __future__ import annotations

import csv
import json
import os
import tempfile
from pathlib import Path

from validator.errors import UsageError
from validator.ledger import CLAIM_COLUMNS

BATCH = 50_000
JSON_COLUMNS = ("conditions", "markers", "sources", "eff_conditions", "borrowed")
BOOL_COLUMNS = ("approx", "negative")
INT_COLUMNS = {"idx", "line", "col", "start_offset", "end_offset", "decimals", "approx", "negative",
               "list_id", "block", "file_claims"}
REAL_COLUMNS = {"value", "low", "high", "base_value", "base_low", "base_high", "iv_lo", "iv_hi"}
FILE_COLUMNS = ("file_hash", "shard", "file_lang", "file_date", "file_claims", "file_error")
COLUMNS = tuple(CLAIM_COLUMNS) + FILE_COLUMNS


def rows(led, shard: str = "", columns=COLUMNS, where: str = ""):
    """Every claim of the ledger with its file's columns, and every file without a claim,
    ordered by path and claim index (a cursor: read as you go). Error lines name files
    relative to the ledger's root, as the report shows them. ``columns``, ``where``: only
    these columns, only the claims (not the files without any) that pass this SQL test."""
    root = os.path.join(str(led.root), "") if led.root is not None else "\0"
    file_cols = {"file_hash": "f.hash", "shard": ":shard", "file_lang": "f.lang", "file_date": "f.date",
                 "file_claims": "f.n_claims", "file_error": "replace(f.error, :root, '')"}
    sel = ", ".join("f.path" if c == "path" else file_cols.get(c, f"c.{c}") for c in columns)
    join = f"JOIN claims c ON c.path = f.path AND {where}" if where else "LEFT JOIN claims c ON c.path = f.path"
    q = f"SELECT {sel} FROM files f {join} ORDER BY f.path, c.idx"
    return led.conn.execute(q, {"shard": shard, "root": root})


def arrow_schema(columns=COLUMNS):
    import pyarrow as pa
    return pa.schema([(c, pa.int64() if c in INT_COLUMNS else pa.float64() if c in REAL_COLUMNS else pa.string())
                      for c in columns])


def arrow_batches(led, shard: str = "", columns=COLUMNS, where: str = ""):
    """The export as a pyarrow RecordBatchReader (streamed from the ledger in batches)."""
    import pyarrow as pa
    schema = arrow_schema(columns)
    cur = rows(led, shard, columns, where)

    def batches():
        while True:
            part = cur.fetchmany(BATCH)
            if not part:
                return
            cols = list(zip(*part))
            yield pa.RecordBatch.from_arrays([pa.array(col, type=schema.field(i).type)
                                              for i, col in enumerate(cols)], schema=schema)
    return pa.RecordBatchReader.from_batches(schema, batches())


def export(led, fmt: str, out_file, shard: str = "") -> int:
    """Write the export; returns the number of claims (rows with a claim)."""
    out = Path(out_file)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "parquet":
        return _parquet(led, out, shard)
    n = 0
    iidx = COLUMNS.index("idx")
    cur = rows(led, shard)
    if fmt == "jsonl":
        jcols = {COLUMNS.index(c) for c in JSON_COLUMNS}
        bcols = {COLUMNS.index(c) for c in BOOL_COLUMNS}
        with open(out, "w", encoding="utf-8", newline="\n") as fh:
            for row in cur:
                d = {c: (json.loads(v) if i in jcols and v is not None else
                         bool(v) if i in bcols and v is not None else v)
                     for i, (c, v) in enumerate(zip(COLUMNS, row))}
                fh.write(json.dumps(d, ensure_ascii=False) + "\n")
                n += row[iidx] is not None
    else:
        with open(out, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(COLUMNS)
            for row in cur:
                w.writerow(row)
                n += row[iidx] is not None
    return n


def _parquet(led, out: Path, shard: str) -> int:
    n = led.conn.execute("SELECT count(*) FROM claims").fetchone()[0]
    try:
        import pyarrow.parquet as pq
    except ImportError:
        pq = None
    if pq is not None:
        reader = arrow_batches(led, shard)
        with pq.ParquetWriter(str(out), reader.schema) as w:
            for batch in reader:
                w.write_batch(batch)
        return n
    try:
        import duckdb
    except ImportError:
        raise UsageError("--format parquet needs pyarrow or duckdb (pip install 'caveat[duckdb]'); "
                         "jsonl and csv need nothing") from None
    # through a CSV file DuckDB reads with the export's column types
    types = {c: "BIGINT" if c in INT_COLUMNS else "DOUBLE" if c in REAL_COLUMNS else "VARCHAR" for c in COLUMNS}
    with tempfile.NamedTemporaryFile("w", suffix=".csv", encoding="utf-8", newline="", delete=False) as tmp:
        csv.writer(tmp).writerows(rows(led, shard))
    try:
        con = duckdb.connect()
        cols = "{" + ", ".join(f"'{c}': '{t}'" for c, t in types.items()) + "}"
        con.execute(f"COPY (SELECT * FROM read_csv('{tmp.name}', header=false, columns={cols}, "
                    f"nullstr='')) TO '{out}' (FORMAT PARQUET)")
        con.close()
    finally:
        Path(tmp.name).unlink(missing_ok=True)
    return n
