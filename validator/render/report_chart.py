"""The chart of one contradicting group: an inline SVG a reviewer reads at a glance.

What it shows (and why):
- ONE value axis (horizontal), labelled with the metric and its unit, ticks in 1-2-5 steps:
  every statement is a bar over the interval its written precision admits (``3.1×`` admits
  3.05–3.15: facts.interval, the statement's ``lo``/``hi``), with a tick at the value as
  written — two bars that do not overlap are what "contradict" means;
- one row per distinct statement, rows banded by setup (the conditions it is compared
  under), so statements that can be compared sit together;
- contradicting statements in red, the others blue, a superseded one hollow grey, the
  newest outlined in black; one dashed arc beside the plot joins each contradicting
  *statement pair* (never one per figure pair: a statement restated a hundred times is
  still one bar and one join);
- a time strip beside the rows only when the statements' dates differ (first to last
  source date of each statement); statements of one date are never spread sideways as
  if they were a trend.
No script, no font or resource from outside: plain SVG elements, sized by a viewBox.
"""
from __future__ import annotations

import math
from datetime import date
from html import escape
from typing import Optional

from validator.render.report_md import date_span, fmt_conditions, newest

# Chart palette: used only inside charts, so a screenshot test can find the charts by colour.
C_CONTRA, C_OK, C_OLD, C_BG = "#d62728", "#1f77b4", "#8c8c8c", "#eef3fa"
W, LABEL_W, JOIN_W, NOTE_W, PAD_R, MT, MB = 880, 130, 46, 170, 10, 4, 40
ROW, BAND = 24, 18
TIME_W = 190
MAX_CHART = 30              # statements charted (contradicting first); the table lists more


def _e(s) -> str:
    return escape(str(s), quote=True)


def nice_ticks(lo: float, hi: float, target: int = 5) -> list:
    """Ticks covering [lo, hi] in steps of 1, 2 or 5 times a power of ten."""
    if not hi > lo:
        span = abs(lo) * 0.1 or 1.0
        lo, hi = lo - span, hi + span
    raw = (hi - lo) / target
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw * (1 - 1e-9))
    digits = max(0, -math.floor(math.log10(step) + 1e-9))
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    return [round(k * step, digits) for k in range(first, last + 1)]


def tick_label(v: float, ticks: list) -> str:
    """11,000 rather than 1.1e+04; 1.5 M beyond a million; the decimals the step needs."""
    step = abs(ticks[1] - ticks[0]) if len(ticks) > 1 else abs(v) or 1.0
    top = max(abs(t) for t in ticks)
    for div, suffix in ((1e12, " T"), (1e9, " G"), (1e6, " M")):
        if top >= div:
            d = max(0, -math.floor(math.log10(step / div) + 1e-9))
            return f"{v / div:,.{d}f}{suffix}"
    if step < 1e-3:
        return f"{v:.3g}"
    d = max(0, -math.floor(math.log10(step) + 1e-9))
    return f"{v:,.{d}f}"


def unit_label(s) -> str:
    unit = s.base_unit or ""
    if unit in ("", "dimensionless"):
        return "×" if s.first.get("kind") == "ratio" else "dimensionless"
    return unit


def _interval(s) -> Optional[tuple]:
    """The interval the statement admits; failing that, the value or range as written."""
    if s.lo is not None and s.hi is not None:
        return s.lo, s.hi
    f = s.first
    if f.get("base_value") is not None:
        return f["base_value"], f["base_value"]
    lo = f["base_low"] if f.get("base_low") is not None else f.get("base_high")
    hi = f["base_high"] if f.get("base_high") is not None else f.get("base_low")
    return None if lo is None else (lo, hi)


def dates_differ(sts) -> bool:
    return len({d for s in sts for d in date_span(s)}) > 1


def charted(g, shown) -> tuple:
    """(statements to chart, how many are left out): one unit only (the unit the
    contradicting statements share), contradicting statements first, at most MAX_CHART."""
    sts = [s for s in shown if _interval(s) is not None]
    if not sts:
        return [], len(shown)
    units: dict = {}
    for s in sts:
        units[s.base_unit or ""] = units.get(s.base_unit or "", 0) + (s.n_figures if g.contradicts.get(s.sig) else 0)
    unit = max(units, key=lambda u: (units[u], u))
    sts = [s for s in sts if (s.base_unit or "") == unit]
    if len(sts) > MAX_CHART:
        keep = {s.sig for s in sorted(sts, key=lambda s: (not g.contradicts.get(s.sig), s.order))[:MAX_CHART]}
        sts = [s for s in sts if s.sig in keep]
    return sts, len(shown) - len(sts)


def _bands(g, sts) -> list:
    """Statements grouped by setup: the setups holding a contradiction first (a large group's
    conflicts are at the top of its chart), each in order of its first statement."""
    bands: dict = {}
    for s in sts:
        bands.setdefault(tuple(sorted(s.setup.items())), []).append(s)
    return sorted(bands.values(), key=lambda b: not any(g.contradicts.get(s.sig) for s in b))


