"""`caveat warnings PATH... [--corpus DIR] [--write]`: the warnings section as it should read.

Without --write, prints each briefing's warnings section with caveat's managed
entries regenerated; with --write, updates the file in place (atomically, only the
managed part, the heading count and the summary line change). Findings are
computed on the file's base text (the file without what caveat wrote before), so a
second run writes the same bytes as the first. Exit 0 done, 2 a usage, config or
input error (every other file is still processed).

``--write`` only ever writes files in scope (include/exclude/.gitignore, as if
``--force-exclude`` were given): a corpus note that pre-commit passes along with the
briefings is left as it is. ``caveat warnings -`` reads standard input and prints the
whole rewritten text (``--stdin-filename`` names it), for editors.
"""
from __future__ import annotations

import sys

import click

from validator.commands import scope_options

BOM = b"\xef\xbb\xbf"


def _read_blanked(path: str):
    """A corpus file's Analysis with caveat's managed block blanked out (line numbers kept),
    so one briefing's generated entries never count as evidence for another's."""
    from claims.api import analyze
    from claims.reader import read_text
    from validator.warnings_section import blank_managed
    text, _info = read_text(path)
    return analyze(blank_managed(text), path)


class Session:
    """Config, rules and corpus loaded once for all the files of one invocation."""

    def __init__(self, corpus=(), config_path=None, lang=None, cfg=None, scope_args=None):
        """``cfg``: a config the caller has loaded already (the language server finds it from
        the workspace folder, not from the working directory); ``scope_args``: the command
        line's include/exclude/respect-gitignore/force-exclude."""
        from validator import config as config_mod
        from validator import packs
        from validator.commands import build_options, build_scope, validate_selection
        from validator.corpus import Corpus

        self.cfg = cfg if cfg is not None else config_mod.load(config_path)
        self.max_bytes = getattr(self.cfg, "max_file_size", None) or None
        self.options, self.sel, self.ign = build_options(self.cfg, corpus, (), (), (), None, lang)
        validate_selection(self.cfg, self.options)
        self.options.scope = build_scope(self.cfg, **(scope_args or {}))
        self.rules = packs.load_rules(self.options)
        self.patterns = tuple(self.cfg.warnings_patterns or ())
        self.corpus = None
        if self.options.corpus:
            self.corpus = Corpus(self.options.corpus, _read_blanked, errors=[])

    def forget(self, path: str) -> None:
        """Drop the corpus's cached analysis of `path` (it was just written or was a base text),
        so the next file sees it the way a fresh run would."""
        import os
        if self.corpus is None:
            return
        cache = getattr(self.corpus, "_analyses", None)
        if isinstance(cache, dict):
            cache.pop(os.path.realpath(path), None)
            if hasattr(self.corpus, "_index"):
                self.corpus._index = None

    def findings(self, path: str, base_text: str):
        """(findings, analysis) of the base text of `path`, suppressions and selection applied."""
        from claims.api import analyze
        from validator import suppress as suppress_mod
        from validator.gate import is_enabled
        from validator.run import check_analysis

        analysis = analyze(base_text, path)
        if self.corpus is not None:
            self.corpus.add(path, analysis)
        found = check_analysis(analysis, self.rules, self.corpus, self.options.lang, self.options)
        found = [f for f in found if is_enabled(f.code, self.sel, self.ign, f.family, f.rule)]
        suppress_mod.apply(found, suppress_mod.parse(analysis.document, path))
        return found, analysis

    def rewrite(self, path: str, text: str):
        """warnings_section.Update for one file's text."""
        from validator.warnings_section import prepare, update
        prep = prepare(text, self.patterns)
        try:
            found, analysis = self.findings(path, prep.base_text)
        finally:
            self.forget(path)
        return update(prep, found, path=path, doc=analysis.document, lang=self.options.lang,
                      extra_patterns=self.patterns, roots=tuple(self.options.corpus or ()))


@click.command("warnings")
@click.argument("paths", nargs=-1, required=True)
@click.option("--corpus", "corpus", multiple=True, metavar="DIR",
              help="Corpus root for cited sources and cross-document search (repeatable).")
@click.option("--write", is_flag=True, help="Update the files in place (only caveat's managed part "
                                              "changes; files outside the scope are never written).")
@scope_options
@click.option("--stdin-filename", metavar="PATH",
              help="With '-' as the path: the name the text on standard input is read under.")
@click.option("--config", "config_path", metavar="PATH",
              help="Config file (pyproject.toml or .caveat.yaml); default: discovered from cwd upwards.")
@click.option("--lang", type=click.Choice(("zh", "en")), default=None,
              help="Language of the entries (default: each document's own).")
