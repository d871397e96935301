"""The default report engine: statements grouped in the SQLite claim ledger, compared in Python.

The ledger stores each claim's statement (``sig``, its interval and kind class) when the
claim is extracted, indexed by claim key. So one key at a time, SQLite returns the key's
distinct statements with their sizes (``GROUP BY sig``) and the pairs of its figures that sit
in one sentence (a self-join on file and line or block); Python compares the statements
(``report.statement_pairs``). Memory holds one key's statements, never its figures, which
are read statement by statement as the report is written.

All reads run in one read transaction (``snapshot``): a run writing the ledger at the same
time (WAL) cannot change what this report sees halfway through.
"""
from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

from validator.report_model import CLAIM_ROLES, Pair, Statement, order_key, statement_pairs



def reportable(alias: str = "") -> str:
    """The figures a report judges (SQL): in a body, header or summary, with a statement
    and a setup."""
    t = f"{alias}." if alias else ""
    roles = ",".join(f"'{r}'" for r in CLAIM_ROLES)
    return f"{t}sig IS NOT NULL AND {t}eff_conditions <> '{{}}' AND {t}role IN ({roles})"


REPORTABLE = reportable()
# the first figure of a statement: the figure order of report.order_key, as SQL
ORDER_SQL = ("coalesce(date, '9999') || char(1) || path || char(1) || printf('%09d', line)"
             " || char(1) || printf('%09d', col)")
FIRST_COLUMNS = ("path", "line", "col", "surface", "kind", "value", "low", "high", "base_value",
                 "base_low", "base_high", "date", "conditions", "borrowed", "markers", "role",
                 "metric", "subject", "baseline")
FIGURE_COLUMNS = ("path", "line", "col", "surface", "date", "role", "markers")


def first_figure(values: dict, show) -> dict:
    """A statement's first figure from its stored columns (JSON columns decoded; conditions
    as written: facet -> value; the display path)."""
    f = dict(values)
    f["path"] = show(f["path"])
    conds = json.loads(f.get("conditions") or "{}")
    f["conditions"] = {k: (c.get("value") if isinstance(c, dict) else c) for k, c in sorted(conds.items())}
    f["borrowed"] = json.loads(f["borrowed"]) if f.get("borrowed") else None
    f["markers"] = sorted(json.loads(f.get("markers") or "[]"))
    return f


def figure(values: dict, show) -> dict:
    m = values["markers"]
    return {"path": show(values["path"]), "line": values["line"], "col": values["col"],
            "surface": values["surface"], "date": values["date"], "role": values["role"],
            "markers": sorted(json.loads(m)) if m and m != "[]" else []}


class Paths:
    """Display paths: relative to the corpus root holding the file, prefixed by the
    root's name when several roots are given, so the report never shows absolute paths."""

    def __init__(self, roots, ledger_root):
        self.roots = [Path(r).resolve() for r in roots]
        self.ledger_root = ledger_root
        self.multi = len(self.roots) > 1
        self._cache: dict = {}

    def show(self, key: str) -> str:
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self._show(key)
        return got

    def _show(self, key: str) -> str:
        p = Path(key)
        ap = p if p.is_absolute() else (self.ledger_root / p if self.ledger_root else p.resolve())
        for r in self.roots:
            try:
                rel = ap.relative_to(r).as_posix()
            except ValueError:
                continue
            return f"{r.name}/{rel}" if self.multi else rel
        return os.path.relpath(ap).replace(os.sep, "/")

    def message(self, message: str) -> str:
        """A ledger error line with the corpus roots taken out of its paths."""
        for r in self.roots:
            message = message.replace(str(r) + os.sep, "")
        return message


class LedgerSource:
    """A synced claim ledger as the report reads it (the parts every engine over a local
    ledger shares: counts, unverified figures, files, errors, display paths)."""

    def __init__(self, ledger, roots, n_files: int):
        self.ledger = ledger
        self.conn = ledger.conn
        self.paths = Paths(roots, ledger.root)
        self.show = self.paths.show
        self.n_files = n_files

    @contextmanager
    def snapshot(self):
        """One read transaction around everything the report reads."""
        self.conn.execute("BEGIN")
        try:
            self.conn.execute("SELECT count(*) FROM files").fetchone()   # the snapshot starts here
            yield self
        finally:
            self.conn.execute("COMMIT")

    def close(self) -> None:
        """Nothing of its own to release (the ledger belongs to the caller)."""

    def counts(self) -> dict:
        claims = self.conn.execute("SELECT count(*) FROM claims").fetchone()[0]
        return {"files": self.n_files, "claims": claims, "unverified": sum(1 for _ in self.unverified())}

    def unverified(self):
        q = ("SELECT path, line, col, surface, markers FROM claims "
             "WHERE markers LIKE '%\"unverified\"%' OR markers LIKE '%\"abstract_only\"%' "
             "ORDER BY path, line, col, idx")
        for path, line, col, surface, markers in self.conn.execute(q):
            yield {"path": self.show(path), "line": line, "col": col, "surface": surface,
                   "markers": sorted(json.loads(markers or "[]"))}

    def files(self):
        for path, lang, date, n, error in self.conn.execute(
                "SELECT path, lang, date, n_claims, error FROM files ORDER BY path"):
            yield {"path": self.show(path), "lang": lang, "date": date, "claims": n, "error": error}

    def errors(self) -> list:
        rows = self.conn.execute("SELECT DISTINCT error FROM files WHERE error IS NOT NULL").fetchall()
        return sorted(self.paths.message(e) for (e,) in rows)


