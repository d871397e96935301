"""The corpus: roots against which cited sources resolve and across which figures are compared.

``--corpus DIR`` (repeatable) names folders of earlier briefings, inbox notes and
knowledge files. Every Markdown file under them is analysed once (lazily, cached by
real path, shared with the files being checked), symlink loops are skipped, and
claims are indexed by claim key so cross-document checks look up one key instead of
scanning the corpus.
"""
from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Callable, Optional

from .caches import Caches
from .facts import LEDGER_APPROX_REL, Statement, claim_key, keyed_claims, statements
from .paths import markdown_entries


class Corpus:
    """Corpus roots, their analysed files (lazily) and a claim index by key."""

    def __init__(self, roots, analyze: Callable, errors: Optional[list] = None, ledger="auto",
                 defer_ledger: bool = False, caches: Optional[Caches] = None):
        """``analyze(path) -> Analysis`` (raises ``InputError`` for a bad file, recorded in
        ``errors`` once, and the file is left out). ``ledger``: "auto" keeps the corpus's
        claims in its claim ledger (validator/ledger.py: re-extracts only changed files,
        in parallel), None analyses every corpus file in memory. ``defer_ledger``: the
        ledger rows of the files shared with ``add(from_file=True)`` are stored when the
        caller calls ``flush_ledger``, not when the index is built. ``caches``: the run's
        (validator/caches.py), shared with the ledger and the rules' contexts."""
        self.caches = caches if caches is not None else Caches()
        self._ledger = ledger
        self._defer = defer_ledger
        self.roots = [str(r) for r in roots]
        self._analyze = analyze
        self._analyses: dict = {}       # realpath -> Analysis | None
        self._display: dict = {}        # realpath -> path as listed under its root
        self._index = None
        self._groups: dict = {}         # (key, approx_rel) -> [(Statement, Members)]
        self.errors = errors if errors is not None else []
        self._files = None
        self._full: set = set()         # realpaths whose full analysis was shared with add()
        self._from_file: dict = {}      # realpath -> analysis of the file as on disk (add())
        self._packed: list = []         # [(path, digest, pack)] to keep in the ledger (keep_analyses)

    # -------------------------------------------------------------- files
    def files(self) -> list:
        if self._files is None:
            files = []
            dirs: dict = {}
            for r in self.roots:
                for p, link in markdown_entries(r):
                    real = _realpath_file(p, dirs, link)
                    if real not in self._display:
                        self._display[real] = p
                        files.append(p)
            self._files = files
        return self._files

    def resolve(self, ref: str, from_path: Optional[str] = None) -> Optional[str]:
        """The file a cited ``ref`` names: relative to each corpus root, then to the citing
        file's folder. None when it is not there (or no corpus was given)."""
        ref = (ref or "").strip().strip("`'\"").strip()
        if not ref or "://" in ref:
            return None
        ref = ref.split("#", 1)[0]
        cands = []
        if os.path.isabs(ref):
            cands.append(ref)
        else:
            cands += [os.path.join(r if os.path.isdir(r) else os.path.dirname(r), ref)
                      for r in self.roots]
            if from_path:
                cands.append(os.path.join(os.path.dirname(from_path), ref))
        for c in cands:
            if os.path.isfile(c):
                real = os.path.realpath(c)
                self.files()
                return self._display.get(real, os.path.normpath(c))
        return None

    # -------------------------------------------------------------- analyses
    def add(self, path: str, analysis, from_file: bool = False) -> None:
        """Share an analysis made elsewhere (a file being checked that is also in the corpus).
        ``from_file``: it is the analysis of the file as it is on disk (not of an edited
        text), so the claim ledger may store it instead of extracting the file again."""
        real = os.path.realpath(path)
        self._analyses[real] = analysis
        if getattr(analysis, "document", None) is not None:
            self._full.add(real)
        if from_file:
            self._from_file[real] = analysis
        else:
            self._from_file.pop(real, None)

    def _ledger_index(self):
        """The claim ledger of this corpus (created on first use), or None."""
        if self._ledger == "auto":
            try:
                from .ledger import CorpusIndex
                self._ledger = CorpusIndex(self.roots, caches=self.caches)
            except Exception as e:  # noqa: BLE001 - never fail a check over the cache
                self.errors.append(f"claim ledger unavailable ({e}); analysing the corpus in memory")
                self._ledger = None
        return self._ledger

    def _opened_ledger(self):
        """The claim ledger (a ledger.CorpusIndex) when this run has opened one, else None
        (not yet asked for, turned off, or unavailable)."""
        led = self._ledger
        return led if led is not None and led != "auto" and hasattr(led, "ledger") else None

    def close(self) -> None:
        """Close the claim ledger's connection, when one was opened (its writes are committed
        as they are made; closing checkpoints the write-ahead log into the file)."""
        led = self._opened_ledger()
        if led is not None:
            try:
                led.close()
            except Exception:  # noqa: BLE001 - a cache that cannot close is no reason to fail
                pass
            self._ledger = None

    def analysis(self, path: str):
        real = os.path.realpath(path)
        if real not in self._analyses and self._ledger is not None:
            self.files()
            led = self._ledger_index() if real in self._display else None
            if led is not None:
                self._analyses[real] = led.analysis(self._display[real])
                return self._analyses[real]
        if real not in self._analyses:
            try:
                self._analyses[real] = self._analyze(self._display.get(real, path))
            except Exception as e:  # noqa: BLE001 - InputError and friends: one line, go on
                self._analyses[real] = None
                self.errors.append(str(e))
        return self._analyses[real]

    def display_path(self, path: str) -> str:
        return self._display.get(os.path.realpath(path), path)

    def short(self, path: str) -> str:
        """``path`` relative to the corpus root holding it (for messages): 'inbox/amy/x.md'."""
        return relpath_in(path, self.roots)

    # -------------------------------------------------------------- workers
    def prepare(self, analyses) -> None:
        """Before a run forks check workers: sync the index and build the statement groups
        of every claim key of ``analyses`` once, so the workers share them instead of each
        building its own."""
        if self._index is None:
            self._build_index()
        keys = set()
        for a in analyses:
            keys.update(keyed_claims(a, self.caches))
        for key in sorted(keys):
            self.statement_groups(key, LEDGER_APPROX_REL)

    def flush_ledger(self) -> None:
        """Store the ledger rows of the files this run analysed in full (put off by the
        index sync; see ``Ledger.flush``), and the analyses given to ``keep_analyses``. The
        parent of a parallel check does it while its workers check; a one-process run after
        its checks."""
        led = self._opened_ledger()
        if led is not None:
            led.ledger.flush()
            packed, self._packed = self._packed, []
            led.ledger.keep_analyses(packed)

    # -------------------------------------------------------------- stored analyses
    def stored_analyses(self, files) -> tuple:
        """({path: Analysis}, {path}): the corpus files among ``files`` that the ledger holds
        as they are on disk now (validator/analysis_store.py), and the other corpus files, whose
        analyses this run should keep (none without a ledger on disk or with caching off)."""
        from . import analysis_store
        self.files()
        mine = [f for f in files if os.path.realpath(f) in self._display]
        led = self._ledger_index() if mine else None
        if led is None or not hasattr(led, "ledger") or led.ledger.path == ":memory:" \
                or not analysis_store.enabled():
            return {}, set()
        stored = led.ledger.stored_analyses(mine)
        return stored, {f for f in mine if f not in stored}

    def keep_analyses(self, packed) -> None:
        """Keep ``packed`` ([(path, sha256 of the bytes read, analysis_store.pack)]) in the
        ledger at ``flush_ledger``."""
        self._packed += packed

    def reopen_after_fork(self) -> None:
        """In a forked worker: an SQLite connection must not be shared with the parent, so
        a ledger file gets a connection of its own (an in-memory ledger is a private copy)."""
        led = self._opened_ledger()
        if led is not None:
            ledger = led.ledger
            if ledger.path != ":memory:":
                ledger.conn = ledger._connect(ledger.path)

    # -------------------------------------------------------------- index
    def _build_index(self):
        led = self._ledger_index()
        if led is not None:
            # one sync for the whole corpus (changed files re-extracted, in parallel), then
            # claims are read per key from the ledger as the checks ask for them
            files = self.files()
            # files this run has analysed in full (the checked ones) are not extracted again
            full = {self._display[r]: a for r, a in self._from_file.items()
                    if r in self._display and self._analyses.get(r) is a}
            # their rows are stored later (flush_ledger), off the path to the first check:
            # meanwhile the index takes those files' claims from their analyses
            led.sync(files, full, defer=self._defer)
            for e in led.errors:
                if e not in self.errors:
                    self.errors.append(e)
            self._index = _LedgerKeyIndex(self, led)
            return
        idx = defaultdict(list)
        for p in self.files():
            a = self.analysis(p)
            if a is None:
                continue
            real = os.path.realpath(p)
            for c in a.claims:
                k = claim_key(c)
                if k:
                    idx[k].append((p, real, c))
        self._index = dict(idx)

    def by_key(self, key: str, exclude: Optional[str] = None) -> list:
        """[(path, claim)] of corpus claims with ``key``, leaving out the file ``exclude``."""
        if not key:
            return []
        if self._index is None:
            self._build_index()
        items = self._index.get(key, [])
        ex = os.path.realpath(exclude) if exclude is not None else None
        return [(p, c) for p, real, c in items if real != ex]

    def statement_groups(self, key: str, approx_rel: float = 0.1) -> list:
        """Distinct statements of ``key`` across the corpus: [(Statement, Members)], in the
        order the corpus first states them (``Members``: the files stating each).

        Honest restatements of one figure (same value, conditions and phase) collapse into
        one statement, so a check compares a claim with each distinct statement once instead
        of with every file that repeats it. A figure without a setup states nothing a
        check can compare and is left out."""
        ck = (key, approx_rel)
        if ck in self._groups:
            return self._groups[ck]
        if self._index is None:
            self._build_index()
        if isinstance(self._index, _LedgerKeyIndex):
            if approx_rel == LEDGER_APPROX_REL:
                out = self._index.statement_groups(key)
            else:       # statements the ledger did not store: from each file's claims
                out = self._groups_of(self._index.files_of(key), key, approx_rel)
        else:
            out = self._groups_of(self._index.get(key, []), key, approx_rel)
        self._groups[ck] = out
        return out

    def _groups_of(self, entries, key, approx_rel) -> list:
        """Statement groups of [(path, real, claim)] entries (in corpus order)."""
        groups: dict = {}
        for p, real, c in entries:
            a = self._analyses[real] if real in self._analyses else self.analysis(p)
            st = statements(a, approx_rel, self.caches).get(id(c)) if a is not None else None
            if st is None or not st.conds:
                continue
            g = groups.get(st.sig)
            if g is None:
                groups[st.sig] = g = (st, [])
            g[1].append((p, real, c))
        return [(st, Members.of_entries(entries)) for st, entries in groups.values()]


