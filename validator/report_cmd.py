"""Command line of the corpus report and the ledger: `caveat report` and `caveat ledger export`.

validator/cli.py registers these lazily (only when the subcommand runs), so `caveat check`
never pays for them.
"""
from __future__ import annotations

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
    from validator.render.report_files import write_report
    from validator.report import report_corpus, report_exports

    def write(model):
        return write_report(model, out_dir, formats or FORMATS, top)
    if corpus and all(_is_export(str(c)) for c in corpus):
        if engine == "python":
            _fail("Parquet exports are grouped by --engine duckdb or --engine spark")
        for c in corpus:
            if not Path(c).is_file():
                _fail(f"{c}: no such file")
        run = lambda: report_exports(corpus, write, engine, spark_master)  # noqa: E731
    else:
        roots = _check_roots(corpus)

        def run():
            with _open_ledger(roots, ledger_path, no_ledger, jobs) as led:
                return report_corpus(roots, write, led, engine, spark_master)
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
@click.option("--shard", default=None,
              help="Name of this corpus in the export (default: the corpus folder's name); "
                   "exports of several shards are reported together with --engine duckdb|spark.")
@_with_ledger_opts
def export_command(corpus, fmt, out_file, shard, ledger_path, no_ledger, jobs):
    """Export every claim (with its file's content hash) for DuckDB, Spark or a spreadsheet.

    The ledger is brought up to date for CORPUS (default: the current folder) first.
    A file without claims is one row with no claim (idx empty)."""
    from validator.ledger import corpus_files
    from validator.ledger_export import export
    roots = _check_roots(corpus or (".",))
    shard = shard if shard is not None else (Path(roots[0]).resolve().name or "corpus")
    try:
        with _open_ledger(roots, ledger_path, no_ledger, jobs) as led:
            files = corpus_files(roots)
            led.sync(files)
            led.prune(files)
            n = export(led, fmt, out_file, shard)
    except (UsageError, OSError) as exc:
        _fail(str(exc))
    click.echo(f"{n} claims -> {out_file}")