@click.option("--debug", is_flag=True, help="Show tracebacks of unexpected errors.")
def warnings_command(paths, corpus, write, include, exclude, respect_gitignore, force_exclude,
                     stdin_filename, config_path, lang, debug):
    """Print (or --write) the warnings section each briefing should have.

    PATH is a file, a folder, or '-': standard input, printed back whole with its
    warnings section rewritten. Exit 0 done, 2 usage/config/input error (other files
    are still processed)."""
    from claims.reader import decode_bytes
    from validator import paths as paths_mod
    from validator.atomic import WriteError, read_snapshot, replace_if_unchanged
    from validator.commands import fail as _fail, user_errors as _user_errors
    from validator.warnings_locate import LayoutError

    user_errors = _user_errors() + (WriteError,)
    stdin = paths_mod.STDIN in paths
    if stdin and (len(paths) > 1 or write):
        _fail("'-' (standard input) is printed back: it cannot be combined with other paths or --write")
    if stdin_filename and not stdin:
        _fail("--stdin-filename names the text on standard input: give '-' as the path")
    try:
        session = Session(corpus, config_path, lang, scope_args=dict(
            include=include, exclude=exclude, respect_gitignore=respect_gitignore,
            force_exclude=True if write else force_exclude))
    except user_errors as exc:
        if debug:
            raise
        _fail(str(exc))
    if stdin:
        sys.exit(_warnings_stdin(session, stdin_filename or paths_mod.STDIN, user_errors, debug))
    files = paths_mod.expand(paths, session.options.scope)
    failed = bool(files.errors)
    for e in files.errors:
        click.echo(f"caveat: {e}", err=True)
    if files.skipped:
        names = [p for p, _ in files.skipped]
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        why = ", ".join(sorted({w for _, w in files.skipped}))
        click.echo(f"caveat: left {len(names)} file{'s' * (len(names) != 1)} outside the scope "
                   f"({why}) as {'they are' if len(names) != 1 else 'it is'}: {shown}", err=True)
    for path in files:
        try:
            snap = read_snapshot(path, session.max_bytes)
            text, info = decode_bytes(snap.data, path)
            bom = info["bom"]
            try:
                upd = session.rewrite(path, text)
            except LayoutError as exc:
                raise WriteError(f"{path}:{exc.line}", exc.message) from None
            if write:
                data = (BOM if bom else b"") + upd.text.encode("utf-8")
                changed = replace_if_unchanged(snap, data)
                session.forget(path)
                if changed:
                    click.echo(f"caveat: {path}: warnings section updated "
                               f"({len(upd.entries)} caveat entr{'y' if len(upd.entries) == 1 else 'ies'})",
                               err=True)
            else:
                if len(files) > 1:
                    click.echo(f"==> {path} <==")
                if upd.section:
                    click.echo(upd.section, nl=False)
                else:
                    click.echo(f"caveat: {path}: nothing to warn about; no warnings section needed", err=True)
        except KeyboardInterrupt:
            raise
        except user_errors as exc:
            if debug:
                raise
            click.echo(f"caveat: {exc}", err=True)
            failed = True
        except Exception as exc:  # a bug: one line unless --debug
            if debug:
                raise
            click.echo(f"caveat: {path}: internal error: {type(exc).__name__}: {exc} "
                       "(rerun with --debug for the traceback)", err=True)
            failed = True
    sys.exit(2 if failed else 0)


def _warnings_stdin(session, name, user_errors, debug) -> int:
    """``caveat warnings -``: the text on stdin, printed back with its warnings section
    rewritten (unchanged when the scope leaves ``name`` out and --force-exclude is on)."""
    from claims import reader
    from validator.text_check import read_stdin
    from validator.warnings_locate import LayoutError
    try:
        text, info = read_stdin(sys.stdin.buffer, name, session.max_bytes or reader.DEFAULT_MAX_BYTES)
        scope = session.options.scope
        if scope.force_exclude and name != "-" and scope.excluded(name):
            new = text
        else:
            try:
                new = session.rewrite(name, text).text
            except LayoutError as exc:
                raise reader.InputError(name, exc.message, line=exc.line) from None
    except KeyboardInterrupt:
        raise
    except user_errors as exc:
        if debug:
            raise
        click.echo(f"caveat: {exc}", err=True)
        return 2
    except Exception as exc:  # a bug: one line unless --debug
        if debug:
            raise
        click.echo(f"caveat: {name}: internal error: {type(exc).__name__}: {exc} "
                   "(rerun with --debug for the traceback)", err=True)
        return 2
    data = ((b"\xef\xbb\xbf" if info["bom"] else b"") + new.encode("utf-8"))
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
    return 0
