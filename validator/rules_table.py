"""The rule table: every rule of the loaded packs plus the built-in meta rules.

``caveat rules`` prints it; the README's block between ``<!-- rules-table:start -->``
and ``<!-- rules-table:end -->`` is ``caveat rules --format markdown`` verbatim, and
tests/cli/test_readme_rules_table.py fails when the two drift apart.

Meta rules (``CV0xx``) are about caveat's own bookkeeping rather than the
briefing's figures, so they live here in code, not in a pack:
CV001 an inline suppression that matches nothing, CV002 a stale baseline entry.
They use the ``reference`` family (a pointer that points at nothing) and are
never acknowledgeable.
"""
from __future__ import annotations

import json

META_RULES = (
    {"code": "CV001", "name": "meta.unused_suppression", "family": "reference",
     "severity": "warning", "acknowledgeable": False, "pack": "meta",
     "summary": "An inline `caveat: ignore` comment that suppresses nothing.",
     "why": "Stale suppressions hide the next real problem on that line; remove them once the "
            "finding they silenced is fixed.",
     "fix": "Delete the comment, or correct the code it names."},
    {"code": "CV002", "name": "meta.stale_baseline", "family": "reference",
     "severity": "info", "acknowledgeable": False, "pack": "meta",
     "summary": "A baseline entry whose finding no longer occurs in the checked file.",
     "why": "A baseline should shrink as problems are fixed; stale entries would silently "
            "accept the same problem if it came back.",
     "fix": "Rewrite the baseline with `caveat check --write-baseline FILE`."},
)

COLUMNS = ("code", "family", "severity", "acknowledgeable", "summary")


def load(rules_dirs=()) -> list:
    """Rows (dicts) for every rule, sorted by code. Raises UsageError for a bad pack."""
    from validator import packs
    rows = [dict(m) for m in META_RULES]
    for r in packs.load_all(rules_dirs):
        rows.append({"code": r.code, "name": r.name, "family": r.family, "severity": r.severity,
                     "acknowledgeable": bool(r.acknowledgeable), "pack": r.pack,
                     "summary": ("(preview) " if r.preview else "") + r.summary, "why": r.why,
                     "preview": bool(r.preview),
                     "fix": (r.fix or {}).get("en", "") if isinstance(r.fix, dict) else str(r.fix)})
    rows.sort(key=lambda r: r["code"])
    return rows


def _one_line(s: str) -> str:
    return " ".join(str(s).split())


def render_table(rows) -> str:
    head = {"code": "CODE", "family": "FAMILY", "severity": "SEVERITY",
            "acknowledgeable": "ACK", "summary": "SUMMARY"}
    cells = [[head[c] for c in COLUMNS]]
    for r in rows:
        cells.append([r["code"], r["family"], r["severity"],
                      "yes" if r["acknowledgeable"] else "no", _one_line(r["summary"])])
    widths = [max(len(row[i]) for row in cells) for i in range(len(COLUMNS) - 1)]
    lines = ["  ".join(row[i].ljust(widths[i]) for i in range(len(widths))) + "  " + row[-1]
             for row in cells]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def render_markdown(rows) -> str:
    out = ["| Code | Family | Severity | Acknowledgeable | Summary |",
           "|---|---|---|---|---|"]
    for r in rows:
        summary = _one_line(r["summary"]).replace("|", "\\|")
        out.append(f"| `{r['code']}` | {r['family']} | {r['severity']} | "
                   f"{'yes' if r['acknowledgeable'] else 'no'} | {summary} |")
    return "\n".join(out) + "\n"


def render_json(rows) -> str:
    return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"


def by_code(rows) -> dict:
    return {r["code"]: r for r in rows}
