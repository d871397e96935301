"""The `caveat` command line: check, extract, rules (and lazily: warnings, report, ledger,
rule, schema).

Start-up time matters (pre-commit runs this on every commit), so this module
imports only click at the top; each command imports what it needs when it runs,
and commands living in other modules are registered by name and imported only
when invoked.  Exit codes: 0 pass, 1 gate failed, 2 usage/config/input error,
130 interrupted.  Errors are one line on stderr; tracebacks only with --debug.
"""
from __future__ import annotations

import os
import signal
import sys

import click

from validator.commands import (  # noqa: F401 - other modules know these names through cli
    build_options, build_scope, fail as _fail, internal_error as _internal_error,
    relative as _relative, scope_options, user_errors as _user_errors, validate_selection,
)

PROGRESS_MIN_FILES = 5

# name -> (module, attribute): commands other modules provide; absent module = absent command.
LAZY_COMMANDS = {
    "warnings": ("validator.warnings_cmd", "warnings_command"),
    "report": ("validator.report_cmd", "report_command"),
    "ledger": ("validator.report_cmd", "ledger_command"),
    "rule": ("validator.rule_docs", "rule_command"),
    "schema": ("validator.schema_cmd", "schema_command"),
    "lsp": ("validator.lsp", "lsp_command"),
}

ENVIRONMENT_HELP = """\b
Environment:
  NO_COLOR, FORCE_COLOR  colour off / on (see --color)
  CAVEAT_JOBS            worker processes for many files (1: one process)
  CAVEAT_LEDGER          claim ledger of a corpus: off, or a file path
  CAVEAT_ENGINE          rule engine: auto (default), durable_rules, python"""


def _module_exists(name: str) -> bool:
    import importlib.util
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


class CaveatGroup(click.Group):
    """Lazy subcommands, and Ctrl-C as exit 130 with one line instead of click's 'Aborted!'."""

    def list_commands(self, ctx):
        lazy = [n for n, (mod, _) in LAZY_COMMANDS.items() if _module_exists(mod)]
        return sorted(set(super().list_commands(ctx)) | set(lazy))

    def get_command(self, ctx, name):
        cmd = super().get_command(ctx, name)
        if cmd is not None or name not in LAZY_COMMANDS:
            return cmd
        mod_name, attr = LAZY_COMMANDS[name]
        if not _module_exists(mod_name):
            return None
        import importlib
        return getattr(importlib.import_module(mod_name), attr, None)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("caveat: interrupted", err=True)
            ctx.exit(130)


def _print_version(ctx, param, value):
    if not value or ctx.resilient_parsing:
        return
    from validator import engine
    from validator.render.common import version
    click.echo(f"caveat, version {version()}\n{engine.describe()}")
    ctx.exit()


@click.group(cls=CaveatGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=ENVIRONMENT_HELP)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and the rule engine in use, then exit.")
def main():
    """Validate the quantitative claims of zh/en Markdown briefings."""
    # a file name that is not UTF-8 (surrogate escapes from the file system) is printed
    # escaped rather than crashing the renderer after the run has done its work
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


# ------------------------------------------------------------------ helpers

# ------------------------------------------------------------------ check

FORMATS = ("text", "json", "sarif", "github", "junit")


