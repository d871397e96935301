"""``caveat report --engine duckdb``: the statements grouped and compared as SQL in DuckDB.

Over a corpus the claim ledger is synced as always, then streamed into DuckDB (Arrow record
batches read from SQLite: DuckDB's own SQLite reader is an extension it would download);
over Parquet exports (``caveat ledger export --format parquet``, one file per shard) DuckDB
reads the files itself, and no ledger is involved. The SQL is validator/report_sql.py's,
shared with the Spark engine. DuckDB spills to disk past its memory limit, so a corpus
larger than memory still groups.

Optional: ``pip install 'caveat[duckdb]'`` (duckdb and pyarrow).
"""
from __future__ import annotations

import tempfile

from validator import report_sql as sql
from validator.errors import UsageError
from validator.report_python import LedgerSource

FIGURE_BATCH = 10_000
MEMORY_LIMIT = "256MB"


def _duckdb():
    try:
        import duckdb
    except ImportError:
        raise UsageError("--engine duckdb needs DuckDB: pip install 'caveat[duckdb]'") from None
    return duckdb


def _insert(con, table: str, names, rows) -> None:
    """Rows made in Python into a DuckDB table, as one Arrow table (row by row is slow)."""
    if not rows:
        return
    import pyarrow as pa
    data = pa.table({n: list(col) for n, col in zip(names, zip(*rows))})   # noqa: F841 - read by DuckDB
    con.execute(f"INSERT INTO {table} SELECT * FROM data")


class _DuckDBGrouping:
    """The grouping half, over a DuckDB connection holding the table ``claims``."""

    def _prepare(self, con, multi_shard: bool) -> None:
        self.con = con
        self._tmp = tempfile.TemporaryDirectory(prefix="caveat-duckdb-")
        con.execute(f"SET temp_directory = '{self._tmp.name}'")
        # past this DuckDB spills to its temporary folder: the report's memory stays bounded
        con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        con.execute("SET preserve_insertion_order = false")
        con.execute(f"CREATE TABLE figs AS {sql.figs(multi_shard)}")
        con.execute(f"CREATE TABLE statements AS {sql.STATEMENTS}")
        con.execute(f"CREATE TABLE candidates AS {sql.CANDIDATES}")
        setups = con.execute(sql.SETUP_PAIRS).fetchall()
        con.execute("CREATE TABLE verdicts (ca VARCHAR, cb VARCHAR, status VARCHAR, differ VARCHAR)")
        _insert(con, "verdicts", ("ca", "cb", "status", "differ"), sql.verdict_rows(setups))
        con.execute(f"CREATE TABLE near AS {sql.NEAR}")
        con.execute(f"CREATE TABLE pairs AS {sql.PAIRS}")

    def _dicts(self, q: str, params=(), con=None):
        cur = (con or self.con).execute(q, params)
        names = [d[0] for d in cur.description]
        while True:
            part = cur.fetchmany(FIGURE_BATCH)
            if not part:
                return
            for r in part:
                yield dict(zip(names, r))

    def groups(self):
        # two cursors walked together (a second connection: one cursor per connection)
        pairs_con = self.con.cursor()
        statements = self._dicts(sql.GROUPED_STATEMENTS)
        pairs = self._dicts(sql.PAIRS, con=pairs_con)
        for key, sts, prs in sql.grouped(statements, pairs):
            for s in sts:
                s.first["path"] = self.show(s.first["path"])
            yield key, sts, prs

    def figures(self, order):
        import json
        self.con.execute("CREATE OR REPLACE TABLE report_order (key VARCHAR, sig VARCHAR, g BIGINT)")
        _insert(self.con, "report_order", ("key", "sig", "g"), [(k, s, i) for i, (k, s) in enumerate(order)])
        for r in self._dicts(sql.FIGURES):
            yield r["key"], r["sig"], {
                "path": self.show(r["path"]), "line": r["line"], "col": r["col"], "surface": r["surface"],
                "date": r["date"], "role": r["role"], "markers": sorted(json.loads(r["markers"] or "[]"))}

    def close(self) -> None:
        try:
            self.con.close()
        finally:
            self._tmp.cleanup()


class DuckDBEngine(_DuckDBGrouping, LedgerSource):
    """Over a synced ledger: grouping in DuckDB; counts, unverified figures, files and
    errors read from the ledger as the default engine reads them."""

    @classmethod
    def over_ledger(cls, ledger, roots, n_files: int) -> "DuckDBEngine":
        duckdb = _duckdb()
        from validator.ledger_export import arrow_batches
        self = cls(ledger, roots, n_files)
        con = duckdb.connect()
        from validator.report_python import reportable
        reader = arrow_batches(ledger, columns=sql.COLUMNS, where=reportable("c"))
        # batch by batch, read here: DuckDB scans Arrow memory in threads of its own, and
        # the SQLite cursor must stay in this one
        batch = reader.schema.empty_table()      # noqa: F841 - DuckDB reads the Python variable
        con.execute("CREATE TABLE claims AS SELECT * FROM batch")
        for batch in reader:                     # noqa: B007
            con.execute("INSERT INTO claims SELECT * FROM batch")
        self._prepare(con, multi_shard=False)
        return self

    @classmethod
    def over_parquet(cls, paths) -> "ParquetDuckDB":
        return ParquetDuckDB(paths)


class ParquetDuckDB(_DuckDBGrouping, sql.ExportRows):
    """Over Parquet exports of one or more shards: everything from DuckDB."""

    def __init__(self, paths):
        duckdb = _duckdb()
        con = duckdb.connect()
        files = ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths)
        con.execute(f"CREATE VIEW claims AS SELECT * FROM read_parquet([{files}], union_by_name = true)")
        self.shards = [s for (s,) in con.execute(sql.SHARDS).fetchall()]
        self.multi = len(self.shards) > 1
        self.dpath = sql.display_path(self.multi)
        self._prepare(con, self.multi)

    def show(self, path):
        return path

    def corpus_names(self) -> list:
        return [s or "corpus" for s in self.shards]

    def snapshot(self):
        from contextlib import nullcontext
        return nullcontext(self)

    def counts(self) -> dict:
        files, claims, _ = self.con.execute(sql.COUNTS).fetchone()
        n_unverified = self.con.execute(f"SELECT count(*) FROM ({sql.UNVERIFIED.format(dpath=self.dpath)})").fetchone()[0]
        return {"files": files, "claims": claims, "unverified": n_unverified}

    def errors(self) -> list:
        return sorted(e for (e,) in self.con.execute(sql.ERRORS).fetchall())
