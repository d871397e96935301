"""One `check` run: files -> analyses -> facts -> rule engine -> findings (acknowledged or not).

``check_paths(paths, options)`` is what the CLI, the renderers and the gate build on.
A directory argument means every Markdown file under it. A bad file (missing, binary,
undecodable…) becomes one line in ``RunResult.errors`` and the run goes on; a bad rule
pack or option is a ``UsageError`` raised before anything runs.

A run over many files (``PARALLEL_MIN_FILES``) on several cores reads them, then checks
them, in forked worker processes beside the parent (``CAVEAT_JOBS=1`` keeps one
process); what it reports does not depend on it (tests/cli/test_parallel_check.py).
"""
from __future__ import annotations

import gc
import json
import os
from dataclasses import dataclass, field
from functools import partial

from . import engine, packs
from .corpus import LEDGER_APPROX_REL, Corpus
from .paths import expand
from .coverage import covered
from .errors import EngineError, UsageError
from .facts import Context, statements
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


def check_analysis(analysis, rules, corpus=None, lang=None, options=None) -> list:
    """Findings of ``rules`` on one analysed document (acknowledgement applied)."""
    apply_warnings_patterns(analysis, getattr(options, "warnings_patterns", None))
    ctx = Context(analysis, corpus, lang=lang, options=options)
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
            f.acknowledged = covered(f, analysis)
        out.append(f)
    return out


# Below this many files a run stays in one process: forking workers and pickling
# analyses back costs more than it saves.
PARALLEL_MIN_FILES = 16