class Members:
    """The corpus files stating one statement, in corpus order, with their claims of it.

    Built from the claim ledger, it reads nothing until asked: which files state the
    statement (``reals``, ``entries``) is one index-only query, and the claims are read
    file by file as far as a caller iterates (the few a finding shows as evidence)."""
    __slots__ = ("_slots", "_reals", "_load", "_fetch", "first_order")

    def __init__(self, slots: Optional[list] = None, loader=None):
        # slots: [path, real, claims or None (to fetch)] per file, in order; or loader =
        # (load() -> [(order, slot)], fetch(path) -> claims) to read them when first asked
        self._load, self._fetch = loader if loader is not None else (None, None)
        self._slots = slots
        self._reals = None
        self.first_order = None

    @classmethod
    def of_entries(cls, entries) -> "Members":
        slots: list = []
        for p, real, c in entries:
            if slots and slots[-1][0] == p:
                slots[-1][2].append(c)
            else:
                slots.append([p, real, [c]])
        return cls(slots)

    @property
    def slots(self) -> list:
        if self._slots is None:
            got = self._load()
            self.first_order = got[0][0] if got else None
            self._slots = [slot for _, slot in got]
        return self._slots

    @property
    def reals(self) -> frozenset:
        """The real paths of the files stating the statement."""
        if self._reals is None:
            self._reals = frozenset(sl[1] for sl in self.slots)
        return self._reals

    def entries(self, only=None, skip=None):
        """(path, real path, claim) of the files whose real path is in ``only`` (all when
        None) and not in ``skip``, in order."""
        for sl in self.slots:
            real = sl[1]
            if (only is not None and real not in only) or (skip is not None and real in skip):
                continue
            if sl[2] is None:
                sl[2] = self._fetch(sl[0])
            for c in sl[2]:
                yield sl[0], real, c

    def __iter__(self):
        return self.entries()

    def __len__(self) -> int:
        return len(self.slots)


