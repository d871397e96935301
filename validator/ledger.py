"""The claim ledger: an embedded SQLite store of every claim of every corpus file.

Why: a corpus of years of briefings is re-read on every commit. The ledger keeps
each file's claims with their provenance and the file's content hash, so a run
re-extracts only the files whose content changed and a pre-commit check over a
large corpus costs about one file's work.

Use:
    led = Ledger.for_roots(["corpus/"])          # <root>/.caveat/ledger.sqlite ($CAVEAT_LEDGER)
    claims_by_path = led.analyses_for(files)     # {path: [Claim]}, re-extracting changed files
    led.claims_by_key({"speedup|eagle3|"})       # [(path, Claim)] of the keys a check needs

validator/corpus.py uses it through ``CorpusIndex`` (sync the corpus once per run, then
one indexed query per claim key; each claim carries the phase and effective conditions
computed when its file was extracted, so its file need not be loaded). Every row also
keeps what the contradiction rule derives from the whole document, so the report, the
check and an export grouped elsewhere (benchmark/BEYOND.md) judge figures alike.

Robustness: the schema is versioned (``PRAGMA user_version``, ``application_id``);
a corrupt or foreign file is rebuilt with a one-line notice on stderr; concurrent
runs are safe (WAL journal, busy timeout, one transaction per batch of files).
A corpus that cannot be written (read-only checkout) gets an in-memory ledger.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import sqlite3
import sys
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Iterable, Optional

from claims.model import Claim, Condition, Source
from validator.facts import LEDGER_APPROX_REL, claim_key

SCHEMA_VERSION = 5
APPLICATION_ID = 0x43415654          # 'CAVT': tells our ledger from any other SQLite file
DEFAULT_RELPATH = Path(".caveat") / "ledger.sqlite"
STORE_BATCH = 256           # files per write transaction during a sync
EXTRACT_CHUNK = 64          # files per extraction chunk: their rows are alive at once, twice

# Claim fields stored as columns, in table order. JSON columns hold lists/dicts.
CLAIM_COLUMNS = (
    "path", "idx", "line", "col", "start_offset", "end_offset", "surface", "kind",
    "value", "low", "high", "unit", "base_value", "base_low", "base_high", "base_unit",
    "decimals", "approx", "bound", "negative", "metric", "subject", "baseline",
    "conditions", "markers", "sources", "role", "section", "entry", "list_id",
    "date", "lang", "key", "block", "phase", "eff_conditions", "borrowed",
    "sig", "iv_lo", "iv_hi", "kind_class",
)

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,       -- 'extractor': fingerprint of the code and data that made the claims
    value TEXT
);
CREATE TABLE IF NOT EXISTS files (
    path      TEXT PRIMARY KEY,   -- relative to the ledger's root (posix), else absolute
    hash      TEXT NOT NULL,      -- sha256 of the file's bytes
    size      INTEGER NOT NULL,
    mtime_ns  INTEGER NOT NULL,   -- with size: skip hashing files that were not touched
    lang      TEXT,
    date      TEXT,               -- ISO date of the file (file name or front matter)
    n_claims  INTEGER NOT NULL,
    error     TEXT                -- one-line InputError when the file could not be read
);
CREATE TABLE IF NOT EXISTS claims (
    path TEXT NOT NULL, idx INTEGER NOT NULL, line INTEGER, col INTEGER,
    start_offset INTEGER, end_offset INTEGER, surface TEXT, kind TEXT,
    value REAL, low REAL, high REAL, unit TEXT,
    base_value REAL, base_low REAL, base_high REAL, base_unit TEXT,
    decimals INTEGER, approx INTEGER, bound TEXT, negative INTEGER,
    metric TEXT, subject TEXT, baseline TEXT,
    conditions TEXT,              -- JSON: facet -> {{facet, value, scope, line, surface}}
    markers TEXT,                 -- JSON list
    sources TEXT,                 -- JSON list of {{kind, ref, line, col, rating, rating_text}}
    role TEXT, section TEXT, entry TEXT, list_id INTEGER,
    date TEXT, lang TEXT,
    key TEXT,                     -- facts.claim_key: 'metric|subject|baseline' normalized, or NULL
    block INTEGER,                -- index of the block (sentence/bullet/cell) in its document
    phase TEXT,                   -- facts.phases: 'from'/'to' of a change, 'i/n' in a one-line list, ''
    eff_conditions TEXT,          -- JSON facet -> normalized value, borrowed in-document when unstated
    borrowed TEXT,                -- JSON {{line, conditions}} of the figure whose setup was borrowed
    sig TEXT,                     -- facts.statement_id: what the claim states (phase, setup, unit,
                                  -- kind, interval); restatements of one figure share it.
                                  -- NULL without a setup: such a figure is never compared
    iv_lo REAL, iv_hi REAL,       -- facts.interval (approx_rel LEDGER_APPROX_REL), rounded as in sig
    kind_class TEXT,              -- the kind as compared ('duration' is a 'latency')
    PRIMARY KEY (path, idx)
);
-- a key's statements are one index range: the report and the warm check group by it
CREATE INDEX IF NOT EXISTS claims_stmt ON claims (key, sig, path, idx);
CREATE TABLE IF NOT EXISTS analyses (
    path   TEXT PRIMARY KEY,      -- as in files
    hash   TEXT NOT NULL,         -- sha256 of the bytes the analysis was read from
    given  TEXT NOT NULL,         -- the path as the run named it (the analysis carries it)
    data   BLOB NOT NULL          -- validator/analysis_store.pack: signed, compressed
);
PRAGMA user_version = {SCHEMA_VERSION};
PRAGMA application_id = {APPLICATION_ID};
"""