def _jobs(n_files: int) -> int:
    """Worker processes for a run over ``n_files`` files: the usable cores (``CAVEAT_JOBS``
    overrides; 1 turns parallelism off), 1 for a small run or where fork is unavailable."""
    if n_files < PARALLEL_MIN_FILES:
        return 1
    env = os.environ.get("CAVEAT_JOBS", "").strip()
    if env.isdigit() and int(env) >= 1:
        jobs = int(env)
    else:
        try:
            jobs = len(os.sched_getaffinity(0))
        except AttributeError:  # pragma: no cover - not Linux
            jobs = os.cpu_count() or 1
    if jobs <= 1:
        return 1
    import multiprocessing as mp
    if "fork" not in mp.get_all_start_methods():
        return 1            # pragma: no cover - the workers inherit the run's state by fork
    return min(jobs, n_files // (PARALLEL_MIN_FILES // 2))


def _worker_init():
    # Ctrl-C reaches the whole process group: the parent reports it (exit 130) and
    # terminates the pool; a worker printing its own traceback would only add noise
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool(jobs):
    import multiprocessing as mp
    # what the run holds so far (rules, patterns, analyses, the corpus index) is moved out
    # of the collector's sight before the fork: neither the workers nor the parent walk it
    # again (each walk also touched every inherited page, undoing copy-on-write sharing).
    # check_paths unfreezes it when the run ends.
    gc.freeze()
    return mp.get_context("fork").Pool(jobs, initializer=_worker_init)


def _read_one(f):
    """(path, analysis, error line): reading never raises, so a worker's result says it all."""
    try:
        return f, _read(f), None
    except Exception as e:  # noqa: BLE001 - one line naming the file, go on
        return f, None, (_one_line(e, f) if _is_input_error(e)
                         else f"{f}: internal error: {type(e).__name__}: {e}")


def _primed(results) -> list:
    """Read results with each analysis's statements (``facts.statements``) computed, which
    the corpus groups and the ledger need of every file. The parent does it for every file
    as the results come in (a worker's statements would cost the parent more to unpickle
    than to compute), not in the serial step before the checks."""
    out = []
    for f, a, err in results:
        if a is not None:
            try:
                statements(a, LEDGER_APPROX_REL)
            except Exception as e:  # noqa: BLE001 - a bug for one file must not stop the run
                a, err = None, f"{f}: internal error: {type(e).__name__}: {e}"
        out.append((f, a, err))
    return out


def _check_one(path, a, rules, corpus, options):
    """(findings, error line) of one analysed file."""
    try:
        return check_analysis(a, rules, corpus, options.lang, options), None
    except (EngineError, UsageError) as e:
        return [], _one_line(e, path)
    except Exception as e:  # noqa: BLE001 - a bug in a kind must not hide the other files
        return [], f"{path}: internal error: {type(e).__name__}: {e}"


# What forked check workers inherit (set just before the fork, cleared after): the run's
# analyses, rules and corpus index are shared copy-on-write instead of pickled to them.
_FORK_STATE = None

# The work the parent and its forked workers share (set just before the fork, cleared
# after): (chunks, counter of the next unclaimed chunk).
_SHARE = None
# Chunks shrink as the work runs out (guided scheduling): the first ones are large, each
# a run of neighbouring files (they share claim keys, so per-key caches serve), the last
# ones a file or two, so no process waits long for another to finish its last chunk (the
# parent, which also unpickles what the workers send back, takes fewer of them).
GUIDED_SHARE = 2        # a new chunk is 1 / (GUIDED_SHARE * jobs) of the work left


def _chunks(items, jobs) -> list:
    out, i, n = [], 0, len(items)
    while i < n:
        size = max(1, -(-(n - i) // (GUIDED_SHARE * jobs)))
        out.append(items[i:i + size])
        i += size
    return out


def _read_chunk(files):
    return [_read_one(f) for f in files]


def _next_chunk() -> int:
    counter = _SHARE[1]
    with counter.get_lock():
        k = counter.value
        counter.value = k + 1
    return k


def _claim_chunk(chunk_fn, _task):
    """In a worker: (index, ``chunk_fn(chunk)``) of the next unclaimed chunk, None when
    every chunk is taken."""
    chunks = _SHARE[0]
    k = _next_chunk()
    return None if k >= len(chunks) else (k, chunk_fn(chunks[k]))


def _shared(jobs, items, mine_fn, chunk_fn):
    """The parent and ``jobs - 1`` forked workers go through ``items`` in contiguous chunks,
    each process claiming the next chunk when it is free: the parent runs ``mine_fn`` on
    the chunks it claims, a worker ``chunk_fn`` (the two return the same thing).
    (The parent working too means ``jobs`` processes, not ``jobs + 1``: every forked
    copy of the run counts in the memory of the whole process tree.)
    Yields (chunk index, result) as chunks are done, in no fixed order: a caller that
    reports in item order sorts by chunk index."""
    global _SHARE
    import multiprocessing as mp
    chunks = _chunks(items, jobs)
    _SHARE = (chunks, mp.get_context("fork").Value("i", 0))
    try:
        with _pool(jobs - 1) as pool:
            # a task per chunk at most; each claims whichever chunk is next (the workers start now)
            pending = pool.imap_unordered(partial(_claim_chunk, chunk_fn), range(len(chunks)))
            while True:
                k = _next_chunk()
                if k >= len(chunks):
                    break
                yield k, mine_fn(chunks[k])
                # what the workers have finished meanwhile goes to the caller now: work it
                # does on those results then runs while the workers are still busy
                while True:
                    try:
                        res = pending.next(timeout=0)
                    except (mp.TimeoutError, StopIteration):
                        break
                    if res is not None:
                        yield res
            for res in pending:
                if res is not None:
                    yield res
    finally:
        _SHARE = None


_REOPENED = None        # the worker process whose corpus has its own ledger connection


def _check_chunk(paths):
    global _REOPENED
    analyses, rules, corpus, options = _FORK_STATE
    if corpus is not None and _REOPENED != os.getpid():
        corpus.reopen_after_fork()
        _REOPENED = os.getpid()
    return _check_paths_here(paths, analyses, rules, corpus, options)


def _check_paths_here(paths, analyses, rules, corpus, options):
    """([(path, findings, error line)], corpus error lines first met by this chunk)."""
    before = len(corpus.errors) if corpus is not None else 0
    out = [(p, *_check_one(p, analyses[p], rules, corpus, options)) for p in paths]
    return out, (corpus.errors[before:] if corpus is not None else [])


def _params_sig(params) -> str:
    """A stable text of a rule's params (lists and dicts of scalars, from YAML)."""
    return json.dumps(params, sort_keys=True, ensure_ascii=False, default=repr)


# Container allocations between two young-generation collections during a run (Python's
# default is 700). A run keeps every analysis alive (hundreds of thousands of small
# objects) and makes many more that reference counting frees; at the default pace the
# collector walked that whole live heap several times, ~0.4 s of a 200-file run. Young
# cyclic garbage is still collected, every 50,000 allocations instead of every 700.
GC_YOUNG_THRESHOLD = 50_000


def check_paths(paths, options: Options | None = None, progress=None) -> RunResult:
    """``progress(path)``, when given, is called once per checked file as it is done."""
    old = gc.get_threshold()
    frozen = gc.get_freeze_count()
    gc.set_threshold(max(old[0], GC_YOUNG_THRESHOLD), *old[1:])
    try:
        return _check_paths(paths, options, progress)
    finally:
        gc.set_threshold(*old)
        if gc.get_freeze_count() != frozen:
            gc.unfreeze()       # what _pool froze is collectable again


def _check_paths(paths, options, progress) -> RunResult:
    global _FORK_STATE
    options = options or Options()
    rules = packs.load_rules(options)
    for root in options.corpus or ():
        if not os.path.exists(root):
            raise UsageError(f"{root}: corpus folder does not exist")
    result = RunResult(rules=rules)
    files = expand(paths, getattr(options, "scope", None), result.errors)
    # the ledger rows of the checked files are stored after the index is built (below):
    # the checks take those files' claims from their analyses
    corpus = Corpus(options.corpus, _read, errors=[], defer_ledger=True) if options.corpus else None
    result.corpus = corpus
    jobs = _jobs(len(files))
    if jobs > 1:
        # extraction is most of a many-file run and each file is independent: in workers.
        # The first file is read before the fork, so that what reading builds lazily (the
        # claim pattern: ~0.2 s to compile, vocabularies) is inherited by every worker
        prime = _primed if corpus is not None else list
        read = prime([_read_one(files[0])])
        got = {k: prime(res) for k, res in _shared(jobs, files[1:], _read_chunk, _read_chunk)}
        read += [r for k in sorted(got) for r in got[k]]
    else:
        read = map(_read_one, files)
    for f, a, err in read:
        if err is not None:
            result.errors.append(err)
            continue
        result.analyses[f] = a
        if corpus is not None:
            corpus.add(f, a, from_file=True)
    items = list(result.analyses.items())
    if jobs > 1 and len(items) >= PARALLEL_MIN_FILES:
        if corpus is not None:
            # the corpus index (ledger sync) and the per-key statement groups every checked
            # file needs are built once here, then shared with the workers by fork
            corpus.prepare(a for _, a in items)
        _FORK_STATE = (result.analyses, rules, corpus, options)
        known = list(corpus.errors) if corpus is not None else []

        def mine(paths):
            if corpus is not None:
                # once, first: the workers are checking meanwhile, so storing the ledger
                # rows costs the run's wall time only the parent's share of it
                corpus.flush_ledger()
            return _check_paths_here(paths, result.analyses, rules, corpus, options)
        try:
            got = {}
            for k, res in _shared(jobs, [p for p, _ in items], mine, _check_chunk):
                got[k] = res
                if progress is not None:
                    for path, _, _ in res[0]:
                        progress(path)
            for k in sorted(got):
                for path, found, err in got[k][0]:
                    result.findings += found
                    if err is not None:
                        result.errors.append(err)
                if corpus is not None:
                    # in file order, as one process meets them (each process saw its own)
                    known += [e for e in got[k][1] if e not in known]
            if corpus is not None:
                corpus.errors[:] = known
        finally:
            _FORK_STATE = None
    else:
        for path, a in items:
            found, err = _check_one(path, a, rules, corpus, options)
            result.findings += found
            if err is not None:
                result.errors.append(err)
            if progress is not None:
                progress(path)
    if corpus is not None:
        corpus.flush_ledger()           # a one-process run (a no-op when done already)
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