@main.command(short_help="Check briefings and gate publication (exit 0/1/2).", epilog=ENVIRONMENT_HELP)
@click.argument("paths", nargs=-1, required=True)
@click.option("--corpus", "corpus", multiple=True, metavar="DIR",
              help="Corpus root for cited sources and cross-document search (repeatable).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True)
@click.option("-o", "--output-file", "output_file", metavar="FILE",
              help="Write the report to FILE instead of standard output.")
@click.option("--fail-on", type=click.Choice(("error", "warning", "info", "never")), default=None,
              help="Lowest severity that fails the gate [default: warning, or config].")
@click.option("--select", "select", multiple=True, metavar="CODES",
              help="Only these codes, prefixes (CV3) or families (comma list, repeatable).")
@click.option("--ignore", "ignore", multiple=True, metavar="CODES",
              help="Skip these codes, prefixes or families (comma list, repeatable).")
@scope_options
@click.option("--rules", "rules_dirs", multiple=True, metavar="DIR",
              help="Folder of your own rule packs, added to the built-in ones (repeatable).")
@click.option("--config", "config_path", metavar="PATH",
              help="Config file (pyproject.toml or .caveat.yaml); default: discovered from cwd upwards.")
@click.option("--baseline", "baseline_path", metavar="FILE",
              help="Accept the findings recorded in FILE; only new ones fail.")
@click.option("--write-baseline", "write_baseline_path", metavar="FILE",
              help="Record the current findings in FILE (then they no longer fail).")
@click.option("--stdin-filename", metavar="PATH",
              help="With '-' as the path: the name the text on standard input is checked under.")
@click.option("--lang", type=click.Choice(("zh", "en")), default=None,
              help="Message language (default: each document's own).")
@click.option("--preview", is_flag=True, default=False,
              help="Also run the rules marked preview (not yet proven on real briefings).")
@click.option("-q", "--quiet", is_flag=True,
              help="Only what needs action: no summary, progress, notices or acknowledged findings.")
@click.option("--statistics", is_flag=True, help="Count findings per code instead of listing them.")
@click.option("--color", "color", type=click.Choice(("auto", "always", "never")), default="auto",
              show_default=True, help="Colour and the grouped view with carets (auto: on a terminal).")
@click.option("--debug", is_flag=True, help="Show tracebacks of unexpected errors.")
def check(paths, debug, **kw):
    """Check briefings; exit 0 pass, 1 gate failed, 2 usage/config/input error.

    PATH is a file, a folder (every Markdown file in scope under it) or '-' for
    standard input (with --stdin-filename)."""
    user_errors = _user_errors()
    try:
        code = _check(paths, **kw)
    except user_errors as exc:
        if debug:
            raise
        _fail(_relative(str(exc)))
    except (KeyboardInterrupt, SystemExit, click.exceptions.Exit):
        raise
    except Exception as exc:   # a bug: one line unless --debug
        _internal_error(exc, debug)
    sys.exit(code)


def _run_engine(files, options, show_progress):
    from validator import run as run_mod
    if not show_progress:
        return run_mod.check_paths(files, options)
    with click.progressbar(length=len(files), label="checking", file=sys.stderr,
                           show_pos=True) as bar:
        return run_mod.check_paths(files, options, progress=lambda *_: bar.update(1))


def _notice(message: str, quiet: bool) -> None:
    if not quiet:
        click.echo(f"caveat: {message}", err=True)


def _check(paths, corpus, fmt, output_file, fail_on, select, ignore, include, exclude,
           respect_gitignore, force_exclude, rules_dirs, config_path, baseline_path,
           write_baseline_path, stdin_filename, lang, quiet, statistics, color,
           preview=False) -> int:
    from types import SimpleNamespace

    from validator import baseline as baseline_mod
    from validator import config as config_mod
    from validator import paths as paths_mod
    from validator import suppress as suppress_mod
    from validator.errors import UsageError
    from validator.gate import gate_failed, is_enabled, summarize
    from validator.output import Output

    if statistics and fmt != "text":
        raise UsageError("--statistics prints a table: use it with --format text "
                         "(the JSON summary has by_code)")
    stdin = paths_mod.STDIN in paths
    if stdin and len(paths) > 1:
        raise UsageError("'-' (standard input) cannot be combined with other paths")
    if stdin_filename and not stdin:
        raise UsageError("--stdin-filename names the text on standard input: give '-' as the path")

    cfg = config_mod.load(config_path)
    options, sel, ign = build_options(cfg, corpus, select, ignore, rules_dirs, fail_on, lang,
                                      preview)
    validate_selection(cfg, options, select, ignore)
    options.scope = build_scope(cfg, include, exclude, respect_gitignore, force_exclude)
    from claims import reader
    if cfg.max_file_size:
        # the reader takes its default limit at call time; this process (and the workers it
        # forks) runs exactly one check
        reader.DEFAULT_MAX_BYTES = cfg.max_file_size
    out = Output(output_file, color)

    if stdin:
        name = stdin_filename or paths_mod.STDIN
        files = paths_mod.Expanded([name])
        if stdin_filename and options.scope.force_exclude and options.scope.excluded(name):
            # ruff's convention: a file the scope leaves out is not checked, from stdin either
            files = paths_mod.Expanded([], skipped=[(name, options.scope.excluded(name))])
            result = SimpleNamespace(findings=[], errors=[], analyses={}, corpus=None)
        else:
            from validator.text_check import check_text, read_stdin
            text, info = read_stdin(sys.stdin.buffer, name, reader.DEFAULT_MAX_BYTES)
            result = check_text(text, name, options, bom=info["bom"], newline=info["newline"])
    else:
        files = paths_mod.expand(paths, options.scope)
        if not files and not files.errors:
            walked = [p for p in paths if os.path.isdir(p) and paths_mod.markdown_files(p)]
            if not (files.skipped or walked):
                _fail("no Markdown files under " + ", ".join(paths))
        show_progress = (len(files) > PROGRESS_MIN_FILES and sys.stderr.isatty() and fmt == "text"
                         and not quiet)
        result = (_run_engine(files, options, show_progress) if files
                  else SimpleNamespace(findings=[], errors=[], analyses={}, corpus=None))
    analyses = dict(getattr(result, "analyses", {}) or {})
    errors = list(files.errors) + [str(e) for e in (result.errors or []) if str(e) not in files.errors]
    errors = [_relative(e) for e in errors]

    # severity overrides for codes the engine does not own, and selection of every code
    findings = []
    for f in result.findings:
        if not is_enabled(f.code, sel, ign, f.family, f.rule):
            continue
        if f.code in cfg.severity:
            f.severity = cfg.severity[f.code]
        findings.append(f)

    def doc_of(path):
        a = analyses.get(path)
        if a is None:
            norm = os.path.normpath(os.path.abspath(path))
            a = next((v for k, v in analyses.items() if os.path.normpath(os.path.abspath(k)) == norm), None)
        return getattr(a, "document", None)

    def lang_of(path):
        if options.lang:
            return options.lang
        d = doc_of(path)
        return getattr(d, "lang", "en") if d is not None else "en"

    # inline suppressions, then unused ones (CV001)
    sups = []
    for path, a in analyses.items():
        d = getattr(a, "document", None)
        if d is not None:
            sups += suppress_mod.parse(d, path)
    suppress_mod.apply(findings, sups)
    meta = [f for f in suppress_mod.unused(sups, sel, ign, lang_of)]
    for f in meta:
        if f.code in cfg.severity:
            f.severity = cfg.severity[f.code]
    findings += meta

    # baseline
    if write_baseline_path:
        n = baseline_mod.write(write_baseline_path, findings)
        _notice(f"wrote {n} baseline entr{'y' if n == 1 else 'ies'} to {write_baseline_path}", quiet)
        baseline_path = write_baseline_path
    if baseline_path:
        checked = list(analyses) or list(files)
        stale = baseline_mod.apply(baseline_path, findings, checked, lang_of)
        for f in stale:
            if is_enabled(f.code, sel, ign, f.family, f.rule):
                if f.code in cfg.severity:
                    f.severity = cfg.severity[f.code]
                findings.append(f)

    summary = summarize(findings, files=len(analyses) if analyses else max(0, len(files) - len(errors)),
                        errors=len(errors), fail_on=options.fail_on, skipped=len(files.skipped))
    for e in errors:
        click.echo(f"caveat: {e}", err=True)
    if not files and not errors:
        why = ", ".join(sorted({w for _, w in files.skipped})) or "include/exclude/.gitignore"
        _notice(f"nothing to check: every file given is outside the scope ({why})", quiet)
    _emit(fmt, findings, errors, summary, doc_of, options, out, quiet, statistics,
          list(analyses) or list(files))
    if getattr(result, "corpus", None) is not None:
        result.corpus.close()
    if errors:
        return 2
    return 1 if gate_failed(findings, options.fail_on) else 0


def _rules_meta(options) -> dict:
    from validator import rules_table
    try:
        return rules_table.by_code(rules_table.load(options.rules_dirs))
    except Exception:   # the table is decoration: a pack problem was already reported by the run
        return rules_table.by_code([dict(m, builtin=True) for m in rules_table.META_RULES])


def _emit(fmt, findings, errors, summary, doc_of, options, out, quiet=False, statistics=False,
          checked=()):
    if fmt == "json":
        from validator.render import json_out
        out.write(json_out.render(findings, summary, errors, checked))
    elif fmt == "sarif":
        from validator.render import sarif
        out.write(sarif.render(findings, _rules_meta(options), errors))
    elif fmt == "junit":
        from validator.render import json_out, junit
        out.write(junit.render(findings, checked, errors, options.fail_on,
                               [json_out.error_dict(e, checked) for e in errors]))
    elif fmt == "github":
        from validator.render import github, text
        line = text.summary_line(summary)
        body, _ = github.render(findings, errors, "" if quiet else line)
        out.write(body)
        step = os.environ.get("GITHUB_STEP_SUMMARY")
        if step:
            try:
                with open(step, "a", encoding="utf-8") as fh:
                    fh.write(github.step_summary(findings, errors, line))
            except OSError as exc:
                click.echo(f"caveat: cannot write $GITHUB_STEP_SUMMARY ({step}): {exc.strerror}", err=True)
    elif statistics:
        from validator.render import text
        out.write(text.render_statistics(findings, summary, _rules_meta(options)))
    else:
        from validator.render import text
        if out.grouped:
            def line_text(path, line):
                d = doc_of(path)
                if d is not None:
                    try:
                        return d.line_text(line)
                    except (IndexError, AttributeError):
                        return None
                return None
            out.write(text.render_terminal(findings, summary, line_text, colour=out.colour,
                                           columns=out.columns, quiet=quiet))
        else:
            out.write(text.render_plain(findings, summary, quiet=quiet))


# ------------------------------------------------------------------ extract

@main.command(short_help="Print every quantitative claim (jsonl or table).")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(("jsonl", "table")), default="jsonl", show_default=True)
@click.option("--debug", is_flag=True, help="Show tracebacks of unexpected errors.")
def extract(paths, fmt, debug):
    """Print every quantitative claim (Claim.to_dict() per line, or a table)."""
    import json

    from claims.api import read_document
    from claims.errors import InputError
    from validator.paths import expand

    rows = []
    out = sys.stdout
    files = expand(paths)
    for e in files.errors:
        click.echo(f"caveat: {e}", err=True)
    bad = len(files.errors)
    for path in files:
        try:
            analysis = read_document(path)
        except InputError as exc:
            if debug:
                raise
            click.echo(f"caveat: {exc}", err=True)
            bad += 1
            continue
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:
            if debug:
                raise
            click.echo(f"caveat: {path}: internal error: {type(exc).__name__}: {exc} "
                       f"(rerun with --debug for the traceback)", err=True)
            bad += 1
            continue
        for c in analysis.claims:
            if fmt == "jsonl":
                out.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")
            else:
                rows.append(c)
    if fmt == "table":
        click.echo(claims_table(rows), nl=False)
    sys.exit(2 if bad else 0)


