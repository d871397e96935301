"""The corpus contradiction report: from ledger rows to a plain, deterministic model.

Why: a person needs to see, per claim key (metric, subject, baseline), every figure
the corpus states, which pairs really contradict (same key, compatible conditions,
values apart beyond the precision they were written with), which pairs are merely
not comparable (a condition facet differs), and which figure a newer source has
superseded. The renderers (validator/render/report_*.py) only format this model.

The model is deterministic: paths relative to the corpus roots, stable ordering,
no timestamps, floats rounded to a fixed number of significant digits — so the
sample report kept in the repository can be regenerated and compared byte for byte.
"""
from __future__ import annotations

import json
import math
import os
import sqlite3
from pathlib import Path

from types import SimpleNamespace

from validator import facts
from validator.ledger import CLAIM_COLUMNS, Ledger, corpus_files

REPORT_VERSION = 1
# Blocks whose figures are the corpus's claims (the contradiction rule's `roles`); warnings
# sections, sources tables and references restate or list other figures.
CLAIM_ROLES = ("body", "header", "summary")
UNVERIFIED_MARKERS = ("unverified", "abstract_only")
COL = {name: i for i, name in enumerate(CLAIM_COLUMNS)}


def _num(x):
    """A float rounded to 6 significant digits (stable text in JSON/HTML)."""
    if x is None or (isinstance(x, float) and (math.isinf(x) or math.isnan(x))):
        return None
    return float(f"{x:.6g}")


# -- comparison of two figures of one claim key ---------------------------------------
# The same test as the contradiction rule of `caveat check` (validator/kinds/contradiction.py,
# with validator/facts.py's intervals and condition matching), so the report and the check
# never disagree: figures of one key whose values disagree beyond their written precision
# contradict when they share at least one condition facet and none differs; a differing
# shared facet makes them "not comparable"; a figure whose setup is unknown (no conditions,
# none borrowable in its document) is not judged; figures of different phases (the 'from'
# and 'to' of a change) and figures of one sentence (a deliberate list) are not compared.

APPROX_REL = 0.1            # the rule's default `approx_rel`


def interval(fig):
    return facts.interval(fig["_c"], APPROX_REL)


def compare(a, b) -> tuple:
    """('agree'|'contradict'|'not_comparable', reason) for two figures of one key."""
    if facts.values_agree(a["_c"], b["_c"], APPROX_REL) is not False:
        return "agree", ""                     # agree, or not the same kind of quantity
    shared_eq, differ = facts.compare_conditions(a["_cn"], b["_cn"])
    if differ:
        reason = "; ".join(f"{f} differs ({_cond_text(a, f)} vs {_cond_text(b, f)})" for f in sorted(differ))
        return "not_comparable", reason
    if shared_eq >= 1:
        return "contradict", "values disagree beyond the precision written under the same conditions"
    return "agree", ""                         # no facet in common: the setups cannot be matched


def _cond_text(fig, facet) -> str:
    return fig["conditions"].get(facet) or facts.describe_facet(fig["_cn"], facet)


# -- building the model ---------------------------------------------------------------

class _Paths:
    """Display paths: relative to the corpus root holding the file, prefixed by the
    root's name when several roots are given, so the report never shows absolute paths."""

    def __init__(self, roots, ledger: Ledger):
        self.roots = [Path(r).resolve() for r in roots]
        self.ledger = ledger
        self.multi = len(self.roots) > 1
        self._cache: dict = {}

    def show(self, key: str) -> str:
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self._show(key)
        return got

    def _show(self, key: str) -> str:
        p = Path(key)
        ap = p if p.is_absolute() else (self.ledger.root / p if self.ledger.root else p.resolve())
        for r in self.roots:
            try:
                rel = ap.relative_to(r).as_posix()
            except ValueError:
                continue
            return f"{r.name}/{rel}" if self.multi else rel
        return os.path.relpath(ap).replace(os.sep, "/")


