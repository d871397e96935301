"""What every command shares: one-line errors, and how config and command line become
the options of a run (selection checked against the packs, the scope of files).

``validator.cli``, ``validator.warnings_cmd`` and ``validator.rule_docs`` build on it
(``validator.cli`` re-exports the names, which other modules know it by).
"""
from __future__ import annotations

import os
import sys

import click


def fail(message: str, code: int = 2):
    click.echo(f"caveat: {message}", err=True)
    sys.exit(code)


def internal_error(exc: BaseException, debug: bool):
    if debug:
        raise exc
    fail(f"internal error: {type(exc).__name__}: {exc} (rerun with --debug for the traceback)")


def user_errors():
    """Exception types whose message is the one line to print (exit 2)."""
    from validator.baseline import BaselineError
    from validator.config import ConfigError
    types = [ConfigError, BaselineError]
    try:
        from validator.errors import UsageError
        types.append(UsageError)
    except ImportError:   # pragma: no cover - engine side not installed
        pass
    try:
        from claims.errors import InputError
        types.append(InputError)
    except ImportError:   # pragma: no cover
        pass
    return tuple(types)


def scope_options(f):
    """--include/--exclude/--respect-gitignore/--force-exclude, shared by check and warnings."""
    for deco in reversed((
        click.option("--include", "include", multiple=True, metavar="PATTERN",
                     help="Only files matching these gitignore-style patterns, relative to the "
                          "project root (replaces the config's include; repeatable)."),
        click.option("--exclude", "exclude", multiple=True, metavar="PATTERN",
                     help="Leave out files matching these gitignore-style patterns (added to "
                          "the config's exclude; repeatable)."),
        click.option("--respect-gitignore/--no-respect-gitignore", "respect_gitignore", default=None,
                     help="Leave out what .gitignore ignores when walking folders [default: on]."),
        click.option("--force-exclude/--no-force-exclude", "force_exclude", default=None,
                     help="Apply include/exclude/.gitignore to files named on the command line too "
                          "(the pre-commit hooks do) [default: off]."),
    )):
        f = deco(f)
    return f


def build_options(cfg, corpus, select, ignore, rules_dirs, fail_on, lang, preview=False):
    """Merge config and command line into validator.options.Options.

    The command line wins: --select replaces the config's select, --ignore adds to
    it, --corpus/--rules add folders.  Meta codes (CV0xx) are handled here, not by
    the rule packs, so they are kept out of the engine's selection."""
    import dataclasses

    from validator.gate import parse_codes
    from validator.options import Options

    sel = parse_codes(select) or list(cfg.select)
    ign = list(cfg.ignore) + parse_codes(ignore)

    def engine_side(codes):
        return [c for c in codes if not (c.upper().startswith("CV0") and c.upper() != "CV")]

    engine_sel = engine_side(sel)
    fields = {f.name for f in dataclasses.fields(Options)}
    kw = dict(select=(engine_sel or None) if not (sel and not engine_sel) else None,
              ignore=engine_side(ign), severity=dict(cfg.severity), params=dict(cfg.params),
              corpus=list(cfg.corpus) + [os.path.abspath(c) for c in corpus],
              rules_dirs=list(cfg.rules) + list(rules_dirs),
              fail_on=fail_on or cfg.fail_on or "warning", lang=lang or cfg.lang,
              preview=bool(preview or getattr(cfg, "preview", False)))
    # pack severity/params overrides must not name meta codes
    kw["severity"] = {c: s for c, s in kw["severity"].items() if not c.startswith("CV0")}
    kw["params"] = {c: p for c, p in kw["params"].items() if not c.startswith("CV0")}
    if cfg.warnings_patterns:
        kw["warnings_patterns"] = cfg.warnings_patterns
    opts = Options(**{k: v for k, v in kw.items() if k in fields})
    return opts, sel, ign


def build_scope(cfg, include=(), exclude=(), respect_gitignore=None, force_exclude=None):
    """The files in scope: the config's include/exclude (relative to its folder) with the
    command line's (--include replaces, --exclude adds), .gitignore unless turned off."""
    from validator.errors import UsageError
    from validator.paths import Scope, check_patterns
    for flag, pats in (("--include", include), ("--exclude", exclude)):
        problem = check_patterns(pats)
        if problem:
            raise UsageError(f"{flag}: {problem}")
    return Scope(root=cfg.root or os.getcwd(),
                 include=list(include) or list(cfg.include),
                 exclude=list(cfg.exclude) + list(exclude),
                 respect_gitignore=(respect_gitignore if respect_gitignore is not None
                                    else cfg.respect_gitignore if cfg.respect_gitignore is not None
                                    else True),
                 force_exclude=bool(force_exclude if force_exclude is not None else cfg.force_exclude))


def validate_selection(cfg, options, cli_select=(), cli_ignore=()):
    """Every code, prefix or family named in config or on the command line exists, and
    every severity and parameter override fits its rule: else one line naming the config
    file and the line of the key (or the option), with the closest known name."""
    from validator import packs
    from validator.config import did_you_mean
    from validator.errors import UsageError
    from validator.gate import _hit, parse_codes
    from validator.rules_table import META_RULES

    rules = packs.load_all(options.rules_dirs)
    known = [(r.code, r.family, r.name) for r in rules] + \
        [(m["code"], m["family"], m["name"]) for m in META_RULES]
    words = sorted({c for c, _, _ in known} | {f for _, f, _ in known} | {n for _, _, n in known})

    def exists(sel):
        return any(_hit(code, sel, fam, name) for code, fam, name in known)

    def unknown(sel):
        return (f"unknown rule code or family '{sel}'{did_you_mean(sel, words)} "
                f"(`caveat rules` lists them)")

    for flag, given in (("--select", cli_select), ("--ignore", cli_ignore)):
        for sel in parse_codes(given):
            if not exists(sel):
                raise UsageError(f"{flag}: {unknown(sel)}")
    if cfg.path is None:
        return
    for key in ("select", "ignore"):
        for sel in getattr(cfg, key):
            if not exists(sel):
                raise cfg.error((key,), f"'{key}': {unknown(sel)}")
    by_code = {r.code: r for r in rules}
    meta = {m["code"] for m in META_RULES}
    for code in cfg.severity:
        if code not in by_code and code not in meta:
            raise cfg.error(("severity", code), f"severity: {unknown(code)}")
    for code, ps in cfg.params.items():
        if code not in by_code:
            raise cfg.error(("params", code), f"params: {unknown(code)}")
        for k, v in ps.items():
            problem = packs._param_problem(by_code[code].kind, k, v)
            if problem:
                raise cfg.error(("params", code, k), f"params of {code}: {problem}")


def relative(text: str) -> str:
    """A message with the working directory taken out of the absolute paths it names."""
    cwd = os.getcwd().rstrip(os.sep) + os.sep
    return text.replace(cwd, "") if len(cwd) > 1 else text