class PythonEngine(LedgerSource):
    """``--engine python``: grouping in SQLite one key at a time, comparison in Python."""

    def keys(self) -> list:
        q = (f"SELECT key FROM claims WHERE key IS NOT NULL AND {REPORTABLE} "
             "GROUP BY key HAVING count(DISTINCT sig) > 1 ORDER BY key")
        return [k for (k,) in self.conn.execute(q)]

    def statements(self, key: str) -> list:
        stats = {}
        for sig, phase, eff, unit, kc, lo, hi, n, files, last in self.conn.execute(
                "SELECT sig, phase, eff_conditions, base_unit, kind_class, iv_lo, iv_hi, count(*), "
                f"count(DISTINCT path), max(date) FROM claims WHERE key = ? AND {REPORTABLE} GROUP BY sig",
                (key,)):
            stats[sig] = (phase or "", json.loads(eff), unit, kc, lo, hi, n, files, last)
        out = []
        # one min() per query: SQLite then takes the other columns from the row holding it
        cols = ", ".join(FIRST_COLUMNS)
        for row in self.conn.execute(f"SELECT sig, min({ORDER_SQL}), {cols} FROM claims "
                                     f"WHERE key = ? AND {REPORTABLE} GROUP BY sig", (key,)):
            sig, order = row[0], row[1]
            phase, setup, unit, kc, lo, hi, n, files, last = stats[sig]
            out.append(Statement(sig=sig, phase=phase, setup=setup, base_unit=unit, kind_class=kc,
                                 lo=lo, hi=hi, n_figures=n, n_files=files, last_date=last, order=order,
                                 first=first_figure(dict(zip(FIRST_COLUMNS, row[2:])), self.show)))
        return out

    def same_place(self, key: str) -> dict:
        """(sig a, sig b) -> figure pairs of the two statements stated in one sentence
        (same file, and same line or block), sig a < sig b."""
        # '+b.key', '+b.sig': b is found by its file (the primary key), never by the key
        # index, which would pair every figure of the key with every other
        q = (f"SELECT a.sig, b.sig, count(*) FROM claims a JOIN claims b ON b.path = a.path "
             f"WHERE a.key = ?1 AND +b.key = a.key AND +b.sig > a.sig "
             f"AND (a.line = b.line OR a.block = b.block) "
             f"AND {reportable('a')} AND {reportable('b')} "
             f"GROUP BY a.sig, b.sig")
        return {(a, b): n for a, b, n in self.conn.execute(q, (key,))}

    def groups(self):
        """(claim key, statements, disagreeing statement pairs) of every key with two or
        more statements."""
        for key in self.keys():
            statements = self.statements(key)
            pairs = []
            near = None
            for a, b, verdict, differ in statement_pairs(statements):
                if near is None:
                    near = self.same_place(key)
                n = a.n_figures * b.n_figures - near.get((a.sig, b.sig), 0)
                pairs.append(Pair(a.sig, b.sig, verdict, differ, n))
            yield key, statements, pairs

    def figures(self, order):
        """(key, sig, figure) for each statement of ``order``, its figures first stated first.
        A key's figures are read in one query and held (as rows) until its statements are
        written: one key's worth, never the corpus's."""
        cols = ", ".join(FIGURE_COLUMNS)
        q = (f"SELECT sig, {cols} FROM claims WHERE key = ? AND {REPORTABLE} ORDER BY {ORDER_SQL}")
        order = list(order)
        wanted_of: dict = {}
        for key, sig in order:
            wanted_of.setdefault(key, set()).add(sig)
        held_key, held = None, {}
        for key, sig in order:
            if key != held_key:
                held_key, held = key, {}
                wanted = wanted_of[key]
                for row in self.conn.execute(q, (key,)):
                    if row[0] in wanted:
                        held.setdefault(row[0], []).append(row[1:])
            for row in held.pop(sig, ()):
                yield key, sig, figure(dict(zip(FIGURE_COLUMNS, row)), self.show)


__all__ = ["PythonEngine", "LedgerSource", "Paths", "order_key"]
