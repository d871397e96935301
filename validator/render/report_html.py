"""The corpus report as one self-contained HTML file: inline CSS and one inline SVG chart
per group (statements by value and date of first source). No script, no external resource,
no network. Written group by group to the open file; at corpus scale only the first ``top``
groups are shown in full (the groups table lists every one), so the page stays usable."""
from __future__ import annotations

from html import escape

from validator.render.report_md import (MAX_ROWS, MAX_UNVERIFIED, SUMMARY_ROWS, TOP_GROUPS, dates,
                                        fmt_conditions, fmt_value, key_title, shown_statements,
                                        status_of, where)

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


def _lo_hi(s):
    f = s.first
    if f["base_value"] is not None:
        return f["base_value"], f["base_value"]
    lo = f["base_low"] if f["base_low"] is not None else f["base_high"]
    hi = f["base_high"] if f["base_high"] is not None else f["base_low"]
    return lo, hi


def _tick(v: float) -> str:
    """An axis label a person reads at a glance: 11,320 rather than 1.132e+04."""
    a = abs(v)
    if a >= 1e7 or (a and a < 1e-3):
        return f"{v:.3g}"
    if a >= 100:
        return f"{v:,.0f}"
    return f"{v:.3g}"


def chart(g, shown) -> str:
    """Values of the group's statements (y) by date of their first source (x); red =
    contradicting, grey ring = superseded; dashed lines join contradicting statements."""
    sts = [s for s in shown if _lo_hi(s)[0] is not None]
    if not sts:
        return ""
    dates_ = sorted({s.first["date"] for s in sts if s.first["date"]}) + \
        (["undated"] if any(not s.first["date"] for s in sts) else [])
    vals = [v for s in sts for v in _lo_hi(s)]
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.15 or abs(hi) * 0.1 or 1.0
    lo, hi = lo - pad, hi + pad
    pw, ph = W - ML - MR, H - MT - MB

    def y(v):
        return MT + ph - (v - lo) / (hi - lo) * ph

    slot = pw / len(dates_)
    per_date: dict = {}
    for s in sts:
        per_date.setdefault(s.first["date"] or "undated", []).append(s)
    pos = {}
    for di, d in enumerate(dates_):
        group = per_date[d]
        for k, s in enumerate(group):
            pos[g.ids[s.sig]] = ML + slot * di + slot * (k + 1) / (len(group) + 1)
    unit = sts[0].base_unit if sts[0].base_unit and sts[0].base_unit != "dimensionless" else ""
    parts = [f'<svg class="chart" data-group="{_e(g.id)}" xmlns="http://www.w3.org/2000/svg" '
             f'width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="{_e(key_title(g.key))}: values by source date">',
             f'<rect x="{ML}" y="{MT}" width="{pw}" height="{ph}" fill="{C_BG}" stroke="#b8c4d6"/>']
    for t in range(3):
        v = lo + (hi - lo) * (t + 0.5) / 3
        parts.append(f'<line x1="{ML}" x2="{ML + pw}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#d5dde9"/>'
                     f'<text x="{ML - 6}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end">{_tick(v)}</text>')
    if unit:
        parts.append(f'<text x="12" y="{MT + ph / 2:.1f}" font-size="11" transform="rotate(-90 12 {MT + ph / 2:.1f})" '
                     f'text-anchor="middle">{_e(unit)}</text>')
    # at most one date label per 70 px (a date is ~60 px wide), so a long span stays legible
    every = max(1, int(len(dates_) * 70 / pw + 0.999))
    for di, d in enumerate(dates_):
        if di % every == 0:
            parts.append(f'<text x="{ML + slot * (di + 0.5):.1f}" y="{H - MB + 18}" font-size="11" '
                         f'text-anchor="middle">{_e(d)}</text>')
    byid = {g.ids[s.sig]: s for s in sts}
    for p in g.pairs:
        if p["status"] == "contradict" and p["a"] in byid and p["b"] in byid:
            a, b = byid[p["a"]], byid[p["b"]]
            parts.append(f'<line x1="{pos[p["a"]]:.1f}" y1="{y(sum(_lo_hi(a)) / 2):.1f}" '
                         f'x2="{pos[p["b"]]:.1f}" y2="{y(sum(_lo_hi(b)) / 2):.1f}" stroke="{C_CONTRA}" '
                         f'stroke-width="1.2" stroke-dasharray="4 3" opacity="0.7"/>')
    for s in sts:
        sid = g.ids[s.sig]
        x = pos[sid]
        a, b = _lo_hi(s)
        color = C_CONTRA if g.contradicts.get(s.sig) else C_OK
        n = f" ×{s.n_figures}" if s.n_figures > 1 else ""
        title = f'<title>{_e(sid)} {_e(s.first["surface"])}{n} — {_e(where(s))}</title>'
        if a != b:
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y(a):.1f}" y2="{y(b):.1f}" stroke="{color}" stroke-width="5" stroke-linecap="round"/>')
        ym = y((a + b) / 2)
        if g.superseded_by.get(s.sig):
            parts.append(f'<circle cx="{x:.1f}" cy="{ym:.1f}" r="6" fill="#ffffff" stroke="{C_OLD}" stroke-width="3">{title}</circle>')
        else:
            parts.append(f'<circle cx="{x:.1f}" cy="{ym:.1f}" r="6" fill="{color}">{title}</circle>')
        parts.append(f'<text x="{x + 9:.1f}" y="{ym + 4:.1f}" font-size="11">{_e(sid)}</text>')
    parts.append(f'<text x="{ML + pw / 2:.1f}" y="{H - 8}" font-size="11" text-anchor="middle" fill="#555">'
                 f'source date (red: contradicting · ring: superseded)</text></svg>')
    return "".join(parts)