def _figure(row, paths: _Paths) -> dict:
    conds = json.loads(row[COL["conditions"]] or "{}")
    # the claim fields facts.py reads, without building a full Claim
    c = SimpleNamespace(value=row[COL["value"]], low=row[COL["low"]], high=row[COL["high"]],
                        base_value=row[COL["base_value"]], base_low=row[COL["base_low"]],
                        base_high=row[COL["base_high"]], base_unit=row[COL["base_unit"]],
                        decimals=row[COL["decimals"]], approx=bool(row[COL["approx"]]),
                        bound=row[COL["bound"]], surface=row[COL["surface"]], conditions=conds,
                        kind=row[COL["kind"]])
    return {"_c": c, "_cn": json.loads(row[COL["eff_conditions"]] or "{}"),
        "_key": (row[COL["metric"]], row[COL["subject"]], row[COL["baseline"]]),
        "_borrowed": json.loads(row[COL["borrowed"]]) if row[COL["borrowed"]] else None,
        "_file": row[COL["path"]], "_block": row[COL["block"]], "_phase": row[COL["phase"]] or "",
        "path": paths.show(row[COL["path"]]),
        "line": row[COL["line"]], "col": row[COL["col"]],
        "surface": row[COL["surface"]], "kind": row[COL["kind"]],
        "value": row[COL["value"]], "low": row[COL["low"]], "high": row[COL["high"]],
        "base_value": row[COL["base_value"]], "base_low": row[COL["base_low"]],
        "base_high": row[COL["base_high"]], "base_unit": row[COL["base_unit"]],
        "decimals": row[COL["decimals"]], "approx": bool(row[COL["approx"]]),
        "bound": row[COL["bound"]], "negative": bool(row[COL["negative"]]),
        "conditions": {f: (c.get("value") if isinstance(c, dict) else c) for f, c in sorted(conds.items())},
        "markers": sorted(json.loads(row[COL["markers"]] or "[]")),
        "role": row[COL["role"]], "date": row[COL["date"]],
    }


def group_key(row) -> str:
    """The claim key exactly as `caveat check` groups claims (facts.claim_key, stored by the ledger)."""
    return row[COL["key"]]


MAX_LISTED_PAIRS = 500    # per group; the counts stay exact, only the listing is cut


def _statement(fig) -> tuple:
    """Figures that say the same thing (same admitted interval, unit and conditions) are
    compared once: a group of 200 restatements of one figure costs one comparison."""
    return (fig["_iv"], fig["base_unit"], fig["kind"], tuple(sorted(fig["_cn"].items())), fig["_phase"])


def _one_statement(a, b) -> bool:
    """Two figures of one sentence or line of one file: a deliberate list, never compared."""
    return a["_file"] == b["_file"] and (a["line"] == b["line"] or
                                         (a["_block"] is not None and a["_block"] == b["_block"]))


def analyze_group(key, figs) -> dict | None:
    """The report group for one claim key, or None when its figures all agree.

    Contradicting pairs are listed figure by figure; not-comparable pairs once per pair of
    distinct statements (their earliest figures), since every restatement repeats the reason."""
    figs.sort(key=lambda f: (f["date"] or "9999", f["path"], f["line"], f["col"]))
    for f in figs:
        f["_iv"] = interval(f)
    stmts: dict = {}
    for i, f in enumerate(figs):
        stmts.setdefault(_statement(f), []).append(i)
    order = list(stmts.values())
    for n, f in enumerate(figs, 1):
        f["id"] = f"F{n}"
        f["superseded_by"] = None
        f["contradicts"] = []
    pairs = []
    n_contra = n_nc = 0
    for a_ in range(len(order)):
        for b_ in range(a_ + 1, len(order)):
            ia, ib = order[a_], order[b_]
            if figs[ia[0]]["_phase"] != figs[ib[0]]["_phase"]:
                continue
            status, reason = compare(figs[ia[0]], figs[ib[0]])
            if status == "agree":
                continue
            if status == "not_comparable":
                # one representative pair: every restatement repeats the same reason
                first = next(((min(i, j), max(i, j)) for i in ia for j in ib
                              if not _one_statement(figs[i], figs[j])), None)
                if first is not None:
                    n_nc += 1
                    pairs.append((*first, status, reason))
                continue
            fig_pairs = [(min(i, j), max(i, j)) for i in ia for j in ib if not _one_statement(figs[i], figs[j])]
            for i2, j2 in fig_pairs:
                n_contra += 1
                pairs.append((i2, j2, status, reason))
                a, b = figs[i2], figs[j2]
                a["contradicts"].append(b["id"])
                b["contradicts"].append(a["id"])
                # figs are date-sorted, so the later index is the newer source
                if a["date"] and b["date"] and a["date"] < b["date"]:
                    cur = a["superseded_by"]
                    if cur is None or int(cur[1:]) < j2 + 1:
                        a["superseded_by"] = b["id"]
    if not pairs:
        return None
    pairs.sort(key=lambda p: (p[2] != "contradict", p[0], p[1]))
    out_figs = []
    for f in figs:
        lo_hi = f["_iv"]
        out_figs.append({
            "id": f["id"], "path": f["path"], "line": f["line"], "col": f["col"],
            "surface": f["surface"], "kind": f["kind"],
            "value": _num(f["base_value"]), "low": _num(f["base_low"]), "high": _num(f["base_high"]),
            "unit": f["base_unit"],
            "admits": [_num(lo_hi[0]), _num(lo_hi[1])] if lo_hi else None,
            "conditions": f["conditions"],
            "borrowed": f["_borrowed"],
            "markers": f["markers"], "role": f["role"],
            "date": f["date"], "contradicts": sorted(set(f["contradicts"]), key=lambda x: int(x[1:])),
            "superseded_by": f["superseded_by"],
        })
    metric, subject, baseline = figs[0]["_key"]
    return {
        "key": {"metric": metric, "subject": subject, "baseline": baseline},
        "contradictions": n_contra,
        "not_comparable": n_nc,
        "figures": out_figs,
        "pairs": [{"a": figs[i]["id"], "b": figs[j]["id"], "status": s, "reason": r}
                  for i, j, s, r in pairs[:MAX_LISTED_PAIRS]],
        "pairs_omitted": max(0, len(pairs) - MAX_LISTED_PAIRS),
    }


