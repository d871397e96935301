"""The corpus report as one self-contained HTML file: inline CSS and one inline SVG chart
per group (values by source and date). No script, no external resource, no network."""
from __future__ import annotations

from html import escape

from validator.render.report_md import (MAX_ROWS, SUMMARY_ROWS, fmt_conditions, fmt_value, key_title,
                                        shown_figures, status_of)

# Chart palette: used only inside charts, so a screenshot test can find the charts by colour.
C_CONTRA, C_OK, C_OLD, C_BG = "#d62728", "#1f77b4", "#8c8c8c", "#eef3fa"
W, H, ML, MR, MT, MB = 640, 230, 78, 24, 18, 46

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;margin:2rem auto;max-width:70rem;color:#1b1b1b;padding:0 1rem}
table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.n{text-align:right}code{background:#f5f5f5;padding:0 .2rem}
section.group{border-top:2px solid #ddd;margin-top:2rem;padding-top:.5rem}
.contra{color:#a30000;font-weight:600}.nc{color:#555}.muted{color:#666}
svg.chart{display:block;margin:.5rem 0;max-width:100%;height:auto}
"""


def _e(s) -> str:
    return escape(str(s), quote=True)


def _lo_hi(f):
    if f["value"] is not None:
        return f["value"], f["value"]
    lo = f["low"] if f["low"] is not None else f["high"]
    hi = f["high"] if f["high"] is not None else f["low"]
    return lo, hi


def _tick(v: float) -> str:
    """An axis label a person reads at a glance: 11,320 rather than 1.132e+04."""
    a = abs(v)
    if a >= 1e7 or (a and a < 1e-3):
        return f"{v:.3g}"
    if a >= 100:
        return f"{v:,.0f}"
    return f"{v:.3g}"


def chart(g: dict) -> str:
    """Values of the group's figures (y) by date of their source (x); red = contradicting,
    grey ring = superseded; dashed lines join contradicting pairs."""
    figs = [f for f in g["figures"] if _lo_hi(f)[0] is not None]
    if not figs:
        return ""
    dates = sorted({f["date"] for f in figs if f["date"]}) + (["undated"] if any(not f["date"] for f in figs) else [])
    vals = [v for f in figs for v in _lo_hi(f)]
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.15 or abs(hi) * 0.1 or 1.0
    lo, hi = lo - pad, hi + pad
    pw, ph = W - ML - MR, H - MT - MB

    def y(v):
        return MT + ph - (v - lo) / (hi - lo) * ph

    slot = pw / len(dates)
    per_date: dict = {}
    for f in figs:
        per_date.setdefault(f["date"] or "undated", []).append(f)
    pos = {}
    for di, d in enumerate(dates):
        group = per_date[d]
        for k, f in enumerate(group):
            pos[f["id"]] = ML + slot * di + slot * (k + 1) / (len(group) + 1)
    unit = figs[0]["unit"] if figs[0]["unit"] != "dimensionless" else ""
    parts = [f'<svg class="chart" data-group="{_e(g["id"])}" xmlns="http://www.w3.org/2000/svg" '
             f'width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="{_e(key_title(g["key"]))}: values by source date">',
             f'<rect x="{ML}" y="{MT}" width="{pw}" height="{ph}" fill="{C_BG}" stroke="#b8c4d6"/>']
    for t in range(3):
        v = lo + (hi - lo) * (t + 0.5) / 3
        parts.append(f'<line x1="{ML}" x2="{ML + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#d5dde9"/>'
                     f'<text x="{ML - 6}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end">{_tick(v)}</text>')
    if unit:
        parts.append(f'<text x="12" y="{MT + ph / 2:.1f}" font-size="11" transform="rotate(-90 12 {MT + ph / 2:.1f})" '
                     f'text-anchor="middle">{_e(unit)}</text>')
    for di, d in enumerate(dates):
        parts.append(f'<text x="{ML + slot * (di + 0.5):.1f}" y="{H - MB + 18}" font-size="11" '
                     f'text-anchor="middle">{_e(d)}</text>')
    byid = {f["id"]: f for f in figs}
    for p in g["pairs"]:
        if p["status"] == "contradict" and p["a"] in byid and p["b"] in byid:
            a, b = byid[p["a"]], byid[p["b"]]
            parts.append(f'<line x1="{pos[a["id"]]:.1f}" y1="{y(sum(_lo_hi(a)) / 2):.1f}" '
                         f'x2="{pos[b["id"]]:.1f}" y2="{y(sum(_lo_hi(b)) / 2):.1f}" stroke="{C_CONTRA}" '
                         f'stroke-width="1.2" stroke-dasharray="4 3" opacity="0.7"/>')
    for f in figs:
        x = pos[f["id"]]
        a, b = _lo_hi(f)
        color = C_CONTRA if f["contradicts"] else C_OK
        title = f'<title>{_e(f["id"])} {_e(f["surface"])} — {_e(f["path"])}:{f["line"]}</title>'
        if a != b:
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y(a):.1f}" y2="{y(b):.1f}" stroke="{color}" stroke-width="5" stroke-linecap="round"/>')
        ym = y((a + b) / 2)
        if f["superseded_by"]:
            parts.append(f'<circle cx="{x:.1f}" cy="{ym:.1f}" r="6" fill="#ffffff" stroke="{C_OLD}" stroke-width="3">{title}</circle>')
        else:
            parts.append(f'<circle cx="{x:.1f}" cy="{ym:.1f}" r="6" fill="{color}">{title}</circle>')
        parts.append(f'<text x="{x + 9:.1f}" y="{ym + 4:.1f}" font-size="11">{_e(f["id"])}</text>')
    parts.append(f'<text x="{ML + pw / 2:.1f}" y="{H - 8}" font-size="11" text-anchor="middle" fill="#555">'
                 f'source date (red: contradicting · ring: superseded)</text></svg>')
    return "".join(parts)


def render(model: dict) -> str:
    s = model["summary"]
    title = f"Contradiction report: {', '.join(model['corpus'])}"
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
           f"<h1>{_e(title)}</h1>", '<table class="summary"><tbody>']
    out += [f'<tr><th>{_e(label)}</th><td class="n">{s[k]}</td></tr>' for k, label in SUMMARY_ROWS]
    out.append("</tbody></table>")
    if model["groups"]:
        out.append("<table><thead><tr><th>Group</th><th>Key</th><th>Figures</th><th>Contradicting</th>"
                   "<th>Not comparable</th></tr></thead><tbody>")
        for g in model["groups"]:
            out.append(f'<tr><td><a href="#{_e(g["id"])}">{_e(g["id"])}</a></td><td>{_e(key_title(g["key"]))}</td>'
                       f'<td class="n">{len(g["figures"])}</td><td class="n">{g["contradictions"]}</td>'
                       f'<td class="n">{g["not_comparable"]}</td></tr>')
        out.append("</tbody></table>")
    for g in model["groups"]:
        out.append(f'<section class="group" id="{_e(g["id"])}"><h2>{_e(g["id"])} · {_e(key_title(g["key"]))}</h2>')
        out.append(chart(g))
        out.append("<table><thead><tr><th>Figure</th><th>As written</th><th>Normalized</th><th>Conditions</th>"
                   "<th>Source</th><th>Date</th><th>Status</th></tr></thead><tbody>")
        figs, hidden = shown_figures(g)
        for f in figs:
            cls = ' class="contra"' if f["contradicts"] else ""
            out.append(f'<tr><td{cls}>{_e(f["id"])}</td><td><code>{_e(f["surface"])}</code></td>'
                       f'<td>{_e(fmt_value(f))}</td><td>{_e(fmt_conditions(f["conditions"], f.get("borrowed")))}</td>'
                       f'<td>{_e(f["path"])}:{f["line"]}</td><td>{_e(f["date"] or "—")}</td>'
                       f'<td>{_e(status_of(f))}</td></tr>')
        if hidden:
            out.append(f'<tr><td>…</td><td colspan="6" class="muted">{hidden} more figures in report.json</td></tr>')
        out.append("</tbody></table><ul>")
        for p in g["pairs"][:MAX_ROWS]:
            if p["status"] == "contradict":
                out.append(f'<li>{_e(p["a"])} ↔ {_e(p["b"])}: <span class="contra">contradict</span> — {_e(p["reason"])}</li>')
            else:
                out.append(f'<li>{_e(p["a"])} ↔ {_e(p["b"])}: <span class="nc">not comparable</span> — {_e(p["reason"])}</li>')
        more = len(g["pairs"]) - MAX_ROWS + g.get("pairs_omitted", 0)
        if more > 0:
            out.append(f'<li class="muted">… {more} more pairs in report.json</li>')
        out.append("</ul></section>")
    if model["unverified"]:
        out.append('<section><h2>Unverified figures</h2><ul>')
        out += [f'<li>{_e(u["path"])}:{u["line"]}: <code>{_e(u["surface"])}</code> '
                f'<span class="muted">({_e(", ".join(u["markers"]))})</span></li>' for u in model["unverified"]]
        out.append("</ul></section>")
    if model["errors"]:
        out.append("<section><h2>Files that could not be read</h2><ul>")
        out += [f"<li>{_e(e)}</li>" for e in model["errors"]]
        out.append("</ul></section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