def _realpath_file(p: str, dirs: dict, link=None) -> str:
    """os.path.realpath of a file, resolving each folder once (10k files: 0.5 s -> 0.05 s).
    ``link``: whether ``p`` is a symlink, when the folder's listing said (None: ask)."""
    if link if link is not None else os.path.islink(p):
        return os.path.realpath(p)
    d, sep, name = p.rpartition(os.sep)
    if not sep or not d or not name:
        d, name = os.path.split(p)      # 'a.md', '/a.md': what rpartition does not split like split
    rd = dirs.get(d)
    if rd is None:
        rd = dirs[d] = os.path.realpath(d)
    return os.path.join(rd, name)


class _LedgerKeyIndex(dict):
    """The corpus index filled per claim key from the ledger: [(path, real, claim)].

    A file analysed in full in this run (a checked file, shared with ``Corpus.add``)
    contributes its own claim objects, so per-document facts (statements, phases) line up."""

    def __init__(self, corpus, led):
        super().__init__()
        self._corpus, self._led = corpus, led
        self._real = {p: r for r, p in corpus._display.items()}
        # files whose rows the sync put off (Ledger.pending: caller path -> ledger key):
        # their rows in the ledger are missing or stale until flushed, so their place in
        # a key's list (ledger order: by ledger path) comes from their analyses
        self._pending = dict(getattr(getattr(led, "ledger", None), "pending", None) or {})
        self._pending_keys = None

    def _full_paths(self) -> set:
        """Corpus paths of the files analysed in full (cached until another is added)."""
        full = self._corpus._full
        if getattr(self, "_full_n", -1) != len(full):
            disp = self._corpus._display
            ana = self._corpus._analyses
            self._full_set = {disp[r] for r in full
                              if r in disp and getattr(ana.get(r), "document", None) is not None}
            self._full_n = len(full)
        return self._full_set

    def _memory_files(self) -> dict:
        """Claim key -> [(ledger path, caller path, real path, analysis, {id(claim): its index})]
        of the files whose claims come from this run's analyses (analysed in full, or with
        rows put off)."""
        full = self._full_paths()
        if getattr(self, "_mem_n", -1) != len(full):
            caches = self._corpus.caches
            got: dict = {}
            for p in sorted(full | set(self._pending)):
                real = self._real.get(p) or os.path.realpath(p)
                a = self._corpus._analyses.get(real)
                if a is None:
                    continue
                lkey = self._pending.get(p) or self._led.ledger_path(p)
                pos = {id(c): i for i, c in enumerate(a.claims)}      # a claim's place in its file
                for k in keyed_claims(a, caches):
                    got.setdefault(k, []).append((lkey, p, real, a, pos))
            self._mem, self._mem_n = got, len(full)
        return self._mem

    def statement_groups(self, key) -> list:
        """[(Statement, Members)] of ``key``: the ledger's stored statements (one grouped
        query, a row per statement), merged with those of the files this run analysed, in
        corpus order (ledger path, then position in the file). Which files state a ledger
        statement is read only when a check asks (``Members``)."""
        caches = self._corpus.caches
        skip = self._full_paths() | set(self._pending)
        memory: dict = {}       # sig -> [(order, slot)] of this run's files
        known: dict = {}        # sig -> Statement made by this run
        for lkey, p, real, a, pos in self._memory_files().get(key, ()):
            st_all = statements(a, LEDGER_APPROX_REL, caches)
            mine: dict = {}
            for c in keyed_claims(a, caches)[key]:
                st = st_all.get(id(c))
                if st is None or not st.conds:
                    continue
                sig = st.sig_id
                if sig not in mine:
                    mine[sig] = ((lkey, pos[id(c)]), [p, real, []])
                    known.setdefault(sig, st)
                mine[sig][1][2].append(c)
            for sig, slot in mine.items():
                memory.setdefault(sig, []).append(slot)
        out = []
        for sig, lpath, idx, c, phase, eff in self._led.statement_firsts(key):
            mem = memory.pop(sig, [])
            members = Members(None, self._loader(key, sig, skip, mem))
            p = self._led._back.get(lpath)
            if p is None or p in skip:
                # the first stored figure is not this corpus's, or its file is read in this
                # run: the statement starts where its first remaining figure is
                slots = members.slots
                if not slots:
                    continue
                order = members.first_order
                st = known.get(sig)
                if st is None:
                    first = next(members.entries())
                    got = self._led.statement_claims(key, sig, first[0])
                    c, phase, eff = got[0]
                    st = Statement(c, key, phase, eff, LEDGER_APPROX_REL)
            else:
                order = min([(lpath, idx)] + [o for o, _ in mem])
                st = known.get(sig) if order != (lpath, idx) else None
                if st is None:
                    st = Statement(c, key, phase, eff, LEDGER_APPROX_REL)
            out.append((order, st, members))
        for sig, mem in memory.items():          # stated only by this run's files
            mem.sort(key=lambda x: x[0])
            out.append((mem[0][0], known[sig], Members([s for _, s in mem])))
        out.sort(key=lambda t: t[0])
        return [(st, m) for _, st, m in out]

    def _loader(self, key, sig, skip, memory):
        """What ``Members`` reads when asked: the stored files stating ``sig`` (less those read
        in this run), with this run's own, in ledger order."""
        def load():
            slots = [((lpath, idx), [p, self._real.get(p) or os.path.realpath(p), None])
                     for lpath, p, idx in self._led.statement_paths(key, sig) if p not in skip]
            slots += memory
            slots.sort(key=lambda x: x[0])
            return slots

        def fetch(path):
            return [c for c, _, _ in self._led.statement_claims(key, sig, path)]
        return load, fetch

    def files_of(self, key) -> list:
        """(path, real, claim) of every claim with ``key``, the claims being those of each
        file's analysis (the run's, or the ledger's ``LedgerAnalysis``)."""
        caches = self._corpus.caches
        out, seen = [], set()
        for p, real, _ in self.get(key):
            if p in seen:
                continue
            seen.add(p)
            a = self._corpus._analyses.get(real) or self._corpus.analysis(p)
            if a is not None:
                out += [(p, real, c) for c in keyed_claims(a, caches).get(key, ())]
        return out

    def get(self, key, default=None):
        if key not in self:
            out, done = [], set()
            # files analysed in full in this run (the checked ones) bring their own claims:
            # the ledger need not rebuild theirs
            full = self._full_paths()
            pending = self._pending
            for p, c in self._led.by_key(key, skip=full):
                if p in pending:
                    continue
                real = self._real.get(p) or os.path.realpath(p)
                a = self._corpus._analyses.get(real)
                if a is None or getattr(a, "document", None) is None:
                    out.append((p, real, c))
                elif p not in done:
                    done.add(p)
                    out += [(p, real, x) for x in keyed_claims(a, self._corpus.caches).get(key, ())]
            if pending:
                out = self._merge_pending(key, out)
            self[key] = out
        return self[key]

    def _by_pending_key(self) -> dict:
        """Claim key -> [(ledger path, caller path)] of the pending files with that key."""
        if self._pending_keys is None:
            got: dict = {}
            for p, lkey in self._pending.items():
                a = self._corpus._analyses.get(self._real.get(p) or os.path.realpath(p))
                for k in keyed_claims(a, self._corpus.caches) if a is not None else ():
                    got.setdefault(k, []).append((lkey, p))
            self._pending_keys = got
        return self._pending_keys

    def _merge_pending(self, key, out) -> list:
        """``out`` (ledger order) with the pending files that have ``key`` in their places:
        the ledger orders a key's rows by ledger path (SQLite's binary order of UTF-8
        text, which is Python's order of the strings)."""
        extra = self._by_pending_key().get(key)
        if not extra:
            return out
        keys = self._led._keys
        segs = []
        for e in out:
            lk = keys.get(e[0], "")
            if segs and segs[-1][0] == lk:
                segs[-1][1].append(e)
            else:
                segs.append((lk, [e]))
        for lkey, p in extra:
            real = self._real.get(p) or os.path.realpath(p)
            a = self._corpus._analyses.get(real)
            segs.append((lkey, [(p, real, x) for x in keyed_claims(a, self._corpus.caches)[key]]))
        segs.sort(key=lambda s: s[0])
        return [e for _, es in segs for e in es]


def relpath_in(path: str, roots) -> str:
    """``path`` relative to the first root containing it (for messages), else as given."""
    real = Path(os.path.realpath(path))
    for r in roots:
        try:
            return str(real.relative_to(os.path.realpath(r)))
        except ValueError:
            continue
    return path
