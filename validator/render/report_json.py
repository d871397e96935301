"""The corpus report as JSON (validator/schemas/report.schema.json), written to the open file
as it is read: a group's statements and each statement's figures one line each, so nothing
holds the whole document and a corpus-scale report stays diffable."""
from __future__ import annotations

import json
import math

from validator.render.report_md import newest

REPORT_VERSION = 2          # validator/schemas/report.schema.json documents this version


def num(x):
    """A float rounded to 6 significant digits (stable text in JSON/HTML)."""
    if x is None or (isinstance(x, float) and (math.isinf(x) or math.isnan(x))):
        return None
    return float(f"{x:.6g}")


_dumps = json.JSONEncoder(ensure_ascii=False).encode     # one encoder for every line


def group_head(g) -> dict:
    return {"id": g.id, "key": g.key, "conflict_figures": g.conflict_figures,
            "contradictions": g.contradictions, "not_comparable": g.not_comparable,
            "n_figures": g.n_figures, "n_statements": len(g.statements),
            "pairs": g.pairs, "pairs_omitted": g.pairs_omitted}


def statement_head(g, s, newest=frozenset()) -> dict:
    f = s.first
    return {
        "id": g.ids[s.sig], "sig": s.sig, "surface": f["surface"], "kind": f["kind"],
        "value": num(f["base_value"]), "low": num(f["base_low"]), "high": num(f["base_high"]),
        "unit": s.base_unit, "admits": [num(s.lo), num(s.hi)] if s.lo is not None else None,
        "phase": s.phase, "conditions": f["conditions"], "setup": dict(sorted(s.setup.items())),
        "borrowed": f["borrowed"], "markers": f["markers"], "role": f["role"],
        "path": f["path"], "line": f["line"], "col": f["col"],
        "n_figures": s.n_figures, "n_files": s.n_files, "first_date": f["date"], "last_date": s.last_date,
        "contradicts": g.contradicts.get(s.sig, []), "not_comparable": g.differs.get(s.sig, []),
        "superseded_by": g.superseded_by.get(s.sig), "newest": s.sig in newest,
    }


def write(report, fh, figures=None) -> None:
    """``figures``: the report's figure stream when the caller taps it (report_files.py)."""
    w = fh.write
    w("{\n")
    w(f'  "caveat_report": {REPORT_VERSION},\n')
    w(f'  "corpus": {_dumps(report.corpus)},\n')
    w(f'  "summary": {_dumps(report.summary)},\n')
    w('  "groups": [')
    figs = report.figures() if figures is None else figures
    nxt = next(figs, None)
    for gi, g in enumerate(report.groups):
        head = group_head(g)
        new = newest(g)
        w(("," if gi else "") + "\n    " + _dumps(head)[:-1] + ', "statements": [')
        for si, s in enumerate(g.statements):
            sh = statement_head(g, s, new)
            w(("," if si else "") + "\n      " + _dumps(sh)[:-1] + ', "figures": [')
            n = 0
            while nxt is not None and nxt[0] is g and nxt[1] is s:
                w(("," if n else "") + "\n        " + _dumps(nxt[2]))
                n += 1
                nxt = next(figs, None)
            w("\n      ]}" if n else "]}")
        w("\n    ]}" if g.statements else "]}")
    w("\n  ],\n" if report.groups else "],\n")
    for name, rows in (("unverified", report.unverified()), ("files", report.files())):
        w(f'  "{name}": [')
        n = 0
        for row in rows:
            w(("," if n else "") + "\n    " + _dumps(row))
            n += 1
        w("\n  ],\n" if n else "],\n")
    w(f'  "errors": {_dumps(report.errors)}\n')
    w("}\n")
