"""`caveat warnings PATH... [--corpus DIR] [--write]`: the warnings section as it should read.

Without --write, prints each briefing's warnings section with caveat's managed
entries regenerated; with --write, updates the file in place (atomically, only the
managed part, the heading count and the summary line change). Findings are
computed on the file's base text (the file without what caveat wrote before), so a
second run writes the same bytes as the first. Exit 0 done, 2 a usage, config or
input error (every other file is still processed).
"""
from __future__ import annotations

import sys

import click

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

    def __init__(self, corpus=(), config_path=None, lang=None, cfg=None):
        """``cfg``: a config the caller has loaded already (the language server finds it from
        the workspace folder, not from the working directory)."""
        from validator import config as config_mod
        from validator import packs
        from validator.cli import build_options
        from validator.corpus import Corpus

        self.cfg = cfg if cfg is not None else config_mod.load(config_path)
        self.max_bytes = getattr(self.cfg, "max_file_size", None) or None
        self.options, self.sel, self.ign = build_options(self.cfg, corpus, (), (), (), None, lang)
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
@click.option("--write", is_flag=True, help="Update the files in place (only caveat's managed part changes).")
@click.option("--config", "config_path", metavar="PATH",
              help="Config file (pyproject.toml or .caveat.yaml); default: discovered from cwd upwards.")
@click.option("--lang", type=click.Choice(("zh", "en")), default=None,
              help="Language of the entries (default: each document's own).")
@click.option("--debug", is_flag=True, help="Show tracebacks of unexpected errors.")
def warnings_command(paths, corpus, write, config_path, lang, debug):
    """Print (or --write) the warnings section each briefing should have.

    Exit 0 done, 2 usage/config/input error (other files are still processed)."""
    from claims.reader import decode_bytes
    from validator.atomic import WriteError, read_snapshot, replace_if_unchanged
    from validator.cli import _fail, _user_errors, expand_paths
    from validator.warnings_locate import LayoutError

    user_errors = _user_errors() + (WriteError,)
    try:
        session = Session(corpus, config_path, lang)
    except user_errors as exc:
        if debug:
            raise
        _fail(str(exc))
    files = expand_paths(paths)
    failed = False
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
