"""One `check` run: files -> analyses -> facts -> rule engine -> findings (acknowledged or not).

``check_paths(paths, options)`` is what the CLI, the renderers and the gate build on.
A directory argument means every Markdown file under it. A bad file (missing, binary,
undecodable…) becomes one line in ``RunResult.errors`` and the run goes on; a bad rule
pack or option is a ``UsageError`` raised before anything runs.

A run over many files on several cores reads them, then checks them, in forked worker
processes beside the parent (validator/parallel.py; ``CAVEAT_JOBS=1`` keeps one process);
what it reports does not depend on it (tests/cli/test_parallel_check.py).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from . import analysis_store, engine, packs, parallel
from .caches import Caches
from .corpus import Corpus
from .paths import expand
from .coverage import covered
from .errors import EngineError, UsageError
from .facts import LEDGER_APPROX_REL, Context, statements
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


def apply_warnings_patterns(analysis, patterns) -> None:
    """Sections whose heading matches a config `warnings-patterns` entry (and their
    sub-sections) are warnings sections: their entries acknowledge findings and their
    figures are disclosures, not claims to check. The segmenter knows only the built-in
    headings; the config is policy, so it is applied here."""
    if not patterns:
        return
    from .limits import safe_regex
    rxs = [safe_regex(p, rule="warnings-patterns") for p in patterns]
    doc = analysis.document
    marked = set()
    for k, sec in enumerate(doc.sections):
        parent = getattr(sec, "parent", None)
        if parent in marked or any(rx.search(sec.title, doc=doc.path) for rx in rxs):
            marked.add(k)
            sec.role = "warnings"
    if not marked:
        return
    for b in doc.blocks:
        if b.section in marked:
            b.role = "warnings"
    for c in analysis.claims:
        if c.block is not None and doc.blocks[c.block].role == "warnings":
            c.role = "warnings"


def check_analysis(analysis, rules, corpus=None, lang=None, options=None, caches=None) -> list:
    """Findings of ``rules`` on one analysed document (acknowledgement applied). ``caches``:
    the run's (validator/caches.py); default: the corpus's, else new ones."""
    apply_warnings_patterns(analysis, getattr(options, "warnings_patterns", None))
    if caches is None:
        caches = corpus.caches if corpus is not None else Caches()
    ctx = Context(analysis, corpus, lang=lang, options=options, caches=caches)
    findings = []

    # A kind's facts depend on its params and the document only, and several rules often
    # extend one kind with the same params (CV401-403, CV501-503, CV701-702 differ only in
    # `when:`): compute them once per document, give each rule its own copies.
    made: dict = {}

    def facts():
        for rule in rules:
            sig = (rule.extends, _params_sig(rule.params))
            got = made.get(sig)
            if got is None:
                got = made[sig] = list(rule.kind.facts(rule, ctx) or ())
            for fact in got:
                yield rule, dict(fact)

    def on_match(rule, fact, side):
        if callable(side):          # made only now that the fact fires (validator/kinds)
            side = side()
        findings.append(rule.render(fact, side, ctx.lang))

    engine.run(rules, facts(), on_match)
    out, seen = [], set()
    for f in findings:
        k = (f.code, f.path, f.line, f.col, f.surface)
        if k in seen:
            continue
        seen.add(k)
        if f.acknowledgeable:
            f.acknowledged = covered(f, analysis, caches)
        out.append(f)
    return out


class _Read(NamedTuple):
    """One file read: its analysis or the one-line error; ``packed``/``digest``: the analysis
    as validator/analysis_store.py keeps it in the ledger, and the sha256 of the bytes read."""
    path: str
    analysis: object
    error: Optional[str]
    packed: Optional[bytes] = None
    digest: Optional[str] = None


def _read_one(f, keep: bool = False) -> _Read:
    """Reading never raises, so a worker's result says it all. ``keep``: also pack the
    analysis for the ledger, when the file's bytes did not change while it was read."""
    try:
        before = analysis_store.digest(f) if keep else None
        a = _read(f)
        if before is not None and analysis_store.digest(f) == before:
            return _Read(f, a, None, analysis_store.pack(a), before)
        return _Read(f, a, None)
    except Exception as e:  # noqa: BLE001 - one line naming the file, go on
        return _Read(f, None, _one_line(e, f) if _is_input_error(e)
                     else f"{f}: internal error: {type(e).__name__}: {e}")


def _read_chunk(files, keep=frozenset()) -> list:
    """In a worker: an analysis to be kept travels to the parent packed only (pickled once,
    not twice); the parent unpacks it."""
    out = []
    for f in files:
        r = _read_one(f, f in keep)
        out.append(r._replace(analysis=None) if r.packed is not None else r)
    return out


