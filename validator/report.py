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
from pathlib import Path

from validator.ledger import CLAIM_COLUMNS, Ledger, corpus_files

REPORT_VERSION = 1
# Figures in these blocks restate or list other figures; they are not the corpus's claims.
NON_CLAIM_ROLES = ("warnings", "sources_table", "references")
UNVERIFIED_MARKERS = ("unverified", "abstract_only")
# Relative widening of an approximate figure ('~', '约', 'about'), on top of its written precision.
APPROX_REL = 0.05
COL = {name: i for i, name in enumerate(CLAIM_COLUMNS)}


def _num(x):
    """A float rounded to 6 significant digits (stable text in JSON/HTML)."""
    if x is None or (isinstance(x, float) and (math.isinf(x) or math.isnan(x))):
        return None
    return float(f"{x:.6g}")


# -- comparison of two figures of one claim key ---------------------------------------
# This is the same test validator/facts.py applies to the contradiction rule: kept as
# small functions here so the report explains each pair with the same reasoning.

def interval(fig) -> tuple:
    """[lo, hi] in base units that the figure admits, given how it was written:
    a range is its interval, `29%` admits 28.5–29.5%, an approximation is widened,
    a bound is open on one side."""
    v, lo, hi = fig["base_value"], fig["base_low"], fig["base_high"]
    written = fig["value"] if fig["value"] is not None else (fig["low"] if fig["low"] is not None else fig["high"])
    base_written = v if v is not None else (lo if lo is not None else hi)
    if v is not None:
        lo = hi = v
    if lo is None and hi is None:
        return None
    lo = hi if lo is None else lo
    hi = lo if hi is None else hi
    if fig["negative"] and lo > 0:
        lo, hi = -hi, -lo
    scale = abs(base_written / written) if written not in (None, 0) and base_written is not None else 1.0
    half = 0.5 * 10 ** -(fig["decimals"] or 0) * scale
    lo, hi = lo - half, hi + half
    if fig["approx"]:
        w = APPROX_REL * max(abs(lo), abs(hi))
        lo, hi = lo - w, hi + w
    b = fig["bound"]
    if b in ("gt", "ge"):
        hi = math.inf
    elif b in ("lt", "le"):
        lo = -math.inf
    return lo, hi


def _norm(s) -> str:
    return " ".join(str(s).lower().replace("×", "x").split())


def condition_conflicts(a: dict, b: dict) -> list:
    """Facets stated by both figures with different values (facets only one states do not conflict)."""
    out = []
    for facet in sorted(set(a) & set(b)):
        if _norm(a[facet]) != _norm(b[facet]):
            out.append((facet, a[facet], b[facet]))
    return out


def compare(a, b) -> tuple:
    """('agree'|'contradict'|'not_comparable', reason) for two figures of one key."""
    if a["base_unit"] != b["base_unit"]:
        return "not_comparable", f"unit differs ({a['base_unit']} vs {b['base_unit']})"
    ia, ib = interval(a), interval(b)
    if ia is None or ib is None:
        return "agree", ""
    if ia[0] <= ib[1] and ib[0] <= ia[1]:
        return "agree", ""
    conflicts = condition_conflicts(a["conditions"], b["conditions"])
    if conflicts:
        reason = "; ".join(f"{f} differs ({x} vs {y})" for f, x, y in conflicts)
        return "not_comparable", reason
    return "contradict", "values disagree beyond the precision written under the same conditions"


# -- building the model ---------------------------------------------------------------

class _Paths:
    """Display paths: relative to the corpus root holding the file, prefixed by the
    root's name when several roots are given, so the report never shows absolute paths."""

    def __init__(self, roots, ledger: Ledger):
        self.roots = [Path(r).resolve() for r in roots]
        self.ledger = ledger
        self.multi = len(self.roots) > 1

    def show(self, key: str) -> str:
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
    return {
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


def group_key(fig_row) -> tuple:
    return (fig_row[COL["metric"]], fig_row[COL["subject"]], fig_row[COL["baseline"]])


def analyze_group(key, figs) -> dict | None:
    """The report group for one claim key, or None when its figures all agree."""
    figs.sort(key=lambda f: (f["date"] or "9999", f["path"], f["line"], f["col"]))
    pairs = []
    for i in range(len(figs)):
        for j in range(i + 1, len(figs)):
            status, reason = compare(figs[i], figs[j])
            if status != "agree":
                pairs.append((i, j, status, reason))
    if not pairs:
        return None
    for n, f in enumerate(figs, 1):
        f["id"] = f"F{n}"
        f["superseded_by"] = None
        f["contradicts"] = []
    for i, j, status, _ in pairs:
        if status != "contradict":
            continue
        a, b = figs[i], figs[j]
        a["contradicts"].append(b["id"])
        b["contradicts"].append(a["id"])
        if a["date"] and b["date"] and a["date"] != b["date"]:
            old, new = (a, b) if a["date"] < b["date"] else (b, a)
            # the newest contradicting source supersedes; figs are date-sorted so later wins
            if old["superseded_by"] is None or figs[int(old["superseded_by"][1:]) - 1]["date"] <= new["date"]:
                old["superseded_by"] = new["id"]
    out_figs = []
    for f in figs:
        lo_hi = interval(f)
        out_figs.append({
            "id": f["id"], "path": f["path"], "line": f["line"], "col": f["col"],
            "surface": f["surface"], "kind": f["kind"],
            "value": _num(f["base_value"]), "low": _num(f["base_low"]), "high": _num(f["base_high"]),
            "unit": f["base_unit"],
            "admits": [_num(lo_hi[0]), _num(lo_hi[1])] if lo_hi else None,
            "conditions": f["conditions"], "markers": f["markers"], "role": f["role"],
            "date": f["date"], "contradicts": f["contradicts"], "superseded_by": f["superseded_by"],
        })
    metric, subject, baseline = key
    return {
        "key": {"metric": metric, "subject": subject, "baseline": baseline},
        "figures": out_figs,
        "pairs": [{"a": figs[i]["id"], "b": figs[j]["id"], "status": s, "reason": r}
                  for i, j, s, r in pairs],
        "contradictions": sum(1 for p in pairs if p[2] == "contradict"),
        "not_comparable": sum(1 for p in pairs if p[2] == "not_comparable"),
    }


def build_report(roots, ledger: Ledger | None = None) -> dict:
    """Sync the ledger for every Markdown file under ``roots`` and build the report model."""
    roots = [str(r) for r in roots]
    own = ledger is None
    if own:
        ledger = Ledger.for_roots(roots)
    try:
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
            if not row[COL["metric"]] or not row[COL["subject"]] or row[COL["role"]] in NON_CLAIM_ROLES:
                continue
            groups.setdefault(group_key(row), []).append(_figure(row, paths))
        out_groups = []
        for key in sorted(groups, key=lambda k: tuple(x or "" for x in k)):
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
    finally:
        if own:
            ledger.close()


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
