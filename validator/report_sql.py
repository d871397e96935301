"""The report's grouping and statement comparison as SQL, for the DuckDB and Spark engines.

The same statements over a table ``claims`` with the columns of a claim-ledger export
(``caveat ledger export``: the claim columns, ``shard``, and ``file_*`` columns, with one
row per file that has no claim): the text is written in the SQL both engines read
(``min_by``, ``any_value``, ``lpad``, ``chr``, ``||``), so a shard exported on one machine
is grouped alike on a laptop (DuckDB) and a cluster (Spark).

1. ``FIGS``: the figures a report judges (body, header or summary; a statement and a setup),
   with their display path and their order (``report.order_key``).
2. ``STATEMENTS``: one row per (key, statement): sizes, last date, and the first figure.
3. ``CANDIDATES``: statement pairs of one key, phase, unit and kind whose intervals are
   disjoint — the pairs whose values disagree.
4. The only fuzzy step, whether two setups can be compared ('H100' matches 'H100 SXM'; a
   load named by a dataset is not one named by a concurrency), is decided in Python by
   ``report_model.condition_verdict`` for each distinct pair of setups (few: a corpus names few
   setups) and joined back as the table ``verdicts``.
5. ``NEAR``: figure pairs of two statements stated in one sentence (same file, line or
   block); ``PAIRS``: each disagreeing statement pair with its verdict and figure-pair count.
"""
from __future__ import annotations

from validator.report_model import CLAIM_ROLES

_ROLES = ",".join(f"'{r}'" for r in CLAIM_ROLES)


def figs(multi_shard: bool) -> str:
    """The figures table; ``multi_shard``: paths are shown (and ordered) as shard/path."""
    dpath = "shard || '/' || path" if multi_shard else "path"
    return f"""
SELECT coalesce(shard, '') AS shard, path, {dpath} AS dpath, idx, line, col, block, surface, kind,
       base_value, base_low, base_high, date, conditions, borrowed, markers, role,
       metric, subject, baseline, key, sig, coalesce(phase, '') AS phase, eff_conditions,
       base_unit, kind_class, iv_lo, iv_hi,
       coalesce(date, '9999') || chr(1) || {dpath} || chr(1) || lpad(CAST(line AS STRING), 9, '0')
           || chr(1) || lpad(CAST(col AS STRING), 9, '0') AS ord
FROM claims
WHERE idx IS NOT NULL AND key IS NOT NULL AND sig IS NOT NULL AND eff_conditions <> '{{}}'
  AND role IN ({_ROLES})
"""


# the export columns the grouping reads (an engine fed from a ledger loads only these)
COLUMNS = ("shard", "path", "idx", "line", "col", "block", "surface", "kind", "base_value", "base_low",
           "base_high", "date", "conditions", "borrowed", "markers", "role", "metric", "subject",
           "baseline", "key", "sig", "phase", "eff_conditions", "base_unit", "kind_class", "iv_lo", "iv_hi")

FIRST = ("dpath", "line", "col", "surface", "kind", "base_value", "base_low", "base_high", "date",
         "conditions", "borrowed", "markers", "role", "metric", "subject", "baseline")

STATEMENTS = f"""
SELECT key, sig, any_value(phase) AS phase, any_value(eff_conditions) AS setup,
       any_value(base_unit) AS base_unit, any_value(kind_class) AS kind_class,
       any_value(iv_lo) AS lo, any_value(iv_hi) AS hi, count(*) AS n,
       count(DISTINCT shard || chr(0) || path) AS files, max(date) AS last_date, min(ord) AS ord,
       {", ".join(f"min_by({c}, ord) AS f_{c}" for c in FIRST)}
FROM figs GROUP BY key, sig
"""

CANDIDATES = """
SELECT a.key AS key, a.sig AS sa, b.sig AS sb, a.setup AS ca, b.setup AS cb, a.n AS na, b.n AS nb
FROM statements a JOIN statements b
  ON a.key = b.key AND a.sig < b.sig AND a.phase = b.phase AND a.kind_class = b.kind_class
 AND coalesce(a.base_unit, '') = coalesce(b.base_unit, '')
WHERE a.lo IS NOT NULL AND a.hi IS NOT NULL AND b.lo IS NOT NULL AND b.hi IS NOT NULL
  AND (a.hi < b.lo OR b.hi < a.lo)
"""

SETUP_PAIRS = "SELECT DISTINCT ca, cb FROM candidates"

NEAR = """
SELECT a.key AS key, a.sig AS sa, b.sig AS sb, count(*) AS n
FROM figs a JOIN figs b
  ON a.shard = b.shard AND a.path = b.path AND a.key = b.key AND a.sig < b.sig
WHERE a.line = b.line OR a.block = b.block
GROUP BY a.key, a.sig, b.sig
"""