def _unpacked(r: _Read) -> _Read:
    if r.analysis is None and r.packed is not None:
        a = analysis_store.unpack(r.packed)
        return r._replace(analysis=a) if a is not None else \
            r._replace(error=f"{r.path}: internal error: its analysis did not come back from a worker")
    return r


def _check_one(path, a, rules, corpus, options, caches=None):
    """(findings, error line) of one analysed file."""
    try:
        return check_analysis(a, rules, corpus, options.lang, options, caches), None
    except (EngineError, UsageError) as e:
        return [], _one_line(e, path)
    except Exception as e:  # noqa: BLE001 - a bug in a kind must not hide the other files
        return [], f"{path}: internal error: {type(e).__name__}: {e}"


def _params_sig(params) -> str:
    """A stable text of a rule's params (lists and dicts of scalars, from YAML)."""
    return json.dumps(params, sort_keys=True, ensure_ascii=False, default=repr)


def check_paths(paths, options: Options | None = None, progress=None) -> RunResult:
    """``progress(path)``, when given, is called once per checked file as it is done."""
    with parallel.collector_tuned():
        return _check_paths(paths, options, progress)


def _check_paths(paths, options, progress) -> RunResult:
    """The story of a run: rules, files, each file read, the corpus, each file checked."""
    options = options or Options()
    rules = packs.load_rules(options)
    for root in options.corpus or ():
        if not os.path.exists(root):
            raise UsageError(f"{root}: corpus folder does not exist")
    result = RunResult(rules=rules)
    files = expand(paths, getattr(options, "scope", None), result.errors)
    caches = Caches()
    # the ledger rows of the checked files are stored after the index is built: the checks
    # take those files' claims from their analyses
    corpus = Corpus(options.corpus, _read, errors=[], defer_ledger=True, caches=caches) \
        if options.corpus else None
    result.corpus = corpus
    # a corpus file whose bytes are as when the ledger kept its analysis is not read again
    stored, keep = corpus.stored_analyses(files) if corpus is not None else ({}, set())
    to_read = [f for f in files if f not in stored]
    jobs = parallel.jobs_for(len(to_read))
    read = {r.path: r for r in _read_all(to_read, jobs, caches if corpus is not None else None, keep)}
    for f in files:
        r = _primed(_Read(f, stored[f], None), caches if corpus is not None else None) \
            if f in stored else read[f]
        if r.error is not None:
            result.errors.append(r.error)
            continue
        result.analyses[f] = r.analysis
        if corpus is not None:
            corpus.add(f, r.analysis, from_file=True)
    if corpus is not None:
        corpus.keep_analyses([(r.path, r.digest, r.packed) for r in read.values()
                              if r.packed is not None and r.error is None])
    jobs = parallel.jobs_for(len(files))
    for path, found, err in _check_all(list(result.analyses.items()), rules, corpus, options,
                                       caches, jobs, progress):
        result.findings += found
        if err is not None:
            result.errors.append(err)
    if corpus is not None:
        corpus.flush_ledger()           # a one-process run (a no-op when done already)
        # unreadable corpus files are worth one line each, but never fail the checked files
        for e in corpus.errors:
            if e not in result.errors:
                result.errors.append(e)
    result.findings.sort(key=lambda f: (f.path, f.line, f.col, f.code))
    return result


def _read_all(files, jobs, caches, keep=frozenset()) -> list:
    """The ``_Read`` of every file, in file order. With ``caches`` (a run with a corpus) each
    analysis's statements are computed as its result comes in: the corpus groups and the
    ledger need them of every file (a worker's statements would cost the parent more to
    unpickle than to compute), and the parent computes them while the workers are still
    reading. ``keep``: the files whose analyses are packed for the ledger."""
    if not files:
        return []
    if jobs <= 1:
        return [_primed(_read_one(f, f in keep), caches) for f in files]
    # the first file is read before the fork, so that what reading builds lazily (the claim
    # pattern: ~0.2 s to compile, vocabularies) is inherited by every worker
    first = [_primed(_read_one(files[0], files[0] in keep), caches)]
    got = {k: [_primed(_unpacked(r), caches) for r in res]
           for k, res in parallel.shared(files[1:], lambda chunk: _read_chunk(chunk, keep), jobs)}
    return first + [r for k in sorted(got) for r in got[k]]