def _num(v):
    if v is None:
        return ""
    return f"{v:g}" if isinstance(v, float) else str(v)


def claims_table(claims) -> str:
    """Aligned table of claims; widths count wide (CJK) characters as two columns."""
    from validator.render.text import width
    head = ("LOCATION", "KIND", "SURFACE", "VALUE", "UNIT", "BASE", "SUBJECT", "METRIC",
            "CONDITIONS", "MARKERS")
    rows = [head]
    for c in claims:
        value = _num(c.value) if c.value is not None else (
            f"{_num(c.low)}–{_num(c.high)}" if c.low is not None or c.high is not None else "")
        base = _num(c.base_value) if c.base_value is not None else (
            f"{_num(c.base_low)}–{_num(c.base_high)}" if c.base_low is not None else "")
        if base and c.base_unit and c.base_unit != "dimensionless":
            base += f" {c.base_unit}"
        conds = ",".join(sorted(c.conditions or {}))
        rows.append((f"{c.path}:{c.line}:{c.col}", c.kind, c.surface.replace("\n", " "),
                     ("~" if c.approx else "") + (f"{c.bound} " if c.bound else "") + value,
                     c.unit or "", base, c.subject or "", c.metric or "", conds,
                     ",".join(c.markers or [])))
    widths = [max(width(str(r[i])) for r in rows) for i in range(len(head))]
    lines = []
    for r in rows:
        cells = [str(v) + " " * (widths[i] - width(str(v))) for i, v in enumerate(r)]
        lines.append("  ".join(cells).rstrip())
    if len(rows) > 1:
        lines.append(f"{len(rows) - 1} claim{'s' if len(rows) != 2 else ''}")
    else:
        lines = ["0 claims"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ rules

@main.command(short_help="Print the rule table.")
@click.option("--format", "fmt", type=click.Choice(("table", "markdown", "json")), default="table",
              show_default=True)
@click.option("--rules", "rules_dirs", multiple=True, metavar="DIR",
              help="Also list the rules of your own pack folder (repeatable).")
@click.option("--debug", is_flag=True, help="Show tracebacks of unexpected errors.")
def rules(fmt, rules_dirs, debug):
    """Print the rule table: code, family, severity, acknowledgeable, summary."""
    from validator import rules_table
    try:
        rows = rules_table.load(rules_dirs)
    except _user_errors() as exc:
        if debug:
            raise
        _fail(str(exc))
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as exc:
        _internal_error(exc, debug)
    render = {"table": rules_table.render_table, "markdown": rules_table.render_markdown,
              "json": rules_table.render_json}[fmt]
    click.echo(render(rows), nl=False)


def _on_sigint(signum, frame):
    """Ctrl-C as KeyboardInterrupt, but never inside a finalizer: Python swallows an
    exception raised in ``__del__`` (printing "Exception ignored in …" with a traceback)
    and the run would go on as if not interrupted. Landing in one (the pattern compiler
    frees many objects), the interrupt is raised again a few milliseconds later."""
    f = frame
    while f is not None:
        if f.f_code.co_name == "__del__":
            signal.setitimer(signal.ITIMER_REAL, 0.005)
            return
        f = f.f_back
    raise KeyboardInterrupt


_HELD = {getattr(signal, "SIGINT", None), getattr(signal, "SIGALRM", None)} - {None}


def _hold_interrupts():
    """Once the command is over, Ctrl-C (and a deferred one) is held by the OS, not raised:
    raised among the cache saves and flushes below it escaped as a traceback, or was
    swallowed by them and the run exited 0. ``_interrupt_pending`` tells if one came."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)


def _interrupt_pending() -> bool:
    return hasattr(signal, "sigpending") and bool(_HELD & signal.sigpending())


def entry():
    """The ``caveat`` console script: run the command, then leave without tearing down the
    heap. A many-file run holds hundreds of thousands of small objects (every analysis);
    freeing them one by one at interpreter exit took ~0.3 s after the output was written.
    Everything that must outlive the process is done by then: output flushed here, files
    written atomically, the claim ledger committed and closed."""
    if hasattr(signal, "setitimer") and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)
        signal.signal(signal.SIGALRM, _on_sigint)     # the deferred interrupt
    try:
        try:
            main()
            code = 0
        finally:
            _hold_interrupts()
    except SystemExit as e:
        code = e.code
    except KeyboardInterrupt:       # outside a command (start-up, or a deferred interrupt)
        print("caveat: interrupted", file=sys.stderr)
        code = 130
    if isinstance(code, str):       # sys.exit("message"): printed, status 1
        print(code, file=sys.stderr)
        code = 1
    code = 0 if code is None else int(code)
    # what start-up compiled and parsed for the next process (claims/pattern_cache.py,
    # data_cache.py) is written at exit by atexit, which os._exit skips
    for name in ("claims.pattern_cache", "claims.data_cache"):
        cache = sys.modules.get(name)
        if cache is not None:
            try:
                cache.save()
            except Exception:   # noqa: BLE001 - a cache that cannot be written only means
                pass            # nothing is kept (the file is replaced atomically or not at all)
    if code != 130 and _interrupt_pending():
        # Ctrl-C once the command was done: its output and files are complete, but the
        # user asked to stop, and a hook or script must see that
        print("caveat: interrupted", file=sys.stderr)
        code = 130
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe ('caveat check … | head'): nothing to keep
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