def _setup_text(band) -> str:
    """A setup as written: by the band's first statement that states it, else as the
    document it borrows from states it, else normalized."""
    for s in band:
        if s.first.get("conditions"):
            return fmt_conditions(s.first["conditions"])
    for s in band:
        borrowed = s.first.get("borrowed")
        if borrowed and borrowed.get("conditions"):
            return fmt_conditions(borrowed["conditions"])
    return ", ".join(f"{k}: {v}" for k, v in sorted(band[0].setup.items())) or "no conditions stated · 未写条件"


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n - 1] + "…"


def chart(g, sts) -> str:
    """The SVG of a group's statements ``sts`` (see ``charted``); '' when nothing to draw."""
    if not sts:
        return ""
    time = dates_differ(sts)
    new = newest(g)
    x0 = LABEL_W
    # right of the plot: the joins' gutter, then the notes (never drawn over a bar)
    x1 = W - PAD_R - NOTE_W - JOIN_W - (TIME_W if time else 0)
    ivs = {s.sig: _interval(s) for s in sts}
    ticks = nice_ticks(min(a for a, _ in ivs.values()), max(b for _, b in ivs.values()))
    vlo, vhi = ticks[0], ticks[-1]

    def x(v):
        return x0 + (v - vlo) / (vhi - vlo) * (x1 - x0)

    bands = _bands(g, sts)
    height = MT + sum(BAND + ROW * len(b) for b in bands) + MB
    plot_bottom = height - MB
    unit = unit_label(sts[0])
    metric = g.key.get("metric") or "value"
    out = [f'<svg class="chart" data-group="{_e(g.id)}" xmlns="http://www.w3.org/2000/svg" '
           f'width="{W}" height="{height}" viewBox="0 0 {W} {height}" role="img" '
           f'aria-label="{_e(metric)} ({_e(unit)}): {len(sts)} statements">',
           f'<rect x="{x0}" y="{MT}" width="{x1 - x0}" height="{plot_bottom - MT}" fill="{C_BG}"/>']
    # the value axis: grid, ticks, unit
    out.append(f'<g class="axis value" data-unit="{_e(unit)}" font-size="11" text-anchor="middle">')
    for t in ticks:
        xt = x(t)
        out.append(f'<line x1="{xt:.1f}" x2="{xt:.1f}" y1="{MT}" y2="{plot_bottom + 4}" stroke="#cfd8e6"/>'
                   f'<text class="tick" x="{xt:.1f}" y="{plot_bottom + 16}">{_e(tick_label(t, ticks))}</text>')
    out.append(f'<line x1="{x0}" x2="{x1}" y1="{plot_bottom}" y2="{plot_bottom}" stroke="#8795aa"/>'
               f'<text class="unit" x="{(x0 + x1) / 2:.1f}" y="{height - 6}" fill="#333">'
               f'{_e(metric)} ({_e(unit)})</text></g>')
    # rows, banded by setup
    ys, y = {}, MT
    for band in bands:
        out.append(f'<text class="setup" x="6" y="{y + 13}" font-size="11" fill="#555">'
                   f'<title>{_e(_setup_text(band))}</title>{_e(_clip(_setup_text(band), 120))}</text>')
        y += BAND
        for s in band:
            ys[s.sig] = y + ROW / 2
            y += ROW
        out.append(f'<line x1="6" x2="{W - PAD_R}" y1="{y}" y2="{y}" stroke="#dde3ec"/>')
    # one join per contradicting statement pair: an arc in the gutter right of the plot from
    # one row to the other, deeper the further apart the rows (nested, never over a bar)
    by_id = {g.ids[s.sig]: s for s in sts}
    row_no = {s.sig: i for i, s in enumerate(s for band in bands for s in band)}
    for p in g.pairs:
        if p["status"] != "contradict" or p["a"] not in by_id or p["b"] not in by_id:
            continue
        a, b = by_id[p["a"]], by_id[p["b"]]
        depth = min(JOIN_W - 6, 12 + 7 * (abs(row_no[a.sig] - row_no[b.sig]) - 1))
        gx, ya, yb = x1 + 3, ys[a.sig], ys[b.sig]
        out.append(f'<path class="join" data-a="{_e(p["a"])}" data-b="{_e(p["b"])}" fill="none" '
                   f'd="M{gx:.1f} {ya:.1f} C{gx + depth * 1.3:.1f} {ya:.1f} {gx + depth * 1.3:.1f} {yb:.1f} {gx:.1f} {yb:.1f}" '
                   f'stroke="{C_CONTRA}" stroke-width="1.5" stroke-dasharray="4 2"/>')
    for s in sts:
        out.append(_row(g, s, ivs[s.sig], ys[s.sig], x, x1 + JOIN_W + 4, s.sig in new, x1 + 3))
    if time:
        out.append(_time_strip(g, sts, ys, x1 + JOIN_W + NOTE_W, W - PAD_R, plot_bottom, height))
    out.append("</svg>")
    return "".join(out)


