"""Command line of the corpus report and the ledger: `caveat report` and `caveat ledger export`.

validator/cli.py registers these lazily (only when the subcommand runs), so `caveat check`
never pays for them.
"""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import click

from validator.errors import UsageError

FORMATS = ("md", "html", "json")
ENGINES = ("python", "duckdb", "spark")     # validator.report.ENGINES (not imported: start-up)


def _fail(message: str) -> None:
    click.echo(f"caveat: {message}", err=True)
    sys.exit(2)


def _check_roots(roots) -> list:
    if not roots:
        _fail("give at least one corpus directory")
    for r in roots:
        if not Path(r).exists():
            _fail(f"{r}: no such file or directory")
    return [str(r) for r in roots]


def _open_ledger(roots, ledger_path, no_ledger, jobs):
    from validator.ledger import Ledger
    if no_ledger:
        return Ledger(":memory:", root=next((r for r in roots if Path(r).is_dir()), "."), jobs=jobs)
    return Ledger.for_roots(roots, path=ledger_path, jobs=jobs)


_ledger_opts = [
    click.option("--ledger", "ledger_path", type=click.Path(dir_okay=False),
                 help="Ledger file (default: CORPUS/.caveat/ledger.sqlite)."),
    click.option("--no-ledger", is_flag=True, help="Extract everything afresh in memory."),
    click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None,
                 help="Extraction processes (default: one per core)."),
]


def _with_ledger_opts(f):
    for opt in reversed(_ledger_opts):
        f = opt(f)
    return f


def _is_export(p: str) -> bool:
    return p.endswith(".parquet")


@click.command("report")
@click.argument("corpus", nargs=-1, type=click.Path())
@click.option("--out", "out_dir", default="reports", show_default=True, type=click.Path(file_okay=False),
              help="Folder for report.md, report.html and report.json.")
@click.option("--format", "formats", multiple=True, type=click.Choice(FORMATS),
              help="Only these formats (repeatable; default: all three).")
@click.option("--engine", type=click.Choice(ENGINES), default="python", show_default=True,
              help="Who groups and compares the statements: python (in the SQLite ledger), "
                   "duckdb or spark (optional: pip install 'caveat[duckdb]' / 'caveat[spark]').")
@click.option("--top", type=click.IntRange(0, None), default=None,
              help="Groups shown in full in report.md and report.html (default: 50; "
                   "report.json has every group).")
@click.option("--spark-master", default=None, metavar="URL",
              help="Spark master for --engine spark (default: local[*]).")
@_with_ledger_opts
def report_command(corpus, out_dir, formats, engine, top, spark_master, ledger_path, no_ledger, jobs):
    """Contradiction report over a corpus: Markdown, HTML and JSON.

    CORPUS is one or more folders of briefings and notes, or (with --engine duckdb or
    spark) Parquet files written by `caveat ledger export --format parquet`, one per
    shard, grouped together without any ledger."""
    from validator.report import report_corpus, report_exports
    if corpus and all(_is_export(str(c)) for c in corpus):
        if engine == "python":
            _fail("Parquet exports are grouped by --engine duckdb or --engine spark")
        for c in corpus:
            if not Path(c).is_file():
                _fail(f"{c}: no such file")
        run = lambda: report_exports(corpus, out_dir, formats or FORMATS, engine, top, spark_master)  # noqa: E731
    else:
        roots = _check_roots(corpus)

        def run():
            with _open_ledger(roots, ledger_path, no_ledger, jobs) as led:
                return report_corpus(roots, out_dir, formats or FORMATS, led, engine, top, spark_master)
    try:
        model, written = run()
    except (UsageError, OSError) as exc:
        _fail(str(exc))
    for e in model.errors:
        click.echo(f"caveat: {e}", err=True)
    s = model.summary
    click.echo(f"{s['files']} files, {s['claims']} claims: {s['groups']} groups, "
               f"{s['contradictions']} contradicting pairs, {s['unverified']} unverified figures -> "
               + ", ".join(str(p) for p in written))
    if model.errors:     # the report covers the other files; the run still failed
        sys.exit(2)


@click.group("ledger")
def ledger_command():
    """The claim ledger: every claim of every corpus file, kept up to date incrementally."""


@ledger_command.command("export")
@click.argument("corpus", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(("jsonl", "csv", "parquet")), default="jsonl",
              show_default=True)
@click.option("--out", "out_file", required=True, type=click.Path(dir_okay=False))
@_with_ledger_opts
def export_command(corpus, fmt, out_file, ledger_path, no_ledger, jobs):
    """Export every claim (with its file's content hash) for DuckDB, Spark or a spreadsheet.

    The ledger is brought up to date for CORPUS (default: the current folder) first."""
    from validator.ledger import corpus_files
    roots = _check_roots(corpus or (".",))
    try:
        with _open_ledger(roots, ledger_path, no_ledger, jobs) as led:
            files = corpus_files(roots)
            led.sync(files)
            led.prune(files)
            n = export(led, fmt, out_file)
    except (UsageError, OSError) as exc:
        _fail(str(exc))
    click.echo(f"{n} claims -> {out_file}")


EXPORT_JSON_COLUMNS = ("conditions", "markers", "sources", "eff_conditions", "borrowed")
EXPORT_BOOL_COLUMNS = ("approx", "negative")


def export_rows(led):
    """(columns, row iterator): the claims table joined with each file's content hash."""
    from validator.ledger import CLAIM_COLUMNS
    cols = list(CLAIM_COLUMNS) + ["file_hash"]
    q = ("SELECT " + ",".join(f"c.{c}" for c in CLAIM_COLUMNS) +
         ", f.hash FROM claims c JOIN files f ON f.path = c.path ORDER BY c.path, c.idx")
    return cols, led.conn.execute(q)


def export(led, fmt: str, out_file) -> int:
    cols, rows = export_rows(led)
    n = 0
    out = Path(out_file)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "jsonl":
        jcols = {cols.index(c) for c in EXPORT_JSON_COLUMNS}
        bcols = {cols.index(c) for c in EXPORT_BOOL_COLUMNS}
        with open(out, "w", encoding="utf-8", newline="\n") as fh:
            for row in rows:
                d = {c: (json.loads(v) if i in jcols and v is not None else
                         bool(v) if i in bcols and v is not None else v)
                     for i, (c, v) in enumerate(zip(cols, row))}
                fh.write(json.dumps(d, ensure_ascii=False) + "\n")
                n += 1
    elif fmt == "csv":
        with open(out, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(cols)
            for row in rows:
                w.writerow(row)
                n += 1
    else:
        n = _export_parquet(cols, rows, out)
    return n


def _export_parquet(cols, rows, out) -> int:
    """Parquet through pyarrow, else duckdb; neither is a dependency of caveat."""
    rows = list(rows)
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        pa = None
    if pa is not None:
        table = pa.table({c: [r[i] for r in rows] for i, c in enumerate(cols)})
        pq.write_table(table, str(out))
        return len(rows)
    try:
        import duckdb
    except ImportError:
        raise UsageError("--format parquet needs pyarrow or duckdb (pip install pyarrow); "
                         "jsonl and csv need nothing") from None
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as tmp:
        for r in rows:
            tmp.write(json.dumps(dict(zip(cols, r)), ensure_ascii=False) + "\n")
    try:
        con = duckdb.connect()
        con.execute(f"COPY (SELECT * FROM read_json_auto('{tmp.name}')) TO '{out}' (FORMAT PARQUET)")
        con.close()
    finally:
        Path(tmp.name).unlink(missing_ok=True)
    return len(rows)