_FINGERPRINT = None


def extractor_fingerprint() -> str:
    """Hash of everything that decides what a file's ledger rows are: the claims package
    (code and data), the facts helpers and this module. A change to any of them (an
    upgrade, a developer's edit) makes every stored claim stale."""
    global _FINGERPRINT
    if _FINGERPRINT is None:
        import claims
        import validator.facts
        h = hashlib.sha256(str(SCHEMA_VERSION).encode())
        pkg = Path(claims.__file__).parent
        paths = sorted(p for p in pkg.rglob("*") if p.is_file() and p.suffix in (".py", ".yaml", ".txt"))
        paths += [Path(validator.facts.__file__), Path(__file__)]
        for p in paths:
            h.update(p.name.encode())
            try:
                h.update(p.read_bytes())
            except OSError:
                pass
        _FINGERPRINT = h.hexdigest()[:32]
    return _FINGERPRINT


def notice(message: str) -> None:
    print(f"caveat: {message}", file=sys.stderr)


def corpus_files(roots: Iterable) -> list:
    """Every Markdown file under the roots, as `caveat check --corpus` lists them
    (validator.paths.markdown_files: hidden folders and symlink loops skipped), sorted."""
    from validator.paths import markdown_files
    out = set()
    for root in roots:
        out.update(markdown_files(str(root)))
    return sorted(out)


def _jsonable(obj):
    names = _NAMES.get(type(obj))
    if names is None:
        if not is_dataclass(obj):
            raise TypeError(f"not JSON serializable: {type(obj).__name__}")
        names = _NAMES[type(obj)] = tuple(f.name for f in fields(obj))
    # one level at a time: json calls back for nested ones; asdict's deep copy of every
    # Condition and Source cost ~0.7 s per 10,000 claims stored
    return {n: getattr(obj, n) for n in names}


_NAMES: dict = {}       # dataclass -> its field names (dataclasses.fields is slow per call)
# one encoder for every value: json.dumps with options builds a new one per call
_ENCODE = json.JSONEncoder(ensure_ascii=False, default=_jsonable, sort_keys=True).encode


def _dumps(obj) -> str:
    if not obj and isinstance(obj, (dict, list)):
        return "{}" if isinstance(obj, dict) else "[]"      # most claims: no markers, sources...
    return _ENCODE(obj)


_DATE_IN_NAME = re.compile(r"(?<!\d)(?:19|20)\d\d-[01]\d-[0-3]\d(?!\d)")


def _analyze(path: str, analysis=None, caches=None):
    """(lang, date, claims, derived) of one file; the claims side does all the reading
    (``analysis``: the file's analysis made already by the caller, not made again, with
    the caller's ``caches``)."""
    if analysis is None:
        from claims.api import read_document
        analysis = read_document(path)
    doc = analysis.document
    derived = _derived(analysis, caches)
    date = getattr(doc, "date", None)
    if not date:
        m = _DATE_IN_NAME.search(os.path.basename(path))
        date = m.group(0) if m else None
    return getattr(doc, "lang", None), date, analysis.claims, derived


def _derived(analysis, caches=None) -> list:
    """Per claim, what the contradiction rule computes from the whole document and a
    corpus consumer cannot recompute from claims alone: the claim's phase ('from'/'to'
    of a stated change), its effective conditions (borrowed from the same figure
    stated with its setup elsewhere in the document), and the statement it makes
    (``facts.Statement``: its id, interval and kind class).
    ``caches``: the run's (validator/caches.py), when the caller analysed the file."""
    from validator.facts import conditions_of, keyed_claims, phases, statements
    ph = phases(analysis, caches)
    # a statement's conditions are the effective ones; a checked file has them already
    # (the check's contradiction rule and the corpus groups use the same cached objects)
    st = statements(analysis, LEDGER_APPROX_REL, caches)
    out = []
    for c in analysis.claims:
        s = st.get(id(c))
        eff = s.conds if s is not None else {}
        borrowed = None
        if eff and not c.conditions:
            group = keyed_claims(analysis, caches)[s.key]
            donor = next((d for d in group if d is not c and conditions_of(d) == eff), None)
            if donor is not None:
                borrowed = {"line": donor.line, "conditions": {
                    f: (getattr(v, "value", None) or (v.get("value") if isinstance(v, dict) else v))
                    for f, v in sorted(donor.conditions.items())}}
        if s is None:
            out.append((ph.get(id(c), ""), eff, borrowed, None, None, None, None))
        else:
            iv = s.interval or (None, None)
            # a figure without a setup is never compared: no statement id
            out.append((ph.get(id(c), ""), eff, borrowed, s.sig_id if eff else None, iv[0], iv[1],
                        s.kind_class))
    return out


