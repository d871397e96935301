"""The corpus report as Markdown: summary table, then one section per claim key with disagreeing figures."""
from __future__ import annotations


def _cell(s) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def fmt_value(f: dict) -> str:
    """Normalized value of a figure as text: '0.29', '0.02–0.05', with its base unit."""
    if f["value"] is not None:
        v = f"{f['value']:g}"
    else:
        v = f"{(f['low'] if f['low'] is not None else '')}–{(f['high'] if f['high'] is not None else '')}"
    unit = f["unit"] if f["unit"] and f["unit"] != "dimensionless" else ""
    return f"{v} {unit}".strip()


def fmt_conditions(conds: dict, borrowed: dict | None = None) -> str:
    """As stated; a figure stated bare is compared under the setup its own document gives
    the same figure elsewhere ('as at line 12: …')."""
    if conds:
        return ", ".join(f"{k}: {v}" for k, v in conds.items())
    if borrowed:
        return f"as at line {borrowed['line']}: " + ", ".join(f"{k}: {v}" for k, v in borrowed["conditions"].items())
    return "—"


def key_title(key: dict) -> str:
    t = f"{key['metric']} — {key['subject']}"
    return t + (f" vs {key['baseline']}" if key["baseline"] else "")


def status_of(f: dict) -> str:
    parts = []
    if f["contradicts"]:
        parts.append("contradicts " + ", ".join(f["contradicts"]))
    if f["superseded_by"]:
        parts.append(f"superseded by {f['superseded_by']}")
    if f["markers"]:
        parts.append(", ".join(f["markers"]))
    return "; ".join(parts) or "—"


# A corpus-scale group can hold hundreds of restatements; the Markdown and HTML list the
# figures involved in a contradiction first and at most this many rows (report.json has all).
MAX_ROWS = 60


def shown_figures(g: dict) -> tuple:
    """(figures to list, how many are left out): contradicting ones first, then by id."""
    figs = g["figures"]
    if len(figs) <= MAX_ROWS:
        return figs, 0
    order = sorted(figs, key=lambda f: (not f["contradicts"], int(f["id"][1:])))[:MAX_ROWS]
    keep = {f["id"] for f in order}
    return [f for f in figs if f["id"] in keep], len(figs) - MAX_ROWS


SUMMARY_ROWS = (
    ("files", "Files"), ("claims", "Claims"), ("groups", "Groups with disagreeing figures"),
    ("contradictions", "Contradicting pairs"), ("not_comparable", "Not comparable pairs"),
    ("superseded", "Superseded figures"), ("unverified", "Unverified figures"),
    ("unreadable_files", "Unreadable files"),
)


def render(model: dict) -> str:
    s = model["summary"]
    out = [f"# Contradiction report: {', '.join(model['corpus'])}", "",
           "| | |", "|---|---:|"]
    out += [f"| {label} | {s[k]} |" for k, label in SUMMARY_ROWS]
    out.append("")
    if model["groups"]:
        out += ["| Group | Key | Figures | Contradicting | Not comparable |", "|---|---|---:|---:|---:|"]
        for g in model["groups"]:
            out.append(f"| [{g['id']}](#{g['id'].lower()}) | {_cell(key_title(g['key']))} | "
                       f"{len(g['figures'])} | {g['contradictions']} | {g['not_comparable']} |")
        out.append("")
    for g in model["groups"]:
        out += [f"## {g['id']}", "", f"**{_cell(key_title(g['key']))}**", "",
                "| Figure | As written | Normalized | Conditions | Source | Date | Status |",
                "|---|---|---|---|---|---|---|"]
        figs, hidden = shown_figures(g)
        for f in figs:
            out.append(f"| {f['id']} | `{_cell(f['surface'])}` | {_cell(fmt_value(f))} | "
                       f"{_cell(fmt_conditions(f['conditions'], f.get('borrowed')))} | {_cell(f['path'])}:{f['line']} | "
                       f"{f['date'] or '—'} | {_cell(status_of(f))} |")
        if hidden:
            out.append(f"| … | {hidden} more figures in report.json | | | | | |")
        out.append("")
        for p in g["pairs"][:MAX_ROWS]:
            word = "contradict" if p["status"] == "contradict" else "not comparable"
            out.append(f"- {p['a']} ↔ {p['b']}: **{word}** — {p['reason']}")
        more = len(g["pairs"]) - MAX_ROWS + g.get("pairs_omitted", 0)
        if more > 0:
            out.append(f"- … {more} more pairs in report.json")
        out.append("")
    if model["unverified"]:
        out += ["## Unverified figures", ""]
        for u in model["unverified"]:
            out.append(f"- {u['path']}:{u['line']}: `{_cell(u['surface'])}` ({', '.join(u['markers'])})")
        out.append("")
    if model["errors"]:
        out += ["## Files that could not be read", ""] + [f"- {e}" for e in model["errors"]] + [""]
    return "\n".join(out).rstrip("\n") + "\n"