def _primed(read: _Read, caches) -> _Read:
    if read.analysis is not None and caches is not None:
        try:
            statements(read.analysis, LEDGER_APPROX_REL, caches)
        except Exception as e:  # noqa: BLE001 - a bug for one file must not stop the run
            return read._replace(analysis=None, packed=None,
                                 error=f"{read.path}: internal error: {type(e).__name__}: {e}")
    return read


def _check_all(items, rules, corpus, options, caches, jobs, progress) -> list:
    """(path, findings, error line) of every analysed file, in file order. Many files are
    checked by the parent and forked workers, which share the run's analyses, rules and
    corpus index by fork; the corpus's error lines then come in the order one process
    would meet them."""
    def check(paths):
        before = len(corpus.errors) if corpus is not None else 0
        out = [(p, *_check_one(p, analyses[p], rules, corpus, options, caches)) for p in paths]
        return out, (corpus.errors[before:] if corpus is not None else [])

    analyses = dict(items)
    paths = [p for p, _ in items]
    if jobs <= 1 or len(items) < parallel.PARALLEL_MIN_ITEMS:
        out = []
        for p in paths:
            out += check([p])[0]
            if progress is not None:
                progress(p)
        return out
    if corpus is not None:
        # the corpus index (ledger sync) and the per-key statement groups every checked
        # file needs are built once here, then shared with the workers by fork
        corpus.prepare(a for _, a in items)
    known = list(corpus.errors) if corpus is not None else []

    def mine(chunk):
        if corpus is not None:
            # once, first: the workers are checking meanwhile, so storing the ledger rows
            # costs the run's wall time only the parent's share of it
            corpus.flush_ledger()
        return check(chunk)
    got = {}
    start = corpus.reopen_after_fork if corpus is not None else None
    for k, res in parallel.shared(paths, check, jobs, mine=mine, worker_start=start):
        got[k] = res
        if progress is not None:
            for p, _, _ in res[0]:
                progress(p)
    out = []
    for k in sorted(got):
        out += got[k][0]
        if corpus is not None:
            # in file order, as one process meets them (each process saw its own)
            known += [e for e in got[k][1] if e not in known]
    if corpus is not None:
        corpus.errors[:] = known
    return out


def _is_input_error(e: Exception) -> bool:
    from claims.errors import InputError
    return isinstance(e, (InputError, OSError, UnicodeError))


def _one_line(e: Exception, path: str) -> str:
    msg = " ".join(str(e).split()) or type(e).__name__
    return msg if msg.startswith(str(path)) else f"{path}: {msg}"


def check_text(text: str, path: str, options: Options | None = None, *, rules=None,
               ledger="auto", max_bytes: int | None = None) -> RunResult:
    """Findings of ``text`` as the contents of the file ``path`` (an editor's buffer, saved or
    not), as ``check_paths([path])`` reports them for a file holding that text: the same rules,
    corpus and acknowledgement; like ``check_paths``, no selection of meta codes and no
    suppressions (the caller applies those, as the CLI does).

    A caller that checks one document again and again (the language server) passes the
    ``rules`` it loaded once (``packs.load_rules(options)``) and the corpus's claim ledger
    (``ledger.CorpusIndex``) kept open between calls; the corpus itself is listed and synced
    on every call, so files saved meanwhile are seen (the ledger re-reads only those). The
    text stands in for the file on disk and is never stored in the ledger."""
    from claims.api import analyze
    from claims.errors import InputError
    from claims.reader import DEFAULT_MAX_BYTES

    options = options or Options()
    limit = max_bytes or DEFAULT_MAX_BYTES
    if len(text) > limit // 4 and len(text.encode("utf-8", "surrogatepass")) > limit:
        raise InputError(path, f"text too large (> limit {limit} bytes)")
    nul = text.find("\x00")
    if nul >= 0:
        raise InputError(path, f"binary text (NUL character at offset {nul}); expected UTF-8 text")
    rules = rules if rules is not None else packs.load_rules(options)
    for root in options.corpus or ():
        if not os.path.exists(root):
            raise UsageError(f"{root}: corpus folder does not exist")
    result = RunResult(rules=rules)
    corpus = Corpus(options.corpus, _read, errors=[], ledger=ledger) if options.corpus else None
    result.corpus = corpus
    analysis = analyze(text, path)
    result.analyses[path] = analysis
    if corpus is not None:
        corpus.add(path, analysis)          # not from_file: the ledger keeps the file's own rows
    found, err = _check_one(path, analysis, rules, corpus, options)
    result.findings = sorted(found, key=lambda f: (f.path, f.line, f.col, f.code))
    if err is not None:
        result.errors.append(err)
    for e in corpus.errors if corpus is not None else ():
        if e not in result.errors:
            result.errors.append(e)
    return result