def _own_statements(claims) -> list:
    """``_derived`` for claims without their document: each claim's own conditions, no phase."""
    from validator.facts import Statement, claim_key, conditions_of
    out = []
    for c in claims:
        key, conds = claim_key(c), conditions_of(c)
        if key is None:
            out.append(("", conds, None, None, None, None, None))
            continue
        s = Statement(c, key, "", conds, LEDGER_APPROX_REL)
        iv = s.interval or (None, None)
        out.append(("", conds, None, s.sig_id if conds else None, iv[0], iv[1], s.kind_class))
    return out


def claim_row(key: str, idx: int, c: Claim, date, lang, phase: str = "", eff=None, borrowed=None,
              sig=None, iv_lo=None, iv_hi=None, kind_class=None) -> tuple:
    return (
        key, idx, c.line, c.col, c.start, c.end, c.surface, c.kind,
        c.value, c.low, c.high, c.unit, c.base_value, c.base_low, c.base_high, c.base_unit,
        c.decimals, int(bool(c.approx)), c.bound, int(bool(c.negative)),
        c.metric, c.subject, c.baseline,
        _dumps(c.conditions or {}), _dumps(list(c.markers or [])), _dumps(list(c.sources or [])),
        c.role, c.section, c.entry, c.list_id, date, lang, claim_key(c),
        c.block, phase, _dumps(eff if eff is not None else {}),
        _dumps(borrowed) if borrowed else None,
        sig, iv_lo, iv_hi, kind_class,
    )


def _extract_job(job, analysis=None, caches=None):
    """Worker: read, hash and extract one file. Returns plain tuples (cheap to pickle)."""
    key, abspath, size, mtime_ns, digest = job
    try:
        lang, date, claims, *rest = _analyze(abspath) if analysis is None \
            else _analyze(abspath, analysis, caches)
        if digest is None:
            digest = _hash_file(abspath)
        if rest:
            derived = rest[0]
        else:       # an extractor without document-level facts: a claim's own conditions only
            derived = _own_statements(claims)
        rows = [claim_row(key, i, c, date, lang, *derived[i]) for i, c in enumerate(claims)]
        return key, digest, size, mtime_ns, lang, date, rows, None
    except Exception as exc:   # InputError and anything the extractor trips on: recorded, run goes on
        if exc.__class__.__name__ == "InputError":
            msg = str(exc)
        elif isinstance(exc, OSError):
            msg = f"{abspath}: {(exc.strerror or str(exc)).lower()}"
        else:
            msg = f"{abspath}: {exc.__class__.__name__}: {exc}"
        return key, digest or "", size, mtime_ns, None, None, [], msg


def _extract_chunk(jobs) -> list:
    return [_extract_job(j) for j in jobs]


def _batches(items: list, n: int):
    for i in range(0, len(items), n):
        yield items[i:i + n]


def _hash_file(path) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def _make(cls, d):
    """A model object from its stored dict, ignoring keys the model no longer has."""
    if not isinstance(d, dict):
        return d
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in d.items() if k in names})


_FIELDS: dict = {}


def row_to_claim(row) -> Claim:
    """Rebuild a Claim (with Condition and Source objects) from a claims-table row."""
    (path, _idx, line, col, start, end, surface, kind, value, low, high, unit,
     base_value, base_low, base_high, base_unit, decimals, approx, bound, negative,
     metric, subject, baseline, conditions, markers, sources, role, section, entry,
     list_id, _date, _lang, _key, block, _phase, _eff, _borrowed, *_statement) = row
    conds = {}
    for facet, cd in json.loads(conditions or "{}").items():
        conds[facet] = _make(Condition, cd)
    srcs = [_make(Source, s) for s in json.loads(sources or "[]")]
    return Claim(
        path=path, line=line, col=col, start=start, end=end, surface=surface, kind=kind,
        value=value, low=low, high=high, unit=unit, base_value=base_value, base_low=base_low,
        base_high=base_high, base_unit=base_unit, decimals=decimals or 0, approx=bool(approx),
        bound=bound, negative=bool(negative), subject=subject, baseline=baseline, metric=metric,
        conditions=conds, markers=json.loads(markers or "[]"), sources=srcs, role=role,
        section=section, entry=entry, list_id=list_id, block=block,
    )