def build_report(roots, ledger: Ledger | None = None) -> dict:
    """Sync the ledger for every Markdown file under ``roots`` and build the report model.
    A ledger found corrupt while reading is rebuilt (with a notice) and the report redone."""
    roots = [str(r) for r in roots]
    own = ledger is None
    if own:
        ledger = Ledger.for_roots(roots)
    try:
        try:
            return _build(roots, ledger)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise
            ledger._rebuild(exc)
            return _build(roots, ledger)
    finally:
        if own:
            ledger.close()


def _build(roots, ledger: Ledger) -> dict:
    files = corpus_files(roots)
    keys = ledger.sync(files)
    ledger.prune(files)
    paths = _Paths(roots, ledger)
    wanted = set(keys.values())
    groups: dict = {}
    unverified = []
    n_claims = 0
    for row in ledger.rows():
        if row[0] not in wanted:
            continue
        n_claims += 1
        markers = json.loads(row[COL["markers"]] or "[]")
        if any(m in UNVERIFIED_MARKERS for m in markers):
            unverified.append({"path": paths.show(row[0]), "line": row[COL["line"]],
                               "col": row[COL["col"]], "surface": row[COL["surface"]],
                               "markers": sorted(markers)})
        if not row[COL["key"]] or row[COL["role"]] not in CLAIM_ROLES:
            continue
        if row[COL["eff_conditions"]] in (None, "", "{}"):
            continue                     # setup unknown: the rule says nothing about it
        groups.setdefault(group_key(row), []).append(_figure(row, paths))
    out_groups = []
    for key in sorted(groups):
        if len(groups[key]) < 2:
            continue
        g = analyze_group(key, groups[key])
        if g is not None:
            out_groups.append(g)
    out_groups.sort(key=lambda g: (-g["contradictions"], g["key"]["metric"] or "",
                                   g["key"]["subject"] or "", g["key"]["baseline"] or ""))
    out_groups = [{"id": f"G{n}", **g} for n, g in enumerate(out_groups, 1)]
    errors = sorted({e for e in ledger.errors})
    files_out = []
    for path, _h, _size, lang, date, n, error in ledger.file_rows():
        if path in wanted:
            files_out.append({"path": paths.show(path), "lang": lang, "date": date,
                              "claims": n, "error": error})
    files_out.sort(key=lambda f: f["path"])
    unverified.sort(key=lambda u: (u["path"], u["line"], u["col"]))
    summary = {
        "files": len(files),
        "claims": n_claims,
        "groups": len(out_groups),
        "contradictions": sum(g["contradictions"] for g in out_groups),
        "not_comparable": sum(g["not_comparable"] for g in out_groups),
        "superseded": sum(1 for g in out_groups for f in g["figures"] if f["superseded_by"]),
        "unverified": len(unverified),
        "unreadable_files": len(errors),
    }
    return {
        "caveat_report": REPORT_VERSION,
        "corpus": [Path(r).name or r for r in roots],
        "summary": summary,
        "groups": out_groups,
        "unverified": unverified,
        "files": files_out,
        "errors": [_relative_error(e, paths) for e in errors],
    }


def _relative_error(message: str, paths: _Paths) -> str:
    for r in paths.roots:
        message = message.replace(str(r) + os.sep, "")
    return message


def write_report(model: dict, out_dir, formats=("md", "html", "json")) -> list:
    """Write report.md / report.html / report.json into ``out_dir``; returns the paths."""
    from validator.render import report_html, report_json, report_md
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    renderers = {"md": report_md.render, "html": report_html.render, "json": report_json.render}
    written = []
    for fmt in formats:
        p = out / f"report.{fmt}"
        p.write_text(renderers[fmt](model), encoding="utf-8", newline="\n")
        written.append(p)
    return written