PAIRS = """
SELECT c.key AS key, c.sa AS sa, c.sb AS sb, v.status AS status, v.differ AS differ,
       c.na * c.nb - coalesce(n.n, 0) AS figure_pairs
FROM candidates c JOIN verdicts v ON v.ca = c.ca AND v.cb = c.cb
LEFT JOIN near n ON n.key = c.key AND n.sa = c.sa AND n.sb = c.sb
WHERE v.status <> 'agree'
ORDER BY c.key, c.sa, c.sb
"""

GROUPED_STATEMENTS = """
SELECT s.* FROM statements s WHERE s.key IN (SELECT DISTINCT key FROM pairs)
ORDER BY s.key, s.sig
"""

FIGURES = """
SELECT o.g AS g, f.key AS key, f.sig AS sig, f.dpath AS path, f.line AS line, f.col AS col,
       f.surface AS surface, f.date AS date, f.role AS role, f.markers AS markers
FROM figs f JOIN report_order o ON o.key = f.key AND o.sig = f.sig
ORDER BY o.g, f.ord
"""

# what an export says of the corpus besides its grouped figures
COUNTS = """
SELECT count(DISTINCT coalesce(shard, '') || chr(0) || path) AS files, count(idx) AS claims,
       count(DISTINCT coalesce(shard, '')) AS shards
FROM claims
"""

UNVERIFIED = """
SELECT {dpath} AS path, line, col, surface, markers FROM claims
WHERE idx IS NOT NULL AND (markers LIKE '%"unverified"%' OR markers LIKE '%"abstract_only"%')
ORDER BY coalesce(shard, ''), path, line, col, idx
"""

FILES = """
SELECT {dpath} AS path, any_value(file_lang) AS lang, any_value(file_date) AS date,
       any_value(file_claims) AS claims, any_value(file_error) AS error
FROM claims GROUP BY coalesce(shard, ''), path, {dpath}
ORDER BY coalesce(shard, ''), path
"""

ERRORS = "SELECT DISTINCT file_error FROM claims WHERE file_error IS NOT NULL"

SHARDS = "SELECT DISTINCT coalesce(shard, '') AS shard FROM claims ORDER BY 1"


def display_path(multi_shard: bool) -> str:
    return "(coalesce(shard, '') || '/' || path)" if multi_shard else "path"


def verdict_rows(setup_pairs) -> list:
    """(ca, cb, status, differ) for each distinct pair of setups (JSON text), from
    ``report_model.condition_verdict``: differ as the facets joined by ','."""
    import json

    from validator.report_model import condition_verdict
    out = []
    for ca, cb in setup_pairs:
        status, differ = condition_verdict(json.loads(ca), json.loads(cb))
        out.append((ca, cb, status, ",".join(differ)))
    return out


def statement_of(row: dict):
    """A ``report.Statement`` from a STATEMENTS row (as a dict)."""
    import json

    from validator.report_model import Statement
    from validator.report_python import first_figure
    first = {c: row[f"f_{c}"] for c in FIRST}
    first["path"] = first.pop("dpath")
    return Statement(sig=row["sig"], phase=row["phase"] or "", setup=json.loads(row["setup"]),
                     base_unit=row["base_unit"], kind_class=row["kind_class"], lo=row["lo"], hi=row["hi"],
                     n_figures=int(row["n"]), n_files=int(row["files"]), last_date=row["last_date"],
                     order=row["ord"], first=first_figure(first, lambda p: p))


def pair_of(row: dict):
    from validator.report_model import Pair
    differ = tuple(x for x in (row["differ"] or "").split(",") if x)
    return Pair(row["sa"], row["sb"], row["status"], differ, int(row["figure_pairs"]))


def grouped(statement_rows, pair_rows):
    """(key, [Statement], [Pair]) per key, from the rows (dicts) of GROUPED_STATEMENTS and
    PAIRS, both ordered by key: the two are walked together, one key held at a time."""
    from itertools import groupby
    pairs = groupby(pair_rows, key=lambda r: r["key"])
    pk, prows = next(pairs, (None, ()))
    for key, rows in groupby(statement_rows, key=lambda r: r["key"]):
        got = []
        while pk is not None and pk <= key:
            if pk == key:
                got = [pair_of(r) for r in prows]
            pk, prows = next(pairs, (None, ()))
        yield key, [statement_of(r) for r in rows], got


class ExportRows:
    """The unverified figures and the files of Parquet exports, read with the engine's
    ``_dicts(query)`` (one home for DuckDB's and Spark's readers of the same SQL)."""

    dpath: str

    def unverified(self):
        import json
        for r in self._dicts(UNVERIFIED.format(dpath=self.dpath)):
            yield {"path": r["path"], "line": r["line"], "col": r["col"], "surface": r["surface"],
                   "markers": sorted(json.loads(r["markers"] or "[]"))}

    def files(self):
        for r in self._dicts(FILES.format(dpath=self.dpath)):
            yield {"path": r["path"], "lang": r["lang"], "date": r["date"],
                   "claims": int(r["claims"] or 0), "error": r["error"]}
