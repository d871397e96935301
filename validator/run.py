"""One `check` run: files -> analyses -> facts -> rule engine -> findings (acknowledged or not).

``check_paths(paths, options)`` is what the CLI, the renderers and the gate build on.
A directory argument means every Markdown file under it. A bad file (missing, binary,
undecodable…) becomes one line in ``RunResult.errors`` and the run goes on; a bad rule
pack or option is a ``UsageError`` raised before anything runs.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from . import engine, packs
from .corpus import Corpus, markdown_files
from .coverage import covered
from .errors import EngineError, UsageError
from .facts import Context
from .options import Options


@dataclass
class RunResult:
    findings: list = field(default_factory=list)    # list[Finding], sorted by path, line, col, code
    errors: list = field(default_factory=list)      # one-line messages of files that could not be read
    analyses: dict = field(default_factory=dict)    # path -> claims.api.Analysis
    rules: list = field(default_factory=list)       # the rules that ran (validator.packs.Rule)
    corpus: object = None                           # validator.corpus.Corpus or None


def _read(path: str):
    from claims.api import read_document
    return read_document(path)


def expand_paths(paths, errors: list) -> list:
    """Files to check: each file argument, and every Markdown file under a folder argument."""
    out, seen = [], set()
    for p in paths:
        p = str(p)
        if os.path.isdir(p):
            files = markdown_files(p)
        elif os.path.exists(p):
            files = [p]
        else:
            errors.append(f"{p}: no such file or directory")
            continue
        for f in files:
            real = os.path.realpath(f)
            if real not in seen:
                seen.add(real)
                out.append(f)
    return out


def check_analysis(analysis, rules, corpus=None, lang=None, options=None) -> list:
    """Findings of ``rules`` on one analysed document (acknowledgement applied)."""
    ctx = Context(analysis, corpus, lang=lang, options=options)
    findings = []

    def facts():
        for rule in rules:
            for fact in rule.kind.facts(rule, ctx) or ():
                yield rule, fact

    def on_match(rule, fact, side):
        findings.append(rule.render(fact, side, ctx.lang))

    engine.run(rules, facts(), on_match)
    out, seen = [], set()
    for f in findings:
        k = (f.code, f.path, f.line, f.col, f.surface)
        if k in seen:
            continue
        seen.add(k)
        if f.acknowledgeable:
            f.acknowledged = covered(f, analysis)
        out.append(f)
    return out


def check_paths(paths, options: Options | None = None) -> RunResult:
    options = options or Options()
    rules = packs.load_rules(options)
    for root in options.corpus or ():
        if not os.path.exists(root):
            raise UsageError(f"{root}: corpus folder does not exist")
    result = RunResult(rules=rules)
    files = expand_paths(paths, result.errors)
    corpus = Corpus(options.corpus, _read, errors=[]) if options.corpus else None
    result.corpus = corpus
    for f in files:
        try:
            a = _read(f)
        except Exception as e:  # noqa: BLE001 - one line naming the file, go on
            result.errors.append(_one_line(e, f) if _is_input_error(e)
                                 else f"{f}: internal error: {type(e).__name__}: {e}")
            continue
        result.analyses[f] = a
        if corpus is not None:
            corpus.add(f, a)
    for path, a in result.analyses.items():
        try:
            result.findings += check_analysis(a, rules, corpus, options.lang, options)
        except (EngineError, UsageError) as e:
            result.errors.append(_one_line(e, path))
        except Exception as e:  # noqa: BLE001 - a bug in a kind must not hide the other files
            result.errors.append(f"{path}: internal error: {type(e).__name__}: {e}")
    if corpus is not None:
        # unreadable corpus files are worth one line each, but never fail the checked files
        for e in corpus.errors:
            if e not in result.errors:
                result.errors.append(e)
    result.findings.sort(key=lambda f: (f.path, f.line, f.col, f.code))
    return result


def _is_input_error(e: Exception) -> bool:
    from claims.errors import InputError
    return isinstance(e, (InputError, OSError, UnicodeError))


def _one_line(e: Exception, path: str) -> str:
    msg = " ".join(str(e).split()) or type(e).__name__
    return msg if msg.startswith(str(path)) else f"{path}: {msg}"