def _row(g, s, iv, yc, x, x_note, is_new, x_end=None) -> str:
    sid = g.ids[s.sig]
    f = s.first
    contra = bool(g.contradicts.get(s.sig))
    superseded = bool(g.superseded_by.get(s.sig))
    color = C_CONTRA if contra else C_OK
    lo, hi = iv
    xa, xb = x(lo), x(hi)
    if xb - xa < 3:                     # a very precise figure is still a visible bar
        xa, xb = (xa + xb) / 2 - 1.5, (xa + xb) / 2 + 1.5
    fill, stroke = (("#ffffff", C_OLD) if superseded else (color, color))
    outline = ' stroke="#111" stroke-width="2"' if is_new else f' stroke="{stroke}" stroke-width="1.5"'
    cls = "stmt" + (" contra" if contra else "") + (" superseded" if superseded else "") + (" newest" if is_new else "")
    tip = (f'{sid} {f["surface"]} — {f["path"]}:{f["line"]} — admits {lo:.6g}–{hi:.6g}'
           f' — {s.n_figures} figure{"s" if s.n_figures != 1 else ""}')
    parts = [f'<g class="{cls}" data-id="{_e(sid)}"><title>{_e(tip)}</title>',
             f'<text x="14" y="{yc + 4:.1f}" font-size="12" fill="{C_CONTRA if contra else "#1b1b1b"}">'
             f'<tspan font-weight="600">{_e(sid)}</tspan> {_e(_clip(str(f["surface"]), 14))}</text>',
             f'<rect x="{xa:.1f}" y="{yc - 6:.1f}" width="{xb - xa:.1f}" height="12" rx="2" fill="{fill}"{outline}/>']
    if contra and x_end is not None:    # a faint guide from the bar to its joins
        parts.insert(1, f'<line x1="{xb:.1f}" x2="{x_end:.1f}" y1="{yc:.1f}" y2="{yc:.1f}" stroke="#efb4b4" '
                        f'stroke-dasharray="1 3"/>')
    v = f.get("base_value")
    if v is not None and lo <= v <= hi:
        parts.append(f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="{yc - 9:.1f}" y2="{yc + 9:.1f}" stroke="#111" stroke-width="1.5"/>')
    note = []
    if s.n_figures > 1:
        note.append(f"n={s.n_figures}")
    if is_new:
        note.append("newest 最新")
    elif superseded:
        note.append(f"superseded by {g.superseded_by[s.sig]}")
    if note:
        weight = ' font-weight="600"' if is_new else ""
        parts.append(f'<text x="{x_note:.1f}" y="{yc + 4:.1f}" font-size="11" fill="#333"{weight}>'
                     f'{_e(" · ".join(note))}</text>')
    parts.append("</g>")
    return "".join(parts)


def _time_strip(g, sts, ys, t0, t1, plot_bottom, height) -> str:
    spans = {s.sig: date_span(s) for s in sts}
    days = [d for sp in spans.values() for d in sp if d is not None]
    out = ['<g class="axis time" font-size="11" text-anchor="middle">',
           f'<line x1="{t0}" x2="{t1}" y1="{plot_bottom}" y2="{plot_bottom}" stroke="#8795aa"/>']
    if days:
        d0, d1 = min(days), max(days)

        def tx(d):
            return (t0 + t1) / 2 if d1 == d0 else t0 + 10 + (d - d0) / (d1 - d0) * (t1 - t0 - 20)
        for d in sorted({d0, d1}):
            anchor = "middle" if d0 == d1 else ("start" if d == d0 else "end")
            xl = tx(d) + (-10 if anchor == "start" else 10 if anchor == "end" else 0)
            out.append(f'<line x1="{tx(d):.1f}" x2="{tx(d):.1f}" y1="{MT}" y2="{plot_bottom + 4}" stroke="#e3e8ef"/>'
                       f'<text class="tick" x="{xl:.1f}" y="{plot_bottom + 16}" text-anchor="{anchor}">'
                       f'{date.fromordinal(d).isoformat()}</text>')
    out.append(f'<text class="unit" x="{(t0 + t1) / 2:.1f}" y="{height - 6}" fill="#333">source date · 来源日期</text>')
    for s in sts:
        a, b = spans[s.sig]
        yc = ys[s.sig]
        if a is None:
            out.append(f'<text x="{(t0 + t1) / 2:.1f}" y="{yc + 4:.1f}" font-size="10" fill="#777">undated · 无日期</text>')
            continue
        color = C_OLD if g.superseded_by.get(s.sig) else (C_CONTRA if g.contradicts.get(s.sig) else C_OK)
        if b != a:
            out.append(f'<line x1="{tx(a):.1f}" x2="{tx(b):.1f}" y1="{yc:.1f}" y2="{yc:.1f}" stroke="{color}" stroke-width="2"/>')
        for d in sorted({a, b}):
            out.append(f'<circle cx="{tx(d):.1f}" cy="{yc:.1f}" r="3.5" fill="{color}"/>')
    out.append("</g>")
    return "".join(out)