def _plain_absolute(path) -> bool:
    """An absolute path with nothing ``os.path.abspath`` would change ('/c/briefings/a.md',
    as a corpus listing joins them): the ledger names 10,000 files per warm check, and the
    normalisation was a fifth of its sync."""
    return (isinstance(path, str) and path.startswith("/") and os.sep == "/"
            and "//" not in path and "/./" not in path and "/../" not in path
            and not path.endswith(("/.", "/..", "/")))


_EUID = os.geteuid() if hasattr(os, "geteuid") else None


def _readable(f: str, st) -> bool:
    """``os.access(f, os.R_OK)``, answered from the file's stat when its mode lets everyone
    read it (or the process is root): one system call per corpus file less."""
    if _EUID == 0 or (_EUID is not None and st.st_mode & 0o444 == 0o444):
        return True
    return os.access(f, os.R_OK)

class Ledger:
    """One SQLite ledger file. Paths are stored relative to ``root`` so the ledger
    moves with the corpus; claims come back with ``path`` as the caller named the file."""

    def __init__(self, path=None, root=None, jobs: Optional[int] = None, caches=None):
        self.root = Path(root).resolve() if root else None
        # the run's caches (validator/caches.py): rows of files the run analysed are made
        # from the statements the run computed already
        self.caches = caches
        # the root as resolved and as written: prefixes that make a file's ledger name
        self._bases = [] if root is None else sorted(
            {os.path.join(str(self.root), ""), os.path.join(os.path.abspath(str(root)), "")}, key=len, reverse=True)
        if path is None and self.root is not None:
            path = self.root / DEFAULT_RELPATH
        self.path = str(path) if path is not None else ":memory:"
        self.jobs = jobs                # None: validator/parallel.py decides (CAVEAT_JOBS, cores)
        self.errors: list = []          # one-line messages of files that could not be read
        self.stats = {"files": 0, "extracted": 0, "reused": 0, "removed": 0}
        self.meta: dict = {}            # path -> {"date", "lang", "hash", "error"}
        self.pending: dict = {}         # caller path -> ledger key: rows put off by sync(defer=True)
        self._deferred: list = []       # [(job, analysis)] of those, for flush()
        self.conn = self._open()

    @classmethod
    def for_roots(cls, roots, path=None, jobs=None, caches=None) -> "Ledger":
        """The ledger of a corpus: ``path``, else $CAVEAT_LEDGER (a file, or ``off`` for an
        in-memory ledger), else ``.caveat/ledger.sqlite`` under the first root folder."""
        roots = [Path(r) for r in roots]
        root = next((r for r in roots if r.is_dir()), roots[0].parent if roots else Path("."))
        if path is None:
            env = os.environ.get("CAVEAT_LEDGER", "").strip()
            if env:
                path = ":memory:" if env.lower() in ("off", "memory", ":memory:", "0", "no") else env
        return cls(path=path, root=root, jobs=jobs, caches=caches)

    # -- opening, validating, rebuilding ---------------------------------------------
    def _connect(self, path: str) -> sqlite3.Connection:
        conn = sqlite3.connect(path, timeout=60, isolation_level=None)
        conn.execute("PRAGMA busy_timeout = 60000")
        return conn

    def _open(self) -> sqlite3.Connection:
        if self.path != ":memory:":
            try:
                d = Path(self.path).parent
                d.mkdir(parents=True, exist_ok=True)
                ignore = d / ".gitignore"
                if d.name == ".caveat" and not ignore.exists():
                    ignore.write_text("# generated by caveat: the claim ledger is a cache\n*\n")
            except OSError:
                # a read-only corpus (a shared checkout): the ledger is only a cache, so the
                # run goes on in memory without a word
                self.path = ":memory:"
        try:
            conn = self._connect(self.path)
            problem = self._check(conn)
        except sqlite3.DatabaseError as exc:
            conn, problem = None, f"unreadable ({exc})"
        if problem is None:
            self._check_extractor(conn)
            return conn
        if problem != "new":
            if conn is not None:
                conn.close()
            if not problem.startswith("at schema version"):   # an older ledger of ours: upgrade quietly
                notice(f"ledger {self.path} is {problem}; rebuilding it")
            self._remove_files()
            conn = self._connect(self.path)
        self._init(conn)
        self._check_extractor(conn)
        return conn

    def _check_extractor(self, conn) -> None:
        """Claims made by another version of the extractor are stale: forget them all."""
        fp = extractor_fingerprint()
        row = conn.execute("SELECT value FROM meta WHERE key='extractor'").fetchone()
        if row is not None and row[0] == fp:
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute("SELECT value FROM meta WHERE key='extractor'").fetchone()
            if row is None or row[0] != fp:
                conn.execute("DELETE FROM claims")
                conn.execute("DELETE FROM files")
                conn.execute("DELETE FROM analyses")
                conn.execute("INSERT OR REPLACE INTO meta VALUES ('extractor', ?)", (fp,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _check(self, conn):
        """None when the file is our ledger at our schema version; else why not."""
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        ver = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app == 0 and ver == 0 and not tables:
            return "new"
        if app != APPLICATION_ID:
            return "not a caveat ledger"
        if ver != SCHEMA_VERSION:
            return f"at schema version {ver}, not {SCHEMA_VERSION}"
        if not {"meta", "files", "claims", "analyses"} <= tables:
            return "missing its tables"
        return None

    def _init(self, conn) -> None:
        if self.path != ":memory:":
            try:
                conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.DatabaseError:
                pass
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.executescript("BEGIN IMMEDIATE;" + SCHEMA + "COMMIT;")

    def _remove_files(self) -> None:
        if self.path == ":memory:":
            return
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.remove(self.path + suffix)
            except FileNotFoundError:
                pass

    def _rebuild(self, exc) -> None:
        try:
            self.conn.close()
        except sqlite3.Error:
            pass
        notice(f"ledger {self.path} is corrupt ({exc}); rebuilding it")
        self._remove_files()
        self.conn = self._connect(self.path)
        self._init(self.conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- keys --------------------------------------------------------------------------
    def key_of(self, path) -> str:
        """The ledger's name for a file: relative to the root when under it (posix), else
        absolute. Plain string work for the usual case (no syscalls); symlinks are
        resolved only for paths outside the root as written."""
        ap = path if _plain_absolute(path) else os.path.abspath(path)
        if self.root is not None:
            for base in self._bases:
                if ap.startswith(base):
                    return ap[len(base):].replace(os.sep, "/")
            real = os.path.realpath(ap)            # never raises, even on a symlink loop
            for base in self._bases:
                if real.startswith(base):
                    return real[len(base):].replace(os.sep, "/")
            return real.replace(os.sep, "/")
        return os.path.realpath(ap).replace(os.sep, "/")

    # -- syncing -----------------------------------------------------------------------
    def sync(self, files, analyses=None, defer=False) -> dict:
        """Bring the ledger up to date for ``files``: re-extract only those whose content
        changed (size+mtime untouched means unchanged; otherwise the sha256 decides).
        ``analyses`` ({caller path: Analysis}) are files the caller has analysed already:
        their rows are made from those, not extracted again. ``defer``: not now either —
        they are listed in ``self.pending`` ({caller path: ledger key}) and stored by
        ``flush`` (a caller holding their analyses needs no rows of them meanwhile).
        Returns {caller path: ledger key}."""
        for attempt in (1, 2):
            try:
                return self._sync(files, analyses or {}, defer)
            except sqlite3.DatabaseError as exc:
                if attempt == 2 or isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                    raise
                self._rebuild(exc)

    def _sync(self, files, analyses=None, defer=False) -> dict:
        files = [str(f) for f in files]
        keys = {f: self.key_of(f) for f in files}
        known = {}
        for row in self.conn.execute("SELECT path, hash, size, mtime_ns, lang, date, error FROM files"):
            known[row[0]] = row
        jobs, unchanged = [], []
        for f in files:
            key = keys[f]
            try:
                st = os.stat(f)
            except OSError:
                jobs.append((key, f, -1, -1, None))      # the worker records the InputError
                continue
            old = known.get(key)
            if not _readable(f, st):
                jobs.append((key, f, st.st_size, st.st_mtime_ns, None))   # now unreadable: say so
                continue
            if old is not None and old[2] == st.st_size and old[3] == st.st_mtime_ns:
                unchanged.append(key)
                continue
            digest = _hash_file(f) if old is not None else None
            if old is not None and digest == old[1]:
                # touched but identical: refresh the stat fields, keep the claims
                self.conn.execute("UPDATE files SET size=?, mtime_ns=? WHERE path=?",
                                  (st.st_size, st.st_mtime_ns, key))
                unchanged.append(key)
                continue
            jobs.append((key, f, st.st_size, st.st_mtime_ns, digest))
        # results are stored in batches as they arrive: memory stays flat and an
        # interrupted cold run keeps what it extracted
        batch = []
        analyses = analyses or {}
        mine = [j for j in jobs if j[1] in analyses]
        jobs = [j for j in jobs if j[1] not in analyses]
        if defer:
            self._deferred = [(j, analyses[j[1]]) for j in mine]
            self.pending = {j[1]: j[0] for j in mine}
            done = []
        else:
            done = [_extract_job(j, analyses[j[1]], self.caches) for j in mine]
        errors = {}
        for r in itertools.chain(done, self._run_jobs(jobs)):
            self.meta[r[0]] = {"hash": r[1], "lang": r[4], "date": r[5], "error": r[7]}
            if r[7]:
                errors[r[0]] = r[7]
            batch.append(r)
            if len(batch) >= STORE_BATCH:
                self._store(batch)
                batch = []
        self._store(batch)
        # results come as workers finish; their error lines in file order, as one process meets them
        order = {key: i for i, key in enumerate(keys.values())}
        self.errors += [errors[k] for k in sorted(errors, key=order.__getitem__)]
        self.stats.update(files=len(files), extracted=len(jobs) + len(mine), reused=len(unchanged))
        for key in unchanged:
            r = known.get(key)
            if r is not None:
                self.meta[key] = {"hash": r[1], "lang": r[4], "date": r[5], "error": r[6]}
                if r[6]:
                    self.errors.append(r[6])
        return keys

    def _run_jobs(self, jobs):
        """Extraction results as they are done (validator/parallel.py: in worker processes
        beside this one when there are several cores and enough files to pay for them)."""
        from validator import parallel
        for _, results in parallel.shared(jobs, _extract_chunk, parallel.jobs_for(len(jobs), self.jobs),
                                          max_chunk=EXTRACT_CHUNK):
            yield from results

    def flush(self) -> None:
        """Store the rows of the files whose storing ``sync(defer=True)`` put off, made from
        the caller's analyses (in write batches, each one transaction: an interrupted run
        keeps whole files or nothing of them). An in-memory ledger ends with the run, and
        the run reads no rows of these files: it skips the work."""
        deferred, self._deferred = self._deferred, []
        if self.path == ":memory:" or not deferred:
            return
        try:
            for i in range(0, len(deferred), STORE_BATCH):
                batch = [_extract_job(j, a, self.caches) for j, a in deferred[i:i + STORE_BATCH]]
                for r in batch:
                    self.meta[r[0]] = {"hash": r[1], "lang": r[4], "date": r[5], "error": r[7]}
                self._store(batch)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise
            self._rebuild(exc)          # a cache: the next run extracts them again

    def _store(self, results) -> None:
        if not results:
            return
        ph = ",".join("?" * len(CLAIM_COLUMNS))
        cur = self.conn.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            for key, digest, size, mtime_ns, lang, date, rows, error in results:
                cur.execute("DELETE FROM claims WHERE path=?", (key,))
                cur.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?)",
                            (key, digest, size, mtime_ns, lang, date, len(rows), error))
                cur.executemany(f"INSERT INTO claims VALUES ({ph})", rows)
            cur.execute("COMMIT")
        except BaseException:
            cur.execute("ROLLBACK")
            raise

    def prune(self, keep_files) -> int:
        """Forget files that are no longer in the corpus (deleted or moved)."""
        keep = {self.key_of(f) for f in keep_files}
        gone = [r[0] for r in self.conn.execute("SELECT path FROM files") if r[0] not in keep]
        if gone:
            cur = self.conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            for key in gone:
                cur.execute("DELETE FROM claims WHERE path=?", (key,))
                cur.execute("DELETE FROM files WHERE path=?", (key,))
                cur.execute("DELETE FROM analyses WHERE path=?", (key,))
            cur.execute("COMMIT")
        self.stats["removed"] = len(gone)
        return len(gone)

    # -- whole analyses (validator/analysis_store.py) -----------------------------------
    def stored_analyses(self, files) -> dict:
        """{path as given: Analysis} of the ``files`` whose bytes hash as when their stored
        analysis was made (signed by this user, named by the same path); the others are
        left out, to be read."""
        from . import analysis_store
        if self.path == ":memory:" or not analysis_store.enabled():
            return {}
        keys = {self.key_of(f): f for f in files}
        out = {}
        try:
            for part in _batches(list(keys), 500):
                q = f"SELECT path, hash, given, data FROM analyses WHERE path IN ({','.join('?' * len(part))})"
                for key, digest, given, data in self.conn.execute(q, part):
                    f = keys[key]
                    if given != f or analysis_store.digest(f) != digest:
                        continue
                    a = analysis_store.unpack(data)
                    if a is not None:
                        out[f] = a
        except sqlite3.DatabaseError:
            return {}           # a cache: the files are read instead
        return out

    def keep_analyses(self, packed) -> None:
        """Store ``packed`` ([(path as given, sha256 of the bytes read, pack)]) for the next run."""
        if self.path == ":memory:" or not packed:
            return
        try:
            cur = self.conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                cur.executemany("INSERT OR REPLACE INTO analyses VALUES (?,?,?,?)",
                                [(self.key_of(f), d, f, data) for f, d, data in packed])
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                return          # another run is writing: this one's analyses are not kept
            self._rebuild(exc)

    # -- reading -----------------------------------------------------------------------
    def analyses_for(self, files) -> dict:
        """{path as given: [Claim]} for every file, re-extracting only changed files.
        Files that could not be read map to [] and their message is in ``self.errors``."""
        keys = self.sync(files)
        by_key = {k: [] for k in keys.values()}
        for row in self._rows_for(list(by_key)):
            by_key[row[0]].append(row)
        out = {}
        for f, k in keys.items():
            claims = []
            for row in by_key.get(k, []):
                c = row_to_claim(row)
                c.path = f
                claims.append(c)
            out[f] = claims
        return out

    def _rows_for(self, keys):
        cols = ",".join(CLAIM_COLUMNS)
        for i in range(0, len(keys), 500):
            part = keys[i:i + 500]
            q = f"SELECT {cols} FROM claims WHERE path IN ({','.join('?' * len(part))}) ORDER BY path, idx"
            yield from self.conn.execute(q, part)

    def claims_by_key(self, keys, exclude_paths=()) -> list:
        """[(ledger path, Claim)] whose claim key (``facts.claim_key``) is one of ``keys`` —
        what a one-file check needs from a large corpus, one indexed lookup per key instead
        of loading every claim. Call ``sync`` first so the ledger is current."""
        cols = ",".join(CLAIM_COLUMNS)
        exclude = {self.key_of(p) for p in exclude_paths}
        out = []
        for key in sorted({k for k in keys if k}):
            for row in self.conn.execute(f"SELECT {cols} FROM claims WHERE key = ? ORDER BY path, idx", (key,)):
                if row[0] not in exclude:
                    out.append((row[0], row_to_claim(row)))
        return out

    def path_of(self, key: str) -> str:
        """The file a ledger path names (absolute)."""
        p = Path(key)
        return str(p if p.is_absolute() or self.root is None else self.root / p)

    def rows(self, where: str = "", params=()):
        """Raw claim rows (CLAIM_COLUMNS order) for reports and export, in a stable order."""
        cols = ",".join(CLAIM_COLUMNS)
        q = f"SELECT {cols} FROM claims {where} ORDER BY path, idx"
        return self.conn.execute(q, params)

    def file_rows(self):
        return self.conn.execute(
            "SELECT path, hash, size, lang, date, n_claims, error FROM files ORDER BY path")


class LedgerAnalysis:
    """What corpus consumers read of a file's analysis when it comes from the ledger:
    its claims (no document: the ledger keeps claims, not blocks), with the phases
    (facts.phases) computed when the file was extracted."""

    def __init__(self, path: str, claims: list, phases: Optional[list] = None):
        self.path = path
        self.claims = claims
        self.derivations: list = []
        self.document = None
        self.stored_phases = {id(c): p for c, p in zip(claims, phases or ()) if p}


class CorpusIndex:
    """The ledger seen the way validator/corpus.py uses a corpus: bring it up to date once
    (``sync``), then look up one claim key at a time — its distinct statements
    (``statement_firsts``, one grouped query; ``statement_paths`` and ``statement_claims``
    for the few statements a check looks into), or all its claims (``by_key``) — or one
    file (``analysis``).

    A warm one-file check over a large corpus then costs a stat per corpus file plus one
    grouped, index-only query per claim key of the checked file: the rows of a key's
    thousands of restatements are not read, only the few a finding names."""

    def __init__(self, roots, path=None, jobs=None, caches=None):
        self.ledger = Ledger.for_roots(roots, path=path, jobs=jobs, caches=caches)
        self.caches = caches
        self._keys: dict = {}          # caller path -> ledger path
        self._back: dict = {}          # ledger path -> caller path
        self._by_key: dict = {}
        self._analyses: dict = {}

    @property
    def errors(self) -> list:
        return self.ledger.errors

    def sync(self, files, analyses=None, defer=False) -> None:
        self._keys.update(self.ledger.sync(files, analyses, defer))
        self._back = {v: k for k, v in self._keys.items()}
        self._by_key.clear()
        self._analyses.clear()

    def ledger_path(self, path: str) -> str:
        """The ledger's name of a synced caller path."""
        got = self._keys.get(path)
        return got if got is not None else self.ledger.key_of(path)

    def _healthy(self, fn, *args):
        """Run a read; a ledger found corrupt mid-run is rebuilt (with its notice), the
        files synced so far are extracted again, and the read is retried once."""
        try:
            return fn(*args)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise
            self.ledger._rebuild(exc)
            files = list(self._keys)
            self._keys.clear()
            self.sync(files)
            return fn(*args)

    # -- statements ----------------------------------------------------------------------
    def statement_firsts(self, key: str) -> list:
        """[(sig, ledger path, idx, Claim, phase, effective conditions)] of ``key``'s
        statements that have a setup (``sig`` is set only then), each with its first figure
        in ledger order (path, idx): one grouped query, one row per statement."""
        return self._healthy(self._statement_firsts, key)

    def _statement_firsts(self, key: str) -> list:
        cols = ",".join(CLAIM_COLUMNS)
        iph, ieff = CLAIM_COLUMNS.index("phase"), CLAIM_COLUMNS.index("eff_conditions")
        out = []
        # one min() in the query: SQLite takes the other columns from the row holding it
        for row in self.ledger.conn.execute(
                f"SELECT sig, min(path || char(1) || printf('%09d', idx)), {cols} FROM claims "
                "WHERE key = ? AND sig IS NOT NULL GROUP BY sig", (key,)):
            sig, first, row = row[0], row[1], row[2:]
            lpath, idx = row[0], row[1]
            c = row_to_claim(row)
            p = self._back.get(lpath)
            c.path = p if p is not None else lpath
            out.append((sig, lpath, idx, c, row[iph] or "", json.loads(row[ieff] or "{}")))
        return out

    def statement_paths(self, key: str, sig: str) -> list:
        """[(ledger path, caller path, first idx)] of the synced files stating ``sig``, in
        ledger order (an index-only query)."""
        return self._healthy(self._statement_paths, key, sig)

    def _statement_paths(self, key: str, sig: str) -> list:
        back = self._back
        out = []
        for lpath, idx in self.ledger.conn.execute(
                "SELECT path, min(idx) FROM claims WHERE key = ? AND sig = ? GROUP BY path ORDER BY path",
                (key, sig)):
            p = back.get(lpath)
            if p is not None:           # else in the ledger but not in this corpus (another root's run)
                out.append((lpath, p, idx))
        return out

    def statement_claims(self, key: str, sig: str, path: str) -> list:
        """[(Claim, phase, effective conditions)] of one file's figures stating ``sig``."""
        return self._healthy(self._statement_claims, key, sig, path)

    def _statement_claims(self, key: str, sig: str, path: str) -> list:
        cols = ",".join(CLAIM_COLUMNS)
        iph, ieff = CLAIM_COLUMNS.index("phase"), CLAIM_COLUMNS.index("eff_conditions")
        out = []
        for row in self.ledger.conn.execute(
                f"SELECT {cols} FROM claims WHERE path = ? AND key = ? AND sig = ? ORDER BY idx",
                (self.ledger_path(path), key, sig)):
            c = row_to_claim(row)
            c.path = path
            out.append((c, row[iph] or "", json.loads(row[ieff] or "{}")))
        return out

    # -- claims ----------------------------------------------------------------------------
    def by_key(self, key: str, skip=()) -> list:
        """[(caller path, Claim)]; rows of the caller paths in ``skip`` (files the caller has
        analysed in full) come back as (path, None), in place, without rebuilding the claim."""
        if skip and key not in self._by_key:
            return self._healthy(self._by_key_read, key, skip)
        return self._healthy(self._by_key_read, key)

    def analysis(self, path: str) -> "LedgerAnalysis":
        return self._healthy(self._analysis_read, path)

    def _by_key_read(self, key: str, skip=()) -> list:
        """[(caller path, Claim)] of every synced file's claims with this claim key, from
        one indexed query."""
        if key not in self._by_key:
            if skip:
                # a run checking its whole corpus skips every row: read the paths first and
                # the full rows (JSON text) only when some file is not skipped
                back = [self._back.get(r[0]) for r in self.ledger.conn.execute(
                    "SELECT path FROM claims WHERE key = ? ORDER BY path, idx", (key,)).fetchall()]
                if all(p is None or p in skip for p in back):
                    return [(p, None) for p in back if p is not None]
            out = []
            cols = ",".join(CLAIM_COLUMNS)
            q = f"SELECT {cols} FROM claims WHERE key = ? ORDER BY path, idx"
            for row in self.ledger.conn.execute(q, (key,)).fetchall():
                p = self._back.get(row[0])
                if p is None:           # in the ledger but not in this corpus (another root's run)
                    continue
                if p in skip:
                    out.append((p, None))
                    continue
                c = row_to_claim(row)
                c.path = p
                out.append((p, c))
            if skip:
                return out      # partial: not cached
            self._by_key[key] = out
        return self._by_key[key]

    def _analysis_read(self, path: str) -> LedgerAnalysis:
        """The file's claims from the ledger (synced already by ``sync``, else now)."""
        path = str(path)
        if path not in self._analyses:
            if path not in self._keys:
                self.sync([path])
            claims, phases = [], []
            for row in self.ledger._rows_for([self._keys[path]]):
                c = row_to_claim(row)
                c.path = path
                claims.append(c)
                phases.append(row[CLAIM_COLUMNS.index("phase")] or "")
            la = LedgerAnalysis(path, claims, phases)
            if self.caches is not None:
                self.caches.of(la).phases = la.stored_phases
            self._analyses[path] = la
        return self._analyses[path]

    def close(self) -> None:
        self.ledger.close()