def write(report, fh, top=None) -> None:
    top = TOP_GROUPS if top is None else top
    w = fh.write
    s = report.summary
    title = f"Contradiction report: {', '.join(report.corpus)}"
    w("<!DOCTYPE html>\n" '<html lang="en"><head><meta charset="utf-8">\n'
      '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
      f"<title>{_e(title)}</title><style>{CSS}</style></head><body>\n"
      f"<h1>{_e(title)}</h1>\n" '<table class="summary"><tbody>\n')
    for k, label in SUMMARY_ROWS:
        w(f'<tr><th>{_e(label)}</th><td class="n">{s[k]}</td></tr>\n')
    w("</tbody></table>\n")
    groups = report.groups
    if groups:
        w("<table><thead><tr><th>Group</th><th>Key</th><th>Statements</th><th>Figures</th>"
          "<th>Contradicting</th><th>Not comparable</th></tr></thead><tbody>\n")
        for i, g in enumerate(groups):
            name = f'<a href="#{_e(g.id)}">{_e(g.id)}</a>' if i < top else _e(g.id)
            w(f'<tr><td>{name}</td><td>{_e(key_title(g.key))}</td><td class="n">{len(g.statements)}</td>'
              f'<td class="n">{g.n_figures}</td><td class="n">{g.contradictions}</td>'
              f'<td class="n">{g.not_comparable}</td></tr>\n')
        w("</tbody></table>\n")
        if len(groups) > top:
            w(f'<p class="muted">The first {top} groups are shown below; report.json has all {len(groups)}.</p>\n')
    for g in groups[:top]:
        shown, hidden = shown_statements(g)
        w(f'<section class="group" id="{_e(g.id)}"><h2>{_e(g.id)} · {_e(key_title(g.key))}</h2>\n')
        w(chart(g, shown) + "\n")
        w("<table><thead><tr><th>Statement</th><th>As written</th><th>Normalized</th><th>Conditions</th>"
          "<th>Source</th><th>Figures</th><th>Date</th><th>Status</th></tr></thead><tbody>\n")
        for st in shown:
            f = st.first
            cls = ' class="contra"' if g.contradicts.get(st.sig) else ""
            w(f'<tr><td{cls}>{_e(g.ids[st.sig])}</td><td><code>{_e(f["surface"])}</code></td>'
              f'<td>{_e(fmt_value(f, st.base_unit))}</td><td>{_e(fmt_conditions(f["conditions"], f["borrowed"]))}</td>'
              f'<td>{_e(where(st))}</td><td class="n">{st.n_figures}</td><td>{_e(dates(st))}</td>'
              f'<td>{_e(status_of(g, st))}</td></tr>\n')
        if hidden:
            w(f'<tr><td>…</td><td colspan="7" class="muted">{hidden} more statements in report.json</td></tr>\n')
        w("</tbody></table><ul>\n")
        for p in g.pairs[:MAX_ROWS]:
            n = f" ({p['figure_pairs']} figure pairs)" if p["status"] == "contradict" and p["figure_pairs"] > 1 else ""
            if p["status"] == "contradict":
                w(f'<li>{_e(p["a"])} ↔ {_e(p["b"])}: <span class="contra">contradict</span>{_e(n)} — {_e(p["reason"])}</li>\n')
            else:
                w(f'<li>{_e(p["a"])} ↔ {_e(p["b"])}: <span class="nc">not comparable</span> — {_e(p["reason"])}</li>\n')
        more = len(g.pairs) - MAX_ROWS + g.pairs_omitted
        if more > 0:
            w(f'<li class="muted">… {more} more statement pairs in report.json</li>\n')
        w("</ul></section>\n")
    if s["unverified"]:
        w('<section><h2>Unverified figures</h2><ul>\n')
        for i, u in enumerate(report.unverified()):
            if i == MAX_UNVERIFIED:
                w(f'<li class="muted">… {s["unverified"] - MAX_UNVERIFIED} more in report.json</li>\n')
                break
            w(f'<li>{_e(u["path"])}:{u["line"]}: <code>{_e(u["surface"])}</code> '
              f'<span class="muted">({_e(", ".join(u["markers"]))})</span></li>\n')
        w("</ul></section>\n")
    if report.errors:
        w("<section><h2>Files that could not be read</h2><ul>\n")
        for e in report.errors:
            w(f"<li>{_e(e)}</li>\n")
        w("</ul></section>\n")
    w("</body></html>\n")
